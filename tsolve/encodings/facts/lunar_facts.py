"""Chinese lunar facts: zodiac animal and lunar month, read from the Chinese
calendar table (``lunarcalendar``, cross-checked against ``lunardate`` and
published New Year dates in the tests)."""

from __future__ import annotations

import random
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


@register_fact
@dataclass(frozen=True)
class ChineseZodiacFact(Fact):
    kind: ClassVar[str] = "chinese_zodiac"
    level: ClassVar[Level] = Level.YEAR
    animal: str

    def __post_init__(self) -> None:
        if self.animal not in ANIMALS:
            raise TsolveError(
                f"chinese_zodiac.animal: unknown animal {self.animal!r} "
                f"(known: {', '.join(ANIMALS)})"
            )

    @classmethod
    def available(cls, domain: DateDomain) -> bool:
        return chinese_table_covers(domain)

    def holds(self, view: DayView) -> np.ndarray:
        year = view.chinese[0]
        return np.asarray((year - 1900) % 12 == ANIMALS.index(self.animal))

    def render(self, style: Style = "implicit") -> str:
        return (
            f"The date falls in a Chinese zodiac Year of the {self.animal} "
            "(the Chinese lunar year, which begins at Chinese New Year)."
        )

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        if not chinese_table_covers(domain):
            return None
        return cls(zodiac_animal(int(seed.chinese[0][0])))


@register_fact
@dataclass(frozen=True)
class LunarMonthFact(Fact):
    """A leap (intercalary) month is matched only when ``leap`` is true:
    "the 4th month" does not include the leap 4th month that follows it."""

    kind: ClassVar[str] = "lunar_month"
    level: ClassVar[Level] = Level.MONTH
    month: int
    leap: bool = False

    def __post_init__(self) -> None:
        if (
            isinstance(self.month, bool)
            or not isinstance(self.month, int)
            or not 1 <= self.month <= 12
        ):
            raise TsolveError(
                f"lunar_month.month: expected an integer in 1..12, got {self.month!r}"
            )
        if not isinstance(self.leap, bool):
            raise TsolveError(f"lunar_month.leap: expected true or false, got {self.leap!r}")

    @classmethod
    def available(cls, domain: DateDomain) -> bool:
        return chinese_table_covers(domain)

    def holds(self, view: DayView) -> np.ndarray:
        _, month, _, leap = view.chinese
        return np.asarray((month == self.month) & (leap == self.leap))

    def render(self, style: Style = "implicit") -> str:
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
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        if not chinese_table_covers(domain):
            return None
        _, month, _, leap = seed.chinese
        return cls(int(month[0]), bool(leap[0]))
