"""``tsolve report --claims``: where the reasoning went wrong.

Scripted, offline runs plant the reasoning: ``answer="false-claim"`` writes a
false weekday claim (1 January 2000 was a Saturday, not a Monday) before no
answer, ``answer="reasoned"`` a true one before the gold answer, and a mock
model answers the gold after the false claim when M = 1 and nothing after the
true claim otherwise. The expected shares are worked out here from that plan.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.report import build_report
from tsolve.adapters.inspect_ai.scripted import FALSE_CLAIM, TRUE_CLAIM, scripted
from tsolve.records.gold_fields import record_in

COUNT = 4


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """Three runs of the same four puzzles (M in {1, 2}); the M of each record."""
    out = tmp_path_factory.mktemp("claims_logs")
    records = tmp_path_factory.mktemp("records") / "tp.jsonl"
    task = family_task("time-puzzles", seed=3, count=COUNT, solutions="1,2")
    rows = [record_in(s.metadata) for s in task.dataset]
    records.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    by_prompt = {s.input: record_in(s.metadata) for s in task.dataset}
    tp = family_task("time-puzzles", file=str(records))
    for answer in ("false-claim", "reasoned"):
        inspect_eval(tp, model="mockllm/model", solver=scripted(answer=answer), tags=[answer],
                     log_dir=str(out), display="none")  # fmt: skip

    def mixed(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        rec = by_prompt[messages[-1].text]
        if len(rec["answers"]) == 1:
            text = f"{FALSE_CLAIM}\nMY ANSWER: {rec['answers'][0]}"
        else:
            text = f"{TRUE_CLAIM}\nno idea"
        out_ = ModelOutput.from_content("mockllm/model", text)
        out_.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out_

    inspect_eval(tp, model=get_model("mockllm/model", custom_outputs=mixed), tags=["mixed"],
                 log_dir=str(out), display="none")  # fmt: skip
    return out, {r["id"]: len(r["answers"]) for r in rows}


def _overall(rows: list[dict[str, Any]], tag: str) -> dict[str, Any]:
    (row,) = [r for r in rows if r["tags"] == [tag] and r["M"] == "all"]
    return row


def test_the_planted_false_claim_is_found_in_every_wrong_answer(
    folder: tuple[Path, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(capsys, "report", str(folder[0]), "--claims", "--format", "json")
    assert code == 0
    row = _overall(json.loads(out), "false-claim")
    assert row["n"] == COUNT and row["accuracy"] == 0.0
    assert row["wrong_with_false_claim"] == 1.0
    assert row["false_claim_kinds"] == {"weekday": COUNT}
    assert len(row["false_claims"]) == COUNT
    for item in row["false_claims"]:
        claim = item["first_false_claim"]
        assert item["correct"] is False and item["epoch"] == 1
        assert claim["kind"] == "weekday" and claim["verdict"] == "false"
        assert claim["text"] in FALSE_CLAIM and claim["correct"] == "Saturday"


def test_correct_reasoning_has_no_false_claim(folder: tuple[Path, dict[str, int]]) -> None:
    row = _overall(build_report([folder[0]], claims=True).rows, "reasoned")
    assert row["accuracy"] == 1.0
    assert row["wrong_with_false_claim"] is None  # nothing wrong to explain
    assert row["false_claims"] == [] and row["false_claim_kinds"] == {}


def test_a_false_claim_in_a_right_answer_is_listed_but_not_counted_as_the_cause(
    folder: tuple[Path, dict[str, int]],
) -> None:
    rows = build_report([folder[0]], claims=True).rows
    m_of = folder[1]
    ones = sorted(i for i, m in m_of.items() if m == 1)
    assert 0 < len(ones) < COUNT  # both kinds of sample are there
    row = _overall(rows, "mixed")
    # the M = 1 answers are right with a false claim; the others wrong with a true one
    assert row["accuracy"] == pytest.approx(len(ones) / COUNT)
    assert row["wrong_with_false_claim"] == 0.0
    assert sorted(i["sample"] for i in row["false_claims"]) == ones
    assert all(i["correct"] for i in row["false_claims"])


def test_without_claims_the_rows_are_as_before(folder: tuple[Path, dict[str, int]]) -> None:
    for row in build_report([folder[0]]).rows:
        assert "wrong_with_false_claim" not in row and "false_claims" not in row
