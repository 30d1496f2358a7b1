"""Tabular (arithmetical) Islamic calendar, from ``convertdate.islamic``.

This is the calendar the SPAN benchmark used. Months alternate 30 and 29 days
(Muharram = 30), and Dhu al-Hijjah has 30 days in 11 leap years of each 30-year
cycle; the epoch is 16 July 622 (Julian). It is a rule, not an observation, so
it differs by a day or two from the Umm al-Qura calendar (see
:mod:`tsolve.calendars.umalqura`) and from sighting-based dates: questions
always name the variant.

Valid range: 1900-01-31 .. 2100-12-31 (the shared domain).
"""

from __future__ import annotations

from tsolve.calendars._base import (
    CalendarSpec,
    MonthIndex,
    jd_to_ordinal,
    month_index,
    ordinal_to_jd,
)
from tsolve.calendars.domain import DEFAULT_END, DEFAULT_START

MONTHS = (
    "Muharram", "Safar", "Rabi al-Awwal", "Rabi al-Thani", "Jumada al-Awwal",
    "Jumada al-Thani", "Rajab", "Shaban", "Ramadan", "Shawwal", "Dhu al-Qadah",
    "Dhu al-Hijjah",
)  # fmt: skip


def months_in_year(year: int) -> list[tuple[int, bool]]:
    return [(m, False) for m in range(1, 13)]


def month_name(year: int, month: int, leap: bool) -> str:
    return MONTHS[month - 1]


def build(first_day: int, last_day: int) -> MonthIndex:
    from convertdate import islamic

    y0 = int(islamic.from_jd(ordinal_to_jd(first_day))[0])
    y1 = int(islamic.from_jd(ordinal_to_jd(last_day))[0])
    years: list[int] = []
    months: list[int] = []
    starts: list[int] = []
    for y in range(y0, y1 + 1):
        for m in range(1, 13):
            years.append(y)
            months.append(m)
            starts.append(jd_to_ordinal(islamic.to_jd(y, m, 1)))
    end = jd_to_ordinal(islamic.to_jd(y1 + 1, 1, 1))
    return month_index(years, months, [False] * len(years), starts, end)


SPEC = CalendarSpec(
    name="islamic",
    library="convertdate",
    first_day=DEFAULT_START.toordinal(),
    last_day=DEFAULT_END.toordinal(),
    build=build,
    month_name=month_name,
    months_in_year=months_in_year,
    description="Tabular Islamic calendar (convertdate.islamic), as used by SPAN",
)
