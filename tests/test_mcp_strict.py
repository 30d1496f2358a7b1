"""MCP arguments are checked strictly before the SDK coerces or decodes them,
and every refusal is one short line: through the real MCP SDK's server object
in this process (tests/test_mcp_server.py drives the same server over stdio).

Oracles independent of the check under test: the tools' Python signatures
(a year, a day or a limit is an ``int``; no parameter is a ``bool``), and
what the SDK did before (``month: true`` was January)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError

from tsolve.adapters.mcp_server import build_server

#: An error may echo a few dozen characters of the input, never the input.
MAX_ERROR = 400


@pytest.fixture(scope="module")
def server() -> Any:
    return build_server()


def _call(server: Any, tool: str, arguments: dict[str, Any]) -> Any:
    return asyncio.run(server.call_tool(tool, arguments))


def _refused(server: Any, tool: str, arguments: dict[str, Any]) -> str:
    with pytest.raises(ToolError) as err:
        _call(server, tool, arguments)
    text = str(err.value)
    assert "\n" not in text and len(text) <= MAX_ERROR, text[:200]
    return text


DATE = {"calendar_name": "gregorian", "year": 2024, "month": 3, "day": 1}
FACTS = {
    "facts": [{"kind": "month", "params": {"month": 2}}],
    "domain": {"start": "2024-01-01", "end": "2024-12-31"},
}


@pytest.mark.parametrize(
    ("tool", "arguments", "needle"),
    [
        # The SDK's lax mode made these January and a limit of 1.
        ("search_calendar", {**DATE, "month": True}, "month: expected"),
        ("search_calendar", {**DATE, "day": True}, "day: expected integer"),
        ("solve_facts", {**FACTS, "limit": True}, "limit: expected integer"),
        ("solve_facts", {**FACTS, "time_limit": False}, "time_limit: expected number"),
        # Text and floats are not integers either.
        ("search_calendar", {**DATE, "year": "2024"}, "year: expected integer"),
        ("search_calendar", {**DATE, "year": 2024.0}, "year: expected integer"),
        ("solve_facts", {**FACTS, "limit": "5"}, "limit: expected integer"),
        # Lengths are capped before anything reads the text.
        ("search_calendar", {**DATE, "month": "x" * 100_000}, "at most 40 characters"),
        ("search_calendar", {**DATE, "month": "[" * 100_000}, "at most 40 characters"),
        ("search_calendar", {**DATE, "month": "9" * 5000}, "at most 40 characters"),
        ("festival_date", {"festival_name": "[" * 5000, "year": 2024}, "festival_name"),
        ("verify_answer", {"record": {}, "output": "x", "family": "{" * 5000}, "family"),
        # An argument the tool does not take is not silently dropped.
        ("search_calendar", {**DATE, "mnth": 3}, "unknown argument"),
    ],
)
def test_hostile_arguments_are_refused_in_one_short_line(
    server: Any, tool: str, arguments: dict[str, Any], needle: str, caplog: Any
) -> None:
    with caplog.at_level(logging.DEBUG):
        assert needle in _refused(server, tool, arguments)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


@pytest.mark.parametrize("month", ["y" * 1_000_000, "[" * 100_000, "L" + "9" * 5000])
def test_the_library_echoes_a_few_dozen_characters(month: str) -> None:
    """What the Inspect and verifiers tools call (the agent tools), and the
    month parser under them: a megabyte of month is not sent back."""
    from tsolve.adapters.agent_tools import search_calendar
    from tsolve.calendars.names import parse_month
    from tsolve.errors import TsolveError

    for call in (
        lambda: search_calendar("hebrew", 5784, month, 1),
        lambda: parse_month("hebrew", month),
        lambda: parse_month("chinese", month),
    ):
        with pytest.raises(TsolveError) as err:
            call()
        assert len(str(err.value)) <= 200 and "month" in str(err.value)


def test_valid_calls_still_work(server: Any) -> None:
    out = _call(server, "search_calendar", {**DATE, "month": "March"}).structured_content
    assert out["entries"][0]["date"] == "2024-03-01"
    out = _call(server, "solve_facts", {**FACTS, "limit": 3, "time_limit": 5}).structured_content
    assert out["answers"] == ["2024-02-01", "2024-02-02", "2024-02-03"]
    assert out["status"] == "limit"


INTEGER_PARAMS = [("search_calendar", DATE, "year"), ("search_calendar", DATE, "day"),
                  ("solve_facts", FACTS, "limit")]  # fmt: skip


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    where=st.sampled_from(INTEGER_PARAMS),
    value=st.one_of(
        st.booleans(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=30),
        st.lists(st.integers(), max_size=2),
    ),
)
def test_an_integer_parameter_takes_only_integers(
    server: Any, where: tuple[str, dict[str, Any], str], value: Any
) -> None:
    """The signatures say int: a boolean, a float, text or a list is refused,
    whatever pydantic's lax mode would have made of it."""
    tool, base, name = where
    _refused(server, tool, {**base, name: value})


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        ({"family": "span", "seed": "²"}, "seed: expected a non-negative integer"),
        ({"family": "span", "seed": "١٢"}, "seed: expected a non-negative integer"),
        ({"family": "span", "seed": "9" * 5000}, "seed: expected at most 100 characters"),
        ({"family": "span", "index": "9" * 20}, "index: expected a non-negative integer"),
        ({"family": "span", "index": "99999999999999999999"[:19]}, "index: expected an integer"),
        ({"family": "span", "colour": "red"}, "unknown argument"),
        ({"seed": "1"}, "missing required argument(s): family"),
        ({"family": "x" * 100}, "family"),
    ],
)
def test_bad_prompt_arguments_are_invalid_params(
    server: Any, arguments: dict[str, Any], needle: str, caplog: Any
) -> None:
    with caplog.at_level(logging.DEBUG), pytest.raises(MCPError) as err:
        asyncio.run(server.get_prompt("task_prompt", arguments))
    assert err.value.error.code == -32602  # the SDK's own path gave code 0
    message = err.value.error.message
    assert needle in message and "\n" not in message and len(message) <= MAX_ERROR
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_an_unknown_prompt_is_invalid_params(server: Any) -> None:
    with pytest.raises(MCPError) as err:
        asyncio.run(server.get_prompt("no_such_prompt" * 1000, {}))
    assert err.value.error.code == -32602 and len(err.value.error.message) <= MAX_ERROR


def test_a_seed_in_ascii_digits_still_works(server: Any) -> None:
    got = asyncio.run(server.get_prompt("task_prompt", {"family": "span", "seed": " 3 "}))
    same = asyncio.run(server.get_prompt("task_prompt", {"family": "span", "seed": "3"}))
    assert got.messages[0].content.text == same.messages[0].content.text
