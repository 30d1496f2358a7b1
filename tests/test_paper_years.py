"""The supported range 1800-01-01..2100-12-31, the Time Puzzles paper's years:
every calendar, fact kind, solver and puzzle domain reaches it, and nothing
outside it answers silently.

Expected dates come from published tables and independent libraries (sxtwl
for the Chinese calendar, the Wikipedia list of US presidents), never from
tsolve's own output.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cli_main import run_cli

from tsolve.calendars import festival, table
from tsolve.calendars.domain import DEFAULT_DOMAIN, SUPPORTED_END, SUPPORTED_START, DateDomain
from tsolve.encodings.facts import FACT_TYPES, fact_from_json
from tsolve.encodings.facts.knowledge_facts import (
    GENERATED_EVENTS_FROM,
    _facts_related,
    generated_events_since,
    generated_presidents,
)
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.solve import solve_record

D = dt.date.toordinal
PAPER = DateDomain.from_dates("1800-01-01", "2050-12-31")


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(capsys, *args)


def test_supported_range_and_default_domain() -> None:
    assert (dt.date(1800, 1, 1), dt.date(2100, 12, 31)) == (SUPPORTED_START, SUPPORTED_END)
    # The default domain of generated puzzles is unchanged (records regenerate).
    assert DateDomain.from_dates("1900-01-31", "2100-12-31") == DEFAULT_DOMAIN
    for cal in ("gregorian", "chinese", "hebrew", "islamic", "persian", "shaka"):
        t = table(cal)
        assert (t.first_day, t.last_day) == (D(SUPPORTED_START), D(SUPPORTED_END)), cal


def test_every_fact_kind_is_available_over_the_paper_years() -> None:
    missing = [k for k, cls in FACT_TYPES.items() if not cls.available(PAPER)]
    assert missing == []


def test_cli_convert_1828_09_06_to_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    """sxtwl's answer (and the published 1828 calendar: Chinese New Year on
    1828-02-15): lunar 1828, month 7 (not leap), day 27, a Year of the Rat."""
    import sxtwl

    x = sxtwl.fromSolar(1828, 9, 6)
    want = (x.getLunarYear(), x.getLunarMonth(), x.getLunarDay(), bool(x.isLunarLeap()))
    assert want == (1828, 7, 27, False)
    out = _cli(capsys, "calendar", "convert", "1828-09-06", "--to", "chinese", "--format", "json")
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)
    got = row["chinese"]
    assert (got["year"], got["month"], got["day"], got["leap"]) == want


@pytest.mark.parametrize("day", ["1800-01-01", "1899-12-31", "1900-01-30", "2100-12-31"])
def test_cli_convert_reaches_both_ends(day: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(capsys, "calendar", "convert", day, "--to", "chinese", "--format", "json")
    assert out.returncode == 0, out.stderr
    import sxtwl

    y, m, d = map(int, day.split("-"))
    x = sxtwl.fromSolar(y, m, d)
    got = json.loads(out.stdout)[0]["chinese"]
    assert (got["year"], got["month"], got["day"]) == (
        x.getLunarYear(),
        x.getLunarMonth(),
        x.getLunarDay(),
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("1799-12-31",), "1799-12-31 is outside the gregorian calendar's range 1800-01-01"),
        (("2101-01-01", "--to", "chinese"), "outside the gregorian calendar's range"),
        (("1900-01-01", "--to", "islamic-umalqura"), "range 1924-08-01..2077-11-16"),
    ],
)
def test_cli_convert_outside_a_range_is_one_line(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _cli(capsys, "calendar", "convert", *args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_umalqura_fact_outside_its_table_is_an_error() -> None:
    with pytest.raises(TsolveError, match=r"1900-01-01 is outside the islamic-umalqura.*1924"):
        table("islamic-umalqura").fields(np.array([D(dt.date(1900, 1, 1))]))


def test_festivals_in_the_nineteenth_century() -> None:
    # Chinese New Year 1828 (the Year of the Rat) and 1850, from sxtwl.
    import sxtwl

    for year in (1828, 1850, 1899):
        x = sxtwl.fromLunar(year, 1, 1, False)
        want = D(dt.date(x.getSolarYear(), x.getSolarMonth(), x.getSolarDay()))
        assert festival("chinese-new-year", year).tolist() == [want], year
    assert festival("chinese-new-year", 1828).tolist() == [D(dt.date(1828, 2, 15))]
    # Nowruz 1864 fell on 20 March (equinox 1864-03-20 ~11:36 Tehran; jdatetime).
    import jdatetime

    assert festival("nowruz", 1864).tolist() == [D(jdatetime.date(1243, 1, 1).togregorian())]
    # Rosh Hashanah 1850 (5611) from pyluach.
    import pyluach.dates as pd

    rh = pd.HebrewDate(5611, 7, 1).to_pydate()
    assert festival("rosh-hashanah", 1850).tolist() == [D(rh)]


def test_a_puzzle_over_the_paper_years_solves() -> None:
    rec = {
        "id": "lincoln-rat",
        "domain": {"start": "1800-01-01", "end": "2050-12-31"},
        "facts": [
            {"kind": "us_president", "params": {
                "president": "Abraham Lincoln", "terms": [["1861-03-04", "1865-04-14"]]}},
            {"kind": "chinese_zodiac", "params": {"animal": "Pig"}},
            {"kind": "month", "params": {"month": 4}},
            {"kind": "day_of_month", "params": {"day": 14}},
        ],
    }  # fmt: skip
    res = solve_record(rec, "cpsat")
    # Lunar 1863 (Pig) ran 1863-02-18..1864-02-07 (sxtwl): one 14 April in it.
    assert res["answers"] == ["1863-04-14"]


def test_generator_names_presidents_from_truman_on() -> None:
    first = [p.terms[0][0] for p in generated_presidents()]
    assert min(first) == dt.date(1945, 4, 12)
    pres = FACT_TYPES["us_president"]
    import random

    drawn = {pres.sample_anchor(random.Random(i), PAPER) for i in range(200)}
    assert all(f is not None and f.params["terms"][0][0] >= "1945-04-12" for f in drawn)


def test_early_president_fact_round_trips() -> None:
    f = fact_from_json({"kind": "us_president", "params": {
        "president": "George Washington", "terms": [["1789-04-30", "1797-03-03"]]}})  # fmt: skip
    from tsolve.encodings.facts import DayView

    days = np.array([D(dt.date(1789, 4, 29)), D(dt.date(1797, 3, 3)), D(dt.date(1797, 3, 4))])
    assert f.holds(DayView(days)).tolist() == [False, True, False]


# ---------------------------------------------------------------- the paper preset

ANCHOR_KINDS = {k for k, cls in FACT_TYPES.items() if cls.anchor}


def test_paper_preset_records_satisfy_their_config() -> None:
    """The paper's setting (its generator's defaults, arXiv:2601.07148): 4-6
    facts, M = 0..6 cycled, 1800-01-01..2050-12-31, a knowledge anchor in
    every puzzle; and the gold is what the solver proves."""
    from tsolve.families.time_puzzles.family import FAMILY
    from tsolve.families.time_puzzles.generate import generate_puzzles

    cfg = FAMILY.make_options({"preset": "paper"})
    recs = list(generate_puzzles(14, 3, cfg))
    for i, rec in enumerate(recs):
        assert rec["domain"] == {"start": "1800-01-01", "end": "2050-12-31"}
        assert 4 <= len(rec["facts"]) <= 6, rec["id"]
        assert rec["solution_count"] == len(rec["answers"]) == i % 7, rec["id"]
        assert {f["kind"] for f in rec["facts"]} & ANCHOR_KINDS, rec["id"]
        assert all("1800-01-01" <= a <= "2050-12-31" for a in rec["answers"])
        assert solve_record(rec, "cpsat")["answers"] == rec["answers"], rec["id"]
    params = recs[0]["generator"]["params"]
    assert params["solutions"] == [0, 1, 2, 3, 4, 5, 6] and params["minimal"] is False


def test_paper_preset_anchors_every_puzzle_on_a_historical_event() -> None:
    """As the paper's Algorithm 1 seeds every puzzle from a knowledge-base
    event, so does the preset: an event relation in every puzzle (drawn among
    all four anchor kinds, a fifth of its facts were presidents, people and
    sports events, against 6 % in the paper's 700 puzzles)."""
    from tsolve.families.time_puzzles.family import FAMILY
    from tsolve.families.time_puzzles.generate import generate_puzzles

    cfg = FAMILY.make_options({"preset": "paper"})
    assert cfg.anchors == ("event_relation",)
    for rec in generate_puzzles(7, 5, cfg):
        assert "event_relation" in {f["kind"] for f in rec["facts"]}, rec["id"]
    assert FAMILY.make_options({"preset": "paper", "anchors": "us_president"}).anchors == (
        "us_president",
    )


def test_options_given_override_the_preset() -> None:
    from tsolve.families.time_puzzles.family import FAMILY

    cfg = FAMILY.make_options({"preset": "paper", "solutions": "2", "domain_end": "1999-12-31"})
    assert cfg.solutions == 2
    assert cfg.domain == DateDomain.from_dates("1800-01-01", "1999-12-31")
    with pytest.raises(TsolveError, match=r"preset: unknown preset 'nope' \(known: paper\)"):
        FAMILY.make_options({"preset": "nope"})


def test_cli_preset_in_puzzle_and_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(capsys, "puzzle", "--preset", "paper", "--count", "2", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    recs = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["solution_count"] for r in recs] == [0, 1]
    assert recs[1]["domain"]["start"] == "1800-01-01"
    ds = _cli(
        capsys, "dataset", "make", "time-puzzles", "--preset", "paper", "-n", "2", "-o", "-", "-q"
    )
    assert ds.returncode == 0, ds.stderr
    assert [json.loads(line) for line in ds.stdout.splitlines()] == recs
    bad = _cli(capsys, "puzzle", "--preset", "nope")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "unknown preset 'nope'" in bad.stderr
    rel = _cli(capsys, "puzzle", "--preset", "paper", "--events", "2")
    assert rel.returncode == 2 and "--preset: not available for relational" in rel.stderr


def test_cli_puzzle_over_the_paper_domain(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(
        capsys, "puzzle", "--domain-start", "1800-01-01", "--domain-end", "2050-12-31",
        "--solutions", "2", "--count", "2", "--format", "jsonl",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    for line in out.stdout.splitlines():
        rec = json.loads(line)
        assert rec["domain"] == {"start": "1800-01-01", "end": "2050-12-31"}
        assert len(rec["answers"]) == 2
        assert solve_record(rec, "cpsat")["answers"] == rec["answers"]


def test_a_lunar_fact_before_the_tables_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = {
        "id": "too-early",
        "domain": {"start": "1790-01-01", "end": "1810-12-31"},
        "facts": [{"kind": "lunar_month", "params": {"month": 3, "leap": False}}],
    }
    path = tmp_path / "early.json"
    path.write_text(json.dumps(rec))
    out = _cli(capsys, "solve", str(path))
    assert out.returncode != 0
    assert "1790-01-01..1810-12-31" in out.stderr and "1800-01-01..2100-12-31" in out.stderr


@pytest.mark.parametrize("relation", ["after", "anniversary", "same_year"])
def test_events_before_1900_are_drawn_only_into_domains_that_begin_before_it(
    relation: str,
) -> None:
    """A seed day relates to events before it ("after", an anniversary), so
    the 19th-century events would change every existing config's records if
    a domain from 1900-01-31 on drew them: it draws the table's events from
    that day on only, as when generator version 11's records were made; a
    domain from 1800 (the paper's) draws them all."""
    from tsolve.calendars import knowledge

    early = {e.name for e in knowledge.historical_events() if e.start < GENERATED_EVENTS_FROM}
    assert "the Battle of Waterloo" in early and len(early) >= 40
    days = [dt.date(1950, 6, 18), dt.date(1903, 5, 10), dt.date(2025, 11, 19)]
    if relation == "same_year":
        days = [dt.date(1815, 6, 18), dt.date(1863, 11, 19)]
    for day in map(D, days):
        drawn = {
            f.event for f in _facts_related(day, relation, generated_events_since(DEFAULT_DOMAIN))
        }
        everything = {f.event for f in _facts_related(day, relation, generated_events_since(PAPER))}
        assert not drawn & early
        assert drawn == everything - early
        assert everything & early, (relation, day)
    later = DateDomain.from_dates("1950-01-01", "2000-12-31")
    assert generated_events_since(later) == generated_events_since(DEFAULT_DOMAIN)
