"""Festival rules and the ``tsolve calendar`` CLI."""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import pytest
from cli_main import run_cli
from typer.testing import CliRunner

from tsolve.calendars import festival, get_festival
from tsolve.calendars.festivals import FESTIVALS, festival_day, festivals_of
from tsolve.calendars.tables import table
from tsolve.cli.app import app
from tsolve.errors import TsolveError

D = dt.date.toordinal
runner = CliRunner()

SPAN_APPENDIX_A = {
    "gregorian": ["Halloween", "Christmas Day", "New Year's Day", "Valentine's Day",
                  "International Women's Day", "International Workers' Day",
                  "International Children's Day"],
    "chinese": ["Chinese New Year", "Lantern Festival", "Dragon Boat Festival",
                "Chinese Valentine's Day", "Ghost Festival", "Mid-Autumn Festival"],
    "islamic": ["Hijri New Year", "Isra and Mi'raj", "Eid al-Fitr", "Eid al-Adha"],
    "persian": ["Persian New Year", "Sizdah Be-dar", "Mehregan Festival", "Tirgan Festival"],
}  # fmt: skip


def test_span_appendix_a_festivals_present() -> None:
    for cal, names in SPAN_APPENDIX_A.items():
        assert [f.name for f in festivals_of(cal, appendix_only=True)] == names
        with pytest.warns(DeprecationWarning, match="appendix_only"):  # the old keyword
            assert festivals_of(cal, span_only=True) == festivals_of(cal, appendix_only=True)
    assert sum(f.span for f in FESTIVALS) == 21
    hebrew = {f.name for f in festivals_of("hebrew")}
    assert hebrew == {"Rosh Hashanah", "Yom Kippur", "Passover", "Hanukkah", "Purim"}


RULES = [  # festival -> (calendar, month, day) as the festival is defined
    ("Mid-Autumn Festival", "chinese", 8, 15), ("Lantern Festival", "chinese", 1, 15),
    ("Dragon Boat Festival", "chinese", 5, 5), ("Chinese Valentine's Day", "chinese", 7, 7),
    ("Ghost Festival", "chinese", 7, 15), ("Eid al-Fitr", "islamic", 10, 1),
    ("Eid al-Adha", "islamic", 12, 10), ("Isra and Mi'raj", "islamic", 7, 27),
    ("Sizdah Be-dar", "persian", 1, 13), ("Tirgan", "persian", 4, 13),
    ("Halloween", "gregorian", 10, 31), ("Yom Kippur", "hebrew", 7, 10),
]  # fmt: skip


@pytest.mark.parametrize(("name", "cal", "month", "day"), RULES)
def test_rules_resolve_in_own_calendar(name: str, cal: str, month: int, day: int) -> None:
    t = table(cal)
    # Own-calendar years of a few Gregorian years well inside the range.
    probes = [D(dt.date(g, 7, 1)) - t.first_day for g in (1950, 2000, 2024, 2077)]
    for year in sorted({int(t.year[i]) for i in probes}):
        d = int(festival(name, year, cal)[0])
        y, m, dd, lp = (int(v[0]) for v in t.fields(np.array([d])))
        assert (y, m, dd, lp) == (year, month, day, 0)


def test_purim_rule() -> None:
    # 5784 is a leap year: Purim on 14 Adar II (month 13); 5785 common: 14 Adar.
    assert festival("purim", 5784, "hebrew").tolist() == [D(dt.date(2024, 3, 24))]
    assert festival("purim", 5785, "hebrew").tolist() == [D(dt.date(2025, 3, 14))]
    _, m, d, _ = table("hebrew").fields(festival("purim", 5784, "hebrew"))
    assert (int(m[0]), int(d[0])) == (13, 14)


def test_every_festival_once_a_year_except_islamic() -> None:
    for f in FESTIVALS:
        for year in range(1925, 2076, 7):
            n = festival(f.key, year).size
            if f.calendar == "islamic":
                assert n in (1, 2)
            else:
                assert n == 1, (f.key, year)


def test_umalqura_variant_for_islamic_festivals() -> None:
    eid = get_festival("eid al-fitr")
    assert festival_day(eid, 1444, "islamic-umalqura") == D(dt.date(2023, 4, 21))
    with pytest.raises(TsolveError, match="is a chinese festival"):
        festival_day(get_festival("mid-autumn"), 2024, "hebrew")


def test_festival_lookup_errors() -> None:
    assert get_festival("MID autumn festival").key == "mid-autumn"
    assert get_festival("Nowruz").key == "nowruz"
    with pytest.raises(TsolveError, match="unknown festival 'Diwali'"):
        get_festival("Diwali")
    with pytest.raises(TsolveError, match="outside the islamic-umalqura"):
        festival("eid al-fitr", 1342, "islamic-umalqura")


# ----------------------------------------------------------------- CLI


def test_cli_convert_json_exact() -> None:
    r = runner.invoke(app, ["calendar", "convert", "2023-04-01", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert len(data) == 1
    assert set(data[0]) == {"gregorian", "chinese", "hebrew", "islamic",
                            "islamic-umalqura", "persian", "shaka"}  # fmt: skip
    assert data[0]["chinese"] == {"year": 2023, "month": 2, "month_name": "Leap Month 2",
                                  "day": 11, "leap": True}  # fmt: skip
    assert data[0]["hebrew"] == {"year": 5783, "month": 1, "month_name": "Nisan", "day": 10}
    assert data[0]["persian"]["month_name"] == "Farvardin"


def test_cli_convert_from_chinese_leap_jsonl() -> None:
    r = runner.invoke(app, ["calendar", "convert", "--from", "chinese", "2023-L2-1",
                            "2023-2-1", "--to", "gregorian", "--format", "jsonl"])  # fmt: skip
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.splitlines()]
    assert [x["gregorian"]["day"] for x in lines] == [22, 20]  # 2023-03-22, 2023-02-20
    assert [x["gregorian"]["month"] for x in lines] == [3, 2]


def test_cli_convert_text_and_null_out_of_range() -> None:
    r = runner.invoke(app, ["calendar", "convert", "1910-05-05"])
    assert r.exit_code == 0
    assert "Nisan" in r.output and "—" in r.output  # Umm al-Qura starts in 1924
    r = runner.invoke(app, ["calendar", "convert", "1910-05-05", "--format", "json"])
    assert json.loads(r.output)[0]["islamic-umalqura"] is None


def test_cli_festival() -> None:
    r = runner.invoke(app, ["calendar", "festival", "Hijri New Year", "--year", "2008",
                            "--format", "json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    assert [row["dates"]["gregorian"]["month"] for row in rows] == [1, 12]
    r = runner.invoke(app, ["calendar", "festival", "passover", "--year", "5784",
                            "--calendar", "hebrew", "--format", "jsonl"])  # fmt: skip
    row = json.loads(r.output)
    assert row["dates"]["gregorian"] == {"year": 2024, "month": 4, "month_name": "April", "day": 23}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["convert", "2024-02-30"], "2024-02-30"),
        (["convert", "--from", "hebrew", "5785-13-1"], "common year"),
        (["convert", "--from", "martian", "1-1-1"], "unknown calendar 'martian'"),
        (["convert", "2024-01-01", "--to", "islamic-umalqura,julian"], "julian"),
        (["convert", "1910-01-01", "--to", "islamic-umalqura"], "outside the islamic-umalqura"),
        (["festival", "Diwali"], "unknown festival"),
    ],
)
def test_cli_errors_one_line_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    r = run_cli(capsys, "calendar", *args)  # through main, the one-line error path
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in r.stderr
