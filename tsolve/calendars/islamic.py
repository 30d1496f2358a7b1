"""Tabular (arithmetical) Islamic calendar, from ``convertdate.islamic``.

This is the calendar the SPAN benchmark used. Months alternate 30 and 29 days
(Muharram = 30), and Dhu al-Hijjah has 30 days in 11 leap years of each 30-year
cycle; the epoch is 16 July 622 (Julian). It is a rule, not an observation, so
it differs by a day or two from the Umm al-Qura calendar (see
:mod:`tsolve.calendars.umalqura`) and from sighting-based dates: questions
always name the variant.

Valid range: 1800-01-01 .. 2100-12-31 (the supported range; the rule itself is
unbounded).
"""

from __future__ import annotations

from tsolve.calendars._base import (
    CalendarSpec,
    convertdate_twelve_months,
    month_namer,
    twelve_months,
)

MONTHS = (
    "Muharram", "Safar", "Rabi al-Awwal", "Rabi al-Thani", "Jumada al-Awwal",
    "Jumada al-Thani", "Rajab", "Shaban", "Ramadan", "Shawwal", "Dhu al-Qadah",
    "Dhu al-Hijjah",
)  # fmt: skip


SPEC = CalendarSpec(
    name="islamic",
    build=convertdate_twelve_months("islamic"),
    month_name=month_namer(MONTHS),
    months_in_year=twelve_months,
    description="Tabular (arithmetical) Islamic calendar (convertdate.islamic)",
)
