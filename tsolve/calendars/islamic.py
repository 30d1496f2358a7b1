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
    month_namer,
    twelve_month_index,
    twelve_months,
)
from tsolve.calendars.domain import DEFAULT_END, DEFAULT_START

MONTHS = (
    "Muharram", "Safar", "Rabi al-Awwal", "Rabi al-Thani", "Jumada al-Awwal",
    "Jumada al-Thani", "Rajab", "Shaban", "Ramadan", "Shawwal", "Dhu al-Qadah",
    "Dhu al-Hijjah",
)  # fmt: skip


months_in_year = twelve_months
month_name = month_namer(MONTHS)


def build(first_day: int, last_day: int) -> MonthIndex:
    from convertdate import islamic

    return twelve_month_index(islamic, first_day, last_day)


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
