"""Spot checks against published dates, written by hand from public calendars
(Hong Kong Observatory almanac, hebcal/Jewish calendars, the Iranian official
calendar, Saudi Umm al-Qura announcements, the Indian national calendar rule).
None of these values was produced by tsolve."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from tsolve.calendars import festival, table
from tsolve.calendars.conversion import date_of

D = dt.date.toordinal

# Chinese New Year (lunar 1/1), 2000-2025, and the first day of the table.
CHINESE_NEW_YEAR = {
    1900: "1900-01-31", 2000: "2000-02-05", 2001: "2001-01-24", 2002: "2002-02-12",
    2003: "2003-02-01", 2004: "2004-01-22", 2005: "2005-02-09", 2006: "2006-01-29",
    2007: "2007-02-18", 2008: "2008-02-07", 2009: "2009-01-26", 2010: "2010-02-14",
    2011: "2011-02-03", 2012: "2012-01-23", 2013: "2013-02-10", 2014: "2014-01-31",
    2015: "2015-02-19", 2016: "2016-02-08", 2017: "2017-01-28", 2018: "2018-02-16",
    2019: "2019-02-05", 2020: "2020-01-25", 2021: "2021-02-12", 2022: "2022-02-01",
    2023: "2023-01-22", 2024: "2024-02-10", 2025: "2025-01-29",
}  # fmt: skip


@pytest.mark.parametrize(("year", "iso"), sorted(CHINESE_NEW_YEAR.items()))
def test_chinese_new_year(year: int, iso: str) -> None:
    assert date_of("chinese", year, 1, 1) == D(dt.date.fromisoformat(iso))
    assert festival("Chinese New Year", year, "chinese").tolist() == [D(dt.date.fromisoformat(iso))]


MID_AUTUMN = {
    2014: "2014-09-08", 2015: "2015-09-27", 2016: "2016-09-15", 2017: "2017-10-04",
    2018: "2018-09-24", 2019: "2019-09-13", 2020: "2020-10-01", 2021: "2021-09-21",
    2022: "2022-09-10", 2023: "2023-09-29", 2024: "2024-09-17",
}  # fmt: skip


@pytest.mark.parametrize(("year", "iso"), sorted(MID_AUTUMN.items()))
def test_mid_autumn(year: int, iso: str) -> None:
    assert festival("Mid-Autumn Festival", year).tolist() == [D(dt.date.fromisoformat(iso))]


# First day of Chinese leap months (闰月).
CHINESE_LEAP_MONTHS = [
    (2014, 9, "2014-10-24"), (2017, 6, "2017-07-23"), (2020, 4, "2020-05-23"),
    (2023, 2, "2023-03-22"), (2025, 6, "2025-07-25"),
]  # fmt: skip


@pytest.mark.parametrize(("year", "month", "iso"), CHINESE_LEAP_MONTHS)
def test_chinese_leap_months(year: int, month: int, iso: str) -> None:
    day = D(dt.date.fromisoformat(iso))
    assert date_of("chinese", year, month, 1, True) == day
    y, m, d, lp = table("chinese").fields(np.array([day]))
    assert (int(y[0]), int(m[0]), int(d[0]), bool(lp[0])) == (year, month, 1, True)


HEBREW = [  # (festival, Gregorian year, date)
    ("Rosh Hashanah", 2020, "2020-09-19"), ("Rosh Hashanah", 2021, "2021-09-07"),
    ("Rosh Hashanah", 2022, "2022-09-26"), ("Rosh Hashanah", 2023, "2023-09-16"),
    ("Rosh Hashanah", 2024, "2024-10-03"), ("Rosh Hashanah", 2025, "2025-09-23"),
    ("Yom Kippur", 2023, "2023-09-25"), ("Yom Kippur", 2024, "2024-10-12"),
    ("Passover", 2023, "2023-04-06"), ("Passover", 2024, "2024-04-23"),
    ("Passover", 2025, "2025-04-13"),
    ("Hanukkah", 2023, "2023-12-08"), ("Hanukkah", 2024, "2024-12-26"),
    ("Purim", 2023, "2023-03-07"), ("Purim", 2024, "2024-03-24"),  # 2024: Adar II (leap year)
    ("Purim", 2025, "2025-03-14"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "year", "iso"), HEBREW)
def test_hebrew_festivals(name: str, year: int, iso: str) -> None:
    assert festival(name, year).tolist() == [D(dt.date.fromisoformat(iso))]


NOWRUZ = {
    1395: "2016-03-20", 1396: "2017-03-21", 1397: "2018-03-21", 1398: "2019-03-21",
    1399: "2020-03-20", 1400: "2021-03-21", 1401: "2022-03-21", 1402: "2023-03-21",
    1403: "2024-03-20", 1404: "2025-03-21",
}  # fmt: skip


@pytest.mark.parametrize(("year", "iso"), sorted(NOWRUZ.items()))
def test_nowruz(year: int, iso: str) -> None:
    assert date_of("persian", year, 1, 1) == D(dt.date.fromisoformat(iso))


def test_sizdah_be_dar_and_mehregan() -> None:
    assert festival("Sizdah Be-dar", 2024).tolist() == [D(dt.date(2024, 4, 1))]
    # Mehregan, day 196 of the year: 2 October when Nowruz is on 21 March.
    assert festival("Mehregan", 2025).tolist() == [D(dt.date(2025, 10, 2))]


UMALQURA = [  # (year, month, day) AH -> Gregorian, Saudi Umm al-Qura calendar
    ((1444, 10, 1), "2023-04-21"),  # Eid al-Fitr 1444
    ((1444, 12, 10), "2023-06-28"),  # Eid al-Adha 1444
    ((1445, 9, 1), "2024-03-11"),  # 1 Ramadan 1445
    ((1445, 10, 1), "2024-04-10"),  # Eid al-Fitr 1445
    ((1445, 12, 10), "2024-06-16"),  # Eid al-Adha 1445
    ((1446, 1, 1), "2024-07-07"),  # Hijri New Year 1446
    ((1343, 1, 1), "1924-08-01"),  # start of the table (hijridate's documented range)
]


@pytest.mark.parametrize(("hijri", "iso"), UMALQURA)
def test_umalqura(hijri: tuple[int, int, int], iso: str) -> None:
    assert date_of("islamic-umalqura", *hijri) == D(dt.date.fromisoformat(iso))


def test_islamic_festival_twice_in_a_gregorian_year() -> None:
    # 1 Muharram 1429 and 1 Muharram 1430 both fell in 2008.
    got = festival("Hijri New Year", 2008).tolist()
    assert got == [D(dt.date(2008, 1, 10)), D(dt.date(2008, 12, 29))]


def test_shaka_new_year() -> None:
    # Chaitra 1 = 22 March, or 21 March in Gregorian leap years.
    assert date_of("shaka", 1945, 1, 1) == D(dt.date(2023, 3, 22))
    assert date_of("shaka", 1946, 1, 1) == D(dt.date(2024, 3, 21))
