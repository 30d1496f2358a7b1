"""The MCP server's annotations, fact-kind schemas, and a family's instructions
(resource template and prompt), through the server object in this process
(tests/test_mcp_server.py covers the stdio wire)."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema comes with the mcp extra")
pytest.importorskip("mcp", reason="the mcp extra is not installed")

from mcp.shared.exceptions import MCPError  # noqa: E402
from pydantic import Field  # noqa: E402

from tsolve.adapters.agent_tools import family_instructions, list_fact_kinds, solve_facts  # noqa: E402
from tsolve.adapters.mcp_server import TOOLS, build_server  # noqa: E402
from tsolve.contract import get_family  # noqa: E402
from tsolve.encodings.facts import FACT_TYPES, fact_from_json  # noqa: E402
from tsolve.encodings.facts.schema import any_fact_schema  # noqa: E402
from tsolve.verifiers.rewards import main_metric  # noqa: E402


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def server() -> Any:
    return build_server()


def test_every_tool_is_annotated_read_only_and_closed(server: Any) -> None:
    tools = _run(server.list_tools())
    assert [t.name for t in tools] == [fn.__name__ for fn in TOOLS]
    for t in tools:
        a = t.annotations
        assert a is not None, t.name
        assert (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint) == (
            True, False, True, False,
        )  # fmt: skip


def _day_count(
    days: Annotated[int, Field(description="Days.", ge=0, le=10)],
) -> dict[str, Any]:
    """A plug-in family's tool: how many days were given."""
    return {"days": days}


def _taken() -> dict[str, Any]:
    return {}


_taken.__name__ = "solve_facts"  # a name another family's tool has


def test_a_family_s_own_tools_are_served_after_the_calendar_tools(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A family declares its agent tools (``Family.agent_tools``); the server
    lists them after the calendar tools, and leaves out, with a warning, one
    that cannot be imported or whose name is taken."""
    from tsolve.contract.family import Family, Lazy
    from tsolve.contract.registry import temporary_family

    toy = Family(
        name="toy-tools",
        agent_tools=(_day_count, Lazy("tsolve_no_such_module:tool"), _taken),
    )
    with temporary_family(toy), caplog.at_level("WARNING"):
        served = build_server()
    names = [t.name for t in _run(served.list_tools())]
    assert names == [fn.__name__ for fn in TOOLS[:5]] + ["_day_count"] + [
        fn.__name__ for fn in TOOLS[5:]
    ]
    tool = next(t for t in _run(served.list_tools()) if t.name == "_day_count")
    assert tool.input_schema["properties"]["days"]["maximum"] == 10
    assert _run(served.call_tool("_day_count", {"days": 3})).structured_content == {"days": 3}
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "tsolve_no_such_module" in warned and "solve_facts left out: the name is taken" in warned
    assert "_day_count" not in [t.name for t in _run(build_server().list_tools())]


def test_solve_facts_lists_a_schema_per_kind(server: Any) -> None:
    facts = next(t for t in _run(server.list_tools()) if t.name == "solve_facts")
    items = facts.input_schema["properties"]["facts"]["items"]
    kinds = [s["properties"]["kind"]["const"] for s in items["oneOf"]]
    assert sorted(kinds) == sorted(FACT_TYPES)
    jsonschema.Draft202012Validator.check_schema(items)


def test_each_example_validates_and_reads_back() -> None:
    listed = list_fact_kinds()["kinds"]
    assert {k["kind"] for k in listed} == set(FACT_TYPES)
    validator = jsonschema.Draft202012Validator(any_fact_schema())
    for k in listed:
        jsonschema.validate(k["example"], k["schema"])
        validator.validate(k["example"])  # exactly one kind's schema matches
        assert fact_from_json(k["example"]).kind == k["kind"]
    anchors = {k["kind"] for k in listed if k["anchor"]}
    assert anchors == {k for k, cls in FACT_TYPES.items() if cls.anchor}


@pytest.mark.parametrize(
    ("fact", "why"),
    [
        ({"kind": "year", "params": {}}, "'year' is a required property"),
        ({"kind": "year", "params": {"year": "2024"}}, "is not of type 'integer'"),
        ({"kind": "month", "params": {"month": 3, "day": 1}}, "Additional properties"),
        ({"kind": "weekdays", "params": {"weekdays": "Monday"}}, "is not of type 'array'"),
    ],
)
def test_the_schema_refuses_what_the_reader_refuses(fact: dict[str, Any], why: str) -> None:
    """Independent of the schema: the reader refuses the same fact."""
    schema = next(k["schema"] for k in list_fact_kinds()["kinds"] if k["kind"] == fact["kind"])
    with pytest.raises(jsonschema.ValidationError, match=why):
        jsonschema.validate(fact, schema)
    with pytest.raises(Exception, match=fact["kind"]):
        fact_from_json(fact)


@settings(max_examples=examples(2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), index=st.integers(0, 10_000))
def test_generated_puzzle_facts_validate_against_the_schemas(seed: int, index: int) -> None:
    """The schemas accept what the generator writes (each fact's record form)."""
    fam = get_family("time-puzzles")
    cfg = fam.make_options({"style": "explicit", "facts": 4, "minimal": False})
    rec = fam.make_record(seed, index, cfg)
    validator = jsonschema.Draft202012Validator(any_fact_schema())
    for fact in rec["facts"]:
        validator.validate(fact)
    # And solve_facts, given the facts as the schema shows them, finds the gold.
    facts = [{"kind": f["kind"], "params": f["params"]} for f in rec["facts"]]
    assert solve_facts(facts)["answers"] == rec["answers"]


@pytest.mark.parametrize("family", ["time-puzzles", "span", "logistics", "relational-puzzles"])
def test_instructions_resource_gives_a_gold_reply_that_scores_one(server: Any, family: str) -> None:
    uri = f"tsolve://families/{family}/instructions"
    [content] = _run(server.read_resource(uri))
    assert content.mime_type == "application/json"
    got = json.loads(content.content)
    assert got["family"] == family and got["answer_marker"]
    example = got["example"]
    assert got["answer_marker"] in example["prompt"] or family == "logistics"
    # The gold reply, scored by the family's own scorer on the same record.
    fam = get_family(family)
    record = fam.make_record(0, 0, fam.make_options({}))
    assert record["id"] == example["id"] and record["prompt"] == example["prompt"]
    score = fam.require("score")(record, example["gold_reply"])
    assert not score.parse_failed and score.metrics[main_metric(score.metrics)] == 1.0
    wrong = fam.require("score")(record, f"{got['answer_marker']} no clue")
    assert wrong.metrics[main_metric(wrong.metrics)] == 0.0


def test_task_prompt_is_the_records_prompt(server: Any) -> None:
    result = _run(server.get_prompt("task_prompt", {"family": "span", "seed": "3", "index": "5"}))
    fam = get_family("span")
    record = fam.make_record(3, 5, fam.make_options({}))
    [message] = result.messages
    assert message.role == "user" and message.content.text == record["prompt"]


@pytest.mark.parametrize(
    ("call", "why"),
    [
        (("resource", "tsolve://families/tempo/instructions"), "does not generate records"),
        (("resource", "tsolve://families/nope/instructions"), "nope"),
        (("prompt", {"family": "span", "seed": "x"}), "seed: expected a non-negative integer"),
        (("prompt", {"family": "tictoc"}), "does not generate records"),
    ],
)
def test_bad_family_requests_are_one_line_invalid_params(
    server: Any, call: tuple[str, Any], why: str
) -> None:
    kind, arg = call
    coro = (
        server.read_resource(arg) if kind == "resource" else server.get_prompt("task_prompt", arg)
    )
    with pytest.raises(MCPError) as err:
        _run(coro)
    assert err.value.error.code == -32602
    assert why in str(err.value) and "\n" not in str(err.value)


def test_family_instructions_refuses_bad_arguments_directly() -> None:
    from tsolve.errors import TsolveError

    with pytest.raises(TsolveError, match="index"):
        family_instructions("span", 0, -1)


def test_the_served_log_is_one_plain_line_per_event() -> None:
    """A tsolve bug inside a tool logs one plain line, not a wrapped traceback."""
    import logging

    from tsolve.adapters.mcp_server import OneLineFormatter

    try:
        raise ValueError("bad\nthing")
    except ValueError:
        import sys

        record = logging.LogRecord(
            "tsolve", logging.ERROR, __file__, 1, "tool %s failed", ("x",), sys.exc_info()
        )
    line = OneLineFormatter().format(record)
    assert line == "tsolve mcp: ERROR: tool x failed (ValueError: bad thing)"
