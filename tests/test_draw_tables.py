"""The generator's draw tables draw as ``sample`` does: for a weekday set and
a day-of-month range, each fact's share of the table is its probability
under ``sample`` (worked out here from the sampler's rules, exactly), and
``sample`` itself draws nothing outside the table."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from tsolve.calendars.domain import DEFAULT_DOMAIN
from tsolve.encodings.facts import DayView
from tsolve.encodings.facts.calendar_facts import (
    DayOfMonthRangeFact,
    WeekdaysFact,
    day_range_draws,
    weekdays_draws,
)
from tsolve.encodings.facts.words import WEEKDAYS


def shares(table: tuple[object, ...]) -> dict[object, Fraction]:
    return {f: Fraction(n, len(table)) for f, n in Counter(table).items()}


def sampled(cls: type, day: int, n: int = 3000) -> set[object]:
    rng = random.Random(day)
    on = DayView.of_day(day)
    return {cls.sample(rng, on, DEFAULT_DOMAIN, None) for _ in range(n)}


@pytest.mark.parametrize("own", range(7))
def test_weekday_sets_share_their_chances(own: int) -> None:
    # sample: the own weekday plus 1, 1, 2 or 3 others (one of four, uniform),
    # the others a uniform subset of the six
    chance_of_k = {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}
    got = shares(weekdays_draws(own))
    for fact, p in got.items():
        assert isinstance(fact, WeekdaysFact)
        names = fact.weekdays
        assert WEEKDAYS[own] in names and len(set(names)) == len(names)
        k = len(names) - 1
        assert p == chance_of_k[k] / comb(6, k), (names, p)
    assert sum(got.values()) == 1
    assert len(got) == 6 + 15 + 20  # every subset of one, two or three others
    day = dt.date(2024, 1, 1 + own).toordinal()  # 2024-01-01 is a Monday
    assert sampled(WeekdaysFact, day) == set(got)


@pytest.mark.parametrize("day", range(1, 32))
def test_day_ranges_share_their_chances(day: int) -> None:
    # sample: "before N", N uniform in day+1 .. min(31, day+12), and "after N",
    # N uniform in max(1, day-12) .. day-1; one of the two (uniform) when both exist
    befores = list(range(day + 1, min(31, day + 12) + 1))
    afters = list(range(max(1, day - 12), day))
    both = bool(befores) and bool(afters)
    got = shares(day_range_draws(day))
    expect: dict[object, Fraction] = {}
    for rel, ns in (("before", befores), ("after", afters)):
        for n in ns:
            side = Fraction(1, 2) if both else Fraction(1)
            expect[DayOfMonthRangeFact(rel, n)] = side / len(ns)
    assert got == expect
    # a month with that day: March has 31
    assert sampled(DayOfMonthRangeFact, dt.date(2024, 3, day).toordinal()) == set(got)
