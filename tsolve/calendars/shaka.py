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
    month_namer,
    twelve_month_index,
    twelve_months,
)
from tsolve.calendars.domain import DEFAULT_END, DEFAULT_START

MONTHS = (
    "Chaitra", "Vaishakha", "Jyeshtha", "Ashadha", "Shravana", "Bhadrapada",
    "Ashvin", "Kartika", "Agrahayana", "Pausha", "Magha", "Phalguna",
)  # fmt: skip


months_in_year = twelve_months
month_name = month_namer(MONTHS)


def build(first_day: int, last_day: int) -> MonthIndex:
    from convertdate import indian_civil

    return twelve_month_index(indian_civil, first_day, last_day)


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
