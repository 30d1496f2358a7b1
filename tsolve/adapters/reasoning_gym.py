"""reasoning-gym, by its conventions: typed configs and the registration.

reasoning-gym finds a dataset by name in its registry
(``reasoning_gym.factory.DATASETS``), builds its config dataclass from
keyword arguments, calls ``config.validate()`` and then the dataset class on
the config; ``CompositeDataset`` routes ``score_answer`` by the item's
``metadata.source_dataset``, and ``update_dataset_config`` rebuilds a
dataset from ``dataclasses.replace(config, ...)``. So that all of this works
for tsolve's families:

* every family that generates and scores is registered as
  ``tsolve_<family>`` (:func:`rg_name`) and its items carry that name as
  ``source_dataset`` (and ``metadata.difficulty``, :func:`tsolve.facade.difficulty_knobs`);
* each built-in family has a config dataclass with typed fields, one per
  generator option (``None``: the family's default) plus ``seed``, ``size``
  and ``reward_metric``, and a ``validate()`` that runs the family's own
  option parsers, so a bad option is a one-line :class:`TsolveError` at
  ``create_dataset`` time rather than at the first item;
* ``seed=None`` draws a random seed, as reasoning-gym's own datasets do
  (``ProceduralDataset.__init__``), and the drawn seed is the dataset's
  ``seed``;
* each built-in family has a curriculum
  (:mod:`tsolve.adapters.reasoning_gym_classes`), so
  ``reasoning_gym.create_curriculum("tsolve_time_puzzles")`` works;
* :func:`register_reasoning_gym` may be called any number of times.

This module does not import reasoning-gym; the dataset class and curricula,
which subclass reasoning-gym's own, live in ``reasoning_gym_classes``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from tsolve.contract import Family, all_families, get_family
from tsolve.errors import TsolveError
from tsolve.verifiers.rewards import gameable, reward_value

BASE_FIELDS = ("seed", "size", "reward_metric")


def rg_name(family: str) -> str:
    """A family's name in reasoning-gym's registry: ``tsolve_time_puzzles``."""
    return "tsolve_" + family.replace("-", "_")


@dataclass
class TsolveConfig:
    """What every tsolve config has. ``family`` (a class variable) names the
    tsolve family; the other fields of a subclass are that family's generator
    options, ``None`` meaning "the family's default"."""

    family: ClassVar[str] = ""
    seed: int | None = None
    size: int = 500
    reward_metric: str | None = None

    def options(self) -> dict[str, Any]:
        """The generator options that are set, as ``tsolve dataset --set`` takes them."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in BASE_FIELDS and getattr(self, f.name) is not None
        }

    def validate(self) -> None:
        """Every field checked by the family's own parsers (one-line
        :class:`TsolveError`, a ``ValueError``), before any item is made."""
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0
        ):
            raise TsolveError(f"seed: expected an integer >= 0 or None, got {self.seed!r}")
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise TsolveError(f"size: expected an integer >= 1, got {self.size!r}")
        family = get_family(self.family, need="generate")
        family.require("score")
        if self.reward_metric is not None:
            if not isinstance(self.reward_metric, str):
                raise TsolveError(f"reward_metric: expected text, got {self.reward_metric!r}")
            if self.reward_metric in gameable(family.name):
                reward_value({self.reward_metric: 0.0}, family.name, self.reward_metric)
        family.make_options(self.options())


@dataclass
class TimePuzzlesConfig(TsolveConfig):
    """``tsolve_time_puzzles``: every date that satisfies a set of facts.
    ``solutions`` is M, the number of answers: an int, a tuple cycled over
    the items, or text such as ``"0-6"``; ``difficulty`` keeps only puzzles
    of that measured label (``easy``, ``medium``, ``hard``)."""

    family: ClassVar[str] = "time-puzzles"
    solutions: int | tuple[int, ...] | str | None = None
    facts: int | None = None
    difficulty: str | None = None
    style: str | tuple[str, ...] | None = None
    domain_start: str | None = None
    domain_end: str | None = None
    categories: tuple[str, ...] | str | None = None
    anchors: tuple[str, ...] | str | None = None
    backend: str | None = None
    max_attempts: int | None = None
    minimal: bool | None = None
    trivial_contradictions: bool | None = None


@dataclass
class SpanConfig(TsolveConfig):
    """``tsolve_span``: SPAN-style cross-calendar questions, asked on ``date``
    (``YYYY-MM-DD``), with offsets up to ``max_days`` / ``max_weeks`` /
    ``max_years``; ``balanced=False`` makes every polar gold "Yes"."""

    family: ClassVar[str] = "span"
    date: str | None = None
    max_days: int | None = None
    max_weeks: int | None = None
    max_years: int | None = None
    balanced: bool | None = None


@dataclass
class LogisticsConfig(TsolveConfig):
    """``tsolve_logistics``: UnSeenTimeQA-style logistics timelines.
    ``difficulty`` is the benchmark's split (easy, medium, hard),
    ``execution`` serial or parallel, ``question`` static, relative or
    hypothetical, ``depth`` the number of events (None: 6..20 per item)."""

    family: ClassVar[str] = "logistics"
    difficulty: str | None = None
    execution: str | None = None
    question: str | None = None
    depth: int | None = None


@dataclass
class RelationalPuzzlesConfig(TsolveConfig):
    """``tsolve_relational_puzzles``: several events with unknown dates."""

    family: ClassVar[str] = "relational-puzzles"
    events: int | None = None
    solutions: int | tuple[int, ...] | str | None = None
    facts: int | None = None
    style: str | tuple[str, ...] | None = None
    backend: str | None = None
    ask: str | None = None
    domain_start: str | None = None
    domain_end: str | None = None
    max_attempts: int | None = None


BUILTIN_CONFIGS: dict[str, type[TsolveConfig]] = {
    cls.family: cls
    for cls in (TimePuzzlesConfig, SpanConfig, LogisticsConfig, RelationalPuzzlesConfig)
}


def config_class(family: Family) -> type[TsolveConfig]:
    """The config dataclass of ``family``: the typed one of a built-in family;
    for a third-party family, one made from its option names, typed ``Any``
    (its parsers, which ``validate`` runs, are the only type it declares)."""
    if family.name in BUILTIN_CONFIGS:
        return BUILTIN_CONFIGS[family.name]
    fields: list[Any] = [
        (opt, Any, dataclasses.field(default=None))
        for opt in sorted(family.options)
        if opt not in BASE_FIELDS
    ]
    cls_name = "".join(p.title() for p in family.name.replace("_", "-").split("-")) + "Config"
    return dataclasses.make_dataclass(
        cls_name, fields, bases=(TsolveConfig,), namespace={"family": family.name}
    )


def register_reasoning_gym() -> list[str]:
    """Register every family that generates and scores in reasoning-gym's
    registry as ``tsolve_<family>``, with its curriculum where it has one,
    and return the names. Calling it again changes nothing; a name that
    another package registered is a one-line :class:`TsolveError`. It also
    makes ``reasoning_gym.create_curriculum`` (the factory's own function)
    reachable at the top of the package, where 0.1.25 lacks it. Without
    reasoning-gym installed it is a one-line error naming the extra."""
    try:
        import reasoning_gym
        from reasoning_gym import factory

        from tsolve.adapters.reasoning_gym_classes import CURRICULA, TsolveReasoningGymDataset
    except ImportError:
        raise TsolveError("reasoning-gym: not installed (pip install 'tsolve[rg]')") from None

    names = []
    for family in all_families():
        if family.generate is None or family.score is None or not family.available():
            continue
        name = rg_name(family.name)
        curriculum = CURRICULA.get(family.name)
        registered = factory.DATASETS.get(name)
        if registered is None:
            factory.register_dataset(
                name, TsolveReasoningGymDataset, config_class(family), curriculum
            )
        elif registered[0] is not TsolveReasoningGymDataset:
            raise TsolveError(f"reasoning-gym: {name!r} is already registered by another package")
        elif curriculum is not None:
            factory.CURRICULA[name] = curriculum
        names.append(name)
    # reasoning-gym 0.1.25 defines create_curriculum in its factory but does not
    # re-export it at the top, where create_dataset is; offer the same function
    # there, so reasoning_gym.create_curriculum("tsolve_span") works as documented.
    if not hasattr(reasoning_gym, "create_curriculum"):
        reasoning_gym.create_curriculum = factory.create_curriculum
    return names
