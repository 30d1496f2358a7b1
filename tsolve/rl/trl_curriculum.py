"""A curriculum wired to TRL: a prompt stream whose next items follow the rewards.

GRPOTrainer reads a ``datasets.IterableDataset`` lazily, one generation batch
at a time (Accelerate reads one batch ahead), so a stream that makes each item
with the curriculum's options of the moment (:meth:`Curriculum.options`) gets
the difficulty the rewards chose so far. :class:`CurriculumCallback` is the
``TrainerCallback`` that does the choosing:

* :meth:`~CurriculumCallback.dataset` is that stream: the families in turn,
  each item ``family.make_record(seed, i, options)`` (drawn again where it
  repeats an answer the stream served before: no puzzle twice) as a ``tsolve export
  trl`` row (``prompt``, ``label``, ``id``, ``data_source``, and ``options``,
  the generator options it was made with, as JSON text);
* :meth:`~CurriculumCallback.watch` wraps a TRL reward function
  (:func:`tsolve.rl.trl_reward`) to collect each row's reward by its
  ``data_source``; the per-row rewards never reach a callback otherwise, TRL
  logs only their means;
* at each optimizer step's end (``on_step_end``) the rewards collected are
  handed to :meth:`Curriculum.update`, family by family in the curriculum's
  order, so the decisions depend only on the reward history; ``steps``
  records each step's moves;
* at each checkpoint (``on_save``) the curriculum's state is written beside
  the model, ``checkpoint-<step>/tsolve_curriculum.json`` (``Curriculum.load``
  of it resumes the same decisions), and the stream's,
  ``checkpoint-<step>/tsolve_stream.json``: the seed, each family's next
  index, the place in the families' turn and the answers served so far.
  :meth:`CurriculumCallback.resume` of the folder carries on from there, so a
  resumed run serves none of the first run's puzzles again and draws the
  rows an unbroken run would have drawn after the ones read before the save.

**Resuming.** The trainer, resumed, would itself skip as many batches as it
had trained by reading them off the stream (``ignore_data_skip=False``, its
default), which for a stream made on read means making and discarding them
at the difficulty of the moment. The stream resumes on its own instead, so
the callback asks for ``ignore_data_skip=True`` on a resumed run, and refuses
to start a run resumed at a step past 0 with a stream not resumed (it would
serve the first run's puzzles again). The rows read ahead of the last step
before the save (Accelerate's one batch, GRPO's generation buffer) were drawn
but never trained on; a resumed run does not serve them again either.

TRL's shuffle of an iterable dataset is a 1,000-item buffer, which would make
a thousand items at the starting difficulty before the first step, so the
callback refuses to start unless ``GRPOConfig(shuffle_dataset=False)``; the
items need no shuffle, each one is drawn fresh. An iterable dataset also needs
``max_steps``, as TRL says itself. It refuses a run across processes too:
each would see only its own share of the rewards, and the streams that
Accelerate slices alike would part.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tsolve.contract import Family, get_family
from tsolve.contract.family import Record
from tsolve.datasets.distinct import DistinctPass, settle_made
from tsolve.errors import TsolveError
from tsolve.rl.curriculum import Curriculum
from tsolve.rl.rows import check_prompt, trainer_row


def _callback_base() -> Any:
    """transformers' ``TrainerCallback`` (every event a no-op but ours), else
    ``object``: the stream and the bookkeeping need no transformers."""
    try:
        from transformers import TrainerCallback
    except ImportError:
        return object
    return TrainerCallback


_Base: Any = _callback_base()

STATE_FILE = "tsolve_curriculum.json"
STREAM_FILE = "tsolve_stream.json"
STREAM_VERSION = 1
ROW_KEYS = ("prompt", "label", "id", "data_source", "options")


class CurriculumCallback(_Base):
    """See the module docstring. ``seed`` is the run the items are drawn from;
    ``prompt`` and ``system`` as ``tsolve export trl`` takes them."""

    def __init__(
        self,
        curriculum: Curriculum,
        seed: int = 0,
        prompt: str | None = None,
        system: str | None = None,
    ) -> None:
        if not isinstance(curriculum, Curriculum):
            raise TsolveError("curriculum: expected a tsolve.rl.Curriculum")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise TsolveError(f"seed: expected an integer >= 0, got {seed!r}")
        self.prompt, self.system = check_prompt("trl", prompt, system)
        self.curriculum, self.seed = curriculum, seed
        for family, ladder in curriculum.ladders.items():  # every rung a valid option, up front
            made = get_family(family, need="generate")
            made.require("score")
            base = curriculum.options(family)
            for knob, values in ladder.items():
                for value in values:
                    made.make_options({**base, knob: value})
        self.drawn: dict[str, int] = {f: 0 for f in curriculum.ladders}
        self.served = 0  # rows served: the place in the families' turn
        self.resumed = False
        # Each family's acceptance pass over the stream so far: the answers
        # served, so that none is served twice (:meth:`_fresh`).
        self.passes: dict[str, DistinctPass] = {}
        self.collected: list[tuple[str, float]] = []
        self.steps: list[dict[str, Any]] = []

    # ------------------------------------------------------------ the stream

    def rows(self) -> Iterator[dict[str, Any]]:
        """The endless stream of rows, each made when it is read."""
        names = list(self.curriculum.ladders)
        while True:
            yield self.draw(names[self.served % len(names)])

    def draw(self, name: str) -> dict[str, Any]:
        """The next row of ``name``, made with the curriculum's options now."""
        family = get_family(name)
        options = self.curriculum.options(name)
        config = family.make_options(options)
        record, index = self._fresh(family, config)
        row = trainer_row(record, "trl", index, "train", self.prompt, self.system)
        row["options"] = json.dumps(options, sort_keys=True, default=str)
        self.served += 1
        return {k: row[k] for k in ROW_KEYS}

    def _fresh(self, family: Family, config: Any) -> tuple[Record, int]:
        """The stream's next record of ``family`` and its index: one whose
        answer no earlier record of the stream had, as a run's acceptance
        pass keeps it (:class:`tsolve.datasets.distinct.DistinctPass`: a
        repeat is drawn again; an index whose every draw repeats, or that
        cannot be made, is passed over)."""
        pass_ = self.passes.setdefault(family.name, DistinctPass(family))
        while True:
            index = self.drawn[family.name]
            self.drawn[family.name] = index + 1
            made = settle_made(pass_, family, self.seed, index, config)
            if not isinstance(made, str):
                return made[0], index

    # ------------------------------------------------------------ saving and resuming

    def stream_state(self) -> dict[str, Any]:
        """Everything the stream's next row depends on besides the curriculum
        (see the module docstring), as plain JSON-ready data."""
        return {
            "version": STREAM_VERSION, "seed": self.seed, "served": self.served,
            "drawn": dict(self.drawn),
            "passes": {name: p.state() for name, p in sorted(self.passes.items())},
        }  # fmt: skip

    def save(self, folder: str | Path) -> None:
        """Write the curriculum's state and the stream's into ``folder``, each
        beside its place, then renamed into it."""
        from tsolve.records.folders import write_file_whole

        target = Path(folder)
        self.curriculum.save(target / STATE_FILE)
        blob = json.dumps(self.stream_state(), sort_keys=True).encode()
        write_file_whole(target / STREAM_FILE, blob, "state")

    @classmethod
    def resume(
        cls, checkpoint: str | Path, prompt: str | None = None, system: str | None = None
    ) -> CurriculumCallback:
        """The callback :meth:`save` left in ``checkpoint`` (a
        ``checkpoint-<step>`` folder), carrying on its curriculum and its
        stream; ``prompt`` and ``system`` as the first run gave them."""
        folder = Path(checkpoint)
        if not (folder / STREAM_FILE).is_file():
            raise TsolveError(f"resume: {folder} holds no {STREAM_FILE} (not a tsolve checkpoint?)")
        curriculum = Curriculum.load(folder / STATE_FILE)
        try:
            state = json.loads((folder / STREAM_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TsolveError(f"state: cannot read {folder / STREAM_FILE}: {exc}") from None
        if not isinstance(state, dict) or state.get("version") != STREAM_VERSION:
            raise TsolveError(f"state: {folder / STREAM_FILE} is not a version-{STREAM_VERSION} "
                              "stream state")  # fmt: skip
        seed, served, drawn = state.get("seed"), state.get("served"), state.get("drawn")
        passes = state.get("passes")
        counts = [seed, served, *(drawn.values() if isinstance(drawn, dict) else [])]
        if (not isinstance(drawn, dict) or set(drawn) != set(curriculum.ladders)
                or not isinstance(passes, dict) or not set(passes) <= set(drawn)
                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                           for n in counts)):  # fmt: skip
            raise TsolveError(f"state: {folder / STREAM_FILE} does not match its curriculum")
        feed = cls(curriculum, seed=int(seed or 0), prompt=prompt, system=system)
        feed.served, feed.drawn, feed.resumed = int(served or 0), dict(drawn), True
        feed.passes = {name: DistinctPass.restore(get_family(name), p)
                       for name, p in passes.items()}  # fmt: skip
        return feed

    def dataset(self) -> Any:
        """:meth:`rows` as the ``datasets.IterableDataset`` GRPOTrainer takes."""
        try:
            from datasets import IterableDataset
        except ImportError:
            raise TsolveError("dataset: a TRL stream needs the datasets package") from None
        return IterableDataset.from_generator(self.rows)

    # ------------------------------------------------------------ the rewards

    def watch(self, reward: Callable[..., list[float]]) -> Callable[..., list[float]]:
        """``reward`` that also collects each row's reward for the step's end;
        rows of a family the curriculum does not hold are scored and left out."""

        def watched(completions: Sequence[object], **kwargs: Any) -> list[float]:
            rewards = reward(completions, **kwargs)
            self.collected.extend(self.curriculum.held(kwargs.get("data_source"), rewards))
            return rewards

        watched.__name__ = watched.__qualname__ = getattr(reward, "__name__", "reward")
        return watched

    def flush(self, step: int | None = None) -> list[dict[str, Any]]:
        """Hand the rewards collected to :meth:`Curriculum.update`; the moves."""
        moves: list[dict[str, Any]] = []
        for family in self.curriculum.ladders:
            values = [v for f, v in self.collected if f == family]
            if values:
                moves.extend(self.curriculum.update(family, values))
        self.collected.clear()
        self.steps.append({"step": step, "moves": moves,
                           "options": {f: self.curriculum.options(f)
                                       for f in self.curriculum.ladders}})  # fmt: skip
        return moves

    # ------------------------------------------------------------ TrainerCallback events

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> Any:
        if getattr(args, "world_size", 1) > 1:
            raise TsolveError(
                "curriculum: runs in one process; across processes each would move on its own "
                "share of the rewards and their streams would part"
            )
        if getattr(args, "shuffle_dataset", False):
            raise TsolveError(
                "curriculum: give GRPOConfig(shuffle_dataset=False); TRL's shuffle buffer would "
                "make 1000 items at the starting difficulty before the curriculum moves"
            )
        if (getattr(state, "global_step", 0) or 0) > 0:
            if not self.resumed:
                raise TsolveError(
                    "curriculum: this run resumes at a checkpoint, but its stream starts anew "
                    "and would serve the first run's puzzles again; build the callback with "
                    "CurriculumCallback.resume(checkpoint)"
                )
            if not getattr(args, "ignore_data_skip", False):
                raise TsolveError(
                    "curriculum: give ignore_data_skip=True to resume; the stream resumes "
                    "itself, and the trainer would make and discard the batches it skips"
                )
        return control

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> Any:
        self.flush(getattr(state, "global_step", None))
        return control

    def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> Any:
        folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
        if folder.is_dir() and not folder.is_symlink():
            self.save(folder)
        return control
