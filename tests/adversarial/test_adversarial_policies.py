"""The adversarial suite: no trivial policy beats chance, honest answers score 1.

For each family a fixed set of records (tests/fixtures/adversarial/, tsolve's
own records: see the fixtures README) goes through every policy of
:mod:`tsolve.stress.adversarial` and the shared scorer (``tsolve verify``'s
metrics and the facade's reward). The rules, in every metric not declared
gameable: a policy that commits to no single answer (hedges, lists, dumps,
echoes, empty output) scores exactly 0; a blind guess (constants, another
item's gold, several final answers) scores at most the chance baseline; the
gold written as models write it scores 1.0 in the main metric and reward.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.errors import TsolveError
from tsolve.stress.adversarial import FAMILIES, FamilyResult, make_item, run_family, shared_score

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "adversarial"


def _records(family: str) -> list[dict[str, Any]]:
    with open(FIXTURES / f"{family}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


_RESULTS: dict[str, FamilyResult] = {}


def _result(family: str) -> FamilyResult:
    if family not in _RESULTS:  # one run per family, shared by the tests below
        _RESULTS[family] = run_family(family, _records(family))
    return _RESULTS[family]


@pytest.mark.parametrize("family", FAMILIES)
def test_no_policy_beats_chance_and_honest_answers_score_one(family: str) -> None:
    result = _result(family)
    assert result.failures() == []
    # The battery really ran: hedges, lists, echoes, constants, honest forms.
    assert len(result.no_answer) >= 20 and len(result.guesses) >= 8 and len(result.honest) >= 8
    assert len(result.styles) >= 30  # the honest styles of tsolve.stress.honest ran too
    assert all(m["parse_failed"] == 0 and m["applied"] > 0 for m in result.styles.values())
    assert all(m.get("parse_failed", 0) == 0 for m in result.honest.values())


@pytest.mark.parametrize("family", FAMILIES)
def test_every_policy_scores_what_it_did_before_the_reading_was_widened(family: str) -> None:
    """The figures of tests/fixtures/adversarial/policy_scores.json were
    computed by the scorers before honest formats were read (see the
    fixtures README): reading more honest forms must not move any of them."""
    with open(FIXTURES / "policy_scores.json", encoding="utf-8") as f:
        before = json.load(f)[family]
    result = _result(family)
    now = {"baseline": result.baseline, "no_answer": result.no_answer,
           "guesses": result.guesses, "honest": result.honest}  # fmt: skip
    assert now["baseline"] == pytest.approx(before["baseline"], abs=1e-12)
    for table in ("no_answer", "guesses", "honest"):
        assert set(now[table]) == set(before[table]), table
        for policy, means in before[table].items():
            assert now[table][policy] == pytest.approx(means, abs=1e-12), (table, policy)


def test_span_baseline_is_the_best_constant_per_format() -> None:
    """Counted from the records alone: the more frequent yes/no label, and
    the most frequent content gold, each over all items."""
    recs = _records("span")
    polar = Counter(r["answer"] for r in recs if r["format"] == "polar")
    content = Counter(r["answer"] for r in recs if r["format"] == "content")
    want = (max(polar.values()) + max(content.values())) / len(recs)
    assert _result("span").baseline["accuracy"] == pytest.approx(want)


def test_time_puzzle_baseline_is_the_share_of_the_most_frequent_gold() -> None:
    recs = _records("time-puzzles")
    counts = Counter(tuple(r["answers"]) for r in recs)
    assert _result("time-puzzles").baseline["em"] == pytest.approx(max(counts.values()) / len(recs))


def test_logistics_partial_is_reported_as_gameable_and_never_a_reward() -> None:
    result = _result("logistics")
    assert result.gameable == ("partial",)
    # The paper's lenient rule still pays a hedge of one location and one
    # vehicle, which is why it is flagged; accuracy and the reward do not.
    hedge = result.no_answer["gold or another item's gold"]
    assert hedge["accuracy"] == 0.0 and hedge["reward"] == 0.0


def _lenient_polar(record: dict[str, Any], output: str) -> dict[str, float]:
    """The old SPAN rule (the last yes/no word of the last line), as a
    scorer to show the suite catches it."""
    if record.get("format") != "polar":
        return shared_score(record, output)
    lines = [ln for ln in output.splitlines() if ln.strip()]
    words = re.findall(r"\b(yes|no)\b", (lines[-1] if lines else "").lower())
    ok = bool(words) and words[-1] == record["answer"].lower()
    return {"accuracy": float(ok), "reward": float(ok)}


def test_the_suite_catches_a_lenient_yes_no_parser() -> None:
    polar = [r for r in _records("span") if r["format"] == "polar"]
    assert {r["answer"] for r in polar} == {"Yes", "No"}
    result = run_family("span", polar, score=_lenient_polar)
    assert any("'hedge: No idea.'" in line for line in result.failures())


def test_items_offer_every_candidate() -> None:
    rec = _records("logistics")[0]
    item = make_item("logistics", rec)
    assert set(rec["answers"]) <= set(item.candidates) and len(item.candidates) > 2


def test_cli_runs_the_suite_and_reports_json() -> None:
    res = CliRunner().invoke(
        app, ["stress", "span", "--adversarial", "--n", "6", "--format", "json", "-q"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["ok"] is True and data["failures"] == []
    assert set(data["families"]["span"]["baseline"]) >= {"accuracy", "reward"}


def test_cli_refuses_an_unknown_family_in_one_line() -> None:
    res = CliRunner().invoke(app, ["stress", "tempo", "--adversarial", "-q"])
    assert isinstance(res.exception, TsolveError) and str(res.exception).startswith("family:")
