"""``tsolve report``: the papers' tables from Inspect logs.

Real logs are written by scripted, offline runs (mockllm outputs with
``usage``, and the ``tsolve/scripted`` solver) across the conditions; the
expected rows are computed here from the records and the scripts (which
samples got the gold, how many tool calls each condition's script makes), not
from the report's code. A corrupt log is reported and the others go on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main
from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolCall, ToolInfo

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.report import build_report
from tsolve.adapters.inspect_ai.scripted import scripted
from tsolve.adapters.inspect_ai.tictoc_task import tictoc_task

TICTOC = Path(__file__).resolve().parent / "fixtures" / "tictoc_invented.json"
TOOLS_PER_CONDITION = {"none": 0, "context-knowledge": 0, "calendar": 3, "knowledge": 1, "all": 5}


def _usage(out: ModelOutput, tokens: int) -> ModelOutput:
    out.usage = ModelUsage(input_tokens=1, output_tokens=tokens, total_tokens=1 + tokens)
    return out


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One folder of logs: time puzzles with M in {1, 2} under five conditions,
    and TicToc under "always call a tool"; plus what the rows must say."""
    folder = tmp_path_factory.mktemp("logs")
    records = tmp_path_factory.mktemp("records") / "tp.jsonl"
    task = family_task("time-puzzles", seed=2, count=4, solutions="1,2", anchors="person_alive")
    rows = [s.metadata["record"] for s in task.dataset]
    records.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    m_of = {r["id"]: len(r["answers"]) for r in rows}
    by_prompt = {s.input: s.metadata["record"] for s in task.dataset}

    # none: a model that answers the gold when M = 1 and garbage otherwise, 7 tokens
    def m1_only(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        rec = by_prompt[messages[-1].text]
        text = "MY ANSWER: " + ", ".join(rec["answers"]) if len(rec["answers"]) == 1 else "no idea"
        return _usage(ModelOutput.from_content("mockllm/model", text), 7)

    plain = family_task("time-puzzles", file=str(records))
    inspect_eval(plain, model=get_model("mockllm/model", custom_outputs=m1_only),
                 log_dir=str(folder), display="none")  # fmt: skip
    for tools, context in (("calendar", None), ("knowledge", None), ("all", None),
                           (None, "knowledge")):  # fmt: skip
        sandbox = "local" if tools == "all" else None
        t = family_task("time-puzzles", file=str(records), tools=tools, context=context,
                        sandbox=sandbox)  # fmt: skip
        inspect_eval(t, model="mockllm/model", solver=scripted(), log_dir=str(folder),
                     display="none")  # fmt: skip

    def always_call(messages: list[ChatMessage], tools: list[ToolInfo], *rest: Any) -> ModelOutput:
        call = ToolCall(id="c", function=tools[0].name, arguments={})
        message = ChatMessageAssistant(content="", tool_calls=[call])
        out = ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(message=message)])
        return _usage(out, 3)

    inspect_eval(tictoc_task(TICTOC), model=get_model("mockllm/model", custom_outputs=always_call),
                 log_dir=str(folder), display="none")  # fmt: skip
    return {"folder": folder, "m_of": m_of}


def _find(rows: list[dict[str, Any]], **want: Any) -> dict[str, Any]:
    (row,) = [r for r in rows if all(r.get(k) == v for k, v in want.items())]
    return row


def test_rows_by_condition_and_m(logs: dict[str, Any]) -> None:
    report = build_report([logs["folder"]])
    assert report.bad_logs == [] and report.exit_code == 0
    m_of: dict[str, int] = logs["m_of"]
    n = len(m_of)
    by_m = {m: sum(1 for v in m_of.values() if v == m) for m in set(m_of.values())}
    assert set(by_m) == {1, 2}  # both sizes, so the per-M rows differ
    rows = [r for r in report.rows if r["task"] == "tsolve/time_puzzles"]
    assert {r["condition"] for r in rows} == set(TOOLS_PER_CONDITION)

    none = _find(rows, condition="none", M="all")
    assert none["n"] == n and none["style"] == "implicit"
    assert none["accuracy"] == pytest.approx(by_m.get(1, 0) / n)
    assert none["metrics"]["em"] == pytest.approx(by_m.get(1, 0) / n)
    assert none["mean_output_tokens"] == 7 and none["mean_turns"] == 1
    assert none["mean_tool_calls"] == 0
    for m, count in by_m.items():
        row = _find(rows, condition="none", M=m)
        assert row["n"] == count and row["accuracy"] == (1.0 if m == 1 else 0.0)

    for condition, n_tools in TOOLS_PER_CONDITION.items():
        if condition == "none":
            continue
        row = _find(rows, condition=condition, M="all")
        assert (row["n"], row["accuracy"], row["errors"]) == (n, 1.0, 0)
        assert row["mean_tool_calls"] == 2 * n_tools  # one good, one bad call per tool
        assert row["mean_turns"] == (2 if n_tools else 1)


def test_tictoc_rows_by_level_and_preference(logs: dict[str, Any]) -> None:
    raw = json.loads(TICTOC.read_text(encoding="utf-8"))
    rows = [r for r in build_report([logs["folder"]]).rows if r["task"] == "tsolve/tictoc"]
    for key, items in raw.items():
        pref_word, level = key.removesuffix(".json").split("_elapse_")
        pref = "tool" if pref_word == "preferTool" else "no_tool"
        row = _find(rows, level=int(level), preference=pref)
        assert row["n"] == len(items)
        assert row["accuracy"] == (1.0 if pref == "tool" else 0.0)
        assert row["attempt_rate"] == 1.0
    for level in (0, 1, 2):
        assert _find(rows, level=level, preference="all")["nar"] == 0.5


def test_cli_json_rows_a_bad_log_and_the_plot(
    logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(capsys, "report", str(logs["folder"]), "--format", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows == build_report([logs["folder"]]).rows
    for row in rows:
        assert {"task", "condition", "n", "accuracy"} <= set(row)

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "2026-01-01T00-00-00-00-00_broken_abc.json").write_text("{not json", encoding="utf-8")
    png = tmp_path / "fig.png"
    code, out, err = run_main(
        capsys, "report", str(logs["folder"]), str(bad), "--format", "json", "--plot", str(png)
    )
    assert code == 1
    assert json.loads(out) == rows  # the good logs are still reported
    assert "bad log" in err and "broken_abc" in err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    code, out, err = run_main(capsys, "report", str(tmp_path / "nowhere"))
    assert code == 2 and "is neither a folder nor a log file" in err
    assert "Traceback" not in err
