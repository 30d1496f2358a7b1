"""Parsing model output, Appendix B metrics, diagnosis and the batch driver."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tsolve.families.time_puzzles.generate import generate_puzzle
from tsolve.families.time_puzzles.score import score_puzzle
from tsolve.verifiers.answer_parsing import parse_answer
from tsolve.verifiers.metrics import set_metrics
from tsolve.verifiers.verify_batch import verify
from tsolve.verifiers.verify_files import verify_files


@pytest.mark.parametrize(
    ("text", "dates", "is_none"),
    [
        ("reasoning...\nMY ANSWER: 2020-01-02, 2020-01-03", ["2020-01-02", "2020-01-03"], False),
        ("**MY ANSWER:** None", [], True),
        ("my answer:  none.", [], True),
        ("**My Answer**: March 5, 1994, 6th of March 1994", ["1994-03-05", "1994-03-06"], False),
        ("MY ANSWER:\n- 2021-03-01\n- 2021-03-08\n\nThanks", ["2021-03-01", "2021-03-08"], False),
        ("MY ANSWER: 2019-1-7", ["2019-01-07"], False),
        # The last answer line counts: models restate their answer.
        ("MY ANSWER: 2000-01-01\nWait.\nMY ANSWER: 2000-01-02", ["2000-01-02"], False),
    ],
)
def test_parse_tolerates_formatting(text: str, dates: list[str], is_none: bool) -> None:
    p = parse_answer(text)
    assert not p.failed
    assert p.dates == dates and p.is_none == is_none


@pytest.mark.parametrize("text", ["", "I give up", "MY ANSWER: maybe later", "ANSWER 2020-01-01"])
def test_garbage_is_a_flagged_failure(text: str) -> None:
    assert parse_answer(text).failed


def test_invalid_calendar_dates_count_as_wrong() -> None:
    p = parse_answer("MY ANSWER: 2021-02-30, 2021-03-01")
    assert p.dates == ["2021-03-01"] and p.invalid == ["2021-02-30"]


def test_metrics_follow_appendix_b() -> None:
    assert set_metrics([], []) == {"em": 1.0, "f1": 1.0, "jaccard": 1.0}
    assert set_metrics(["a"], []) == {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
    assert set_metrics([], ["a"]) == {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
    # gold {a,b,c}, pred {b,c,d}: P = R = 2/3, F1 = 2/3, Jaccard = 2/4.
    m = set_metrics(["a", "b", "c"], ["b", "c", "d"])
    assert m["em"] == 0.0 and m["f1"] == pytest.approx(2 / 3) and m["jaccard"] == pytest.approx(0.5)
    assert set_metrics(["a"], ["b"]) == {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
    # Sizes differ: gold {a,b,c}, pred {a,x}: P = 1/2, R = 1/3, F1 = 2/5, J = 1/4
    # (P and R swapped would still give 2/5; the next case tells them apart).
    m = set_metrics(["a", "b", "c"], ["a", "x"])
    assert m["f1"] == pytest.approx(2 / 5) and m["jaccard"] == pytest.approx(1 / 4)
    # gold {a,b,c,d}, pred {a,b,x}: P = 2/3, R = 1/2, F1 = 4/7, J = 2/5.
    m = set_metrics(["a", "b", "c", "d"], ["a", "b", "x"])
    assert m["f1"] == pytest.approx(4 / 7) and m["jaccard"] == pytest.approx(2 / 5)


def test_an_answer_with_more_dates_than_the_gold_scores_nothing() -> None:
    rec = generate_puzzle(seed=11, solutions=1)
    gold = rec["answers"][0]
    year = gold[:4]
    over = "MY ANSWER: " + ", ".join([gold, f"{year}-01-01", f"{year}-01-02"])
    s = score_puzzle(rec, over, diagnose=False)
    assert s.metrics["em"] == s.metrics["f1"] == s.metrics["jaccard"] == 0.0
    assert "over_answer" in s.diagnosis and not s.parse_failed
    assert score_puzzle(rec, f"MY ANSWER: {gold}", diagnose=False).metrics["em"] == 1.0
    assert set_metrics(["a", "b"], ["b", "a"])["em"] == 1.0


def test_diagnosis_names_the_violated_fact() -> None:
    rec = generate_puzzle(4, 2, solutions=2)
    gold = rec["answers"]
    wrong = (dt.date.fromisoformat(gold[0]) + dt.timedelta(days=1)).isoformat()
    item = score_puzzle(rec, f"MY ANSWER: {gold[0]}, {wrong}")
    assert item.metrics["em"] == 0.0 and item.metrics["jaccard"] == pytest.approx(1 / 3)
    diag = item.diagnosis
    assert diag["missed"] == [gold[1]]
    violated = diag["wrong"][wrong]["violates"]
    assert violated, "a non-gold date must violate at least one fact"
    kinds = {f["kind"] for f in rec["facts"]}
    assert {v["kind"] for v in violated} <= kinds


def test_batch_reports_bad_rows_and_goes_on(tmp_path: Path) -> None:
    recs = [generate_puzzle(9, i, solutions=1 + i) for i in range(3)]
    pz = tmp_path / "p.jsonl"
    pz.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    preds = tmp_path / "pred.jsonl"
    lines = [
        json.dumps({"id": recs[0]["id"], "output": "MY ANSWER: " + ", ".join(recs[0]["answers"])}),
        "{not json",
        json.dumps({"id": "no-such-id", "output": "MY ANSWER: None"}),
        json.dumps({"id": recs[1]["id"], "output": "no idea"}),
    ]
    preds.write_text("\n".join(lines) + "\n")
    report = verify_files(pz, preds, keep_items=True)
    s = report.summary()
    assert s["scored"] == 2 and s["parse_failures"] == 1 and s["errors"] == 2
    assert s["missing_predictions"] == 1
    fam = s["families"]["time-puzzles"]
    assert fam["overall"]["em"] == pytest.approx(0.5)
    assert fam["by"]["solutions"]["1"]["em"] == 1.0 and fam["by"]["solutions"]["2"]["em"] == 0.0


def test_verify_in_memory() -> None:
    rec = generate_puzzle(0, 0, solutions=0)
    report = verify([rec], [{"id": rec["id"], "output": "MY ANSWER: None"}], keep_items=True)
    assert report.items[0].metrics == {"em": 1.0, "f1": 1.0, "jaccard": 1.0}


def test_no_diagnosis_keeps_scores_and_lists() -> None:
    rec = generate_puzzle(4, 2, solutions=2)
    gold = rec["answers"]
    wrong = (dt.date.fromisoformat(gold[0]) + dt.timedelta(days=1)).isoformat()
    out = f"MY ANSWER: {gold[0]}, {wrong}"
    full = score_puzzle(rec, out)
    fast = score_puzzle(rec, out, diagnose=False)
    assert fast.metrics == full.metrics
    assert fast.diagnosis["missed"] == full.diagnosis["missed"] == [gold[1]]
    assert list(fast.diagnosis["wrong"]) == [wrong] and fast.diagnosis["wrong"][wrong] == {}


_TOKENS = ["my", "MY", "My", "answer", "ANSWER", "Answer", "anſwer", ":", "：", "*", "**", "_",
           "`", " ", "  ", "\n", "\t", "\u00a0", "m", "y", "is", "2020-01-02", "None", "ｍｙ", "é",
           "my answer:", "MY ANSWER: ", "**My Answer**:", "my anſwer:", "my\u00a0answer：",
           "my answer", "answer:"]  # fmt: skip


@given(st.lists(st.sampled_from(_TOKENS), max_size=30).map("".join))
@example("reasoning... MY ANSWER: 2020-01-02\nthen my anſwer: 2020-01-03")  # only the regex sees ſ
@example("my answer: a\n**MY  _ANSWER_**  : b")
@example("MY ANSWER: a. That is my answer")  # the last "answer" is not a marker
def test_last_marker_is_the_one_the_regex_finds_last(text: str) -> None:
    from tsolve.verifiers.answer_parsing import MARKER, last_marker_end

    matches = list(MARKER.finditer(text))
    assert last_marker_end(text) == (matches[-1].end() if matches else None)
