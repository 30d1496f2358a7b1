"""reasoning-gym config classes for tsolve's families: typed dataclasses whose
``validate()`` runs the family's own option parsers.

Apart from :mod:`.reasoning_gym` (registration) and
:mod:`.reasoning_gym_classes` (the dataset and curriculum classes, which
import reasoning-gym), so that both can use them without importing each
other, and so that a config can be built and checked without reasoning-gym.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from tsolve.contract import Family, get_family
from tsolve.errors import TsolveError
from tsolve.facade import check_reward_metric, check_size

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
        :class:`TsolveError`, a ``ValueError``), before any item is made:
        ``size`` in ``1..``:data:`~tsolve.facade.MAX_SIZE`, ``reward_metric``
        one of the family's reward metrics
        (:func:`~tsolve.facade.check_reward_metric`), so that a bad one fails
        here and not at the first reward of a training run."""
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0
        ):
            raise TsolveError(f"seed: expected an integer >= 0 or None, got {self.seed!r}")
        check_size(self.size, "size", 1)
        family = get_family(self.family, need="generate")
        family.require("score")
        check_reward_metric(family, self.reward_metric, family.make_options(self.options()))


@dataclass
class TimePuzzlesConfig(TsolveConfig):
    """``tsolve_time_puzzles``: every date that satisfies a set of facts.
    ``solutions`` is M, the number of answers: an int, a tuple cycled over
    the items, or text such as ``"0-6"``; ``difficulty`` keeps only puzzles
    of that measured label (``easy``, ``medium``, ``hard``); ``preset``
    names a generation setting (``"paper"``: the Time Puzzles paper's), which
    the other fields override."""

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
    preset: str | None = None


@dataclass
class SpanConfig(TsolveConfig):
    """``tsolve_span``: SPAN-style cross-calendar questions, each asked on a
    reference date drawn from ``date_range`` (``"1960-01-01..2060-12-31"``,
    the default) or all on one ``date`` (``YYYY-MM-DD``), with offsets up to
    ``max_days`` / ``max_weeks`` / ``max_years``; ``balanced=False`` makes
    every polar gold "Yes"; ``format`` (``polar`` / ``content``) and ``type``
    (``date`` / ``festival``) keep one of each."""

    family: ClassVar[str] = "span"
    date: str | None = None
    max_days: int | None = None
    max_weeks: int | None = None
    max_years: int | None = None
    balanced: bool | None = None
    date_range: str | None = None
    format: str | None = None
    type: str | None = None


@dataclass
class LogisticsConfig(TsolveConfig):
    """``tsolve_logistics``: UnSeenTimeQA-style logistics timelines.
    ``difficulty`` is the benchmark's split (easy, medium, hard),
    ``execution`` serial or parallel, ``question`` static, relative or
    hypothetical, ``depth`` the number of events (None: 6..20 per item);
    ``asked_minute`` how the asked minute is drawn (``tracked``, the default:
    the package must be tracked; ``unseentimeqa``: the benchmark's own mix)."""

    family: ClassVar[str] = "logistics"
    difficulty: str | None = None
    execution: str | None = None
    question: str | None = None
    depth: int | None = None
    asked_minute: str | None = None


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
