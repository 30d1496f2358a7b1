"""TicToc as a live Inspect task, on invented items in the benchmark's format.

The fixture is ``fixtures/tictoc_invented.json`` (invented conversations in
the benchmark's bundle shape; TicToc's own data cannot be shipped). Expected
counts come from the raw JSON here, not from tsolve's reader. "Always call a
tool" must score 1 on every prefer-tool item and 0 on every prefer-no-tool
item; "never call" the reverse; the metrics give NAR and attempt rates by
elapsed-time level.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolCall, ToolInfo

from tsolve.errors import TsolveError
from tsolve.families.tictoc.inspect_task import tictoc_task

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tictoc_invented.json"
USAGE = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)


def _raw() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def _label(key: str) -> tuple[str, int]:
    """``preferNoTool_elapse_2.json`` -> ('no_tool', 2), read here by hand."""
    stem = key.removesuffix(".json")
    pref, level = stem.split("_elapse_")
    return ("tool" if pref == "preferTool" else "no_tool"), int(level)


def _always_call(messages: list[ChatMessage], tools: list[ToolInfo], *rest: Any) -> ModelOutput:
    assert tools, "the item's tools were not offered"
    call = ToolCall(id="c1", function=tools[0].name, arguments={})
    message = ChatMessageAssistant(content="", tool_calls=[call])
    return ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(message=message)],
                       usage=USAGE)  # fmt: skip


def _never_call(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", "From what we saw earlier: about the same.")
    out.usage = USAGE
    return out


def _run(policy: Any, tmp_path: Path) -> EvalLog:
    task = tictoc_task(FIXTURE)
    model = get_model("mockllm/model", custom_outputs=policy)
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    return log


def test_always_and_never_calling_a_tool(tmp_path: Path) -> None:
    raw = _raw()
    n_items = sum(len(items) for items in raw.values())
    for policy, scores_tool in ((_always_call, 1.0), (_never_call, 0.0)):
        log = _run(policy, tmp_path / policy.__name__)
        assert log.samples is not None and len(log.samples) == n_items  # one sample per item
        seen: dict[tuple[str, int], int] = {}
        for sample in log.samples:
            (score,) = (sample.scores or {}).values()
            pref, level = score.metadata["preference"], score.metadata["level"]
            assert score.value == (scores_tool if pref == "tool" else 1.0 - scores_tool)
            seen[(pref, level)] = seen.get((pref, level), 0) + 1
        assert seen == {_label(key): len(items) for key, items in raw.items()}

        assert log.results is not None
        metrics = {m.name: m.value for s in log.results.scores for m in s.metrics.values()}
        assert metrics["attempt_rate"] == (1.0 if scores_tool else 0.0)
        assert metrics["nar"] == 0.5  # one class all right, the other all wrong
        for key in raw:
            pref, level = _label(key)
            want = scores_tool if pref == "tool" else 1.0 - scores_tool
            assert metrics[f"accuracy_prefer_{pref}_level{level}"] == want
        n_tool = sum(len(v) for k, v in raw.items() if _label(k)[0] == "tool")
        assert metrics["mean"] == pytest.approx(
            (n_tool if scores_tool else n_items - n_tool) / n_items
        )


def test_the_history_is_shown_with_its_timestamps(tmp_path: Path) -> None:
    raw = _raw()
    task = tictoc_task(FIXTURE)
    by_id = {s.id: s for s in task.dataset}
    for key, items in raw.items():
        pref, level = _label(key)
        for item in items:
            sample = by_id[f"{item['id']}@{pref}-{level}"]
            assert isinstance(sample.input, list)
            assert len(sample.input) == len(item["history"])
            final = item["history"][-1]
            assert sample.input[-1].text == f"[{final['time'][level]}] {final['content']}"
            first = item["history"][0]
            assert sample.input[0].text.startswith(f"[{first['time']}]")
            names = {f["function"]["name"] for f in item["function"]}
            assert {f["function"]["name"] for f in sample.metadata["functions"]} == names


def test_a_text_tool_call_counts_as_a_call(tmp_path: Path) -> None:
    """A model without native tool calls may write the call as JSON text."""

    def json_call(messages: list[ChatMessage], tools: list[ToolInfo], *rest: Any) -> ModelOutput:
        text = json.dumps({"name": tools[0].name, "arguments": {}})
        out = ModelOutput.from_content("mockllm/model", text)
        out.usage = USAGE
        return out

    log = _run(json_call, tmp_path)
    assert log.samples is not None
    for sample in log.samples:
        (score,) = (sample.scores or {}).values()
        assert score.metadata["called"] is True


def test_a_bad_file_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "preferTool_elapse_0.json"
    bad.write_text(json.dumps([{"id": "x", "history": "not a list"}]), encoding="utf-8")
    with pytest.raises(TsolveError, match=r"preferTool_elapse_0\.json\[0\] \(id 'x'\)"):
        tictoc_task(bad)
    with pytest.raises(TsolveError):
        tictoc_task(tmp_path / "missing.json")


def test_the_registered_task_needs_a_file() -> None:
    from tsolve.families.tictoc.inspect_task import tictoc

    with pytest.raises(Exception, match="tsolve: file: give the TicToc data file") as info:
        tictoc()
    assert type(info.value).__name__ == "PrerequisiteError"
    task = tictoc(file=str(FIXTURE))
    assert task.name == "tsolve/tictoc"
    assert len(task.dataset) == sum(len(v) for v in _raw().values())


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0, 1, 2]), st.sampled_from(["tool", "no_tool"]), st.booleans()),
        max_size=40,
    )
)
def test_the_metrics_are_the_papers_formulas(decisions: list[tuple[int, str, bool]]) -> None:
    """NAR = ½(TP/(TP+FN) + TN/(TN+FP)) and attempt rate = calls / n, per level
    and overall, written out here; a cell with an empty class has no NAR."""
    from inspect_ai.scorer import SampleScore, Score

    from tsolve.families.tictoc.inspect_task import tictoc_metrics

    scores = [
        SampleScore(score=Score(value=float(called == (pref == "tool")),
                                metadata={"level": level, "preference": pref, "called": called}))
        for level, pref, called in decisions
    ]  # fmt: skip
    got = tictoc_metrics()(scores)
    assert isinstance(got, dict)
    cells = {"": decisions, **{f"_level{k}": [d for d in decisions if d[0] == k] for k in range(3)}}
    for suffix, cell in cells.items():
        tool = [called for _, pref, called in cell if pref == "tool"]
        no_tool = [called for _, pref, called in cell if pref == "no_tool"]
        if tool and no_tool:
            want = 0.5 * (sum(tool) / len(tool) + (len(no_tool) - sum(no_tool)) / len(no_tool))
            assert got["nar" + suffix] == pytest.approx(want)
        else:
            assert "nar" + suffix not in got
        if cell:
            rate = sum(called for *_, called in cell) / len(cell)
            assert got["attempt_rate" + suffix] == pytest.approx(rate)
        if tool:
            assert got["accuracy_prefer_tool" + suffix] == pytest.approx(sum(tool) / len(tool))


@pytest.mark.parametrize(
    ("arguments", "why"),
    [("[" * 100_000, "nested too deeply"), ("9" * 5000, "a number too long")],
)
def test_one_bad_item_is_said_and_the_rest_go_on(
    tmp_path: Path, arguments: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A past tool call whose arguments Python's JSON reader cannot take (it
    once raised RecursionError or ValueError while the task was built): that
    item is one line on stderr, the good items are the task, and the log
    says how many were skipped."""
    raw = _raw()
    key = next(iter(raw))
    good = raw[key]
    hostile = json.loads(json.dumps(good[0]))
    hostile["id"] = "hostile"
    (message,) = [m for m in hostile["history"] if m.get("tool_calls")][:1]
    message["tool_calls"][0]["function"]["arguments"] = arguments
    path = tmp_path / key
    path.write_text(json.dumps([*good, hostile]), encoding="utf-8")
    task = tictoc_task(path)
    assert sorted(str(s.id).split("@")[0] for s in task.dataset) == sorted(i["id"] for i in good)
    assert task.metadata is not None and task.metadata["skipped_items"] == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "skipped 1 bad item(s) of 3" in err
    assert "'hostile'" in err and why in err and len(err) < 400
    # A file of nothing but the bad item is one line, and no task.
    path.write_text(json.dumps([hostile]), encoding="utf-8")
    with pytest.raises(TsolveError, match=why):
        tictoc_task(path)
