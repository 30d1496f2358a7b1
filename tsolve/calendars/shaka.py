"""Indian national (Shaka) calendar, from ``convertdate.indian_civil``.

Chaitra 1 is 22 March (21 March in Gregorian leap years); Chaitra has 30 days
(31 in leap years), Vaishakha..Bhadrapada 31, Ashvin..Phalguna 30. The Shaka
year is the Gregorian year minus 78 from Chaitra 1 on. Month numbers follow
convertdate: Chaitra = 1.

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
    "Chaitra", "Vaishakha", "Jyeshtha", "Ashadha", "Shravana", "Bhadrapada",
    "Ashvin", "Kartika", "Agrahayana", "Pausha", "Magha", "Phalguna",
)  # fmt: skip


def months_in_year(year: int) -> list[tuple[int, bool]]:
    return [(m, False) for m in range(1, 13)]


def month_name(year: int, month: int, leap: bool) -> str:
    return MONTHS[month - 1]


def build(first_day: int, last_day: int) -> MonthIndex:
    from convertdate import indian_civil

    y0 = int(indian_civil.from_jd(ordinal_to_jd(first_day))[0])
    y1 = int(indian_civil.from_jd(ordinal_to_jd(last_day))[0])
    years: list[int] = []
    months: list[int] = []
    starts: list[int] = []
    for y in range(y0, y1 + 1):
        for m in range(1, 13):
            years.append(y)
            months.append(m)
            starts.append(jd_to_ordinal(indian_civil.to_jd(y, m, 1)))
    end = jd_to_ordinal(indian_civil.to_jd(y1 + 1, 1, 1))
    return month_index(years, months, [False] * len(years), starts, end)


SPEC = CalendarSpec(
    name="shaka",
    library="convertdate",
    first_day=DEFAULT_START.toordinal(),
    last_day=DEFAULT_END.toordinal(),
    build=build,
    month_name=month_name,
    months_in_year=months_in_year,
    description="Indian national (Shaka) calendar (convertdate.indian_civil)",
)
