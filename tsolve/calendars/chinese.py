"""Chinese lunisolar calendar: lunar_python before 1900, lunarcalendar from 1900.

The year is the lunar year number: it changes at Chinese New Year (lunar 1/1),
not on 1 January, so 2024-02-09 is lunar 2023-12-30 and 2024-02-10 is 2024-1-1.
Months are numbered 1..12; a leap month repeats the number of the month before
it and carries ``leap=True`` (2023 had a leap 2nd month: 2-1 .. 2-30, then
leap 2-1 .. leap 2-29, then 3-1).

Valid range: 1800-01-01 (lunar 1799-11-16) .. 2100-12-31. Two sources, split
at lunar year 1900 (whose first day, 1900-01-31, both give):

* lunar years 1900..2101 from lunarcalendar, whose tables (the Hong Kong
  Observatory's) start at 1900-01-31. Before that date it does not fail: it
  answers wrong lunar years and months (it calls 1828-09-06 a Year of the Pig,
  a day of the Year of the Rat), so it is never asked about earlier days.
* lunar years 1799..1899 from lunar_python (6tail's astronomical calendar,
  new moons and solar terms computed for Beijing time), which a test checks
  day by day against sxtwl, an independent implementation of the same rules.

lunarcalendar's walk asks ``Converter.Lunar2Solar`` for each month's first day
(about 2,500 calls) instead of calling ``Solar2Lunar`` for each of the 73,000
days, and finds leap months through the library's own existence check
(``Lunar(..., isleap=True)`` raises ``DateNotExist`` when that leap month does
not exist), so only the public API is used. lunar_python lists each lunar
year's months with their first Julian day (``LunarYear.getMonths``).

The walks take ~80 ms (lunarcalendar) and ~1 s (lunar_python), which every
cold start that draws a lunar fact would pay, so their result ships as package
data: ``data/chinese_months.csv`` holds each lunar month's start as the walks
compute it (:func:`months_csv` is its text) and :func:`build` reads it;
``tests/test_calendars_tables.py`` recomputes the file from the installed
libraries. Neither library is needed at run time for the shipped range.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
from functools import cache

from tsolve.calendars._base import CalendarSpec, MonthIndex, month_index
from tsolve.calendars.data_files import data_text

FIRST_DAY = _dt.date(1800, 1, 1).toordinal()
LAST_DAY = _dt.date(2100, 12, 31).toordinal()

#: The first lunar year taken from lunarcalendar; earlier years come from
#: lunar_python (lunarcalendar's tables start at lunar 1900-1-1).
LUNARCALENDAR_FIRST_YEAR = 1900

# Heavenly stems and earthly branches, and the zodiac animal of each branch:
# handy for puzzle facts ("the Year of the Dragon") keyed by the lunar year.
ZODIAC = (
    "Rat", "Ox", "Tiger", "Rabbit", "Dragon", "Snake",
    "Horse", "Goat", "Monkey", "Rooster", "Dog", "Pig",
)  # fmt: skip


def zodiac(lunar_year: int) -> str:
    """Zodiac animal of a lunar year (1900, 2020 were Rat years)."""
    return ZODIAC[(lunar_year - 1900) % 12]


def _leap_month(year: int) -> int:
    """The leap month number of lunar ``year``, 0 if none (library check)."""
    from lunarcalendar.converter import DateNotExist, Lunar

    for m in range(1, 13):
        try:
            Lunar(year, m, 1, isleap=True)
        except DateNotExist:
            continue
        return m
    return 0


def months_in_year(year: int) -> list[tuple[int, bool]]:
    """(month, leap) labels of lunar ``year`` in time order: from the shipped
    month starts for the years of the calendar's range, else from the
    library that covers the year."""
    shipped = _shipped_labels()
    if year in shipped:
        return list(shipped[year])
    if year < LUNARCALENDAR_FIRST_YEAR:
        return [(m, lp) for _, m, lp, _ in _lunar_python_months(year)]
    return _lunarcalendar_months(year)


@cache
def _shipped_labels() -> dict[int, tuple[tuple[int, bool], ...]]:
    """(month, leap) labels of each whole lunar year in the shipped file (the
    file's last row, the first month of the year after, is left out)."""
    out: dict[int, list[tuple[int, bool]]] = {}
    for y, m, lp, _ in shipped_months()[:-1]:
        out.setdefault(y, []).append((m, lp))
    return {y: tuple(v) for y, v in out.items()}


def _lunar_python_months(year: int) -> list[tuple[int, int, bool, int]]:
    """(year, month, leap, start day) of every month of lunar ``year`` from
    lunar_python, in time order (its month numbers are negative for leap
    months; ``getFirstJulianDay`` is the Julian day number at noon)."""
    from lunar_python import LunarYear, Solar

    out = []
    for lm in LunarYear.fromYear(year).getMonths():
        if lm.getYear() != year:
            continue  # getMonths() also lists the neighbouring years' months
        s = Solar.fromJulianDay(lm.getFirstJulianDay())
        start = _dt.date(s.getYear(), s.getMonth(), s.getDay()).toordinal()
        out.append((year, abs(lm.getMonth()), lm.getMonth() < 0, start))
    return out


def _start(year: int, month: int, leap: bool) -> int:
    from lunarcalendar.converter import Converter, Lunar

    s = Converter.Lunar2Solar(Lunar(year, month, 1, isleap=leap, check=False))
    return _dt.date(s.year, s.month, s.day).toordinal()


def _years(first_day: int, last_day: int) -> range:
    """The lunar years :func:`build` lists for a day range: from the one
    before ``first_day``'s Gregorian year (a range starting before Chinese New
    Year begins in the previous lunar year) to ``last_day``'s."""
    y0 = _dt.date.fromordinal(first_day).year - 1
    y1 = _dt.date.fromordinal(last_day).year
    return range(y0, y1 + 1)


def _year_months(year: int) -> list[tuple[int, int, bool, int]]:
    """The months of one lunar year from the library that covers it."""
    if year < LUNARCALENDAR_FIRST_YEAR:
        return _lunar_python_months(year)
    return [(year, m, lp, _start(year, m, lp)) for m, lp in _lunarcalendar_months(year)]


def _lunarcalendar_months(year: int) -> list[tuple[int, bool]]:
    """(month, leap) labels of lunar ``year`` per lunarcalendar (1900 on)."""
    leap = _leap_month(year)
    out: list[tuple[int, bool]] = []
    for m in range(1, 13):
        out.append((m, False))
        if m == leap:
            out.append((m, True))
    return out


def walk(first_day: int, last_day: int) -> list[tuple[int, int, bool, int]]:
    """(lunar year, month, leap, start day) of every lunar month :func:`build`
    needs, and then the first month of the year after, from lunar_python
    (years before 1900) and lunarcalendar (1900 on): the reference
    ``chinese_months.csv`` is written from and tested against."""
    years = _years(first_day, last_day)
    out = [row for y in years for row in _year_months(y)]
    # The month after the last one: new year of the year after (the library's
    # data runs past 2100, so this is defined even at the end of the range).
    nxt = years[-1] + 1
    return [*out, _year_months(nxt)[0]]


# Packaged month starts: columns lunar_year, month, leap (0/1), start (ISO).
MONTHS_FILE = "chinese_months.csv"
MONTHS_COLUMNS = ("lunar_year", "month", "leap", "start")


def months_csv() -> str:
    """The text ``chinese_months.csv`` must have over the calendar's range
    (:func:`walk`). The tests compare the shipped file with it;
    data/README.md gives the command that rewrites the file."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MONTHS_COLUMNS)
    for y, m, lp, start in walk(FIRST_DAY, LAST_DAY):
        writer.writerow((y, m, int(lp), _dt.date.fromordinal(start).isoformat()))
    return out.getvalue()


def shipped_months() -> list[tuple[int, int, bool, int]]:
    """The packaged rows of :func:`walk` over the calendar's range."""
    rows = csv.reader(io.StringIO(data_text(MONTHS_FILE)))
    if tuple(next(rows)) != MONTHS_COLUMNS:
        raise AssertionError(f"{MONTHS_FILE}: header is not {','.join(MONTHS_COLUMNS)}")
    return [
        (int(y), int(m), lp == "1", _dt.date.fromisoformat(start).toordinal())
        for y, m, lp, start in rows
    ]


def build(first_day: int, last_day: int) -> MonthIndex:
    """Month index of every lunar month overlapping ``[first_day, last_day]``:
    from the packaged month starts, or from the libraries (:func:`walk`) for
    a range the file does not cover."""
    years = _years(first_day, last_day)
    wanted = set(years)
    shipped = shipped_months()
    rows = [r for r in shipped if r[0] in wanted]
    end = [r for r in shipped if r[:3] == (years[-1] + 1, 1, False)]
    if {r[0] for r in rows} != wanted or not end:
        *rows, last = walk(first_day, last_day)
        end = [last]
    return month_index(
        [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
        [r[3] for r in rows], end[0][3],
    )  # fmt: skip


def month_name(year: int, month: int, leap: bool) -> str:
    """English name: 'Month 8', 'Leap Month 4' (Chinese months are numbered)."""
    return f"Leap Month {month}" if leap else f"Month {month}"


SPEC = CalendarSpec(
    name="chinese",
    build=build,
    month_name=month_name,
    months_in_year=months_in_year,
    description=(
        "Chinese lunisolar calendar (lunar_python before 1900, lunarcalendar from 1900); "
        "leap months flagged"
    ),
    first_day=FIRST_DAY,
    last_day=LAST_DAY,
)
