"""The time-puzzle family's agent tools in MCP form: each is the library
function of :mod:`tsolve.families.time_puzzles.agent_tools` with its
parameters described for the JSON schema a client sees (``Annotated`` +
pydantic ``Field``) and its docstring as the tool's description.

The family declares these (``Family.agent_tools``) and
:mod:`tsolve.adapters.mcp_server` registers them; only the server imports
this module, since it needs the ``mcp`` extra's pydantic.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tsolve.encodings.facts.schema import any_fact_schema
from tsolve.families.time_puzzles import agent_tools
from tsolve.solver.backend_names import BACKENDS

#: Longest backend name read (the server's cap on every name).
_NAME = 100


def solve_facts(
    facts: Annotated[
        list[dict[str, Any]],
        Field(
            description="Facts about one unknown date, each {kind, params} as in tsolve's "
            "time-puzzle records, e.g. {'kind': 'weekday', 'params': {'weekday': 'Monday'}}, "
            "{'kind': 'month', 'params': {'month': 3}}, {'kind': 'year', "
            "'params': {'year': 2024}}. Each kind's params are in the items' schema "
            "(oneOf) and in list_fact_kinds; an unknown kind lists the known ones.",
            json_schema_extra={"items": any_fact_schema()},
        ),
    ],
    domain: Annotated[
        dict[str, str] | None,
        Field(description="{start, end} ISO dates to search (default 1900-01-31..2100-12-31)."),
    ] = None,
    limit: Annotated[
        int, Field(description="Most answers to list.", ge=1, le=agent_tools.MAX_LIMIT)
    ] = 1000,
    time_limit: Annotated[
        float, Field(description="Seconds.", gt=0, le=agent_tools.MAX_TIME_LIMIT)
    ] = 10.0,
    backend: Annotated[
        str,
        Field(
            description="Solver backend.",
            max_length=_NAME,
            json_schema_extra={"enum": list(BACKENDS)},
        ),
    ] = "cpsat",
) -> dict[str, Any]:
    """Every date that satisfies all the facts, from a constraint solver. status says
    how the search ended: complete or unsat (the answers are all of them), limit
    (stopped at limit answers; there may be more), partial or timeout (the time limit
    stopped it). facts echoes each fact as read, dates spelled out."""
    return agent_tools.solve_facts(facts, domain, limit, time_limit, backend)


def list_fact_kinds() -> dict[str, Any]:
    """The time-puzzle fact kinds solve_facts reads: for each, the JSON schema of
    {kind, params}, whether it is a knowledge-based anchor (a person, a president,
    an event), and a valid example fact."""
    return agent_tools.list_fact_kinds()
