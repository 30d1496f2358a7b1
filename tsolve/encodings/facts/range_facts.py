"""Ranges and rules of dates and years: the kinds that other puzzles' wording
needs beside the paper's 16 categories, one of which (a range of years)
tsolve's generator also draws.

The Time Puzzles release (Wang and Dong, 2026, arXiv:2601.07148) states a
lifetime or a term of office explicitly as "The date is between January 05,
1950 and January 05, 1990.", a sporting year as "The year satisfies year % 4
== 2, year >= 1930, and is not 1942 or 1946.", and a decade as "The year is
in the 1900s." These kinds hold those sentences exactly. (Its "3rd month of
the Chinese lunar calendar", which counts a leap 3rd month, is ``lunar_month``
with ``leap`` null.) Where the words
leave a choice open (do the two days count? is "the 1900s" a decade or a
century?) the fact says so in its params, holds as the release's generator
meant it, and names the other choice as a reading
(:mod:`tsolve.encodings.facts.readings`), so an audit sees both.

Date ranges and year rules are not drawn by tsolve's generator (``drawn``
false): they are read from text and imported records only. A range of years
is drawn from generator version 13 on, with random bounds around the hidden
date (:meth:`YearRangeFact.sample`; never the century wording): the paper's
generator has such a fact too, and its two bounds are what keep one-answer
puzzles from being fixed by their date and kinds (two runs with other
options met on 174 of 20,000 puzzles at version 12).
"""

from __future__ import annotations

import datetime as _dt
import random
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from tsolve.calendars.domain import DateDomain, parse_iso
from tsolve.encodings.facts.base import DayView, Fact, Level, Style, register_fact
from tsolve.encodings.facts.words import MONTHS
from tsolve.encodings.ir import IntervalSet
from tsolve.errors import TsolveError

#: Whether a date range's two named days belong to it.
ENDS = ("included", "excluded", "unstated")


def long_date(iso_day: str) -> str:
    """2024-01-05 -> "January 05, 2024", as the release spells a day (``%B %d, %Y``)."""
    d = parse_iso(iso_day, "date")
    return f"{MONTHS[d.month - 1]} {d.day:02d}, {d.year}"


def _int(value: object, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise TsolveError(f"{field}: expected an integer in {lo}..{hi}, got {value!r}")
    return value


@register_fact
@dataclass(frozen=True)
class DateRangeFact(Fact):
    """The date lies between the days ``start`` and ``end`` (ISO). ``ends``
    says whether those two days count: ``included``, ``excluded``, or
    ``unstated`` when the sentence does not say ("The date is between January
    05, 1950 and January 05, 1990."). An unstated range holds as excluded,
    the Time Puzzles release's meaning (its generator keeps strictly inside a
    lifetime or a term), and has the reading ``end-days-included``."""

    kind: ClassVar[str] = "date_range"
    level: ClassVar[Level] = Level.YEAR
    drawn: ClassVar[bool] = False
    start: str
    end: str
    ends: str = "included"

    def __post_init__(self) -> None:
        if self.ends not in ENDS:
            raise TsolveError(
                f"date_range.ends: expected one of {', '.join(ENDS)}, got {self.ends!r}"
            )
        lo = parse_iso(self.start, "date_range.start")
        if parse_iso(self.end, "date_range.end") < lo:
            raise TsolveError(f"date_range.end: {self.end} is before start {self.start}")

    def _days(self) -> tuple[int, int]:
        """The first and last day the range holds on (first > last: none)."""
        lo = parse_iso(self.start, "start").toordinal()
        hi = parse_iso(self.end, "end").toordinal()
        return (lo, hi) if self.ends == "included" else (lo + 1, hi - 1)

    def holds(self, view: DayView) -> np.ndarray:
        lo, hi = self._days()
        return np.asarray((view.days >= lo) & (view.days <= hi))

    def day_intervals(self) -> IntervalSet:
        return IntervalSet.from_intervals([self._days()])

    def render(self, style: Style = "implicit") -> str:
        if self.ends == "included":
            return f"The date is between {self.start} and {self.end}, both days included."
        if self.ends == "excluded":
            return f"The date is strictly between {self.start} and {self.end} (neither day counts)."
        return f"The date is between {long_date(self.start)} and {long_date(self.end)}."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        day = int(seed.days[0])
        ends = rng.choice(ENDS)
        inner = 0 if ends == "included" else 1
        lo = rng.randint(max(1, day - 40_000), day - inner)
        hi = rng.randint(day + inner, min(_dt.date.max.toordinal(), day + 40_000))
        first, last = _dt.date.fromordinal(lo), _dt.date.fromordinal(hi)
        return cls(first.isoformat(), last.isoformat(), ends)


#: How many years a drawn year range's bound may lie from the seed's year.
RANGE_REACH = 60


def _offset_weights(least: int) -> list[float]:
    """Cumulative weights of a bound's distance k from the seed's year, for
    k = ``least`` .. :data:`RANGE_REACH`: the law of ``randint(0, randint(1,
    RANGE_REACH))`` (near bounds likelier, far ones possible), restricted to
    k >= ``least``, so that a draw is one random number."""
    law = [sum(1 / (j + 1) for j in range(max(1, k), RANGE_REACH + 1)) for k in
           range(least, RANGE_REACH + 1)]  # fmt: skip
    out, total = [], 0.0
    for w in law:
        total += w
        out.append(total)
    return out


_OFFSETS = (range(1, RANGE_REACH + 1), _offset_weights(1))


@register_fact
@dataclass(frozen=True)
class YearRangeFact(Fact):
    """``first`` ≤ year ≤ ``last``. ``century`` marks the wording "The year
    is in the 1900s.", which names a decade whose name is also a century's:
    the fact then holds on the decade (``first`` .. ``first`` + 9, the Time
    Puzzles release's meaning) and has the reading ``century`` (``first`` ..
    ``first`` + 99)."""

    kind: ClassVar[str] = "year_range"
    level: ClassVar[Level] = Level.YEAR
    first: int
    last: int
    century: bool = False

    def __post_init__(self) -> None:
        _int(self.first, "year_range.first", 1, 9999)
        _int(self.last, "year_range.last", self.first, 9999)
        if not isinstance(self.century, bool):
            raise TsolveError(f"year_range.century: expected true or false, got {self.century!r}")
        if self.century and (self.first % 100 or self.last != self.first + 9):
            raise TsolveError(
                "year_range.century: only a decade that starts a century (1900..1909) "
                f"has a century reading, got {self.first}..{self.last}"
            )

    def holds(self, view: DayView) -> np.ndarray:
        y = view.greg.year
        return np.asarray((y >= self.first) & (y <= self.last))

    def day_intervals(self) -> IntervalSet:
        return IntervalSet(
            ((_dt.date(self.first, 1, 1).toordinal(), _dt.date(self.last, 12, 31).toordinal()),)
        )

    def render(self, style: Style = "implicit") -> str:
        if self.century:
            return f"The year is in the {self.first}s."
        return f"The year is between {self.first} and {self.last} (inclusive)."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        """A range with random bounds around the seed's year, each 1 to
        :data:`RANGE_REACH` years off (near ones likelier,
        :func:`_offset_weights`): never the year itself, which the words
        would then name (a reader taking the first year a puzzle names would
        have it), and never the century wording, whose other reading would
        move a generated puzzle's answers. The generator draws it (version 13
        on): its bounds are what spread one-answer puzzles over many."""
        year = int(seed.greg.year[0])
        values, cum = _OFFSETS
        below = rng.choices(values, cum_weights=cum)[0]
        above = rng.choices(values, cum_weights=cum)[0]
        # Not interned: nearly every draw is a new range, and they would
        # crowd the shared table of interned facts. Built without the checks
        # of __post_init__, which hold by construction (1 <= first <= last
        # <= 9999, no century): the search draws ten a seed.
        fact = object.__new__(cls)
        object.__setattr__(fact, "first", max(1, year - below))
        object.__setattr__(fact, "last", min(9999, year + above))
        object.__setattr__(fact, "century", False)
        return fact


def _join_years(years: tuple[int, ...]) -> str:
    """(1942, 1946) -> "1942 or 1946"; three or more with a comma before "or"."""
    words = [str(y) for y in years]
    if len(words) <= 2:
        return " or ".join(words)
    return ", ".join(words[:-1]) + ", or " + words[-1]


@register_fact
@dataclass(frozen=True)
class YearRuleFact(Fact):
    """year % ``modulus`` == ``remainder``, year ≥ ``since``, and the year is
    none of ``excluded``: a rule of years written out, as the Time Puzzles
    release states a sporting year explicitly ("The year satisfies year % 4
    == 2, year >= 1930, and is not 1942 or 1946."). The words are a formula,
    so the fact has no other reading."""

    kind: ClassVar[str] = "year_rule"
    level: ClassVar[Level] = Level.YEAR
    drawn: ClassVar[bool] = False
    modulus: int
    remainder: int
    since: int
    excluded: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _int(self.modulus, "year_rule.modulus", 1, 400)
        _int(self.remainder, "year_rule.remainder", 0, self.modulus - 1)
        _int(self.since, "year_rule.since", 1, 9999)
        if not isinstance(self.excluded, tuple):
            raise TsolveError(
                f"year_rule.excluded: expected a list of years, got {self.excluded!r}"
            )
        for y in self.excluded:
            _int(y, "year_rule.excluded", 1, 9999)
        if list(self.excluded) != sorted(set(self.excluded)):
            raise TsolveError(
                f"year_rule.excluded: years must be increasing, got {list(self.excluded)}"
            )

    def years(self) -> list[int]:
        """Every year 1..9999 the rule admits."""
        out = set(range(self.since + (self.remainder - self.since) % self.modulus, 10000,
                        self.modulus))  # fmt: skip
        return sorted(out - set(self.excluded))

    def holds(self, view: DayView) -> np.ndarray:
        y = view.greg.year
        ok = (y % self.modulus == self.remainder) & (y >= self.since)
        if self.excluded:
            ok &= ~np.isin(y, np.asarray(self.excluded, dtype=np.int64))
        return np.asarray(ok)

    def day_intervals(self) -> IntervalSet:
        return IntervalSet.from_intervals(
            (_dt.date(y, 1, 1).toordinal(), _dt.date(y, 12, 31).toordinal()) for y in self.years()
        )

    def render(self, style: Style = "implicit") -> str:
        rule = f"year % {self.modulus} == {self.remainder}"
        if not self.excluded:
            return f"The year satisfies {rule} and year >= {self.since}."
        return (
            f"The year satisfies {rule}, year >= {self.since}, "
            f"and is not {_join_years(self.excluded)}."
        )

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        year = int(seed.greg.year[0])
        modulus = rng.choice((2, 4))
        since = rng.randint(max(1, year - 120), year)
        fact = cls(modulus, year % modulus, since)
        others = [y for y in fact.years() if y != year and y <= year + 120][:60]
        chosen = sorted(rng.sample(others, min(len(others), rng.randint(0, 3))))
        return cls(modulus, year % modulus, since, tuple(chosen))
