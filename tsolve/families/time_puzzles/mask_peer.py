"""The NumPy-mask peer for time-puzzle generation (issue 14, target 1).

What a careful engineer would write in an afternoon from the Time Puzzles
paper alone, with no knowledge base and no certificate: the default domain as
an array of day numbers with one array per calendar field; each fact a
boolean test on those arrays, true of a hidden seed date; facts of the
calendar categories tsolve also has (year, decade, leap year, month, season,
weekday, one of several weekdays, nth weekday of the month, day of month, day
before/after the Nth) ANDed in, in random order, until exactly M dates are
left. A fact that would leave fewer than M is skipped; a set that runs out of
categories above M starts again from a new seed. The candidate set is kept as
the indices of the days still possible, so each fact costs only as much as the
days it can still remove.

It is the floor tsolve's generator is held to. tsolve does more per puzzle:
knowledge-base anchors, balanced levels, readings, a CP-SAT certificate of the
gold, the measured difficulty, the record itself. So the issue asks for at
least half this peer's rate, not parity. Both are timed in the same
interleaved rounds (:func:`tsolve.bench.measure.paired_measure`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain, gregorian_fields

# A category: (fields, the seed's index, rng) -> the field to compare and the
# set of values that make the fact true.
_Category = Callable[[dict[str, np.ndarray], int, np.random.Generator], tuple[str, set[int]]]


def _equal(name: str) -> _Category:
    return lambda f, s, rng: (name, {int(f[name][s])})


def _weekdays(f: dict[str, np.ndarray], s: int, rng: np.random.Generator) -> tuple[str, set[int]]:
    own = int(f["weekday"][s])
    others = [w for w in range(7) if w != own]
    extra = rng.choice(others, size=int(rng.choice((1, 1, 2, 3))), replace=False)
    return "weekday", {own, *map(int, extra)}


def _day_range(f: dict[str, np.ndarray], s: int, rng: np.random.Generator) -> tuple[str, set[int]]:
    day = int(f["day"][s])
    if day == 1 or (day < 31 and rng.random() < 0.5):  # before N, N in day+1..day+12
        n = int(rng.integers(day + 1, min(31, day + 12) + 1))
        return "day", set(range(1, n))
    n = int(rng.integers(max(1, day - 12), day))  # after N
    return "day", set(range(n + 1, 32))


#: The peer's categories, as tsolve's calendar categories instantiate them.
PEER_CATEGORIES: dict[str, _Category] = {
    "year": _equal("year"),
    "decade": _equal("decade"),
    "leap_year": _equal("leap"),
    "month": _equal("month"),
    "season": _equal("season"),
    "weekday": _equal("weekday"),
    "weekdays": _weekdays,
    "weekday_in_month": _equal("nth_weekday"),
    "day_of_month": _equal("day"),
    "day_of_month_range": _day_range,
}


class MaskPeer:
    """One domain's field arrays, built once; :meth:`puzzle` draws a puzzle."""

    def __init__(self, domain: DateDomain = DEFAULT_DOMAIN) -> None:
        g = gregorian_fields(domain.days)
        leap = (g.year % 4 == 0) & ((g.year % 100 != 0) | (g.year % 400 == 0))
        self.size = int(domain.days.size)
        self.fields = {
            "year": g.year,
            "decade": g.year // 10,
            "leap": leap.astype(np.int64),
            "month": g.month,
            "season": (g.month % 12) // 3,  # winter, spring, summer, autumn
            "weekday": g.weekday,
            "nth_weekday": g.weekday * 8 + (g.day - 1) // 7,
            "day": g.day,
        }
        self.categories = list(PEER_CATEGORIES.values())

    def puzzle(self, rng: np.random.Generator, m: int) -> tuple[int, int]:
        """(seed day index, categories tried) for a puzzle with exactly ``m`` >= 1 dates."""
        if m < 1:
            raise ValueError("the peer makes puzzles with at least one date")
        while True:
            seed = int(rng.integers(self.size))
            alive = np.arange(self.size)  # the days still possible, as indices
            for used, k in enumerate(rng.permutation(len(self.categories)), 1):
                name, values = self.categories[int(k)](self.fields, seed, rng)
                field = self.fields[name][alive]
                keep = field == values.pop() if len(values) == 1 else np.isin(field, list(values))
                if np.count_nonzero(keep) < m:
                    continue  # would overshoot: skip this category
                alive = alive[keep]
                if alive.size == m:
                    return seed, used
