"""Claim checking against a test set whose verdicts come from outside tsolve
(tests/claims_cases.py says where each one comes from)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from collections import Counter

import pytest
from budget import examples
from claims_cases import Case, all_cases, generated, hand_written
from cli_main import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.claims import ClaimCheck, check_claims
from tsolve.claims.source import read_source
from tsolve.errors import TsolveError

KINDS = {"weekday", "leap-year", "date-arithmetic", "cross-calendar", "festival", "month-length"}


def _judge(case: Case) -> list[ClaimCheck]:
    return check_claims(case.text)


# ------------------------------------------------------------ the test set


def test_the_set_is_large_balanced_and_covers_every_kind() -> None:
    cases = [c for c in all_cases() if c.kind is not None]
    assert len(cases) >= 200
    verdicts = Counter(c.verdict for c in cases)
    assert 0.45 <= verdicts["false"] / len(cases) <= 0.55, verdicts
    assert {c.kind for c in cases} == KINDS
    for kind in KINDS:
        assert {"true", "false"} <= {c.verdict for c in cases if c.kind == kind}, kind


def _assert_judged(case: Case) -> None:
    """Exactly the case's claim is found, with its verdict (and correct value);
    nothing is found in a text without a claim."""
    found = _judge(case)
    if case.kind is None:
        assert found == [], "not a claim"
        return
    assert [(c.kind, c.verdict) for c in found] == [(case.kind, case.verdict)], found
    if case.correct is not None:
        assert found[0].correct == case.correct


@pytest.mark.parametrize("case", hand_written(), ids=lambda c: c.text[:50])
def test_hand_written(case: Case) -> None:
    _assert_judged(case)


@pytest.mark.parametrize("case", generated(), ids=lambda c: c.text[:60])
def test_generated(case: Case) -> None:
    _assert_judged(case)


def scores(cases: list[Case]) -> dict[str, float]:
    """Recognition and verdict figures over a test set (docs/claims.md).

    A claim is *recognised* when check_claims finds exactly it; *precision* of
    recognition counts texts without a claim where something was found;
    false-claim precision/recall count the ``false`` verdicts.
    """
    claims = [c for c in cases if c.kind is not None]
    found = {id(c): _judge(c) for c in cases}
    recognised = [c for c in claims if len(found[id(c)]) == 1 and found[id(c)][0].kind == c.kind]
    spurious = sum(len(found[id(c)]) for c in cases if c.kind is None) + sum(
        max(0, len(found[id(c)]) - 1) for c in claims
    )
    right = [c for c in recognised if found[id(c)][0].verdict == c.verdict]
    said_false = [c for c in recognised if found[id(c)][0].verdict == "false"]
    is_false = [c for c in claims if c.verdict == "false"]
    return {
        "claims": len(claims),
        "recall": len(recognised) / len(claims),
        "precision": len(recognised) / (len(recognised) + spurious),
        "verdict_accuracy": len(right) / len(recognised),
        "false_precision": sum(c.verdict == "false" for c in said_false) / len(said_false),
        "false_recall": sum(1 for c in said_false if c.verdict == "false") / len(is_false),
    }


def test_scores_on_the_whole_set() -> None:
    s = scores(all_cases())
    assert s["claims"] >= 200
    for key in ("recall", "precision", "verdict_accuracy", "false_precision", "false_recall"):
        assert s[key] == 1.0, (key, s)


# ------------------------------------------------------------ properties


@settings(max_examples=examples(150), deadline=None)
@given(st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31)), st.integers(0, 6), st.integers(0, 2))
def test_any_weekday_claim(day: dt.date, weekday: int, form: int) -> None:
    name = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")[weekday]
    month = day.strftime("%B")
    date = (f"{month} {day.day}, {day.year:04d}", f"{day.day} {month} {day.year:04d}",
            day.isoformat())[form]  # fmt: skip
    found = check_claims(f"Note that {date} is a {name}.")
    assert len(found) == 1
    assert found[0].verdict == ("true" if day.weekday() == weekday else "false")


@settings(max_examples=examples(150), deadline=None)
@given(
    st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31)), st.integers(-5000, 5000), st.integers(-3, 3)
)
def test_any_shift_claim(day: dt.date, n: int, error: int) -> None:
    try:
        right = day + dt.timedelta(days=n)
        said = right + dt.timedelta(days=error)
    except OverflowError:
        return
    word = "after" if n >= 0 else "before"
    found = check_claims(f"{abs(n)} days {word} {day.isoformat()} is {said.isoformat()}.")
    assert [c.verdict for c in found] == ["true" if error == 0 else "false"]
    if error:
        assert found[0].correct == right.isoformat()


@settings(max_examples=examples(100), deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_claims_whose_spans_are_right(text: str) -> None:
    for c in check_claims(text):
        assert text[c.start : c.end] == c.text
        assert c.line == text.count("\n", 0, c.start) + 1
        assert c.verdict in ("true", "false", "unknown")


# ------------------------------------------------------------ spans and lines


def test_lines_and_offsets_in_a_reasoning_chain() -> None:
    chain = (
        "Let me work this out.\n"
        "First, March 6, 2023 is a Monday.\n"
        "Then 45 days after 2023-03-06 is 2023-04-21, so the answer is in April.\n"
        "Also 2024 is a leap year.\n"
    )
    found = check_claims(chain)
    assert [(c.line, c.kind, c.verdict) for c in found] == [
        (2, "weekday", "true"),
        (3, "date-arithmetic", "false"),
        (4, "leap-year", "true"),
    ]
    assert found[1].text == "45 days after 2023-03-06 is 2023-04-21"
    assert found[1].correct == "2023-04-20"
    assert all(chain[c.start : c.end] == c.text for c in found)


def test_unknown_outside_the_tables_and_for_unknown_festivals() -> None:
    # Persian year 1100 began in 1721, before the tables' 1800-01-01.
    out = check_claims("1 Farvardin 1100 is March 21, 1721. Holi 2024 was on March 25.")
    assert [(c.kind, c.verdict) for c in out] == [
        ("cross-calendar", "unknown"),
        ("festival", "unknown"),
    ]
    assert all(c.note for c in out)


def test_islamic_dates_accept_either_islamic_calendar() -> None:
    # 1 Muharram 1446: 2024-07-07 in Umm al-Qura (ummalqura), 2024-07-08 in the
    # tabular calendar (Reingold & Dershowitz arithmetic).
    for day in ("July 7, 2024", "July 8, 2024"):
        assert [c.verdict for c in check_claims(f"1 Muharram 1446 is {day}.")] == ["true"]
    uq = check_claims("1 Muharram 1446 in the Umm al-Qura calendar is July 8, 2024.")
    assert [(c.verdict, c.correct) for c in uq] == [("false", "2024-07-07")]


def test_a_date_that_does_not_exist_is_false() -> None:
    out = check_claims("February 29, 2023 is a Wednesday.")
    assert [(c.verdict, c.note) for c in out] == [("false", "2023-02-29 does not exist")]


# ------------------------------------------------------------ input and CLI


def test_read_source(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "chain.txt"
    f.write_text("2024 is a leap year.", encoding="utf-8")
    assert read_source(str(f)) == "2024 is a leap year."
    assert read_source("2024 is a leap year.") == "2024 is a leap year."
    with pytest.raises(TsolveError, match="file not found"):
        read_source(str(tmp_path / "missing.txt"))
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("from stdin"))
    assert read_source("-") == "from stdin"


def _cli(
    capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``tsolve check-claims ARGS`` in-process (the README tour runs it as a process)."""
    return run_cli(capsys, "check-claims", *args, stdin=stdin)


def test_cli_jsonl_contract(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "chain.txt"
    f.write_text("Step one.\nMarch 6, 2023 is a Tuesday.\nChinese New Year 2024 is February 10.\n")
    r = _cli(capsys, str(f), "--format", "jsonl")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["line"], x["verdict"], x["correct"]) for x in rows] == [
        (2, "false", "Monday"),
        (3, "true", None),
    ]
    assert rows[0]["text"] == "March 6, 2023 is a Tuesday"


def test_cli_text_table_is_the_default_and_text_is_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    r = _cli(capsys, "March 6, 2023 is a Monday.")
    assert r.returncode == 0, r.stderr
    assert "weekday" in r.stdout and "1 claims: 1 true, 0 false, 0 unknown" in r.stdout
    r = _cli(capsys, "-", "--format", "jsonl", stdin="2023 is a leap year.")
    assert json.loads(r.stdout)["correct"] == "2023 is not a leap year"


def test_cli_missing_file_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    r = _cli(capsys, "no/such/file.txt")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "file not found" in r.stderr


# ------------------------------------------------------------ verify --claims


def test_verify_claims_adds_the_first_false_claim(  # type: ignore[no-untyped-def]
    tmp_path, capsys
) -> None:
    from tsolve.families.time_puzzles.generate import generate_puzzle
    from tsolve.verifiers.verify_files import verify_files

    recs = [generate_puzzle(9, i, solutions=1) for i in range(3)]
    (tmp_path / "p.jsonl").write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    answer = [f"MY ANSWER: {r['answers'][0]}" for r in recs]
    outputs = [
        "2024 is a leap year. March 6, 2023 is a Tuesday. 2023 is a leap year.\n" + answer[0],
        "2024 is a leap year, and March 6, 2023 is a Monday.\n" + answer[1],
        "no idea",
    ]
    preds = [{"id": r["id"], "output": o} for r, o in zip(recs, outputs, strict=True)]
    (tmp_path / "o.jsonl").write_text("\n".join(json.dumps(p) for p in preds) + "\n")
    report = verify_files(tmp_path / "p.jsonl", tmp_path / "o.jsonl", claims=True, keep_items=True)
    by_id = {it.id: it for it in report.items}
    first = by_id[recs[0]["id"]].diagnosis["false_claim"]
    assert (first["line"], first["text"], first["correct"]) == (
        1,
        "March 6, 2023 is a Tuesday",
        "Monday",
    )
    assert by_id[recs[0]["id"]].metrics["em"] == 1.0  # the claim does not change the score
    assert "false_claim" not in by_id[recs[1]["id"]].diagnosis
    assert "false_claim" not in by_id[recs[2]["id"]].diagnosis
    plain = verify_files(tmp_path / "p.jsonl", tmp_path / "o.jsonl", keep_items=True)
    assert all("false_claim" not in it.diagnosis for it in plain.items)
    r = run_cli(capsys, "verify", str(tmp_path / "p.jsonl"), str(tmp_path / "o.jsonl"),
                "--claims")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "outputs with a false date claim: 1" in r.stdout


@pytest.mark.parametrize("year", range(1280, 1479, 7))
def test_persian_leap_years_against_jdatetime(year: int) -> None:
    import jdatetime

    leap = jdatetime.date(year, 1, 1).isleap()
    out = check_claims(f"The Persian year {year} is a leap year.")
    assert [c.verdict for c in out] == ["true" if leap else "false"]


@pytest.mark.parametrize("year", range(5661, 5860, 7))
def test_hebrew_leap_years_against_pyluach(year: int) -> None:
    from pyluach import hebrewcal

    out = check_claims(f"{year} AM is not a leap year.")
    assert [c.verdict for c in out] == ["false" if hebrewcal.Year(year).leap else "true"]
