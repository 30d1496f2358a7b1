"""The scoring rules of docs/scoring.md: one final-answer rule, no credit for
over-answering, metrics that tell precision from recall, and a standard
error beside every mean."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.contract.item import ItemScore
from tsolve.errors import TsolveError
from tsolve.facade import create_dataset, record_of, score_answer
from tsolve.verifiers.aggregate import aggregate
from tsolve.verifiers.answer_parsing import MARKER, final_answer, parse_answer
from tsolve.verifiers.metrics import answer_set_metrics, set_metrics
from tsolve.verifiers.registry import scorer_for

# ------------------------------------------------------- precision vs recall


@pytest.mark.parametrize(
    ("gold", "pred", "f1", "jaccard"),
    [
        # gold 4, pred 1 (right): P = 1, R = 1/4, F1 = 2·(1/4)/(5/4) = 2/5.
        (["a", "b", "c", "d"], ["a"], 2 / 5, 1 / 4),
        # gold 3, pred 2 (one right): P = 1/2, R = 1/3, F1 = 2·(1/6)/(5/6) = 2/5.
        (["a", "b", "c"], ["a", "x"], 2 / 5, 1 / 4),
        # gold 5, pred 2 (both right): P = 1, R = 2/5, F1 = (4/5)/(7/5) = 4/7.
        (["a", "b", "c", "d", "e"], ["a", "b"], 4 / 7, 2 / 5),
    ],
)
def test_f1_and_jaccard_on_sets_of_different_sizes(
    gold: list[str], pred: list[str], f1: float, jaccard: float
) -> None:
    m = set_metrics(gold, pred)
    assert m["f1"] == pytest.approx(f1) and m["jaccard"] == pytest.approx(jaccard)
    assert m["em"] == 0.0


def test_appendix_b_f1_is_symmetric_but_the_scorers_are_not() -> None:
    """Swapping gold and prediction leaves Appendix B's F1 unchanged (it is
    symmetric); the over-answer rule is what separates them: naming one gold
    date of four earns partial credit, naming four dates for one earns none."""
    assert set_metrics(["a"], ["a", "b", "c", "d"])["f1"] == pytest.approx(2 / 5)
    assert answer_set_metrics(["a", "b", "c", "d"], ["a"])["f1"] == pytest.approx(2 / 5)
    assert answer_set_metrics(["a"], ["a", "b", "c", "d"]) == {"em": 0, "f1": 0, "jaccard": 0}


@given(st.sets(st.integers(0, 12), max_size=8), st.sets(st.integers(0, 12), max_size=8))
def test_metrics_agree_with_precision_and_recall_written_out(
    gold: set[int], pred: set[int]
) -> None:
    g, p = {str(x) for x in gold}, {str(x) for x in pred}
    m = answer_set_metrics(g, p)
    if len(p) > len(g):
        assert m == {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
        return
    if not g and not p:
        assert m == {"em": 1.0, "f1": 1.0, "jaccard": 1.0}
        return
    hit = len(g & p)
    precision = hit / len(p) if p else 0.0
    recall = hit / len(g) if g else 0.0
    f1 = 0.0 if hit == 0 else 2 * precision * recall / (precision + recall)
    assert m["f1"] == pytest.approx(f1)
    assert m["jaccard"] == pytest.approx(hit / len(g | p))
    assert m["em"] == float(g == p)
    if hit:  # a harmonic mean lies between its two terms
        assert min(precision, recall) - 1e-12 <= m["f1"] <= max(precision, recall) + 1e-12


# ------------------------------------------------------------ final answers


@pytest.mark.parametrize(
    ("text", "lines", "how"),
    [
        ("think\nMY ANSWER: 2024-01-02", ("2024-01-02",), "marker"),
        ("  **MY ANSWER:** 2024-01-02 ", ("2024-01-02",), "marker"),
        ("- MY ANSWER: None", ("None",), "marker"),
        ("reason\n$\\boxed{2024-01-02}$", ("2024-01-02",), "boxed"),
        ("MY ANSWER: \\boxed{\\text{None}}", ("None",), "marker"),
        ("2024-01-02", ("2024-01-02",), "bare"),
        ('Respond with "MY ANSWER: None".', ('Respond with "MY ANSWER: None".',), "bare"),
    ],
)
def test_final_answer_rule(text: str, lines: tuple[str, ...], how: str) -> None:
    found = final_answer(text, MARKER)
    assert (found.lines, found.how) == (lines, how)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "reasoning\nand more reasoning with 2024-01-02",  # two lines, no marker
        'If nothing fits, respond with "MY ANSWER: None".\nThanks',  # marker mid-line
        "MY ANSWER:",
    ],
)
def test_no_final_answer_is_a_failure_with_a_reason(text: str) -> None:
    found = final_answer(text, MARKER)
    assert found.failed and found.reason


@given(
    st.lists(
        st.sampled_from(
            [
                "MY ANSWER:",
                "my answer :",
                "answer",
                "## MY ANSWER",
                "The answer is ",
                "**Final Answer**",
                " ",
                "\n",
                "\n\n",
                "**",
                "x",
                "2024-01-02",
                "- ",
                "Answer:",
                "\r\n",
                "\x0c",
            ]
        ),
        max_size=14,
    )
)
def test_the_backward_marker_search_finds_what_the_line_scan_finds(parts: list[str]) -> None:
    """ASCII text takes a fast path (backwards from each "answer"); a text
    with a non-ASCII first line takes the line-by-line scan. Both must pick
    the same marker line and answer."""
    from tsolve.verifiers.answer_parsing import LOOSE_MARKER, PLAIN_MARKER

    text = "".join(parts)
    for marker in (MARKER, PLAIN_MARKER, LOOSE_MARKER):
        for follow in (False, True):
            fast = final_answer(text, marker, follow=follow)
            slow = final_answer("é\n" + text, marker, follow=follow)
            assert (fast.how == "marker") == (slow.how == "marker"), text
            if fast.how == "marker":
                assert fast == slow, text


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("MY ANSWER: May 5, 2014", ["2014-05-05"]),
        ("MY ANSWER: 5 May 2014", ["2014-05-05"]),
        ("MY ANSWER: 25/12/2014", ["2014-12-25"]),  # only one way to read it
        ("MY ANSWER: 12/25/2014", ["2014-12-25"]),
        ("MY ANSWER: 05/05/2014", ["2014-05-05"]),
        ("\\boxed{2014-05-05}", ["2014-05-05"]),
    ],
)
def test_written_dates_are_read(text: str, dates: list[str]) -> None:
    p = parse_answer(text)
    assert not p.failed and p.dates == dates


def test_ambiguous_numeric_dates_fail_unless_the_item_declares_its_order() -> None:
    p = parse_answer("MY ANSWER: 05/06/2014")
    assert p.failed and "ambiguous numeric date '05/06/2014'" in p.reason
    assert parse_answer("MY ANSWER: 05/06/2014", "dmy").dates == ["2014-06-05"]
    assert parse_answer("MY ANSWER: 05/06/2014", "mdy").dates == ["2014-05-06"]


@pytest.mark.parametrize(
    "text", ["MY ANSWER: None, or 2024-01-02", "ANSWER 2024-01-02", "The date is 2024-01-02."]
)
def test_mixed_or_wordy_bare_answers_are_failures(text: str) -> None:
    assert parse_answer(text).failed


# --------------------------------------------- one rule for verify, facade, Inspect


def _outputs(entry: dict[str, Any]) -> list[str]:
    gold = entry["answer"]
    return [gold, f"MY ANSWER: {gold}", f"why\n{gold}", "No idea.", "MY ANSWER: Yes or No",
            f"Thinking {gold}.\nDone.", f"\\boxed{{{gold}}}", ""]  # fmt: skip


@pytest.mark.parametrize("family", ["span", "time-puzzles"])
def test_verify_facade_and_inspect_give_the_same_score(family: str) -> None:
    ds = create_dataset(family, seed=3, size=4, date="2024-07-01") if family == "span" else (
        create_dataset(family, seed=3, size=2, solutions=1))  # fmt: skip
    for entry in ds:
        record = record_of(entry)
        for out in _outputs(entry):
            verify_score = scorer_for(family)(record, out, diagnose=False)
            main = "em" if "em" in verify_score.metrics else "accuracy"
            assert score_answer(out, entry) == verify_score.metrics[main], out
        assert score_answer(entry["answer"], entry) == 1.0  # a bare gold is right
        assert score_answer(f"why\n{entry['answer']}", entry) == 0.0  # free text is not read


def test_a_gameable_metric_is_never_a_reward() -> None:
    with pytest.raises(TsolveError, match="never a reward"):
        create_dataset("logistics", size=1, reward_metric="partial")
    entry = create_dataset("logistics", size=1)[0]
    with pytest.raises(TsolveError, match="never a reward"):
        score_answer(entry["answer"], entry, reward_metric="partial")


# ------------------------------------------------------------ standard errors


@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=1, max_size=40))
def test_stderr_is_the_sample_sd_over_root_n(values: list[float]) -> None:
    items = [ItemScore(str(i), "f", {"em": v}, None, False) for i, v in enumerate(values)]
    agg = aggregate(items)
    want = float(np.std(values, ddof=1) / math.sqrt(len(values))) if len(values) > 1 else 0.0
    assert agg["em"] == pytest.approx(float(np.mean(values)))
    assert agg["em_stderr"] == pytest.approx(want, abs=1e-12)


def test_verify_json_carries_a_stderr_for_every_mean(tmp_path: Any) -> None:
    from tsolve.verifiers.verify_files import verify_files

    recs = [{"id": f"s{i}", "family": "span", "format": "polar", "answer": a,
             "question": "q", "direction": "d", "type": "date"}
            for i, a in enumerate(["Yes", "No", "Yes", "No"])]  # fmt: skip
    outs = ["MY ANSWER: Yes", "MY ANSWER: Yes", "MY ANSWER: Yes", "No idea."]
    rp, pp = tmp_path / "r.jsonl", tmp_path / "p.jsonl"
    rp.write_text("".join(json.dumps(r) + "\n" for r in recs))
    pp.write_text("".join(json.dumps({"id": r["id"], "output": o}) + "\n"
                          for r, o in zip(recs, outs, strict=True)))  # fmt: skip
    overall = verify_files(str(rp), str(pp)).summary()["families"]["span"]["overall"]
    # accuracy {1, 0, 1, 0}: mean 1/2, sample sd sqrt(1/3), stderr sqrt(1/12).
    assert overall["accuracy"] == 0.5
    assert overall["accuracy_stderr"] == pytest.approx(math.sqrt(1 / 12))
    assert overall["parse_failures"] == 1
    for key in [k for k in overall if k not in ("n", "parse_failures")]:
        assert key.endswith("_stderr") or f"{key}_stderr" in overall
