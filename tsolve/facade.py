"""A reasoning-gym-style facade: ``create_dataset`` and ``score_answer``.

Reinforcement-learning code written for reasoning-gym expects a dataset whose
item ``i`` is ``{"question", "answer", "metadata"}`` and a reward function
``score_answer(answer, entry) -> float`` in [0, 1]. This module gives every
tsolve family that generates and scores that shape, through the family
registry:

* item ``i`` is record ``i`` of the run ``seed`` as ``tsolve dataset make``
  writes it, a function of ``(seed, i)`` and the options: in a family whose
  runs are distinct, a record that repeats an earlier one's answer is drawn
  again (:mod:`tsolve.datasets.distinct`), so no puzzle is served twice (see
  :class:`TsolveDataset` for what that costs on random access); ``question`` is the
  record's prompt, ``answer`` the gold answer as the family's scorer reads it
  (``Family.answer``), and ``metadata`` holds the record in two parts
  (JSON-ready): ``record``, what sits beside the prompt, with no gold field
  (:func:`tsolve.records.gold_fields.visible`), and ``gold``, its gold fields,
  which go where the gold goes; :func:`record_of` joins them again;
* ``score_answer`` routes through the family's own scorer, so the reward is
  the number ``tsolve verify`` would report for the same text, read by the
  same rule (docs/scoring.md): the answer may be bare (as ``answer`` is) or a
  whole model output ending in the family's marker (``MY ANSWER: ...``);
  anything unreadable scores 0.0, and it never raises on an answer. The
  reward is the family's main metric (``em`` or ``accuracy``, or another
  named one), never a gameable or diagnostic one
  (:func:`tsolve.verifiers.rewards.reward_value`).

``metadata.difficulty`` holds the knobs that set the item's difficulty
(:func:`difficulty_knobs`), as reasoning-gym's own datasets do, so that a
curriculum or an analysis can group items without reading records.

:func:`tsolve.adapters.reasoning_gym.register_reasoning_gym` (also
``tsolve.register_reasoning_gym``) adds the same datasets to reasoning-gym's
own registry, with typed configs and curricula (docs/rl.md).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

from tsolve.contract import Family, all_families, family_of, get_family
from tsolve.contract.family import Record
from tsolve.datasets.distinct import DistinctPass, settle_made
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import gold_part, record_in, visible
from tsolve.records.validation import expect_int, shown
from tsolve.verifiers.gold_answers import gold_answer, question_text
from tsolve.verifiers.rewards import MAIN_METRICS, gameable, never_rewards, reward_value

Entry = dict[str, Any]

REWARD_METRICS = MAIN_METRICS
"""The metric that is the reward when none is named: the first of these that
the family's scorer reports, else its first metric."""

MAX_SIZE = 10**9
"""Most items a dataset (or a reasoning-gym or verifiers config) may hold: a
billion, more than any training run draws (items are made on access, so the
size costs nothing by itself), and far below ``2**63``, where ``len()``
overflows."""


def default_family() -> str:
    """The family a command or config generates when none is named: the
    first family that generates and scores, in the order ``tsolve families``
    lists them (the built-ins first, in the registry's own order)."""
    for family in all_families():
        if family.generate is not None and family.score is not None and family.available():
            return family.name
    raise TsolveError("family: no installed family generates and scores records")


def check_size(value: object, field: str = "size", least: int = 0) -> int:
    """``value`` as a dataset size in ``least..MAX_SIZE``, or a one-line error."""
    return expect_int(value, field, least, MAX_SIZE)


def reward_metrics(family: Family, config: Any) -> tuple[str, ...]:
    """The metrics ``family``'s scorer offers as rewards under ``config`` (the
    family's made options): its ``reward_metrics`` when it declares them,
    else the ones it reports on an item of the run, less the gameable and
    the diagnostic ones, which are never a reward
    (:mod:`tsolve.verifiers.rewards`), found by scoring an empty answer to
    the first item the family makes; empty when it makes none of the first
    three (then nothing can be checked ahead)."""
    if family.reward_metrics:
        return tuple(family.reward_metrics)
    score = family.scorer()
    for index in range(3):
        try:
            record = family.make_record(0, index, config)
            metrics = getattr(score(record, "", diagnose=False), "metrics", None)
        except Exception:  # a family whose item fails here fails at that item anyway
            continue
        if isinstance(metrics, Mapping):
            never = never_rewards(family.name)
            return tuple(name for name in metrics if name not in never)
    return ()


def check_reward_metric(family: Family, name: object, config: Any) -> None:
    """A ``reward_metric`` option checked when the dataset or config is made,
    not at the first reward of a training run: text, not a gameable or
    diagnostic metric, and one of :func:`reward_metrics`."""
    if name is None:
        return
    if not isinstance(name, str):
        raise TsolveError(f"reward_metric: expected text or None, got {shown(name)}")
    if name in never_rewards(family.name) and name not in gameable(family.name):
        raise TsolveError(
            f"reward_metric: {shown(name)} is a diagnostic (it counts wrong answers of a "
            "kind, not how right an answer is), never a reward"
        )
    reward_value({name: 0.0}, family.name, name)  # a gameable or diagnostic one raises
    offered = reward_metrics(family, config)
    if offered and name not in offered:
        raise TsolveError(
            f"reward_metric: expected one of {', '.join(offered)} (the reward metrics of "
            f"{family.name}), got {shown(name)}"
        )


MAX_PASS_AHEAD = 10_000
"""Most items one read may pass before the item read (:class:`TsolveDataset`):
reading item 10**9 of a fresh distinct dataset first would otherwise run for
days. Beyond it a read is a one-line error that says what to do instead."""


class TsolveDataset(Sequence[Entry]):
    """``size`` items of one family's run ``seed``, generated on access (see
    the module docstring). ``reward_metric`` picks which of the scorer's
    metrics :meth:`score_answer` returns (e.g. ``"f1"`` for partial credit on
    time puzzles); by default :data:`REWARD_METRICS`.

    **No puzzle twice.** Whether record ``i`` is kept as drawn or drawn again
    depends on the answers of records ``0 .. i-1``, so the first access to
    item ``i`` runs the run's acceptance pass over every item before it not
    yet passed (as ``dataset make --shard`` does). The pass's state is plain
    to see: :attr:`settled` items have been through it, :attr:`attempts`
    holds the redraw each was kept at (``None``: it cannot be made, and
    reading it raises its error), and :attr:`redrawn` counts redraws. Reading
    in order costs one generation per item, as before; reading item ``i``
    first costs the ``i`` before it once (at most :data:`MAX_PASS_AHEAD` in
    one read: further is a one-line error). ``distinct=False`` serves the raw
    draws instead (record ``i`` as first drawn, repeats and all, each item on
    its own)."""

    def __init__(
        self,
        name: str,
        seed: int = 0,
        size: int = 500,
        reward_metric: str | None = None,
        distinct: bool = True,
        **config: Any,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise TsolveError(f"seed: expected an integer >= 0, got {shown(seed)}")
        if not isinstance(distinct, bool):
            raise TsolveError(f"distinct: expected true or false, got {shown(distinct)}")
        self.size = check_size(size)
        self.family: Family = get_family(name, need="generate")
        self.family.require("score")
        self.seed = seed
        self.reward_metric = reward_metric
        self.options = dict(config)
        self._config = self.family.make_options(self.options)
        check_reward_metric(self.family, reward_metric, self._config)
        self.distinct = distinct and self.family.distinct_runs
        self._pass = DistinctPass(self.family) if self.distinct else None
        self.attempts: list[int | None] = []
        self._failures: dict[int, str] = {}
        # A run larger than the family's content domain can keep distinct is
        # still served, but said so (Family.coverage_warnings).
        for line in self.family.coverage_warnings(seed, 0, size, self._config):
            warnings.warn(line, stacklevel=3)

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.size))]
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"dataset indices must be integers, not {type(index).__name__}")
        i = index + self.size if index < 0 else index
        if not 0 <= i < self.size:
            raise IndexError(f"index {index} is outside a dataset of {self.size} items")
        return entry_of(self._record(i), self.family, self.seed, i)

    @property
    def settled(self) -> int:
        """How many items, from item 0 on, the acceptance pass has decided."""
        return len(self.attempts)

    @property
    def redrawn(self) -> int:
        """How many of the :attr:`settled` items were drawn again."""
        return self._pass.redrawn if self._pass is not None else 0

    def _record(self, i: int) -> Record:
        """Record ``i`` as the run keeps it (see the class docstring)."""
        if self._pass is None:
            return self.family.make_record(self.seed, i, self._config)
        if i - self.settled >= MAX_PASS_AHEAD:
            raise TsolveError(
                f"index: reading item {i} first would pass the {i - self.settled:,} items before "
                f"it not yet passed (no puzzle twice; at most {MAX_PASS_AHEAD:,} at a time): "
                "read the items in order, or create the dataset with distinct=False"
            )
        made: Record | None = None
        while self.settled <= i:
            made = self._settle_next()
        if made is not None:  # item i itself was just settled
            return made
        attempt = self.attempts[i]
        if attempt is None:
            raise TsolveError(self._failures[i])
        return self.family.make_record(self.seed, i, self._config, redraw=attempt)

    def _settle_next(self) -> Record | None:
        """Pass the next item; its record as kept (None if it cannot be made)."""
        assert self._pass is not None
        j = len(self.attempts)
        made = settle_made(self._pass, self.family, self.seed, j, self._config)
        if isinstance(made, str):
            self.attempts.append(None)
            self._failures[j] = made
            return None
        self.attempts.append(made[1])
        return made[0]

    def __iter__(self) -> Iterator[Entry]:
        return (self[i] for i in range(self.size))

    def score_answer(self, answer: object, entry: Mapping[str, Any]) -> float:
        """The reward for ``answer`` to ``entry`` (see :func:`score_answer`)."""
        return score_answer(answer, entry, self.reward_metric)


def create_dataset(
    name: str,
    seed: int = 0,
    size: int = 500,
    reward_metric: str | None = None,
    distinct: bool = True,
    **config: Any,
) -> TsolveDataset:
    """A reasoning-gym-style dataset of family ``name`` (any family that
    ``tsolve dataset`` accepts and that scores), ``config`` being its
    generator options as ``tsolve dataset --set`` takes them; ``distinct``
    as :class:`TsolveDataset` takes it."""
    return TsolveDataset(
        name, seed=seed, size=size, reward_metric=reward_metric, distinct=distinct, **config
    )


def entry_of(record: Record, family: Family, seed: int, index: int) -> Entry:
    """The ``{question, answer, metadata}`` item for one record."""
    return {
        "question": question_text(record),
        "answer": gold_answer(record, family),
        "metadata": {
            "source_dataset": family.name,
            "source_index": index,
            "seed": seed,
            "difficulty": difficulty_knobs(record),
            "record": visible(record),
            "gold": gold_part(record),
        },
    }


def difficulty_knobs(record: Record) -> dict[str, Any]:
    """The knobs that set one record's difficulty, read off the record (so
    they hold for any seed and options), JSON-ready: its family's
    ``difficulty`` part (:meth:`tsolve.contract.Family.difficulty_of`;
    by default the record's fields named like the family's curriculum
    knobs). A record whose family cannot be told gets ``{}``."""
    try:
        family = get_family(family_of(record))
    except TsolveError:
        return {}
    return family.difficulty_of(record)


def score_answer(
    answer: object, entry: Mapping[str, Any], reward_metric: str | None = None
) -> float:
    """The reward in [0, 1] for ``answer`` to a facade ``entry``, from the
    family's own scorer on exactly the text given, as ``tsolve verify`` and
    the Inspect scorer read it: bare (one line, only the answer) or ending in
    the family's marker line (``MY ANSWER:``, or its ``answer_marker``); anything that
    is not text, or that the scorer cannot read, is 0.0. An ``entry`` that is
    not a facade item (or whose ``metadata.record`` is not a valid record of
    its family), or a gameable ``reward_metric``, is a one-line
    :class:`TsolveError`: that is the caller's bug, not a wrong answer."""
    record = record_of(entry)
    family = get_family(family_of(record), need="score")
    scorer: Callable[..., Any] = family.scorer()
    if reward_metric is not None:
        reward_value({reward_metric: 0.0}, family.name, reward_metric)  # a gameable one raises
    if not isinstance(answer, str):
        _check_record(scorer, record, family.name)
        return 0.0
    try:
        result = scorer(record, answer, diagnose=False)
    except Exception:  # an answer must never crash a training loop: it scores 0
        _check_record(scorer, record, family.name)  # ... unless the record is at fault
        return 0.0
    metrics = getattr(result, "metrics", result)
    if not isinstance(metrics, Mapping):
        return 0.0
    return reward_value(metrics, family.name, reward_metric)


def _check_record(scorer: Callable[..., Any], record: Record, family: str) -> None:
    """A one-line :class:`TsolveError` unless ``record`` is one ``family``'s
    scorer can judge. Every valid record scores the empty answer
    (:func:`reward_metrics` relies on it), so a scorer that fails on it
    failed on the record, not on an answer: a corrupt entry must stop a
    training loop, not feed it a reward of 0 forever. Run only on the path
    where an answer scored 0 without a verdict, so a valid entry costs one
    call of the scorer, as before."""
    try:
        scorer(record, "", diagnose=False)
    except Exception as exc:
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise TsolveError(
            f"entry: metadata.record is not a valid {family} record ({why[:200]})"
        ) from None


def record_of(entry: Mapping[str, Any]) -> Record:
    """The whole record of a facade item: ``metadata.record`` (what sits
    beside the prompt) with ``metadata.gold`` (its gold fields) put back, as
    the family's scorer reads it. An entry whose ``metadata.record`` is whole
    already (an older item, or one built by hand) is taken as it is."""
    meta = entry.get("metadata") if isinstance(entry, Mapping) else None
    record = record_in(meta)
    if record is None:
        raise TsolveError("entry: expected a tsolve dataset item with metadata.record")
    return record
