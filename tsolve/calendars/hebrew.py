"""Hebrew calendar, from ``convertdate.hebrew``.

Month numbers follow convertdate (and the Bible's count): Nisan = 1, ...,
Elul = 6, Tishrei = 7, ..., Adar = 12, and in leap years (7 of every 19) a 13th
month. In a leap year month 12 is *Adar I* and month 13 *Adar II*; in a common
year month 12 is plain *Adar* and month 13 does not exist. The year number
changes at Rosh Hashanah (1 Tishrei), so a year runs 7, 8, ..., 12, (13), 1, ..., 6.

Valid range: 1800-01-01 .. 2100-12-31 (the supported range; convertdate itself is
arithmetical and unbounded, the fixed calendar of Hillel II). The build asks
``to_jd`` for the first day of every month (about 3,700 calls at ~0.1 ms).
"""

from __future__ import annotations

import warnings

from tsolve.calendars._base import (
    CalendarSpec,
    MonthIndex,
    jd_to_ordinal,
    month_index,
    ordinal_to_jd,
)

MONTHS = (
    "Nisan", "Iyar", "Sivan", "Tammuz", "Av", "Elul",
    "Tishrei", "Cheshvan", "Kislev", "Tevet", "Shevat", "Adar", "Adar II",
)  # fmt: skip


def is_leap(year: int) -> bool:
    """Leap (13-month) year: years 3, 6, 8, 11, 14, 17, 19 of the 19-year cycle."""
    return (7 * year + 1) % 19 < 7


def months_in_year(year: int) -> list[tuple[int, bool]]:
    """(month, leap) labels of Hebrew ``year`` in time order, Tishrei first."""
    last = 13 if is_leap(year) else 12
    return [(m, False) for m in (*range(7, last + 1), *range(1, 7))]


def _start(year: int, month: int) -> int:
    from convertdate import hebrew

    # convertdate's to_jd calls its own deprecated month_days(): not our concern.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return jd_to_ordinal(hebrew.to_jd(year, month, 1))


def _year_of(day: int) -> int:
    from convertdate import hebrew

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return int(hebrew.from_jd(ordinal_to_jd(day))[0])


def build(first_day: int, last_day: int) -> MonthIndex:
    y0, y1 = _year_of(first_day), _year_of(last_day)
    years: list[int] = []
    months: list[int] = []
    starts: list[int] = []
    for y in range(y0, y1 + 1):
        for m, _ in months_in_year(y):
            years.append(y)
            months.append(m)
            starts.append(_start(y, m))
    end = _start(y1 + 1, 7)
    return month_index(years, months, [False] * len(years), starts, end)


def month_name(year: int, month: int, leap: bool) -> str:
    """'Adar I' for month 12 of a leap year, 'Adar' in a common year."""
    if month == 12 and is_leap(year):
        return "Adar I"
    return MONTHS[month - 1]


SPEC = CalendarSpec(
    name="hebrew",
    build=build,
    month_name=month_name,
    months_in_year=months_in_year,
    description="Hebrew calendar (convertdate.hebrew), Nisan = 1, Adar II = 13",
)
