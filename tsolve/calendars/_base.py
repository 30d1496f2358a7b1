"""Shared building blocks of the calendar tables.

Every calendar is described the same way: an ordered list of its months, each
with its (year, month, leap) label, the day number it starts on and its length.
That *month index* is what the reference libraries are asked for: a few
thousand library calls (one per month, or one per year where month lengths are
fixed by rule) instead of one per day. Some per-day calls cost milliseconds
(``convertdate.persian`` ~20 ms per date), so walking months is what makes a
build take a fraction of a second rather than hours. The per-day table is then
filled from the month index with ``np.repeat``, without a Python loop.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tsolve.calendars.domain import SUPPORTED_END, SUPPORTED_START

# Julian Day Number of proleptic Gregorian ordinal 0 (the day before 0001-01-01),
# at noon, so that ``jd - JD_OFFSET`` turns convertdate's ``x.5`` Julian days into
# ordinals: ordinal = jd - 1721424.5.
JD_OFFSET = 1721424.5


def jd_to_ordinal(jd: float) -> int:
    """convertdate Julian day (midnight, ``...x.5``) -> proleptic Gregorian ordinal."""
    return round(jd - JD_OFFSET)


def ordinal_to_jd(day: int) -> float:
    """Proleptic Gregorian ordinal -> convertdate Julian day."""
    return day + JD_OFFSET


@dataclass(frozen=True, eq=False)
class MonthIndex:
    """All months of a calendar covering a day range, in time order.

    Invariants (checked by :func:`check_month_index`): ``start`` is strictly
    increasing and ``start[i] + length[i] == start[i + 1]`` (months tile time).
    """

    year: np.ndarray  # int32
    month: np.ndarray  # int8, the calendar's own month number
    leap: np.ndarray  # bool, leap-month flag (Chinese only)
    start: np.ndarray  # int64, ordinal of day 1 of the month
    length: np.ndarray  # int16, days in the month


def month_index(
    year: list[int], month: list[int], leap: list[bool], start: list[int], end: int
) -> MonthIndex:
    """Assemble a :class:`MonthIndex` from parallel lists of month starts.

    ``end`` is the first day after the last listed month, which fixes its length.
    """
    starts = np.asarray(start, dtype=np.int64)
    length = np.diff(np.append(starts, np.int64(end)))
    idx = MonthIndex(
        np.asarray(year, dtype=np.int32),
        np.asarray(month, dtype=np.int8),
        np.asarray(leap, dtype=bool),
        starts,
        length.astype(np.int16),
    )
    check_month_index(idx)
    return idx


def check_month_index(idx: MonthIndex) -> None:
    """Fail loudly (a programming error, not a user error) on a malformed index.

    Months of 28 to 31 days hold for every calendar here (28 only for the
    Gregorian February); anything else means a library was misread.
    """
    if idx.start.size == 0:
        raise AssertionError("empty month index")
    if np.any(idx.length < 28) or np.any(idx.length > 31):
        bad = int(np.flatnonzero((idx.length < 28) | (idx.length > 31))[0])
        raise AssertionError(f"month {idx.year[bad]}-{idx.month[bad]} has {idx.length[bad]} days")


@dataclass(frozen=True)
class CalendarSpec:
    """How to build and name one calendar.

    The valid range is the supported range (1800-01-01 .. 2100-12-31, see
    :mod:`tsolve.calendars.domain`) unless the calendar's source covers less.
    """

    name: str
    build: Callable[[int, int], MonthIndex]
    month_name: Callable[[int, int, bool], str]
    months_in_year: Callable[[int], list[tuple[int, bool]]]
    description: str
    first_day: int = SUPPORTED_START.toordinal()
    last_day: int = SUPPORTED_END.toordinal()


# ---------------------------------------------------------------- twelve plain months
# Islamic (tabular and Umm al-Qura), Persian and Shaka years all have twelve
# months, none of them leap months: the naming helpers and (for the calendars
# convertdate converts month by month) the month index are shared.


def twelve_months(year: int) -> list[tuple[int, bool]]:
    """Months 1..12, none a leap month (``CalendarSpec.months_in_year``)."""
    return [(m, False) for m in range(1, 13)]


def month_namer(names: Sequence[str]) -> Callable[[int, int, bool], str]:
    """``CalendarSpec.month_name`` for a calendar whose month names do not
    depend on the year: ``names[month - 1]``."""

    def month_name(year: int, month: int, leap: bool) -> str:
        return names[month - 1]

    return month_name


def convertdate_twelve_months(module_name: str) -> Callable[[int, int], MonthIndex]:
    """``CalendarSpec.build`` for the convertdate calendar ``module_name``
    (``"islamic"``, ``"indian_civil"``), which has twelve months a year; the
    module is imported only when a table is built."""

    def build(first_day: int, last_day: int) -> MonthIndex:
        module = importlib.import_module(f"convertdate.{module_name}")
        return twelve_month_index(module, first_day, last_day)

    return build


def twelve_month_index(module: Any, first_day: int, last_day: int) -> MonthIndex:
    """The month index of a convertdate calendar module with twelve months a
    year (``from_jd``, ``to_jd``): one ``to_jd`` call per month, from the year
    holding ``first_day`` to the one holding ``last_day``."""
    y0 = int(module.from_jd(ordinal_to_jd(first_day))[0])
    y1 = int(module.from_jd(ordinal_to_jd(last_day))[0])
    years: list[int] = []
    months: list[int] = []
    starts: list[int] = []
    for y in range(y0, y1 + 1):
        for m in range(1, 13):
            years.append(y)
            months.append(m)
            starts.append(jd_to_ordinal(module.to_jd(y, m, 1)))
    end = jd_to_ordinal(module.to_jd(y1 + 1, 1, 1))
    return month_index(years, months, [False] * len(years), starts, end)
