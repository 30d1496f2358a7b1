"""Calendar tables: ranges, round trips, validation, the conversion API and the
packaged Persian data.

Expected values here come from the calendars' definitions (month-length rules,
documented ranges), never from tsolve's own output.
"""

from __future__ import annotations

import calendar
import datetime as dt
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import tsolve
from tsolve.calendars import CALENDARS, convert, table, to_days
from tsolve.calendars.chinese import MONTHS_FILE, months_csv
from tsolve.calendars.conversion import as_days, date_of, format_date, parse_date
from tsolve.calendars.data_files import data_text
from tsolve.calendars.domain import gregorian_fields
from tsolve.calendars.names import parse_month
from tsolve.calendars.persian import NOWRUZ_FILE, nowruz_csv
from tsolve.calendars.tables import month_name
from tsolve.errors import TsolveError

D = dt.date.toordinal
FULL = (D(dt.date(1800, 1, 1)), D(dt.date(2100, 12, 31)))
RANGES = {c: FULL for c in CALENDARS} | {
    "islamic-umalqura": (D(dt.date(1924, 8, 1)), D(dt.date(2077, 11, 16)))
}


def test_calendar_names() -> None:
    assert CALENDARS == (
        "gregorian", "chinese", "hebrew", "islamic", "islamic-umalqura", "persian", "shaka",
    )  # fmt: skip


@pytest.mark.parametrize("cal", CALENDARS)
def test_documented_range(cal: str) -> None:
    t = table(cal)
    assert (t.first_day, t.last_day) == RANGES[cal]
    for arr in (t.year, t.month, t.day, t.leap):
        assert arr.shape == (t.last_day - t.first_day + 1,)


@pytest.mark.parametrize("cal", CALENDARS)
def test_round_trip_whole_range(cal: str) -> None:
    """Gregorian -> X -> Gregorian is the identity on every day of the range."""
    t = table(cal)
    days = np.arange(t.first_day, t.last_day + 1)
    y, m, d, lp = t.fields(days)
    assert np.array_equal(to_days(cal, y, m, d, lp), days)


@pytest.mark.parametrize("cal", CALENDARS)
def test_days_increase_within_months(cal: str) -> None:
    """Consecutive days either advance the day of month by one or start a month at 1."""
    t = table(cal)
    nxt, prev = t.day[1:].astype(int), t.day[:-1].astype(int)
    new_month = nxt == 1
    assert np.all(new_month | (nxt == prev + 1))
    same = ~new_month
    assert np.all(t.month[1:][same] == t.month[:-1][same])
    assert np.all(t.year[1:][same] == t.year[:-1][same])


def _month_lengths(cal: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(year, month, leap, length) of every month wholly inside the range."""
    t = table(cal)
    starts = np.flatnonzero(t.day == 1)
    lengths = np.diff(starts)
    s = starts[:-1]
    return t.year[s], t.month[s], t.leap[s], lengths


def test_month_lengths_follow_the_rules() -> None:
    # Lunar and lunisolar months: 29 or 30 days.
    for cal in ("chinese", "hebrew", "islamic"):
        assert set(_month_lengths(cal)[3].tolist()) == {29, 30}, cal
    # Umm al-Qura as published: a few 28/31-day months in the 1920s-40s
    # newspapers (kept by hijridate, see docs/calendars.md), regular after.
    y, _, _, n = _month_lengths("islamic-umalqura")
    assert set(n[y >= 1365].tolist()) == {29, 30}
    assert set(n.tolist()) <= {28, 29, 30, 31}
    # Tabular Islamic: odd months 30, even months 29 except a leap Dhu al-Hijjah.
    _, m, _, n = _month_lengths("islamic")
    assert np.all(n[m % 2 == 1] == 30)
    assert np.all(n[(m % 2 == 0) & (m != 12)] == 29)
    # Persian: 31 x 6, 30 x 5, Esfand 29/30.
    _, m, _, n = _month_lengths("persian")
    assert np.all(n[m <= 6] == 31) and np.all(n[(m >= 7) & (m <= 11)] == 30)
    assert set(n[m == 12].tolist()) == {29, 30}
    # Shaka: Chaitra 30/31, then 31 x 5, 30 x 6.
    _, m, _, n = _month_lengths("shaka")
    assert set(n[m == 1].tolist()) == {30, 31}
    assert np.all(n[(m >= 2) & (m <= 6)] == 31) and np.all(n[m >= 7] == 30)
    # Hebrew: 12 or 13 months a year, 13 = Adar II only in leap years.
    y, m, _, _ = _month_lengths("hebrew")
    leap_years = {yy for yy in range(5500, 5900) if (7 * yy + 1) % 19 < 7}
    assert set(y[m == 13].tolist()) <= leap_years
    # Chinese: at most one leap month per year, numbered like a regular month.
    y, m, lp, _ = _month_lengths("chinese")
    ly = y[lp]
    assert len(set(ly.tolist())) == ly.size


def test_chinese_year_changes_at_new_year() -> None:
    t = table("chinese")
    y, m, d, lp = t.fields(np.array([D(dt.date(2024, 2, 9)), D(dt.date(2024, 2, 10))]))
    assert y.tolist() == [2023, 2024] and m.tolist() == [12, 1] and d.tolist() == [30, 1]
    assert not lp.any()


def test_fields_out_of_range_names_first_bad_date() -> None:
    t = table("islamic-umalqura")
    days = np.array([D(dt.date(2000, 1, 1)), D(dt.date(1920, 5, 6)), D(dt.date(2090, 1, 1))])
    with pytest.raises(
        TsolveError, match=r"1920-05-06.*islamic-umalqura.*1924-08-01\.\.2077-11-16"
    ):
        t.fields(days)
    with pytest.raises(TsolveError, match=r"1799-12-31.*chinese.*1800-01-01\.\.2100-12-31"):
        table("chinese").fields(np.array([D(dt.date(1799, 12, 31))]))


@pytest.mark.parametrize(
    ("cal", "ymd", "leap", "pattern"),
    [
        ("islamic", (1445, 2, 30), False, "Safar 1445 has 29 days"),
        ("hebrew", (5785, 13, 1), False, "5785 is a common year.*Adar II"),
        ("chinese", (2024, 2, 1), True, "no leap month 2"),
        ("chinese", (2023, 4, 1), True, "its leap month is 2"),
        ("persian", (1403, 7, 31), False, "Mehr 1403 has 30 days"),
        ("gregorian", (2023, 2, 29), False, "February 2023 has 28 days"),
        ("shaka", (1946, 13, 1), False, "month must be 1..12"),
        ("hebrew", (5784, 14, 1), False, "month must be 1..13"),
        ("islamic", (1445, 1, 0), False, "has 30 days"),
        ("hebrew", (5784, 1, 1), True, "only the chinese calendar has leap months"),
        ("persian", (1100, 1, 1), False, "outside the persian calendar's range"),
        ("chinese", (1799, 1, 1), False, "outside the chinese calendar's range"),
        ("islamic-umalqura", (1342, 12, 1), False, "outside"),
    ],
)
def test_invalid_dates_rejected(
    cal: str, ymd: tuple[int, int, int], leap: bool, pattern: str
) -> None:
    with pytest.raises(TsolveError, match=pattern):
        date_of(cal, *ymd, leap)


def test_valid_leap_dates_accepted() -> None:
    # 2023 had a leap 2nd month (闰二月) starting 2023-03-22.
    assert date_of("chinese", 2023, 2, 1, True) == D(dt.date(2023, 3, 22))
    # 5784 is a Hebrew leap year: 14 Adar II 5784 = Purim 2024-03-24.
    assert date_of("hebrew", 5784, 13, 14) == D(dt.date(2024, 3, 24))


def test_first_invalid_element_reported_in_vector_input() -> None:
    with pytest.raises(TsolveError, match="1445-2-30"):
        to_days("islamic", [1445, 1445, 1445], [1, 2, 3], [5, 30, 31])


def test_convert_accepts_ordinals_datetime64_and_iso() -> None:
    iso = ["2024-07-01", "1999-12-31"]
    a = convert(np.array(iso, dtype="datetime64[D]"), "hebrew")
    b = convert(np.array([D(dt.date(2024, 7, 1)), D(dt.date(1999, 12, 31))]), "hebrew")
    c = convert(iso, "hebrew")
    for x in (a, b, c):
        assert isinstance(x.year, np.ndarray)
        assert x.year.tolist() == [5784, 5760]
        assert x.month.tolist() == [3, 10] and x.day.tolist() == [25, 22]  # 22 Tevet 5760
    assert np.array_equal(as_days(np.array(iso, dtype="datetime64[D]")), b.days)


def test_convert_many_targets_and_from_other_calendar() -> None:
    out = convert(["2024-03-20"], ["persian", "shaka"])
    assert set(out) == {"persian", "shaka"}
    assert (out["persian"].year[0], out["persian"].month[0], out["persian"].day[0]) == (1403, 1, 1)
    # From Persian 1403-01-01 to Gregorian.
    g = convert((np.array([1403]), np.array([1]), np.array([1])), "gregorian", from_="persian")
    assert (g.year[0], g.month[0], g.day[0]) == (2024, 3, 20)
    every = convert(["2024-03-20"], None)
    assert tuple(every) == CALENDARS


def test_convert_errors() -> None:
    with pytest.raises(TsolveError, match="unknown calendar 'julian'"):
        convert(["2024-01-01"], "julian")
    with pytest.raises(TsolveError, match="from"):
        convert(np.array([1, 2]), "gregorian", from_="hebrew")
    with pytest.raises(TsolveError, match="2024-02-30"):
        convert(["2024-02-30"], "hebrew")


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(FULL[0], FULL[1]), st.sampled_from(CALENDARS))
def test_parse_format_round_trip(day: int, cal: str) -> None:
    t = table(cal)
    if not t.first_day <= day <= t.last_day:
        return
    y, m, d, lp = (v[0] for v in t.fields(np.array([day])))
    text = format_date(cal, int(y), int(m), int(d), bool(lp))
    if cal == "gregorian":
        text = dt.date.fromordinal(day).isoformat()
    assert date_of(cal, *parse_date(text, cal)) == day
    # Month names parse back to the same month.
    name = month_name(cal, int(y), int(m), bool(lp))
    if cal not in ("chinese",):
        assert parse_month(cal, name) == (int(m), False)


def test_parse_date_syntax() -> None:
    assert parse_date("2023-L2-15", "chinese") == (2023, 2, 15, True)
    assert parse_date("2023-l2-15", "chinese") == (2023, 2, 15, True)
    assert parse_date("5784-Adar II-14", "hebrew") == (5784, 13, 14, False)
    assert parse_date("1445-Ramadan-1", "islamic") == (1445, 9, 1, False)
    assert parse_date("1403-farvardin-13", "persian") == (1403, 1, 13, False)
    with pytest.raises(TsolveError, match="not a hebrew date in Y-M-D form"):
        parse_date("Nisan 5784", "hebrew")
    with pytest.raises(TsolveError, match="not a month name of the persian calendar"):
        parse_date("1403-Tishrei-1", "persian")


def test_month_names() -> None:
    assert month_name("hebrew", 5784, 12) == "Adar I"  # leap year
    assert month_name("hebrew", 5784, 13) == "Adar II"
    assert month_name("hebrew", 5785, 12) == "Adar"  # common year
    assert month_name("hebrew", 5785, 7) == "Tishrei"
    assert month_name("islamic", 1445, 1) == "Muharram"
    assert month_name("persian", 1403, 1) == "Farvardin"
    assert month_name("shaka", 1946, 1) == "Chaitra"
    assert month_name("chinese", 2023, 2, True) == "Leap Month 2"
    assert parse_month("hebrew", "Tishri") == (7, False)
    assert parse_month("hebrew", "Adar 2") == (13, False)
    assert parse_month("islamic", "Rabi' al-Awwal") == (3, False)
    assert parse_month("islamic", "Dhul Hijjah") == (12, False)
    assert parse_month("shaka", "Vaiśākha") == (2, False)
    assert parse_month("chinese", "Leap Month 4") == (4, True)
    assert parse_month("chinese", "闰四月") == (4, True)


# ------------------------------------------------------------------ packaged data


def test_shipped_nowruz_dates_match_convertdate() -> None:
    """Every row of persian_nowruz.csv, recomputed by convertdate's rule on the
    installed pymeeus (a year per row, over exactly the years the table needs;
    tests/test_calendars_crosscheck.py holds them to convertdate): an upgrade that
    moves an equinox fails here (data/README.md says how to rewrite the file)."""
    assert data_text(NOWRUZ_FILE) == nowruz_csv()


def test_shipped_chinese_month_starts_match_lunarcalendar() -> None:
    """Every row of chinese_months.csv (the lunar months' starts the Chinese
    table is built from), recomputed from the installed lunar_python (lunar
    years before 1900) and lunarcalendar (from 1900)."""
    assert data_text(MONTHS_FILE) == months_csv()


def test_packaged_data_reads_the_same_from_a_zip_archive(tmp_path: Path) -> None:
    """``data_text`` reads the file next to its module, and a package imported
    from a zip archive (no folder on disk) reads through importlib.resources:
    the same text either way."""
    package = Path(tsolve.__file__).parent
    archive = tmp_path / "tsolve.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in package.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, path.relative_to(package.parent).as_posix())
    code = (
        "import sys, tsolve.calendars.data_files as d\n"
        "assert '.zip' in d.__file__, d.__file__\n"
        f"sys.stdout.write(d.data_text({MONTHS_FILE!r}))"
    )
    env = {**os.environ, "PYTHONPATH": str(archive)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=tmp_path, check=True, timeout=120)  # fmt: skip
    assert out.stdout == data_text(MONTHS_FILE)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(1, dt.date.max.toordinal()), min_size=1, max_size=40))
def test_gregorian_fields_are_datetimes(days: list[int]) -> None:
    """Every field of :func:`gregorian_fields`, on random days of 0001..9999,
    against :mod:`datetime` and :mod:`calendar` one day at a time."""
    g = gregorian_fields(np.asarray(days, dtype=np.int64))
    for i, n in enumerate(days):
        d = dt.date.fromordinal(n)
        fields = (g.year[i], g.month[i], g.day[i], g.weekday[i])
        assert fields == (d.year, d.month, d.day, d.weekday())
        assert g.days_in_month[i] == calendar.monthrange(d.year, d.month)[1]
    assert all(a.dtype == np.int64 for a in (g.year, g.month, g.day, g.weekday, g.days_in_month))
