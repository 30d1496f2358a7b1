"""The fact taxonomy's common machinery: levels, the registry, day views.

A fact is a frozen value object (its dataclass fields are exactly its JSON
``params``). It knows four things:

* ``holds(view)``: its truth over an array of days, vectorised. Generation
  calls this thousands of times per puzzle on small day sets, so it must be
  cheap; it is the fast path.
* ``constraint(domain)``: the IR the solvers see. By default the interval set
  of ``holds`` over the whole domain; facts with more natural IR (weekdays are
  ``Mod``) override it. Tests hold the two equal.
* ``render(style)``: the English sentence, ``implicit`` (by events) or
  ``explicit`` (dates spelled out).
* ``sample(...)``: Algorithm 2's InstantiateFact: a random fact of this
  category that is true on the hidden seed date.

Adding a category is one new class decorated with :func:`register_fact`.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import enum
import math
import random
import types
import typing
from abc import ABC, abstractmethod
from functools import cache, cached_property, lru_cache
from typing import Any, ClassVar, Literal

import numpy as np

from tsolve.calendars.domain import DateDomain, GregorianFields, gregorian_fields
from tsolve.encodings.ir import DATE_VAR, Formula, In, InCycle, IntervalSet
from tsolve.errors import TsolveError
from tsolve.records.validation import bad, plain

Style = Literal["implicit", "explicit"]
STYLES: tuple[str, ...] = ("implicit", "explicit")


class Level(str, enum.Enum):
    """Constraint granularity (Time Puzzles, Table 2)."""

    YEAR = "YEAR"
    MONTH = "MONTH"
    DAY = "DAY"


class DayView:
    """An array of days with lazily computed calendar fields.

    Generation evaluates many facts on the same candidate days; computing the
    Gregorian and Chinese fields once per view and sharing them is most of
    what makes a puzzle cost well under a millisecond per attempt.
    """

    def __init__(self, days: np.ndarray) -> None:
        self.days = np.asarray(days, dtype=np.int64)

    @cached_property
    def greg(self) -> GregorianFields:
        return gregorian_fields(self.days)

    @cached_property
    def chinese(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(lunar year, month, day, leap) from the Chinese calendar table."""
        from tsolve.calendars.tables import table

        return table("chinese").fields(self.days)

    def __len__(self) -> int:
        return int(self.days.size)

    @classmethod
    def of_day(cls, day: int) -> DayView:
        """A view of one day (a puzzle's hidden seed) with its Gregorian fields
        filled from :class:`datetime.date`: the search makes one per seed and
        the facts it draws read their fields, where the vectorised
        :func:`~tsolve.calendars.domain.gregorian_fields` spent 33 µs on one day."""
        view = cls(np.asarray([day], dtype=np.int64))
        d = _dt.date.fromordinal(day)
        nxt = (
            _dt.date(d.year + d.month // 12, d.month % 12 + 1, 1)
            if d.year < 9999 or d.month < 12
            else None
        )
        dim = 31 if nxt is None else (nxt - _dt.date(d.year, d.month, 1)).days
        one = [np.asarray([v], dtype=np.int64) for v in (d.year, d.month, d.day, d.weekday(), dim)]
        view.__dict__["greg"] = GregorianFields(*one)
        return view


# Fact.interned's table: (class, arguments) -> the fact. Bounded; facts are
# frozen values, so an entry is never stale.
@lru_cache(maxsize=65536)
def _interned(cls: type[Fact], args: tuple[Any, ...]) -> Fact:
    return cls(*args)


#: The Gregorian calendar repeats every 400 years: 146,097 days, a whole
#: number of weeks. Day 146,097 (0400-12-31) ends the first cycle.
GREGORIAN_CYCLE = 146_097


@cache
def _cycle_view() -> DayView:
    """One whole cycle, days 146,097 .. 292,193: day d sits at residue d mod 146,097."""
    return DayView(np.arange(GREGORIAN_CYCLE, 2 * GREGORIAN_CYCLE, dtype=np.int64))


# A periodic fact's residues: (fact) -> the residues r in 0..146,096 whose days
# satisfy it. Facts are frozen values and the calendar fixed, so never stale;
# bounded (a few hundred periodic facts exist).
@lru_cache(maxsize=1024)
def cycle_residues(fact: Fact) -> IntervalSet:
    """The residues (day mod :data:`GREGORIAN_CYCLE`) on which ``fact`` holds."""
    view = _cycle_view()
    return IntervalSet.from_mask(view.days - GREGORIAN_CYCLE, fact.holds(view))


@lru_cache(maxsize=8)
def domain_view(domain: DateDomain) -> DayView:
    """The whole domain as one :class:`DayView`, cached per domain (a few are in
    use at a time; a view only derives fields from the days, so never stale)."""
    return DayView(domain.days)


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    return v


def _tupled(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return tuple(_tupled(x) for x in v)
    return v


@dataclasses.dataclass(frozen=True)
class Fact(ABC):
    """Base of all fact categories; subclasses are frozen dataclasses."""

    kind: ClassVar[str]
    level: ClassVar[Level]
    #: May this category be a puzzle's knowledge-based anchor (Algorithm 1, t_kb)?
    anchor: ClassVar[bool] = False
    #: Does :meth:`sample` return one fact per seed day (over a given domain),
    #: drawing nothing from its RNG and ignoring the level? (The year, the
    #: month, the weekday of the seed.) The generator's search then draws it
    #: once per seed and reuses it; ``tests/test_mask_table.py`` holds the
    #: flag true of every category that sets it.
    seed_determined: ClassVar[bool] = False
    #: Does the generator draw this kind when its config names no categories?
    #: Kinds that exist to read other people's wording (the Time Puzzles
    #: release's date ranges and year rules) are not drawn, so that adding
    #: them changed no generated record; year ranges are drawn from
    #: generator version 13 on (range_facts.py says why).
    drawn: ClassVar[bool] = True

    @classmethod
    def interned(cls, *args: Any) -> Fact:
        """``cls(*args)``, built once per distinct arguments and then shared:
        a fact is a frozen value, so sharing is invisible, and a generator's
        draws skip the validation in ``__post_init__`` on every repeat."""
        return _interned(cls, args)

    @classmethod
    def levels(cls) -> tuple[Level, ...]:
        """Levels at which Algorithm 2 may pick this category (``event_relation``
        is VARIOUS in Table 2: it can be instantiated at any level)."""
        return (cls.level,)

    @classmethod
    def available(cls, domain: DateDomain) -> bool:
        """Can this category be used over ``domain`` (lunar facts need the table)?"""
        return True

    # ----------------------------------------------------------- semantics
    @abstractmethod
    def holds(self, view: DayView) -> np.ndarray:
        """Boolean mask: is the fact true on each day of ``view``?"""

    def day_intervals(self) -> IntervalSet | None:
        """The fact's days as a few intervals, known without a pass over any
        domain (a year is one interval, a lifetime another), or None when its
        days are spread through the calendar (every 15th of a month).

        On a 10,000-year domain a pass over the days costs tens of
        milliseconds and a hundred megabytes per fact; with this the fact's IR
        and size come from its own data. Tests hold it equal to ``holds``."""
        return None

    def periodic(self) -> bool:
        """Does the fact's truth depend only on the date's place in the
        400-year Gregorian cycle (its month, day, weekday, leap year)?"""
        return False

    def constraint(self, domain: DateDomain) -> Formula:
        """The fact as IR over ``domain`` (built anew: :func:`fact_constraint`
        is the cached way to ask): its :meth:`day_intervals` when it has them;
        for a :meth:`periodic` fact over a domain longer than one Gregorian
        cycle, one cycle's residues; or else the runs of its truth over the
        domain."""
        spans = self.day_intervals()
        if spans is not None:
            return In(DATE_VAR, spans.clip(domain.start, domain.end))
        if self.periodic() and domain.size > GREGORIAN_CYCLE:
            return InCycle(DATE_VAR, GREGORIAN_CYCLE, cycle_residues(self))
        return In(DATE_VAR, IntervalSet.from_mask(domain.days, self.holds(domain_view(domain))))

    def fact_level(self) -> Level:
        """The level of this instance (only ``event_relation`` varies by params)."""
        return self.level

    # ----------------------------------------------------------- language
    @abstractmethod
    def render(self, style: Style = "implicit") -> str:
        """The English sentence."""

    # ----------------------------------------------------------- generation
    @classmethod
    @abstractmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        """A random fact of this kind that holds on the single day in ``seed``
        (at ``level`` when the kind spans levels), or None if there is none."""

    @classmethod
    def sample_anchor(cls, rng: random.Random, domain: DateDomain) -> Fact | None:
        """A random anchor fact whose answer set meets ``domain`` (anchors only)."""
        return None

    # ----------------------------------------------------------- JSON
    @property
    def params(self) -> dict[str, Any]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in _fields(type(self))}

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Fact:
        fields = _fields(cls)
        names = {f.name for f in fields}
        if not isinstance(params, dict):
            raise TsolveError(f"{cls.kind}: params must be an object, got {params!r}")
        unknown = set(params) - names
        if unknown:
            raise TsolveError(f"{cls.kind}: unknown params {sorted(unknown)}")
        kwargs = {}
        hints = _hints(cls)
        for f in fields:
            if f.name in params:
                value = _tupled(params[f.name])
                if not _conforms(value, hints[f.name]):
                    raise bad(f"{cls.kind}.{f.name}", _describe(hints[f.name]), params[f.name])
                kwargs[f.name] = value
            elif f.default is dataclasses.MISSING:
                raise TsolveError(f"{cls.kind}: missing param {f.name!r}")
        try:
            return cls(**kwargs)
        except TsolveError:
            raise
        except (TypeError, ValueError) as exc:
            raise TsolveError(f"{cls.kind}: bad params {params!r} ({exc})") from None

    def to_json(self, style: Style = "implicit") -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.fact_level().value,
            "params": self.params,
            "text": self.render(style),
        }


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


def _arrow_shaped(params: dict[str, Any]) -> bool:
    """Might ``params`` have come through an Arrow table? (None fillers or
    timestamps; ``died: null`` alone is also this, and harmless to redo.)"""
    return any(
        v is None
        or isinstance(v, _dt.date)
        or (isinstance(v, list) and bool(v) and isinstance(v[0], _dt.date | list))
        for v in params.values()
    )


def _from_arrow(params: dict[str, Any], cls: type[Fact] | None) -> dict[str, Any]:
    """Undo what an Arrow round trip does to a fact's params: a table has one
    struct type for every row, so each fact gets every other kind's params as
    ``None``; and dates come back as timestamps. Only ``None`` values of params
    this kind does not have are dropped: anything else still meets the checks."""
    names = {f.name for f in _fields(cls)} if cls is not None else set(params)
    return {k: plain(v) for k, v in params.items() if v is not None or k in names}


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


# What a param may hold, whatever its declared type: records are user input.
_MAX_PARAM_INT = 1_000_000
_MAX_PARAM_STR = 500


def _conforms(value: Any, tp: Any) -> bool:
    """Does a JSON-read ``value`` (lists already made tuples) fit the declared
    type ``tp`` of a fact's field? Strings must be non-empty and short, and
    integers bounded, so no fact method meets a value it cannot handle."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, arg) for arg in typing.get_args(tp))
    if origin is typing.Literal:
        return value in typing.get_args(tp)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return len(value) <= 1000 and all(_conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(map(_conforms, value, args))
    if tp is type(None) or tp is None:
        return value is None
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return type(value) is int and abs(value) <= _MAX_PARAM_INT
    if tp is float:
        return type(value) in (int, float) and math.isfinite(value)
    if tp is str:
        return isinstance(value, str) and 0 < len(value) <= _MAX_PARAM_STR
    return isinstance(tp, type) and isinstance(value, tp)


def _describe(tp: Any) -> str:
    """A declared field type in words, for the error message."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in typing.get_args(tp))
    if origin is typing.Literal:
        return "one of " + ", ".join(map(repr, typing.get_args(tp)))
    if origin is tuple:
        return "a list"
    names = {str: "a non-empty string", int: f"an integer within ±{_MAX_PARAM_INT}",
             bool: "true or false", float: "a number", type(None): "null"}  # fmt: skip
    return names.get(tp, getattr(tp, "__name__", str(tp)))


# fact_constraint's cache: (fact, domain) -> the fact's IR over that domain.
# Building the IR is a pass over the domain, and a fact recurs across a dataset
# (records share the facts they read, see fact_from_json), so each is built once.
# The key is the fact's fields (facts are frozen values) and the domain; an
# entry never goes stale, since both are immutable and the calendar tables fixed.
# Bounded: the least recently used entries go first.
@lru_cache(maxsize=16384)
def fact_constraint(fact: Fact, domain: DateDomain) -> Formula:
    """``fact.constraint(domain)``, built once per fact and domain."""
    return fact.constraint(domain)


FACT_TYPES: dict[str, type[Fact]] = {}


def kind_ranks() -> dict[str, int]:
    """Each registered fact kind's place in sorted order: a small integer per
    kind, the same wherever it is asked once every kind is registered (the
    generator's bit sets of kinds and its tables of fact rows use it)."""
    return {k: i for i, k in enumerate(sorted(FACT_TYPES))}


def register_fact(cls: type[Fact]) -> type[Fact]:
    """Class decorator: make a fact category available by its ``kind``."""
    if cls.kind in FACT_TYPES:
        raise RuntimeError(f"fact kind {cls.kind!r} registered twice")
    FACT_TYPES[cls.kind] = cls
    return cls


# fact_from_json's cache: (kind, repr(params)) -> the fact read from them.
# For the plain JSON values a record holds, equal reprs mean equal params (a
# different key order only costs a second entry). The key is the params as
# given, before any Arrow repair (_from_arrow): the repair is a function of the
# kind and the params alone, so a hit needs neither the repair nor the check
# for it, and most facts are hits. Facts are frozen and the fact classes fixed
# once imported, so an entry never goes stale; a bad fact raises and is never
# kept. Bounded by _READ_FACTS_MAX: full, it is emptied.
_READ_FACTS: dict[tuple[str, str], Fact] = {}
_READ_FACTS_MAX = 1 << 16


def fact_from_json(obj: dict[str, Any]) -> Fact:
    """A fact from its record form (``kind`` + ``params``); ``text`` is ignored,
    since the sentence is derived from the params.

    Facts recur across a dataset (the same month, weekday, president, person),
    and validating params costs more than the rest of scoring a prediction, so
    facts already read are kept (``_READ_FACTS``) and shared: facts are frozen,
    so sharing one is safe.
    """
    if not isinstance(obj, dict):
        raise TsolveError(f"fact: expected an object, got {obj!r}")
    kind = obj.get("kind")
    params = obj.get("params", {})
    key = (str(kind), repr(params))
    fact = _READ_FACTS.get(key)
    if fact is not None:
        return fact
    if isinstance(params, dict) and _arrow_shaped(params):
        params = _from_arrow(params, FACT_TYPES.get(key[0]))
    cls = FACT_TYPES.get(key[0])
    if cls is None:
        raise TsolveError(f"fact: unknown kind {kind!r} (known: {', '.join(sorted(FACT_TYPES))})")
    fact = cls.from_params(params)
    if len(_READ_FACTS) >= _READ_FACTS_MAX:
        _READ_FACTS.clear()  # a bound, not an LRU: refilling is cheap
    _READ_FACTS[key] = fact
    return fact
