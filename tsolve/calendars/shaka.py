"""Indian national (Shaka) calendar, from ``convertdate.indian_civil``.

Chaitra 1 is 22 March (21 March in Gregorian leap years); Chaitra has 30 days
(31 in leap years), Vaishakha..Bhadrapada 31, Ashvin..Phalguna 30. The Shaka
year is the Gregorian year minus 78 from Chaitra 1 on. Month numbers follow
convertdate: Chaitra = 1.

Valid range: 1800-01-01 .. 2100-12-31 (the supported range). The calendar was
adopted in 1957; earlier dates are proleptic, as convertdate's are.
"""

from __future__ import annotations

from tsolve.calendars._base import (
    CalendarSpec,
    convertdate_twelve_months,
    month_namer,
    twelve_months,
)

MONTHS = (
    "Chaitra", "Vaishakha", "Jyeshtha", "Ashadha", "Shravana", "Bhadrapada",
    "Ashvin", "Kartika", "Agrahayana", "Pausha", "Magha", "Phalguna",
)  # fmt: skip


SPEC = CalendarSpec(
    name="shaka",
    build=convertdate_twelve_months("indian_civil"),
    month_name=month_namer(MONTHS),
    months_in_year=twelve_months,
    description="Indian national (Shaka) calendar (convertdate.indian_civil)",
)
