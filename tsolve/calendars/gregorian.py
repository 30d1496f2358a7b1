"""The Gregorian calendar as a table, so that every calendar goes through the
same code path (conversion, validation, month names).

Valid range: the supported range, 1800-01-01 .. 2100-12-31, which every other
table shares but Umm al-Qura's (see :mod:`tsolve.calendars.domain`).
"""

from __future__ import annotations

import calendar as _calendar
import datetime as _dt

from tsolve.calendars._base import (
    CalendarSpec,
    MonthIndex,
    month_index,
    month_namer,
    twelve_months,
)

MONTHS = tuple(_calendar.month_name[1:])


def build(first_day: int, last_day: int) -> MonthIndex:
    a = _dt.date.fromordinal(first_day)
    b = _dt.date.fromordinal(last_day)
    years: list[int] = []
    months: list[int] = []
    starts: list[int] = []
    y, m = a.year, a.month
    while (y, m) <= (b.year, b.month):
        years.append(y)
        months.append(m)
        starts.append(_dt.date(y, m, 1).toordinal())
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    end = _dt.date(y, m, 1).toordinal()
    return month_index(years, months, [False] * len(years), starts, end)


SPEC = CalendarSpec(
    name="gregorian",
    build=build,
    month_name=month_namer(MONTHS),
    months_in_year=twelve_months,
    description="Proleptic Gregorian calendar",
)
