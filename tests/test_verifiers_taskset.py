"""The ``tsolve_taskset`` verifiers taskset, through the
real ``verifiers.v1``: loaded by id, tasks that carry the gold, and tsolve's
scorer as the reward of the real ``Task.score(Trace)``.

Skipped, with the reason, when verifiers is not installed (the
``verifiers`` extra; it pins ``mcp==2.0.0``, so CI's ``test`` extra leaves it
out: docs/rl.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import tsolve

vf = pytest.importorskip("verifiers.v1", reason="verifiers not installed (tsolve[verifiers])")
from pydantic import ValidationError  # noqa: E402
from verifiers.v1.trace import AgentInfo, TraceTask  # noqa: E402

from tsolve_taskset import TsolveTaskset, TsolveTasksetConfig  # noqa: E402


def reward(task: Any, reply: str) -> dict[str, float]:
    """What the real ``Task.score`` records for ``reply`` as the model's last reply."""
    trace = vf.Trace(
        task=TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
        agent=AgentInfo(config=vf.AgentConfig(), name="test", trainable=False),
        root_reply=reply,
    )
    asyncio.run(task.score(trace))
    return {name: r.score for name, r in trace.rewards.items()}


@pytest.fixture(scope="module")
def default_tasks() -> list[Any]:
    taskset = vf.load_taskset(vf.TasksetConfig(id="tsolve_taskset"))
    assert isinstance(taskset, TsolveTaskset)
    return list(taskset.take(3))


def test_default_taskset_is_time_puzzles_scored_by_tsolve(default_tasks: list[Any]) -> None:
    expected = tsolve.create_dataset("time-puzzles", seed=0, size=3)
    assert len(default_tasks) == 3
    for task, entry in zip(default_tasks, expected, strict=True):
        assert task.data.family == "time-puzzles"
        assert task.data.answer == entry["answer"]
        assert task.data.prompt == entry["question"]
        assert task.key == entry["metadata"]["record"]["id"]
        assert reward(task, "Let me think.\nMY ANSWER: " + task.data.answer) == {"correct": 1.0}
        assert reward(task, "no clue") == {"correct": 0.0}


@settings(max_examples=examples(30), deadline=None)
@given(reply=st.text(max_size=60))
def test_any_reply_scores_in_range_and_junk_scores_zero(
    default_tasks: list[Any], reply: str
) -> None:
    score = reward(default_tasks[0], reply)["correct"]
    assert 0.0 <= score <= 1.0
    if not any(ch.isdigit() for ch in reply):
        assert score == 0.0  # no date, no credit


def test_config_chooses_family_count_seed_and_options() -> None:
    cfg = TsolveTasksetConfig(
        id="tsolve_taskset", family="logistics", count=4, seed=9, options={"difficulty": "easy"}
    )
    tasks = list(vf.load_taskset(cfg))
    expected = tsolve.create_dataset("logistics", seed=9, size=4, difficulty="easy")
    assert [t.data.answer for t in tasks] == [e["answer"] for e in expected]
    assert all(t.data.difficulty["difficulty"] == "easy" for t in tasks)
    assert reward(tasks[0], "Answer: " + tasks[0].data.answer) == {"correct": 1.0}
    assert len({t.key for t in tasks}) == 4


def test_partial_credit_metric_and_a_gameable_one_refused() -> None:
    cfg = TsolveTasksetConfig(
        family="time-puzzles", count=1, options={"solutions": 2}, task={"reward_metric": "f1"}
    )
    (task,) = list(TsolveTaskset(cfg))
    first = task.data.answer.split(", ")[0]
    assert reward(task, "MY ANSWER: " + first) == {"correct": pytest.approx(2 / 3)}
    with pytest.raises(ValidationError, match="partial"):
        TsolveTasksetConfig(family="logistics", task={"reward_metric": "partial"})


@pytest.mark.parametrize(
    "bad",
    [
        {"family": "no-such-family"},
        {"family": "span", "options": {"max_days": 0}},
        {"family": "logistics", "options": {"nosuch": 1}},
        {"count": -1},
    ],
)
def test_bad_config_is_refused_before_any_task(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        TsolveTasksetConfig(**bad)


def test_calendar_tool_condition_serves_tsolves_calendar_tools() -> None:
    """``task.tools="calendar"`` offers SPAN's ``search_calendar`` and the
    conversion and festival tools through verifiers' own registration on a
    real MCP server (in process here; the subprocess verifiers launches runs
    the same registration), with a bad argument as a one-line tool error."""
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    from tsolve.adapters import agent_tools
    from tsolve.adapters.verifiers_taskset import TsolveTask, TsolveTaskConfig

    assert TsolveTask.toolsets(TsolveTaskConfig()) == []
    (toolset,) = TsolveTask.toolsets(TsolveTaskConfig(tools="calendar"))
    server = MCPServer("tsolve-test")
    toolset.register(server)

    async def calls() -> tuple[list[str], Any, Any]:
        async with Client(server) as client:
            names = sorted(t.name for t in (await client.list_tools()).tools)
            args = {"calendar_name": "Chinese lunar calendar", "year": 2024, "month": 1, "day": 1}
            good = await client.call_tool("search_calendar", args)
            bad = await client.call_tool("search_calendar", {**args, "calendar_name": "nope"})
            return names, good, bad

    names, good, bad = asyncio.run(calls())
    assert names == ["convert_date", "festival_date", "search_calendar"]
    assert not good.is_error
    got = json.loads(good.content[0].text)
    want = agent_tools.search_calendar("Chinese lunar calendar", 2024, 1, 1)
    assert got == want and got["entries"][0]["date"] == "2024-02-10"  # Chinese New Year 2024
    assert bad.is_error and "unknown calendar 'nope'" in bad.content[0].text
    assert "\n" not in bad.content[0].text
    with pytest.raises(ValidationError):
        TsolveTaskConfig(tools="code")  # not offered (docs/rl.md)


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"task": {"reward_metric": "bogus"}}, "reward_metric: expected one of em, f1"),
        ({"task": {"reward_metric": "alt_reading"}}, "never a reward"),
        ({"family": "span", "task": {"reward_metric": "em"}}, "expected one of accuracy"),
        ({"count": 10**30}, "less than or equal to 1000000000"),
    ],
)
def test_verifiers_config_refuses_what_would_fail_later(fields: dict[str, Any], why: str) -> None:
    """Checked when the config is made, not at the first reward of a run."""
    with pytest.raises(ValueError, match=why):
        TsolveTasksetConfig.model_validate(fields)
