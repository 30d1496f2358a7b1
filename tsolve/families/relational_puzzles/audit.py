"""The relational-puzzle auditor: is the stored answer set the solver's?

Relational puzzles use calendar facts and exact relations only (no knowledge
facts, no lunar facts near a disputed month start), so they declare no
reading besides the canonical one: the audit re-solves the record (a full
enumeration, with a time limit) and compares. A stored answer that is not a
solution is ``inconsistent``, with the facts and relations it breaks; so is a
solution the record leaves out. An enumeration the time limit cuts short is
reported as a row that could not be audited, never as ``ok``.
"""

from __future__ import annotations

from typing import Any

from tsolve.audit.base import AuditVerdict
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.solve import (
    problem_of,
    relational_from_record,
    solve_relational_record,
)
from tsolve.solver import get_backend

TIME_LIMIT = 30.0
"""Seconds for one record's enumeration before it is reported as unaudited."""


def audit_relational(record: dict[str, Any], backend: str = "cpsat") -> AuditVerdict:
    """``ok`` or ``inconsistent`` (with proof) for one relational record."""
    res = solve_relational_record(record, backend, time_limit=TIME_LIMIT)
    rid = str(res["id"])
    if not res["complete"]:
        raise TsolveError(
            f"record {rid}: the answer set did not finish within {TIME_LIMIT:g} s "
            f"(status {res['status']}); not audited"
        )
    if res["matches"] is not False:
        if res["matches"] is None:
            raise TsolveError(f"record {rid}: no readable stored 'answers' to audit")
        return AuditVerdict(rid, "relational-puzzles", "ok", {}, ["canonical"])
    puzzle = relational_from_record(record)
    problem = problem_of(puzzle)
    solved = {_key(a) for a in res["answers"]}
    stored = {_key(a) for a in res["stored"] or []}
    proof: dict[str, Any] = {}
    extra = sorted(stored - solved)
    if extra:
        proof["stored_but_impossible"] = _why(puzzle, problem, backend, extra[0])
    missing = sorted(solved - stored)
    if missing:
        first = list(missing[0]) if len(missing[0]) > 1 else missing[0][0]
        proof["missing"] = {"answer": first, "satisfies": "every fact and relation"}
    return AuditVerdict(
        rid, "relational-puzzles", "inconsistent",
        {"proof": proof, "answers": res["answers"]}, ["canonical"],
    )  # fmt: skip


def _key(answer: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in answer) if isinstance(answer, list) else (str(answer),)


def _why(puzzle: Any, problem: Any, backend: str, answer: tuple[str, ...]) -> dict[str, Any]:
    """Which facts and relations a stored answer breaks. For one asked event,
    the other events are free: then the proof is that no completion exists."""
    import datetime as _dt

    days = [_dt.date.fromisoformat(d).toordinal() for d in answer]
    if puzzle.asked is None:
        env = {e.var: d for e, d in zip(puzzle.events, days, strict=True)}
        verdicts = get_backend(backend).check(problem, env)
        broken = [problem.label(i) for i, ok in enumerate(verdicts) if not ok]
        return {"answer": list(answer), "breaks": broken}
    return {"answer": answer[0], "breaks": f"no dates of the other events complete {answer[0]}"}
