"""Puzzles written in English, read back into facts (tsolve.families.time_puzzles.parse)
and solved (tsolve.families.time_puzzles.solve_text, ``tsolve solve --text``).

Expected facts are written by hand; the answer sets of the hand-written
puzzles are computed here with ``datetime`` alone, never with tsolve.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_cli
from hypothesis import given
from hypothesis import strategies as st

from tsolve.encodings.facts import FACT_TYPES, STYLES, Fact, fact_from_json
from tsolve.encodings.facts.calendar_facts import DecadeFact, YearFact
from tsolve.encodings.facts.knowledge_facts import (
    RELATION_LEVELS,
    SPORTS_LABELS,
    EventRelationFact,
    PersonAliveFact,
    SportsEventYearFact,
    UsPresidentFact,
)
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles import generate as relational_puzzles
from tsolve.families.time_puzzles import generate as time_puzzles
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.families.time_puzzles.parse import read_puzzle
from tsolve.families.time_puzzles.parse.reader import read_sentence
from tsolve.families.time_puzzles.parse.rendered import catalogue_index, kinds_covered
from tsolve.families.time_puzzles.parse.sentences import Sentence, split_sentences, units
from tsolve.families.time_puzzles.solve_text import solve_text, solve_text_file, text_puzzles
from tsolve.testing.strategies import facts

D = dt.date

# ------------------------------------------------------------ tsolve's renderings


def test_every_registered_kind_is_read() -> None:
    assert kinds_covered() == set(FACT_TYPES)


def test_no_rendering_is_shared_by_two_facts() -> None:
    assert [k for k, v in catalogue_index().items() if v is None] == []


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("kind", sorted(FACT_TYPES))
@given(data=st.data())
def test_rendering_reads_back_as_the_same_fact(kind: str, style: str, data: Any) -> None:
    fact = data.draw(facts(kinds=[kind]))
    assert read_sentence(fact.render(style)) == (fact, "rendered")  # type: ignore[arg-type]


_NAMES = st.text("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ'-", min_size=1, max_size=30)
_DATES = st.dates(D(1, 1, 1), D(9999, 12, 31))


@st.composite
def _open_valued(draw: st.DrawFn) -> Fact:
    """Facts the knowledge base does not hold: names and dates of a user's own."""
    name = draw(_NAMES.map(str.strip).filter(bool))
    a, b = sorted(draw(st.lists(_DATES, min_size=2, max_size=2)))
    kind = draw(st.sampled_from(["year", "decade", "person", "president", "sports", "event"]))
    if kind == "year":
        return YearFact(draw(st.integers(1, 9999)))
    if kind == "decade":
        return DecadeFact(draw(st.integers(0, 999)) * 10)
    if kind == "person":
        return PersonAliveFact(name, a.isoformat(), draw(st.sampled_from([b.isoformat(), None])))
    if kind == "president":
        cuts = sorted(draw(st.lists(_DATES, min_size=2, max_size=6, unique=True)))
        cuts = cuts[: len(cuts) // 2 * 2]  # pairs: start, end
        terms = tuple(
            (s.isoformat(), e.isoformat()) for s, e in zip(cuts[::2], cuts[1::2], strict=True)
        )
        return UsPresidentFact(name, terms)
    if kind == "sports":
        years = tuple(sorted(draw(st.lists(st.integers(1, 9999), min_size=1, max_size=8))))
        return SportsEventYearFact(draw(st.sampled_from(sorted(SPORTS_LABELS))), years)
    end = draw(st.sampled_from([a, b])).isoformat()
    return EventRelationFact(name, a.isoformat(), end, draw(st.sampled_from(list(RELATION_LEVELS))))


@given(_open_valued())
def test_explicit_renderings_with_open_values_read_back(fact: Fact) -> None:
    assert read_sentence(fact.render("explicit")) == (fact, "rendered")


def test_a_known_person_read_from_an_explicit_sentence_keeps_the_description() -> None:
    got = read_sentence(
        "The date is between 1879-03-14 and 1955-04-18 inclusive (the lifetime of Albert Einstein)."
    )
    assert got is not None and got[0].params["description"] == "the physicist Albert Einstein"


# ------------------------------------------------------------ paraphrases

OBAMA = {"president": "Barack Obama", "terms": [["2009-01-20", "2017-01-19"]]}
BERLIN_WALL = {"event": "the fall of the Berlin Wall", "start": "1989-11-09",
               "end": "1989-11-09"}  # fmt: skip
PARAPHRASES: list[tuple[str, str, dict[str, Any]]] = [
    ("It's a Monday.", "weekday", {"weekday": "Monday"}),
    ("It was on a Friday.", "weekday", {"weekday": "Friday"}),
    ("The day of the week is Sunday.", "weekday", {"weekday": "Sunday"}),
    ("The date is a Tuesday or a Thursday.", "weekdays", {"weekdays": ["Tuesday", "Thursday"]}),
    ("It falls on a Saturday, Monday or Wednesday.", "weekdays",
     {"weekdays": ["Monday", "Wednesday", "Saturday"]}),
    ("It was not a Sunday.", "weekdays",
     {"weekdays": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]}),
    ("It is on a weekend.", "weekdays", {"weekdays": ["Saturday", "Sunday"]}),
    ("The year is a leap year.", "leap_year", {"leap": True}),
    ("It is not a leap year.", "leap_year", {"leap": False}),
    ("It happened in a common year.", "leap_year", {"leap": False}),
    ("The month is March.", "month", {"month": 3}),
    ("It happened in September.", "month", {"month": 9}),
    ("It was during the month of Dec.", "month", {"month": 12}),
    ("It happened in the 1990s.", "decade", {"decade": 1990}),
    ("The decade is the 1920s.", "decade", {"decade": 1920}),
    ("The day of the month is 13.", "day_of_month", {"day": 13}),
    ("It is the 5th of the month.", "day_of_month", {"day": 5}),
    ("It is the last day of the month.", "day_of_month", {"position": "last"}),
    ("The day of the month is after the 20th.", "day_of_month_range",
     {"relation": "after", "day": 20}),
    ("The day of the month is less than 10.", "day_of_month_range",
     {"relation": "before", "day": 10}),
    ("It is before the 15th day of the month.", "day_of_month_range",
     {"relation": "before", "day": 15}),
    ("The year is 1987.", "year", {"year": 1987}),
    ("It happened in 1066.", "year", {"year": 1066}),
    ("The season is summer.", "season", {"season": "summer"}),
    ("It happened in the fall.", "season", {"season": "autumn"}),
    ("It is the second Tuesday of the month.", "weekday_in_month",
     {"weekday": "Tuesday", "nth": 2}),
    ("It was the last Friday of its month.", "weekday_in_month", {"weekday": "Friday", "nth": -1}),
    ("The Chinese zodiac animal is the Dragon.", "chinese_zodiac", {"animal": "Dragon"}),
    ("It was in a Year of the Rat.", "chinese_zodiac", {"animal": "Rat"}),
    ("It's in the 8th lunar month.", "lunar_month", {"month": 8, "leap": False}),
    ("It happened during Obama's presidency.", "us_president", OBAMA),
    ("It was during the presidency of Barack Obama.", "us_president", OBAMA),
    ("Barack Obama was president at the time.", "us_president", OBAMA),
    ("Albert Einstein was alive on this date.", "person_alive",
     {"person": "Albert Einstein", "born": "1879-03-14", "died": "1955-04-18",
      "description": "the physicist Albert Einstein"}),
    ("It happened during Einstein's lifetime.", "person_alive",
     {"person": "Albert Einstein", "born": "1879-03-14", "died": "1955-04-18",
      "description": "the physicist Albert Einstein"}),
    ("It was in a Winter Olympics year.", "sports_event_year", {"event": "winter_olympics"}),
    ("It was in a World Cup year.", "sports_event_year", {"event": "fifa_world_cup"}),
    ("The Summer Olympics were held that year.", "sports_event_year",
     {"event": "summer_olympics"}),
    ("It happened in a Dragon year.", "chinese_zodiac", {"animal": "Dragon"}),
    ("It fell in the leap 4th Chinese lunar month.", "lunar_month", {"month": 4, "leap": True}),
    ("It happened on the day of the fall of the Berlin Wall.", "event_relation",
     {**BERLIN_WALL, "relation": "same_day"}),
    ("The date is in the same year as the fall of the Berlin Wall.", "event_relation",
     {**BERLIN_WALL, "relation": "same_year"}),
    ("It happened after the fall of the Berlin Wall.", "event_relation",
     {**BERLIN_WALL, "relation": "after"}),
    ("It is on the anniversary of the fall of the Berlin Wall.", "event_relation",
     {**BERLIN_WALL, "relation": "anniversary"}),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "kind", "params"), PARAPHRASES)
def test_paraphrase(sentence: str, kind: str, params: dict[str, Any]) -> None:
    got = read_sentence(sentence)
    assert got is not None, sentence
    fact, _form = got
    assert fact.kind == kind
    if kind == "sports_event_year":  # the years are the knowledge base's: spot-check one
        held = {"summer_olympics": 2016, "winter_olympics": 2014, "fifa_world_cup": 2014}
        assert fact.params["event"] == params["event"]
        assert held[params["event"]] in fact.params["years"]
        assert held[params["event"]] + 1 not in fact.params["years"]
    else:
        assert fact == fact_from_json({"kind": kind, "params": params})


NOT_FACTS = [
    "What is the date?",
    "Find all valid dates.",
    "It was not in March.",  # no fact kind says "not in a month"
    "It happened in March or April.",
    "The date is a Funday.",
    "Bush was president at the time.",  # two presidents Bush: not one anchor
    "It happened after the big party.",  # no such event in the knowledge base
    "The day of the month is 32.",
    "We met on a Monday.",
    "The year is 0.",
    "It was a Monday in March.",  # two facts in one sentence
]


@pytest.mark.parametrize("sentence", NOT_FACTS)
def test_not_a_fact(sentence: str) -> None:
    assert read_sentence(sentence) is None


# ------------------------------------------------------------ sentences


def test_units_and_sentences() -> None:
    text = "Intro line.\n\n1. It's a Monday. The year is 1990.\n- The month is\n  March.\n"
    us = units(text)
    assert us == [Sentence(1, "Intro line."), Sentence(3, "It's a Monday. The year is 1990."),
                  Sentence(4, "The month is March.")]  # fmt: skip
    assert [s.text for s in split_sentences(us[1])] == ["It's a Monday.", "The year is 1990."]
    inner = Sentence(1, "Harry S. Truman was president. It was in the U.S. capital. Done.")
    assert [s.text for s in split_sentences(inner)] == [
        "Harry S. Truman was president.", "It was in the U.S. capital.", "Done."]  # fmt: skip


def test_inner_dots_do_not_cut_a_fact() -> None:
    text = ("Harry S. Truman was the President of the United States on this date (an "
            "inauguration day counts for the incoming president). It was a Sunday.")  # fmt: skip
    r = read_puzzle(text)
    assert [f.fact.kind for f in r.facts] == ["us_president", "weekday"]
    assert r.unread == ()


@pytest.mark.parametrize("template", [time_puzzles.PROMPT_TEMPLATE])
def test_the_prompt_wording_is_skipped_not_unread(template: str) -> None:
    r = read_puzzle(template.format(constraints="It's a Monday."))
    assert [f.fact.kind for f in r.facts] == ["weekday"]
    assert r.unread == () and len(r.skipped) >= 5


def test_the_relational_prompt_wording_is_recognised_too() -> None:
    tpl = relational_puzzles.PROMPT_TEMPLATE.format(
        what="x", start="1900-01-31", end="2100-12-31", events="A, B", constraints="", answer=""
    )
    r = read_puzzle(tpl)
    assert r.facts == () and r.unread == ()


def test_an_open_name_does_not_swallow_the_next_sentence() -> None:
    r = read_puzzle("The date is after the war. It was a Monday (1990-01-01).")
    assert [f.fact.kind for f in r.facts] == []  # neither sentence is a fact alone
    assert len(r.unread) == 2


def test_unread_sentences_are_listed_with_their_lines() -> None:
    r = read_puzzle("It's a Monday.\nThe answer is obvious.\nWhich Monday is it?")
    assert [(s.line, s.text) for s in r.unread] == [
        (2, "The answer is obvious."), (3, "Which Monday is it?")]  # fmt: skip


# ------------------------------------------------------------ full puzzles, solved


def _all_days() -> list[D]:
    first, last = D(1900, 1, 31), D(2100, 12, 31)
    return [first + dt.timedelta(n) for n in range((last - first).days + 1)]


def _expected(pred: Callable[[D], bool]) -> list[str]:
    return [d.isoformat() for d in _all_days() if pred(d)]


def _last_day(d: D) -> bool:
    return (d + dt.timedelta(1)).month != d.month


HAND_PUZZLES: list[tuple[str, Callable[[D], bool]]] = [
    ("It's a Friday. The day of the month is 13. The year is 2015.",
     lambda d: d.weekday() == 4 and d.day == 13 and d.year == 2015),
    ("1. It happened in the 1990s.\n2. The year is a leap year.\n3. The month is February.\n"
     "4. The day of the month is 29.\n5. It was a Thursday.\n\nWhat is the date?",
     lambda d: 1990 <= d.year <= 1999 and d.month == 2 and d.day == 29 and d.weekday() == 3),
    # Obama's terms: 2009-01-20 to Trump's inauguration on 2017-01-20 (the incoming
    # president's day), from whitehouse.gov's list of presidents.
    ("It happened during Obama's presidency. It was the last day of the month. "
     "It was a Sunday. It is in winter.",
     lambda d: D(2009, 1, 20) <= d < D(2017, 1, 20) and _last_day(d) and d.weekday() == 6
     and d.month in (12, 1, 2)),
    # The Berlin Wall fell on 1989-11-09.
    ("- The date is in the same year as the fall of the Berlin Wall.\n"
     "- It is the second Tuesday of the month.\n- The day of the month is after the 10th.",
     lambda d: d.year == 1989 and d.weekday() == 1 and 8 <= d.day <= 14 and d.day > 10),
    ("The date is between 2000-01-01 and 2000-12-31 inclusive (the lifetime of a made-up "
     "person). It was not a Saturday or Sunday. It is the first day of the month.",
     lambda d: d.year == 2000 and d.weekday() < 5 and d.day == 1),
    ("It is a Monday. It is a Tuesday.", lambda d: False),
]  # fmt: skip


@pytest.mark.parametrize(("text", "pred"), HAND_PUZZLES)
def test_hand_written_puzzle(text: str, pred: Callable[[D], bool]) -> None:
    out = solve_text(text)
    assert out["answers"] == _expected(pred)
    assert out["status"] == ("complete" if out["answers"] else "unsat")
    assert out["complete"] is True


def test_unread_sentences_are_reported_by_solve_text() -> None:
    out = solve_text("It's a Monday. The year is 2024. The month is March. Please hurry.")
    assert out["answers"] == ["2024-03-04", "2024-03-11", "2024-03-18", "2024-03-25"]
    assert out["unread"] == [{"line": 1, "text": "Please hurry."}]
    assert [f["form"] for f in out["facts"]] == ["paraphrase", "rendered", "paraphrase"]


def test_a_text_with_no_fact_is_an_error() -> None:
    with pytest.raises(TsolveError, match="no fact read"):
        solve_text("What is the date?")


def test_the_limit_is_reported_honestly() -> None:
    out = solve_text("It's a Monday.", limit=5)
    assert out["status"] == "limit" and out["complete"] is False and out["count"] == 5


# ------------------------------------------------------------ generated records


def test_generated_prompts_read_back_to_their_facts_and_gold() -> None:
    cfg = PuzzleConfig(solutions=(0, 1, 2, 3, 5), style=("implicit", "explicit"))
    for rec in generate_puzzles(40, 3, cfg):
        reading = read_puzzle(rec["prompt"])
        assert reading.unread == (), rec["id"]
        assert list(reading.fact_values()) == [fact_from_json(f) for f in rec["facts"]], rec["id"]
        assert solve_text(rec["prompt"])["answers"] == sorted(rec["answers"]), rec["id"]


# ------------------------------------------------------------ files and the CLI


def test_text_file_formats(tmp_path: Path) -> None:
    para = tmp_path / "p.txt"
    para.write_text("It's a Monday.\nThe year is 2024.\n\nThe month is May.\n")
    assert [r["text"] for r in text_puzzles(para)] == [  # type: ignore[index]
        "It's a Monday.\nThe year is 2024.", "The month is May."]  # fmt: skip
    dashed = tmp_path / "d.txt"
    dashed.write_text("It's a Monday.\n\nThe year is 2024.\n---\nThe month is May.\n")
    assert len(list(text_puzzles(dashed))) == 2
    rows = tmp_path / "r.jsonl"
    rows.write_text(json.dumps({"id": "a", "text": "It's a Monday."}) + "\n"
                    + json.dumps({"id": "b"}) + "\n")  # fmt: skip
    report = solve_text_file(rows, limit=3)
    assert [r["id"] for r in report.results] == ["a"] and len(report.skipped) == 1
    assert report.exit_code == 1


def run(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``tsolve ARGS`` in-process (tests/test_text_streams.py runs the real
    process on stdin, FIFOs and process substitution)."""
    return run_cli(capsys, *args)


def test_cli_text_json_and_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    text = "It's a Friday. The day of the month is 13. The year is 2015. What is the date?"
    r = run(capsys, "solve", "--text", text, "--format", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["answers"] == ["2015-02-13", "2015-03-13", "2015-11-13"]
    # A bare question states nothing: skipped, not unread, so the reading is whole.
    assert out["unread"] == [] and out["skipped"] == [{"line": 1, "text": "What is the date?"}]
    assert (out["status"], out["complete"]) == ("complete", True)
    t = run(capsys, "solve", "--text", text)
    assert t.returncode == 0 and "2015-11-13" in t.stdout
    assert run(capsys, "solve", "--text", text, "--strict").returncode == 0


PARTIAL = "The date is a Monday. It is not in March 2021. The day is after the 20th."


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl"])
def test_cli_a_partial_reading_is_never_called_complete(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two of the three sentences are not read, so the answer
    set (every Monday) is the facts read's, not the text's: a status of its
    own, exit 1, and the word "complete" nowhere in the text output."""
    r = run(capsys, "solve", "--text", PARTIAL, "--format", fmt)
    assert r.returncode == 1, r.stderr
    if fmt == "text":
        first = r.stdout.splitlines()[0]
        assert "partial-reading" in first and "complete" not in r.stdout.lower()
        return
    out = json.loads(r.stdout) if fmt == "json" else json.loads(r.stdout.splitlines()[0])
    assert (out["status"], out["complete"], out["solver_status"]) == (
        "partial-reading", False, "complete")  # fmt: skip
    assert [u["text"] for u in out["unread"]] == [
        "It is not in March 2021.", "The day is after the 20th."]  # fmt: skip
    # Every Monday of the default domain, independently of tsolve.
    first_day, last_day = dt.date(1900, 1, 31), dt.date(2100, 12, 31)
    mondays = sum(1 for n in range((last_day - first_day).days + 1)
                  if (first_day + dt.timedelta(n)).weekday() == 0)  # fmt: skip
    assert out["count"] == mondays


@pytest.mark.parametrize(
    ("question", "skipped"),
    [("What is the date?", True), ("Which dates could it be?", True), ("When is it?", True),
     ("Which Monday is it?", False), ("Is it in 2021?", False)],
)  # fmt: skip
def test_only_bare_questions_are_skipped(question: str, skipped: bool) -> None:
    reading = read_puzzle(f"It's a Friday. {question}")
    assert [s.text for s in reading.skipped] == ([question] if skipped else [])
    assert [s.text for s in reading.unread] == ([] if skipped else [question])


def test_cli_text_file_jsonl_of_generated_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = run(capsys, "puzzle", "--count", "3", "--seed", "2", "--solutions", "2",
            "--format", "jsonl")  # fmt: skip
    path = tmp_path / "p.jsonl"
    path.write_text(p.stdout)
    r = run(capsys, "solve", "--text-file", str(path), "--format", "jsonl", "--strict")
    assert r.returncode == 0, r.stderr
    gold = [sorted(json.loads(line)["answers"]) for line in p.stdout.splitlines()]
    assert [json.loads(line)["answers"] for line in r.stdout.splitlines()] == gold


@pytest.mark.parametrize(
    "args",
    [("--text", "It's a Monday.", "x.jsonl"), (), ("x.jsonl", "--strict"),
     ("--text", "It's a Monday.", "--check")],
)  # fmt: skip
def test_cli_refuses_mixed_sources(
    args: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    r = run(capsys, "solve", *args)
    assert r.returncode != 0 and "Traceback" not in r.stderr and r.stderr.strip()


def test_cli_no_fact_is_a_skipped_row(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "solve", "--text", "Hello there.")
    assert r.returncode == 1 and "no fact read" in r.stderr
