"""A reasoning-gym-style facade: ``create_dataset`` and ``score_answer``.

Reinforcement-learning code written for reasoning-gym expects a dataset whose
item ``i`` is ``{"question", "answer", "metadata"}`` and a reward function
``score_answer(answer, entry) -> float`` in [0, 1]. This module gives every
tsolve family that generates and scores that shape, through the family
registry:

* item ``i`` is record ``i`` of the run ``seed`` (``Family.make_record``), a
  pure function of ``(seed, i)`` and the options; ``question`` is the
  record's prompt, ``answer`` the gold answer as the family's scorer reads it
  (``Family.answer``), and ``metadata`` holds the whole record (JSON-ready);
* ``score_answer`` routes through the family's own scorer, so the reward is
  the number ``tsolve verify`` would report for the same text, read by the
  same rule (docs/scoring.md): the answer may be bare (as ``answer`` is) or a
  whole model output ending in the family's marker (``MY ANSWER: ...``);
  anything unreadable scores 0.0, and it never raises on an answer. The
  reward is the family's main metric (``em`` or ``accuracy``, or another
  named one), never a gameable one
  (:func:`tsolve.verifiers.rewards.reward_value`).

``register_reasoning_gym()`` adds the same datasets to reasoning-gym's own
registry when it is installed (``pip install 'tsolve[rg]'``).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

from tsolve.contract import Family, family_of, get_family
from tsolve.contract.family import Record
from tsolve.errors import TsolveError
from tsolve.verifiers.gold_answers import gold_answer
from tsolve.verifiers.rewards import MAIN_METRICS, gameable, reward_value

Entry = dict[str, Any]

REWARD_METRICS = MAIN_METRICS
"""The metric that is the reward when none is named: the first of these that
the family's scorer reports, else its first metric."""


class TsolveDataset(Sequence[Entry]):
    """``size`` items of one family's run ``seed``, generated on access (see
    the module docstring). ``reward_metric`` picks which of the scorer's
    metrics :meth:`score_answer` returns (e.g. ``"f1"`` for partial credit on
    time puzzles); by default :data:`REWARD_METRICS`."""

    def __init__(
        self,
        name: str,
        seed: int = 0,
        size: int = 500,
        reward_metric: str | None = None,
        **config: Any,
    ) -> None:
        for what, value in (("seed", seed), ("size", size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TsolveError(f"{what}: expected an integer >= 0, got {value!r}")
        self.family: Family = get_family(name, need="generate")
        self.family.require("score")
        if reward_metric is not None and reward_metric in gameable(self.family.name):
            reward_value({reward_metric: 0.0}, self.family.name, reward_metric)  # raises
        self.seed = seed
        self.size = size
        self.reward_metric = reward_metric
        self.options = dict(config)
        self._config = self.family.make_options(self.options)
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
        record = self.family.make_record(self.seed, i, self._config)
        return entry_of(record, self.family, self.seed, i)

    def __iter__(self) -> Iterator[Entry]:
        return (self[i] for i in range(self.size))

    def score_answer(self, answer: object, entry: Mapping[str, Any]) -> float:
        """The reward for ``answer`` to ``entry`` (see :func:`score_answer`)."""
        return score_answer(answer, entry, self.reward_metric)


def create_dataset(
    name: str, seed: int = 0, size: int = 500, reward_metric: str | None = None, **config: Any
) -> TsolveDataset:
    """A reasoning-gym-style dataset of family ``name`` (any family that
    ``tsolve dataset`` accepts and that scores), ``config`` being its
    generator options as ``tsolve dataset --set`` takes them."""
    return TsolveDataset(name, seed=seed, size=size, reward_metric=reward_metric, **config)


def entry_of(record: Record, family: Family, seed: int, index: int) -> Entry:
    """The ``{question, answer, metadata}`` item for one record."""
    question = record.get("prompt")
    if not isinstance(question, str):
        question = record.get("question")
    if not isinstance(question, str):
        raise TsolveError(f"record {record.get('id')!r}: no 'prompt' or 'question' text to ask")
    return {
        "question": question,
        "answer": gold_answer(record, family),
        "metadata": {
            "source_dataset": family.name,
            "source_index": index,
            "seed": seed,
            "record": record,
        },
    }


def score_answer(
    answer: object, entry: Mapping[str, Any], reward_metric: str | None = None
) -> float:
    """The reward in [0, 1] for ``answer`` to a facade ``entry``, from the
    family's own scorer on exactly the text given, as ``tsolve verify`` and
    the Inspect scorer read it: bare (one line, only the answer) or ending in
    the family's ``MY ANSWER:`` (logistics: ``Answer:``) line; anything that
    is not text, or that the scorer cannot read, is 0.0. An ``entry`` that is
    not a facade item, or a gameable ``reward_metric``, is a one-line
    :class:`TsolveError`: that is the caller's bug, not a wrong answer."""
    record = _record_of(entry)
    family = get_family(family_of(record), need="score")
    if not isinstance(answer, str):
        return 0.0
    scorer: Callable[..., Any] = family.require("score")
    if reward_metric is not None:
        reward_value({reward_metric: 0.0}, family.name, reward_metric)  # a gameable one raises
    try:
        result = scorer(record, answer, diagnose=False)
    except Exception:  # an answer must never crash a training loop: it scores 0
        return 0.0
    metrics = getattr(result, "metrics", result)
    if not isinstance(metrics, Mapping):
        return 0.0
    return reward_value(metrics, family.name, reward_metric)


def _record_of(entry: Mapping[str, Any]) -> Record:
    meta = entry.get("metadata") if isinstance(entry, Mapping) else None
    record = meta.get("record") if isinstance(meta, Mapping) else None
    if not isinstance(record, dict):
        raise TsolveError("entry: expected a tsolve dataset item with metadata.record")
    return record


# ---------------------------------------------------------------- reasoning-gym


def rg_name(family: str) -> str:
    """A family's name in reasoning-gym's registry: ``tsolve_time_puzzles``."""
    return "tsolve_" + family.replace("-", "_")


def register_reasoning_gym(
    register: Callable[[str, type, type], None] | None = None, base: type | None = None
) -> list[str]:
    """Register every family that generates and scores in reasoning-gym's
    registry, as ``tsolve_<family>`` (``reasoning_gym.create_dataset(
    "tsolve_span", seed=1, size=10, date="2024-03-01")``). Returns the names.

    ``register`` and ``base`` default to reasoning-gym's
    ``factory.register_dataset`` and ``dataset.ProceduralDataset``; the tests
    pass stand-ins, since reasoning-gym is an optional extra. Each family gets
    a config dataclass (``seed``, ``size``, ``reward_metric`` and one field
    per generator option, default None: unset) and a dataset class that
    defers to :class:`TsolveDataset`."""
    if register is None or base is None:
        try:
            from reasoning_gym.dataset import ProceduralDataset
            from reasoning_gym.factory import register_dataset
        except ImportError:
            raise TsolveError("reasoning-gym: not installed (pip install 'tsolve[rg]')") from None
        register = register or register_dataset
        base = base or ProceduralDataset
    from tsolve.contract import all_families

    names = []
    for family in all_families():
        if family.generate is None or family.score is None or not family.available():
            continue
        name = rg_name(family.name)
        register(name, _rg_dataset_class(family.name, base), _rg_config_class(family))
        names.append(name)
    return names


def _rg_config_class(family: Family) -> type:
    fields: list[Any] = [
        ("seed", int | None, dataclasses.field(default=None)),
        ("size", int, dataclasses.field(default=500)),
        ("reward_metric", str | None, dataclasses.field(default=None)),
    ]
    fields += [(opt, Any, dataclasses.field(default=None)) for opt in sorted(family.options)]
    cls_name = "".join(p.title() for p in family.name.split("-")) + "Config"
    return dataclasses.make_dataclass(cls_name, fields)


def _rg_dataset_class(family: str, base: Any) -> type:
    def __init__(self: Any, config: Any) -> None:
        options = {
            f.name: getattr(config, f.name)
            for f in dataclasses.fields(config)
            if f.name not in ("seed", "size", "reward_metric")
            and getattr(config, f.name) is not None
        }
        seed = 0 if config.seed is None else config.seed
        self.tsolve = TsolveDataset(family, seed, config.size, config.reward_metric, **options)
        base.__init__(self, config=config, seed=seed, size=config.size)

    methods = {
        "__init__": __init__,
        "__getitem__": lambda self, idx: self.tsolve[idx],
        "score_answer": lambda self, answer, entry: self.tsolve.score_answer(answer, entry),
    }
    cls_name = "".join(p.title() for p in family.split("-")) + "Dataset"
    return type(cls_name, (base,), methods)
