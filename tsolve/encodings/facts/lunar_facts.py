"""Chinese lunar facts: zodiac animal and lunar month, read from the Chinese
calendar table (``lunarcalendar``, cross-checked against ``lunardate`` and
published New Year dates in the tests)."""

from __future__ import annotations

import datetime as _dt
import random
from abc import abstractmethod
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from tsolve.calendars.chinese import ZODIAC, zodiac
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts.base import DayView, Fact, Level, Style, register_fact
from tsolve.encodings.facts.words import ordinal
from tsolve.errors import TsolveError

# One list of animals for the whole project: the calendar module owns it.
ANIMALS = ZODIAC


def zodiac_animal(lunar_year: int) -> str:
    """1900, 1960, 2020 ... are Rat years."""
    return zodiac(lunar_year)


def chinese_table_covers(domain: DateDomain) -> bool:
    from tsolve.calendars.tables import table

    t = table("chinese")
    return t.first_day <= domain.start and domain.end <= t.last_day


@dataclass(frozen=True)
class LunarFact(Fact):
    """A fact read from the Chinese calendar table: usable only over a domain
    the table covers, and drawn from the seed day's lunar fields."""

    seed_determined: ClassVar[bool] = True

    @classmethod
    def available(cls, domain: DateDomain) -> bool:
        return chinese_table_covers(domain)

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        return cls.on_lunar_day(seed) if chinese_table_covers(domain) else None

    @classmethod
    @abstractmethod
    def on_lunar_day(cls, seed: DayView) -> Fact:
        """The fact of this kind that holds on the single day in ``seed``."""


@register_fact
@dataclass(frozen=True)
class ChineseZodiacFact(LunarFact):
    kind: ClassVar[str] = "chinese_zodiac"
    level: ClassVar[Level] = Level.YEAR
    animal: str

    def __post_init__(self) -> None:
        if self.animal not in ANIMALS:
            raise TsolveError(
                f"chinese_zodiac.animal: unknown animal {self.animal!r} "
                f"(known: {', '.join(ANIMALS)})"
            )

    def holds(self, view: DayView) -> np.ndarray:
        year = view.chinese[0]
        return np.asarray((year - 1900) % 12 == ANIMALS.index(self.animal))

    def render(self, style: Style = "implicit") -> str:
        return (
            f"The date falls in a Chinese zodiac Year of the {self.animal} "
            "(the Chinese lunar year, which begins at Chinese New Year)."
        )

    @classmethod
    def on_lunar_day(cls, seed: DayView) -> Fact:
        return cls(zodiac_animal(int(seed.chinese[0][0])))


@register_fact
@dataclass(frozen=True)
class LunarMonthFact(LunarFact):
    """A leap (intercalary) month is matched only when ``leap`` is true:
    "the 4th month" does not include the leap 4th month that follows it.
    ``leap`` null matches both, the month and the leap month of its number:
    the reading of sources that number a leap month like the month before
    it and never ask which (the Time Puzzles release, read with
    ``lunarcalendar``'s ``month``). The generator never draws it."""

    kind: ClassVar[str] = "lunar_month"
    level: ClassVar[Level] = Level.MONTH
    month: int
    leap: bool | None = False

    def __post_init__(self) -> None:
        # With ``leap`` null a month number past 12 is allowed and holds on no
        # day: the Time Puzzles release names a "14th month", which its
        # calendar library printed for days before its tables begin.
        top = 99 if self.leap is None else 12
        if (
            isinstance(self.month, bool)
            or not isinstance(self.month, int)
            or not 1 <= self.month <= top
        ):
            raise TsolveError(
                f"lunar_month.month: expected an integer in 1..{top}, got {self.month!r}"
            )
        if self.leap is not None and not isinstance(self.leap, bool):
            raise TsolveError(f"lunar_month.leap: expected true, false or null, got {self.leap!r}")

    def holds(self, view: DayView) -> np.ndarray:
        _, month, _, leap = view.chinese
        if self.leap is None:
            return np.asarray(month == self.month)
        return np.asarray((month == self.month) & (leap == self.leap))

    def render(self, style: Style = "implicit") -> str:
        if self.leap is None:
            return (
                f"In the Chinese lunar calendar, the date falls in the {ordinal(self.month)} "
                f"month or in the leap {ordinal(self.month)} month that follows it, if any."
            )
        if self.leap:
            return (
                f"In the Chinese lunar calendar, the date falls in the leap {ordinal(self.month)} "
                f"month (the intercalary month that follows the {ordinal(self.month)} month)."
            )
        return (
            f"In the Chinese lunar calendar, the date falls in the {ordinal(self.month)} month "
            "(not a leap month)."
        )

    @classmethod
    def on_lunar_day(cls, seed: DayView) -> Fact:
        _, month, _, leap = seed.chinese
        return cls(int(month[0]), bool(leap[0]))


# The lunar months whose first day the libraries put a day apart
# (docs/calendars.md): the day, and its (month, day) in the table tsolve uses
# (lunarcalendar, following HKO) and in Calendrical Calculations / lunardate.
# In all three the new moon falls within three minutes of Beijing midnight.
DISPUTED_LUNAR_DAYS: dict[_dt.date, tuple[tuple[int, int], tuple[int, int]]] = {
    _dt.date(2057, 9, 28): ((8, 30), (9, 1)),
    _dt.date(2089, 9, 4): ((7, 30), (8, 1)),
    _dt.date(2097, 8, 7): ((6, 30), (7, 1)),
}


@dataclass(frozen=True)
class OtherSourcesLunarMonthFact(LunarMonthFact):
    """:class:`LunarMonthFact` as the other lunar sources read it: the same,
    except on the disputed days, which start the next month. Not registered:
    it is a reading, never a record's fact."""

    def holds(self, view: DayView) -> np.ndarray:
        out = np.array(super().holds(view), dtype=bool)
        for day, (_ours, (month, _)) in DISPUTED_LUNAR_DAYS.items():
            at = view.days == day.toordinal()
            if at.any():
                out[at] = (month == self.month) and not self.leap
        return out

    def differs(self) -> bool:
        """Does any disputed day change this fact's truth?"""
        return (
            any(
                (ours[0] == self.month) != (other[0] == self.month)
                for ours, other in DISPUTED_LUNAR_DAYS.values()
            )
            and not self.leap
        )
