"""The Time Puzzles release (Wang and Dong 2026, arXiv:2601.07148): imported and audited.

The release's ``data.zip`` is read from tests/fixtures/time_puzzles_release/,
still encrypted as its authors published it; the password is the one their
README gives. Nothing decrypted is written but to pytest's temporary folders.
The expected answers are recomputed here with plain ``datetime`` and ``sxtwl``
(a Chinese calendar independent of the tables tsolve ships), after the
release's own definitions, never copied from tsolve's output.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_main import run_cli

from tsolve.encodings.facts.base import DayView, fact_from_json
from tsolve.encodings.facts.calendar_facts import WeekdayInMonthFact
from tsolve.encodings.facts.lunar_facts import LunarMonthFact
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.audit import audit_puzzle
from tsolve.families.time_puzzles.release import (
    MAPPERS,
    PROMPT,
    fact_of,
    import_release,
    read_release,
    release_record,
)

ZIP = Path(__file__).parent / "fixtures" / "time_puzzles_release" / "data.zip"
PASSWORD = "timepuzzles"  # the authors' README: the repository name, lower case, no hyphens


@pytest.fixture(scope="module")
def release() -> list[dict[str, Any]]:
    return read_release(ZIP, PASSWORD)


# --- an independent reading of the release's definitions ----------------------------------

_ZODIAC = ["Rat", "Ox", "Tiger", "Rabbit", "Dragon", "Snake", "Horse", "Goat", "Monkey",
           "Rooster", "Dog", "Pig"]  # fmt: skip
_SEASON = {12: "Winter", 1: "Winter", 2: "Winter", 3: "Spring", 4: "Spring", 5: "Spring",
           6: "Summer", 7: "Summer", 8: "Summer"}  # fmt: skip


def _lunar(d: dt.date) -> tuple[int, int]:
    import sxtwl

    day = sxtwl.fromSolar(d.year, d.month, d.day)
    return day.getLunarYear(), day.getLunarMonth()


def _between(sentence: str) -> tuple[dt.date, dt.date]:
    a, b = re.findall(r"between (.+?) and (.+?)\.$", sentence)[0]
    return (dt.datetime.strptime(a, "%B %d, %Y").date(),
            dt.datetime.strptime(b, "%B %d, %Y").date())  # fmt: skip


_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _fields(first: int, last: int) -> dict[str, np.ndarray]:
    """Each day of the years ``first..last`` and its Gregorian fields, from
    numpy's own calendar (datetime64), not tsolve's."""
    days = np.arange(f"{first:04d}-01-01", f"{last + 1:04d}-01-01", dtype="datetime64[D]")
    month_start = days.astype("datetime64[M]")
    next_start = (month_start + 1).astype("datetime64[D]")
    return {
        "days": days,
        "year": days.astype("datetime64[Y]").astype(int) + 1970,
        "month": month_start.astype(int) % 12 + 1,
        "day": (days - month_start.astype("datetime64[D]")).astype(int) + 1,
        "weekday": (days.astype(int) + 3) % 7,  # 1970-01-01 was a Thursday
        "month_days": (next_start - month_start.astype("datetime64[D]")).astype(int),
    }


def _mask(meta: dict[str, Any], explicit: str, g: dict[str, np.ndarray]) -> np.ndarray:
    """The release generator's ``validate`` (puzzles_generator/date_generator/facts.py),
    restated over every day at once, for the Gregorian facts."""
    t, v = meta["type"], meta.get("value")
    y, m, d, wd = g["year"], g["month"], g["day"], g["weekday"]
    if t == "season":
        return np.isin(m, [k for k in range(1, 13) if _SEASON.get(k, "Autumn") == v])
    if t == "month":
        return m == v
    if t == "weekday":
        return wd == _WEEKDAYS.index(v)
    if t == "multi_weekday":
        return np.isin(wd, [_WEEKDAYS.index(w) for w in v])
    if t == "day_of_month":
        return d < v if meta["operator"] == "<" else d > v
    if t == "day_of_month_specific":
        return d == v
    if t == "first_day_of_month":
        return d == 1
    if t == "last_day_of_month":
        return d == g["month_days"]
    if t == "decade":
        return y // 10 * 10 == v
    if t == "explicit_year":
        return y == v
    if t == "weekday_in_month":
        n = (d - 1) // 7 + 1 if meta["direction"] == "forward" else (g["month_days"] - d) // 7 + 1
        return (wd == _WEEKDAYS.index(meta["weekday"])) & (n == meta["n"])
    if t == "kb_event":
        return {"year": y, "month": m, "day": d}[meta["level"]] == v
    if t in ("person_alive", "us_president"):
        a, b = _between(explicit)
        return (g["days"] > np.datetime64(a)) & (g["days"] < np.datetime64(b))
    if t == "event":
        if meta["name"] == "leap_year":
            return (y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0))
        if meta["name"] == "summer_olympics":
            return (y >= 1896) & (y % 4 == 0) & ~np.isin(y, [1916, 1940, 1944])
        return (y >= 1930) & (y % 4 == 2) & ~np.isin(y, [1942, 1946])
    raise AssertionError(t)


def _lunar_holds(meta: dict[str, Any], d: dt.date) -> bool:
    """The release's two Chinese facts on one day, with sxtwl's calendar."""
    year, month = _lunar(d)
    if meta["type"] == "lunar_month":
        return month == meta["value"]
    return _ZODIAC[(year - 4) % 12] == meta["value"]


def _expected(puzzle: dict[str, Any]) -> list[str]:
    """Every day of the puzzle's years that meets each fact: the Gregorian
    ones over all days, the Chinese ones (a library call a day) on the rest."""
    g = _fields(*puzzle["year_range"])
    keep = np.ones(g["days"].size, dtype=bool)
    lunar = []
    for meta, spelled in zip(puzzle["constraints_meta"], puzzle["explicit_constraints"],
                             strict=True):  # fmt: skip
        if meta["type"] in ("lunar_month", "chinese_zodiac"):
            lunar.append(meta)
        else:
            keep &= _mask(meta, spelled, g)
    left = [dt.date.fromisoformat(str(x)) for x in g["days"][keep]]
    return [x.isoformat() for x in left if all(_lunar_holds(meta, x) for meta in lunar)]


# --- reading the release ---------------------------------------------------------------------


def test_the_encrypted_release_reads_with_the_published_password(release: list[Any]) -> None:
    assert len(release) == 700
    assert len({p["identifier"] for p in release}) == 700
    assert {tuple(p["year_range"]) for p in release} == {(1800, 2050)}


def test_a_missing_or_wrong_password_is_a_one_line_error() -> None:
    with pytest.raises(TsolveError, match="password-protected; give --password"):
        read_release(ZIP)
    with pytest.raises(TsolveError, match="Bad password"):
        read_release(ZIP, "time-puzzles")


def test_every_kind_the_release_uses_maps(release: list[Any]) -> None:
    kinds = set()
    for p in release:
        for meta, spelled in zip(p["constraints_meta"], p["explicit_constraints"], strict=True):
            kinds.add(meta["type"])
            fact = fact_of(meta, spelled, 2050)
            assert fact_from_json({"kind": fact.kind, "params": fact.params}) == fact
    assert kinds == set(MAPPERS)


def test_a_sample_of_the_release_gets_the_answers_of_an_independent_solver(
    release: list[Any],
) -> None:
    # Every 35th puzzle, and the first, whose Year of the Pig is wrong before 1900.
    sample = release[::35]
    assert any(p["solutions"] != _expected(p) for p in sample)  # the sample sees a changed gold
    for p in sample:
        rec = release_record(p)
        assert rec["answers"] == _expected(p), p["identifier"]
        assert rec["published_answers"] == p["solutions"]
        assert rec["id"] == p["identifier"]
        assert rec["sentences"] == {"implicit": p["constraints"],
                                    "explicit": p["explicit_constraints"]}  # fmt: skip
        assert [f["text"] for f in rec["facts"]] == p["constraints"]
        lines = "\n".join(f"- {c}" for c in p["constraints"])
        assert rec["prompt"] == PROMPT.format(constraints=lines)
        assert rec["prompts"]["explicit"].count("\n- ") >= len(p["constraints"])


def test_the_paper_prompt_is_the_papers() -> None:
    # src/experiments/main.py's PROMPT, its backslash-joined lines as one paragraph each.
    assert PROMPT.startswith("From the time-related constraints below, determine all valid "
                             "date(s) (if any) that satisfy them. Depending")  # fmt: skip
    assert "- Autumn: September, October, November\n\nThe constraints are as follows:" in PROMPT
    assert PROMPT.endswith('If no valid date exists, respond with "MY ANSWER: None".')


def test_the_1828_year_of_the_pig_is_inconsistent(release: list[Any]) -> None:
    first = release[0]
    assert first["solutions"] == ["1828-09-06", "1828-10-06", "1828-11-06"]
    rec = release_record(first)
    assert rec["answers"] == []  # 1828's lunar year (from 15 February) is a Rat year
    assert rec["facts"][0]["kind"] == "day_of_month"  # the kb_event, at its stated level
    assert rec["facts"][0]["params"] == {"day": 6}
    assert rec["facts"][0]["text"].startswith("It is the same day as the last day that")
    v = audit_puzzle(rec)
    assert v.verdict == "inconsistent"
    assert v.detail["cause"] == "chinese-calendar-before-1900"
    assert "1828-09-06 is in lunar year 1828 (Rat), not Pig" in v.detail["proof"]


# --- hand-made puzzles in the release's format, for each verdict ------------------------------


def _puzzle(ident: str, rows: list[tuple[dict[str, Any], str, str]], solutions: list[str],
            years: tuple[int, int] = (1800, 2050)) -> dict[str, Any]:  # fmt: skip
    return {
        "seed_date": "2000-01-01", "noise_date": "2000-01-02",
        "constraints": [r[1] for r in rows], "explicit_constraints": [r[2] for r in rows],
        "constraints_meta": [r[0] for r in rows], "solutions": solutions,
        "solution_count": len(solutions), "year_range": list(years), "identifier": ident,
    }  # fmt: skip


def _same(meta: dict[str, Any], text: str) -> tuple[dict[str, Any], str, str]:
    return meta, text, text


YEAR_1950 = _same({"type": "explicit_year", "value": 1950}, "The year is 1950.")
JANUARY = _same({"type": "month", "value": 1, "name": "January"}, "It is January.")
TENTH = _same({"type": "day_of_month_specific", "value": 10}, "It is the 10th of the month.")
FIRST = _same({"type": "day_of_month_specific", "value": 1}, "It is the 1st of the month.")
LUNAR_2 = _same({"type": "lunar_month", "value": 2},
                "It is the 2nd month of the Chinese lunar calendar.")  # fmt: skip
YEAR_2023 = _same({"type": "explicit_year", "value": 2023}, "The year is 2023.")
WORLD_CUP = (
    {"type": "event", "name": "world_cup"},
    "It is a FIFA World Cup year.",
    "The year satisfies year % 4 == 2, year >= 1930, and is not 1942 or 1946.",
)
DECADE_2040 = _same({"type": "decade", "value": 2040}, "The year is in the 2040s.")
ELVIS = ({"type": "person_alive", "person": "Elvis Presley"}, "Elvis Presley is alive.",
         "The date is between January 08, 1935 and August 16, 1977.")  # fmt: skip
AUGUST = _same({"type": "month", "value": 8, "name": "August"}, "It is August.")
AFTER_15 = _same({"type": "day_of_month", "operator": ">", "value": 15},
                 "It is after the 15th of the month.")  # fmt: skip
YEAR_1977 = _same({"type": "explicit_year", "value": 1977}, "The year is 1977.")


def _verdict(p: dict[str, Any]) -> Any:
    return audit_puzzle(release_record(p))


def test_right_under_every_reading_is_ok() -> None:
    v = _verdict(_puzzle("ok", [YEAR_1950, JANUARY, TENTH], ["1950-01-10"]))
    assert (v.verdict, v.readings) == ("ok", ["canonical"])


def test_wrong_under_every_reading_is_inconsistent_with_the_fact_and_date() -> None:
    v = _verdict(_puzzle("bad", [YEAR_1950, JANUARY, TENTH], ["1950-01-11"]))
    assert v.verdict == "inconsistent"
    assert v.detail["date"] == "1950-01-11"
    assert v.detail["violates"]["index"] == 2
    assert "It is the 10th of the month." in v.detail["proof"]


def test_a_left_out_date_is_inconsistent() -> None:
    v = _verdict(_puzzle("short", [YEAR_1950, JANUARY, AFTER_15], ["1950-01-16"]))
    assert v.verdict == "inconsistent"
    assert v.detail["date"] == "1950-01-17"
    assert "leave it out" in v.detail["proof"]


def test_a_lunar_month_with_its_leap_month_is_ambiguous() -> None:
    # 2023's 2nd lunar month ran 20 February .. 21 March, its leap 2nd month
    # 22 March .. 19 April: "the 2nd month" holds on 1 March, and on 1 April
    # only if the leap month counts.
    both = _verdict(_puzzle("leap", [LUNAR_2, YEAR_2023, FIRST], ["2023-03-01", "2023-04-01"]))
    assert both.verdict == "ambiguous"
    assert both.detail["reading"] == "fact 1: lunar-leap-excluded"
    assert both.detail["answers"] == ["2023-03-01"]
    assert both.detail["gold_readings"] == ["canonical"]
    only = _verdict(_puzzle("noleap", [LUNAR_2, YEAR_2023, FIRST], ["2023-03-01"]))
    assert only.verdict == "ambiguous"
    assert only.detail["gold_readings"] == ["fact 1: lunar-leap-excluded"]
    assert only.detail["answers"] == ["2023-03-01", "2023-04-01"]


def test_a_world_cup_year_not_yet_awarded_is_ambiguous() -> None:
    v = _verdict(_puzzle("wc", [WORLD_CUP, DECADE_2040, JANUARY, FIRST],
                         ["2042-01-01", "2046-01-01"]))  # fmt: skip
    assert v.verdict == "ambiguous"
    assert v.detail["reading"] == "fact 1: world-cup-awarded-only"
    assert v.detail["answers"] == []


def test_the_end_days_of_a_life_are_a_reading() -> None:
    # The release leaves out the day Elvis Presley died (16 August 1977).
    v = _verdict(_puzzle("elvis", [ELVIS, YEAR_1977, AUGUST, AFTER_15], []))
    assert v.verdict == "ambiguous"
    assert v.detail["reading"] == "fact 1: end-days-included"
    assert v.detail["answers"] == ["1977-08-16"]


def test_an_unknown_kind_is_a_bad_row_and_the_rest_are_imported(tmp_path: Path) -> None:
    zodiac = _same({"type": "western_zodiac", "value": "Leo"}, "The sun (zodiac) sign is Leo.")
    puzzles = [_puzzle("a", [YEAR_1950, JANUARY, TENTH], ["1950-01-10"]),
               _puzzle("b", [YEAR_1950, zodiac], []),
               _puzzle("c", [YEAR_1950, JANUARY, FIRST], ["1950-01-01"])]  # fmt: skip
    src = tmp_path / "puzzles.json"
    src.write_text(json.dumps(puzzles))
    out = tmp_path / "out.jsonl"
    report = import_release(src, out)
    assert not report.complete
    assert [str(b) for b in report.bad] == [
        "puzzle 2 (b): constraint 2 ('The sun (zodiac) sign is Leo.'): unknown kind "
        "'western_zodiac' (known: " + ", ".join(sorted(MAPPERS)) + ")"
    ]
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a", "c"]


def test_a_repeated_identifier_is_a_bad_row(tmp_path: Path) -> None:
    one = _puzzle("a", [YEAR_1950, JANUARY, TENTH], ["1950-01-10"])
    src = tmp_path / "puzzles.json"
    src.write_text(json.dumps([one, one]))
    report = import_release(src, tmp_path / "out.jsonl")
    assert (report.imported, [str(b) for b in report.bad]) == (
        1, ["puzzle 2 (a): identifier repeats puzzle 1's"])  # fmt: skip


def test_the_cli_imports_and_audits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "puzzles.json"
    ok = _puzzle("ok", [YEAR_1950, JANUARY, TENTH], ["1950-01-10"])
    bad = _puzzle("bad", [YEAR_1950, JANUARY, TENTH], ["1950-01-11"])
    src.write_text(json.dumps([ok, bad]))
    out = tmp_path / "out.jsonl"
    done = run_cli(capsys, "import", "time-puzzles", str(src), "--out", str(out))
    assert (done.returncode, done.stderr) == (0, "")
    assert "imported 2 of 2 puzzles" in done.stdout
    audited = run_cli(capsys, "audit", str(out), "--format", "jsonl")
    assert audited.returncode == 1  # one verdict is not ok
    rows = [json.loads(line) for line in audited.stdout.splitlines()]
    assert [(r["id"], r["verdict"]) for r in rows] == [("ok", "ok"), ("bad", "inconsistent")]


def test_the_output_is_replaced_whole_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    src = tmp_path / "puzzles.json"
    src.write_text(json.dumps([_puzzle("ok", [YEAR_1950, JANUARY, TENTH], ["1950-01-10"])]))
    out = tmp_path / "out.jsonl"
    out.write_text("an older import\n")
    assert import_release(src, out).complete
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["ok"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "puzzles.json"]


def test_the_output_is_never_written_through_a_link(tmp_path: Path) -> None:
    src = tmp_path / "puzzles.json"
    src.write_text(json.dumps([_puzzle("ok", [YEAR_1950, JANUARY, TENTH], ["1950-01-10"])]))
    mine = tmp_path / "mine.txt"
    mine.write_text("keep")
    link = tmp_path / "out.jsonl"
    link.symlink_to(mine)
    with pytest.raises(TsolveError, match="symbolic link"):
        import_release(src, link)
    assert mine.read_text() == "keep"
    with pytest.raises(TsolveError, match="does not exist"):
        import_release(src, tmp_path / "missing" / "out.jsonl")


# --- the two fact forms the release needs ---------------------------------------------------


def test_a_lunar_month_with_leap_null_holds_in_both_months() -> None:
    days = np.array([dt.date(2023, 3, 1).toordinal(), dt.date(2023, 4, 1).toordinal()])
    view = DayView(days)
    assert LunarMonthFact(2, None).holds(view).tolist() == [True, True]
    assert LunarMonthFact(2, False).holds(view).tolist() == [True, False]
    assert LunarMonthFact(14, None).holds(view).tolist() == [False, False]
    with pytest.raises(TsolveError):
        LunarMonthFact(14, False)


def test_weekday_in_month_counts_from_the_end() -> None:
    # January 2024's Wednesdays: 3, 10, 17, 24, 31.
    days = np.array([dt.date(2024, 1, d).toordinal() for d in (3, 10, 17, 24, 31)])
    view = DayView(days)
    assert WeekdayInMonthFact("Wednesday", -2).holds(view).tolist() == [0, 0, 0, 1, 0]
    assert WeekdayInMonthFact("Wednesday", -5).holds(view).tolist() == [1, 0, 0, 0, 0]
    assert WeekdayInMonthFact("Wednesday", -1).holds(view).tolist() == [0, 0, 0, 0, 1]
    assert "second to last Wednesday" in WeekdayInMonthFact("Wednesday", -2).render()
