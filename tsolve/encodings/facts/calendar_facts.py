"""Gregorian calendar facts: year, decade, leap year, month, season, weekdays,
day-of-month facts (Time Puzzles, Table 2). They read the same in both styles:
there is no event to spell out."""

from __future__ import annotations

import calendar as _cal
import datetime as _dt
import itertools
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts.base import DayView, Fact, Level, Style, register_fact
from tsolve.encodings.facts.words import (
    MONTHS,
    NTH_WORDS,
    WEEKDAYS,
    join_or,
    ordinal,
    weekday_index,
)
from tsolve.encodings.ir import DATE_VAR, Formula, IntervalSet, Mod, Or
from tsolve.errors import TsolveError


def _int(value: object, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise TsolveError(f"{field}: expected an integer in {lo}..{hi}, got {value!r}")
    return value


def _seed_field(seed: DayView, name: str) -> int:
    return int(getattr(seed.greg, name)[0])


@register_fact
@dataclass(frozen=True)
class YearFact(Fact):
    kind: ClassVar[str] = "year"
    level: ClassVar[Level] = Level.YEAR
    seed_determined: ClassVar[bool] = True
    year: int

    def __post_init__(self) -> None:
        _int(self.year, "year.year", 1, 9999)

    def holds(self, view: DayView) -> np.ndarray:
        return np.asarray(view.greg.year == self.year)

    def day_intervals(self) -> IntervalSet:
        return _years(self.year, self.year)

    def render(self, style: Style = "implicit") -> str:
        return f"The year is {self.year}."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        return cls(_seed_field(seed, "year"))


@register_fact
@dataclass(frozen=True)
class DecadeFact(Fact):
    kind: ClassVar[str] = "decade"
    level: ClassVar[Level] = Level.YEAR
    seed_determined: ClassVar[bool] = True
    decade: int

    def __post_init__(self) -> None:
        _int(self.decade, "decade.decade", 0, 9990)
        if self.decade % 10:
            raise TsolveError(f"decade.decade: must be a multiple of 10, got {self.decade}")

    def holds(self, view: DayView) -> np.ndarray:
        return np.asarray(view.greg.year // 10 * 10 == self.decade)

    def day_intervals(self) -> IntervalSet:
        return _years(max(1, self.decade), self.decade + 9)

    def render(self, style: Style = "implicit") -> str:
        return (
            f"The date falls in the {self.decade}s (the years {self.decade} to {self.decade + 9})."
        )

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        return cls(_seed_field(seed, "year") // 10 * 10)


def _years(first: int, last: int) -> IntervalSet:
    """Every day of the years ``first..last`` (1..9999), as one interval."""
    return IntervalSet(((_dt.date(first, 1, 1).toordinal(), _dt.date(last, 12, 31).toordinal()),))


def _is_leap(year: np.ndarray) -> np.ndarray:
    return np.asarray(((year % 4 == 0) & (year % 100 != 0)) | (year % 400 == 0))


@register_fact
@dataclass(frozen=True)
class LeapYearFact(Fact):
    kind: ClassVar[str] = "leap_year"
    level: ClassVar[Level] = Level.YEAR
    seed_determined: ClassVar[bool] = True
    leap: bool

    def __post_init__(self) -> None:
        if not isinstance(self.leap, bool):
            raise TsolveError(f"leap_year.leap: expected true or false, got {self.leap!r}")

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        return _is_leap(view.greg.year) == self.leap

    def render(self, style: Style = "implicit") -> str:
        return "The year is a leap year." if self.leap else "The year is not a leap year."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        return cls(bool(_cal.isleap(_seed_field(seed, "year"))))


@register_fact
@dataclass(frozen=True)
class MonthFact(Fact):
    kind: ClassVar[str] = "month"
    level: ClassVar[Level] = Level.MONTH
    seed_determined: ClassVar[bool] = True
    month: int

    def __post_init__(self) -> None:
        _int(self.month, "month.month", 1, 12)

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        return np.asarray(view.greg.month == self.month)

    def render(self, style: Style = "implicit") -> str:
        return f"The date is in {MONTHS[self.month - 1]}."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        return cls(_seed_field(seed, "month"))


SEASONS: dict[str, tuple[int, ...]] = {
    "winter": (12, 1, 2),
    "spring": (3, 4, 5),
    "summer": (6, 7, 8),
    "autumn": (9, 10, 11),
}


def season_of(month: int) -> str:
    return next(s for s, ms in SEASONS.items() if month in ms)


@register_fact
@dataclass(frozen=True)
class SeasonFact(Fact):
    """Meteorological, Northern Hemisphere, as the Appendix E prompt defines it."""

    kind: ClassVar[str] = "season"
    level: ClassVar[Level] = Level.MONTH
    seed_determined: ClassVar[bool] = True
    season: str

    def __post_init__(self) -> None:
        if self.season not in SEASONS:
            raise TsolveError(
                f"season.season: unknown season {self.season!r} (known: {', '.join(SEASONS)})"
            )

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        lut = np.zeros(13, dtype=bool)
        lut[list(SEASONS[self.season])] = True
        return lut[view.greg.month]

    def render(self, style: Style = "implicit") -> str:
        return f"The date is in {self.season}."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        return cls(season_of(_seed_field(seed, "month")))


@register_fact
@dataclass(frozen=True)
class WeekdayFact(Fact):
    kind: ClassVar[str] = "weekday"
    level: ClassVar[Level] = Level.DAY
    seed_determined: ClassVar[bool] = True
    weekday: str

    def __post_init__(self) -> None:
        weekday_index(self.weekday, "weekday.weekday")

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        return np.asarray(view.greg.weekday == weekday_index(self.weekday))

    def constraint(self, domain: DateDomain) -> Formula:
        # Ordinal 1 (0001-01-01) is a Monday, so weekday w <=> d ≡ w + 1 (mod 7).
        return Mod(DATE_VAR, 7, (weekday_index(self.weekday) + 1) % 7)

    def render(self, style: Style = "implicit") -> str:
        return f"The date is a {self.weekday}."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        return cls(WEEKDAYS[_seed_field(seed, "weekday")])


@register_fact
@dataclass(frozen=True)
class WeekdaysFact(Fact):
    kind: ClassVar[str] = "weekdays"
    level: ClassVar[Level] = Level.DAY
    weekdays: tuple[str, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.weekdays, tuple) or not 1 <= len(self.weekdays) <= 6:
            raise TsolveError(f"weekdays.weekdays: expected 1 to 6 weekdays, got {self.weekdays!r}")
        idx = [weekday_index(w, "weekdays.weekdays") for w in self.weekdays]
        if len(set(idx)) != len(idx):
            raise TsolveError(f"weekdays.weekdays: repeated weekday in {list(self.weekdays)}")

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        lut = np.zeros(7, dtype=bool)
        lut[[weekday_index(w) for w in self.weekdays]] = True
        return lut[view.greg.weekday]

    def constraint(self, domain: DateDomain) -> Formula:
        return Or(tuple(Mod(DATE_VAR, 7, (weekday_index(w) + 1) % 7) for w in self.weekdays))

    def render(self, style: Style = "implicit") -> str:
        return "The date is a " + join_or(list(self.weekdays)) + "."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        own = _seed_field(seed, "weekday")
        others = [w for w in range(7) if w != own]
        chosen = sorted([own, *rng.sample(others, rng.choice((1, 1, 2, 3)))])
        return _weekdays_fact(tuple(chosen))


@lru_cache(maxsize=7)
def weekdays_draws(own: int) -> tuple[WeekdaysFact, ...]:
    """Every fact :meth:`WeekdaysFact.sample` draws on a day of weekday
    ``own`` (0 = Monday), each as many times as its chance in 240: one, one,
    two or three other weekdays (a half, a quarter, a quarter), chosen
    uniformly. So ``rng.choice`` of this tuple draws as ``sample`` does, with
    one random number where ``sample`` spends four: the generator's fast path
    (``tests/test_draw_tables.py`` holds the two distributions equal)."""
    others = [w for w in range(7) if w != own]
    out: list[WeekdaysFact] = []
    for k, chance in ((1, 120), (2, 60), (3, 60)):
        subsets = list(itertools.combinations(others, k))
        for sub in subsets:
            out += [_weekdays_fact(tuple(sorted((own, *sub))))] * (chance // len(subsets))
    return tuple(out)


# The fact of each set of weekdays (by index), built once: at most 127; a
# frozen value, so one object serves every draw; never stale.
@lru_cache(maxsize=128)
def _weekdays_fact(chosen: tuple[int, ...]) -> WeekdaysFact:
    return WeekdaysFact(tuple(WEEKDAYS[w] for w in chosen))


#: The counts from the month's end a weekday-in-month fact may take besides
#: "last" (-1): -2 is the second to last, as the Time Puzzles release counts.
FROM_END_WORDS = {-2: "second to last", -3: "third to last", -4: "fourth to last",
                  -5: "fifth to last"}  # fmt: skip
_NTH = NTH_WORDS | FROM_END_WORDS


@register_fact
@dataclass(frozen=True)
class WeekdayInMonthFact(Fact):
    """The nth weekday of the month, counted from its start (1..5) or from its
    end (-1 the last, -2 the second to last, ... -5); the generator draws
    1..5 and -1 only."""

    kind: ClassVar[str] = "weekday_in_month"
    level: ClassVar[Level] = Level.DAY
    weekday: str
    nth: int

    def __post_init__(self) -> None:
        weekday_index(self.weekday, "weekday_in_month.weekday")
        if isinstance(self.nth, bool) or self.nth not in _NTH:
            raise TsolveError(f"weekday_in_month.nth: expected 1..5 or -1..-5, got {self.nth!r}")

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        g = view.greg
        same_day = g.weekday == weekday_index(self.weekday)
        if self.nth < 0:
            return np.asarray(same_day & ((g.days_in_month - g.day) // 7 + 1 == -self.nth))
        return np.asarray(same_day & ((g.day - 1) // 7 + 1 == self.nth))

    def render(self, style: Style = "implicit") -> str:
        return f"The date is the {_NTH[self.nth]} {self.weekday} of its month."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        day, dim = _seed_field(seed, "day"), _seed_field(seed, "days_in_month")
        wd = WEEKDAYS[_seed_field(seed, "weekday")]
        if day + 7 > dim and rng.random() < 0.5:
            return cls.interned(wd, -1)
        return cls.interned(wd, (day - 1) // 7 + 1)


@register_fact
@dataclass(frozen=True)
class DayOfMonthFact(Fact):
    kind: ClassVar[str] = "day_of_month"
    level: ClassVar[Level] = Level.DAY
    day: int | None = None
    position: str | None = None

    def __post_init__(self) -> None:
        if (self.day is None) == (self.position is None):
            raise TsolveError("day_of_month: give exactly one of 'day' or 'position'")
        if self.day is not None:
            _int(self.day, "day_of_month.day", 1, 31)
        elif self.position not in ("first", "last"):
            raise TsolveError(
                f"day_of_month.position: expected 'first' or 'last', got {self.position!r}"
            )

    @property
    def params(self) -> dict[str, object]:
        # Only the param that is set, so records read naturally.
        return {"day": self.day} if self.day is not None else {"position": self.position}

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        g = view.greg
        if self.position == "last":
            return np.asarray(g.day == g.days_in_month)
        return np.asarray(g.day == (1 if self.position == "first" else self.day))

    def render(self, style: Style = "implicit") -> str:
        if self.position is not None:
            return f"The date is the {self.position} day of its month."
        return f"The date is the {ordinal(int(self.day or 0))} day of its month."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        day, dim = _seed_field(seed, "day"), _seed_field(seed, "days_in_month")
        if day == dim and rng.random() < 0.5:
            return cls.interned(None, "last")
        if day == 1 and rng.random() < 0.5:
            return cls.interned(None, "first")
        return cls.interned(day)


@register_fact
@dataclass(frozen=True)
class DayOfMonthRangeFact(Fact):
    """Strict: ``before N`` is day < N, ``after N`` is day > N."""

    kind: ClassVar[str] = "day_of_month_range"
    level: ClassVar[Level] = Level.DAY
    relation: str
    day: int

    def __post_init__(self) -> None:
        if self.relation not in ("before", "after"):
            raise TsolveError(
                f"day_of_month_range.relation: expected 'before' or 'after', got {self.relation!r}"
            )
        _int(self.day, "day_of_month_range.day", 1, 31)

    def periodic(self) -> bool:
        return True

    def holds(self, view: DayView) -> np.ndarray:
        d = view.greg.day
        return np.asarray(d < self.day if self.relation == "before" else d > self.day)

    def render(self, style: Style = "implicit") -> str:
        word = "before" if self.relation == "before" else "after"
        return f"The day of the month is {word} the {ordinal(self.day)} (strictly)."

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact:
        day = _seed_field(seed, "day")
        options = []
        if day < 31:
            options.append(("before", rng.randint(day + 1, min(31, day + 12))))
        if day > 1:
            options.append(("after", rng.randint(max(1, day - 12), day - 1)))
        relation, n = rng.choice(options)
        return cls.interned(relation, n)


@lru_cache(maxsize=31)
def day_range_draws(day: int) -> tuple[Fact, ...]:
    """Every fact :meth:`DayOfMonthRangeFact.sample` draws on day ``day`` of a
    month, each as many times as its chance (over a common denominator):
    "before N" and "after N" are equally likely when both exist, and N is
    uniform over its up to twelve values. ``rng.choice`` of this tuple draws
    as ``sample`` does, with one random number where ``sample`` spends up to
    three (``tests/test_draw_tables.py`` holds the two equal)."""
    before = [
        DayOfMonthRangeFact.interned("before", n) for n in range(day + 1, min(31, day + 12) + 1)
    ]
    after = [DayOfMonthRangeFact.interned("after", n) for n in range(max(1, day - 12), day)]
    if before and after:
        return tuple(f for f in before for _ in after) + tuple(f for f in after for _ in before)
    return tuple(before or after)
