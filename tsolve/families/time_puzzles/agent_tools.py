"""The time-puzzle family's tools for agents, as plain functions: JSON values
in, a JSON-ready ``dict`` out, and a one-line
:class:`~tsolve.errors.TsolveError` for bad input.

The family declares them (``Family.agent_tools``, in MCP form in
:mod:`tsolve.families.time_puzzles.mcp_tools`); ``tsolve mcp`` serves them
beside the calendar, claim, knowledge and verifier tools of
:mod:`tsolve.adapters.agent_tools`, which keeps these names importable.

* :func:`solve_facts`: time-puzzle facts -> their answer set, from a solver
  backend, with the enumeration's status said honestly;
* :func:`list_fact_kinds`: the fact kinds it reads, each with its schema.

Arguments are checked here, not only by the MCP schema, since a direct caller
has no schema in front of it.
"""

from __future__ import annotations

import math
from typing import Any

from tsolve.records.validation import bad, expect_dict, expect_int, expect_list

#: Most answers :func:`solve_facts` lists (a fact such as "a Monday" alone has
#: ~10,500 answers in the default domain; the count says when it stopped).
MAX_LIMIT = 100_000
#: Longest time limit :func:`solve_facts` accepts, in seconds.
MAX_TIME_LIMIT = 120.0


def solve_facts(
    facts: list[dict[str, Any]],
    domain: dict[str, str] | None = None,
    limit: int = 1000,
    time_limit: float = 10.0,
    backend: str = "cpsat",
) -> dict[str, Any]:
    """The dates that satisfy every fact: time-puzzle facts (``kind`` +
    ``params``, as in the ``facts`` of a ``tsolve puzzle`` record) over
    ``domain`` (``{"start", "end"}`` ISO dates; default 1900-01-31..2100-12-31).

    ``status`` is how the enumeration ended (:data:`tsolve.solver.base.Status`):
    ``complete`` / ``unsat`` (``answers`` is the whole answer set, possibly
    empty), ``limit`` (stopped at ``limit`` answers: there may be more),
    ``partial`` / ``timeout`` (the time limit stopped it with some / no
    answers). ``complete`` is true only in the first two cases. ``facts``
    echoes each fact as tsolve read it (its sentence with dates spelled out),
    so a caller can see that its parameters meant what it intended.
    """
    from tsolve.families.time_puzzles.solve import answers_iso, puzzle_from_record, solve_puzzle
    from tsolve.solver.backend_names import check_backend

    items = expect_list(facts, "facts", max_len=1000, min_len=1)
    cap = expect_int(limit, "limit", 1, MAX_LIMIT)
    seconds = _time_limit(time_limit)
    name = check_backend(backend)
    record: dict[str, Any] = {"id": "facts", "facts": items}
    if domain is not None:
        record["domain"] = expect_dict(domain, "domain")
    puzzle = puzzle_from_record(record)
    result = solve_puzzle(puzzle, name, cap, seconds)
    return {
        "answers": answers_iso(result),
        "count": result.count,
        "status": result.status,
        "complete": result.complete,
        "backend": result.backend,
        "facts": [{"kind": f.kind, "text": f.render("explicit")} for f in puzzle.facts],
    }


def _time_limit(value: Any) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not 0 < value <= MAX_TIME_LIMIT:
        raise bad("time_limit", f"seconds in (0, {MAX_TIME_LIMIT:g}]", value)
    return float(value)


def list_fact_kinds() -> dict[str, Any]:
    """The fact kinds :func:`solve_facts` reads, each with the JSON schema of
    ``{kind, params}`` (derived from the kind's declaration, so it cannot
    drift from the reader: :mod:`tsolve.encodings.facts.schema`), whether it
    is a knowledge-based anchor, and a valid example fact."""
    from tsolve.encodings.facts.schema import fact_kinds

    return {"kinds": fact_kinds()}
