"""Persian (Solar Hijri) calendar, by ``convertdate.persian``'s rule.

convertdate's Persian calendar is astronomical: the year starts (Nowruz,
1 Farvardin) on the day of the March equinox reckoned at the Tehran meridian.
Months 1-6 have 31 days, 7-11 have 30, and Esfand (12) has 29 or 30 days,
whatever is left before the next Nowruz.

convertdate computes each date from an equinox (pymeeus) and costs ~20-70 ms
per call, so the table needs only the equinoxes (``persian.equinox_jd``, one
per Gregorian year) and applies the fixed month lengths.
``equinox_jd`` returns the integer Julian day N whose Tehran-noon-to-noon span
holds the equinox; ``to_jd(y, 1, 1)`` and ``from_jd`` put 1 Farvardin on the
civil day beginning at JD N + 0.5, i.e. the equinox day if the equinox is
before Tehran noon, else the next day, which is the official rule. (Internally
``last_equinox_jd`` returns N - 1 and adds the day back; the tests check the
table against ``to_jd`` and ``from_jd`` on sampled days.)

Even the ~300 equinoxes take pymeeus most of a second, so they ship with the
package: ``data/persian_nowruz.csv`` holds each year's Nowruz as :func:`nowruz`
computes it (:func:`nowruz_csv` is its text), and :func:`build` reads it.
The rows are :func:`equinox_jd`'s, convertdate's computation with a repair
to pymeeus's equation of time that moves six Nowruz days of the 1800s (none
from 1900 on). A test recomputes every row from the installed pymeeus and
holds the rows from 1900 on equal to convertdate's own, so an upgrade that
moves an equinox fails the tests instead of going unnoticed.

Valid range: 1800-01-01 .. 2100-12-31 (the supported range). The calendar was
adopted by law in 1925; earlier dates are proleptic, as convertdate's are.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import math

from tsolve.calendars._base import (
    CalendarSpec,
    MonthIndex,
    jd_to_ordinal,
    month_index,
    month_namer,
    twelve_months,
)
from tsolve.calendars.data_files import data_text

MONTHS = (
    "Farvardin", "Ordibehesht", "Khordad", "Tir", "Mordad", "Shahrivar",
    "Mehr", "Aban", "Azar", "Dey", "Bahman", "Esfand",
)  # fmt: skip

# Gregorian year - Persian year for the Nowruz that falls in that Gregorian year.
OFFSET = 621


# Packaged Nowruz dates: columns persian_year, nowruz (ISO Gregorian date).
NOWRUZ_FILE = "persian_nowruz.csv"
NOWRUZ_COLUMNS = ("persian_year", "nowruz")


def nowruz(persian_year: int) -> int:
    """Ordinal of 1 Farvardin of ``persian_year`` by convertdate's rule
    (:func:`equinox_jd`).

    The reference the packaged ``persian_nowruz.csv`` is written from and
    tested against; the table itself reads the file.
    """
    return jd_to_ordinal(equinox_jd(persian_year + OFFSET) + 0.5)


def equinox_jd(gregorian_year: int) -> int:
    """The Julian day (noon to noon, Tehran) of the March equinox of
    ``gregorian_year``: ``convertdate.persian.equinox_jd`` with one repair.

    The steps are convertdate's (pymeeus's equinox in TT, less Delta T, plus
    the equation of time, at 52.5 deg E), but pymeeus's
    ``Sun.equation_of_time`` returns about -7.5 minutes as +352.5 in some
    years (an angle wrapped at 360 read as minutes), which pushes the
    equinox almost six hours later. In 1800-1899 that moves six Nowruz days
    (1864, 1876, 1880, 1888, 1892, 1897 fall on 20 March, not 21), where
    jdatetime, the equinox itself and this function agree; from 1900 to 2102
    it moves none, so those rows equal convertdate's
    (``tests/test_calendars_crosscheck.py`` holds both).
    """
    from pymeeus.Epoch import Epoch
    from pymeeus.Sun import Sun

    tt = Sun.get_equinox_solstice(gregorian_year, target="spring")
    ut = tt - Epoch.tt2ut(gregorian_year, 3) / 86400.0
    minutes, seconds = Sun.equation_of_time(ut)
    eot = minutes + seconds / 60.0
    if eot > 180:  # the wrapped value; the true one is within +-17 minutes
        eot -= 360
    return math.floor((ut + eot / 1440.0).jde() + 52.5 / 360)


def nowruz_years(first_day: int, last_day: int) -> range:
    """The Persian years whose Nowruz :func:`build` needs for a day range: from
    the year that starts in the Gregorian year before ``first_day`` (a range
    starting before Nowruz begins in the previous Persian year) to the one
    after the last, which ends the last year's Esfand."""
    g0 = _dt.date.fromordinal(first_day).year - 1
    g1 = _dt.date.fromordinal(last_day).year
    return range(g0 - OFFSET, g1 - OFFSET + 2)


def nowruz_csv() -> str:
    """The text ``persian_nowruz.csv`` must have: a row for each Persian year
    :func:`build` needs over the calendar's range, computed by convertdate
    (~1 s). The tests compare the shipped file with it; data/README.md gives
    the command that rewrites the file."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(NOWRUZ_COLUMNS)
    for y in nowruz_years(SPEC.first_day, SPEC.last_day):
        writer.writerow((y, _dt.date.fromordinal(nowruz(y)).isoformat()))
    return out.getvalue()


def shipped_nowruz() -> dict[int, int]:
    """Persian year -> ordinal of its Nowruz, from the packaged file."""
    rows = csv.reader(io.StringIO(data_text(NOWRUZ_FILE)))
    if tuple(next(rows)) != NOWRUZ_COLUMNS:
        raise AssertionError(f"{NOWRUZ_FILE}: header is not {','.join(NOWRUZ_COLUMNS)}")
    return {int(y): _dt.date.fromisoformat(iso).toordinal() for y, iso in rows}


def build(first_day: int, last_day: int) -> MonthIndex:
    years_needed = nowruz_years(first_day, last_day)
    shipped = shipped_nowruz()
    missing = [y for y in years_needed if y not in shipped]
    if missing:
        raise AssertionError(
            f"{NOWRUZ_FILE} lacks Persian years {missing[0]}..{missing[-1]}: regenerate it "
            "with nowruz_csv()"
        )
    years: list[int] = []
    months: list[int] = []
    starts: list[int] = []
    for y in years_needed[:-1]:
        s = shipped[y]
        for m in range(1, 13):
            years.append(y)
            months.append(m)
            starts.append(s + (m - 1) * 31 if m <= 7 else s + (m - 1) * 30 + 6)
    end = shipped[years_needed[-1]]
    return month_index(years, months, [False] * len(years), starts, end)


SPEC = CalendarSpec(
    name="persian",
    build=build,
    month_name=month_namer(MONTHS),
    months_in_year=twelve_months,
    description="Persian Solar Hijri calendar (convertdate.persian's rule, astronomical)",
)
