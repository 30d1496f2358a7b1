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
from tsolve.audit.forms import (
    FormMismatch,
    count_mismatches,
    forms_verdict,
    served_answer_mismatch,
)
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.solve import (
    check_stored_answers,
    problem_of,
    relational_from_record,
    solve_relational_record,
)
from tsolve.solver import get_backend
from tsolve.solver.base import stored_gold

FAMILY = "relational-puzzles"
TIME_LIMIT = 30.0
"""Seconds for one record's enumeration before it is reported as unaudited."""


COUNTS = ("solution_count", "solver.count")
"""The stored counts of a puzzle's answer set (``M``, and the solver's)."""


def gold_form_mismatches(record: dict[str, Any]) -> list[FormMismatch]:
    """Where a relational puzzle's stored forms of its gold disagree:
    ``answers`` (what the facade serves and the scorer reads) against its
    stored counts. Call after the answers are checked as dates."""
    answers = record.get("answers")
    if not isinstance(answers, list):
        return []
    return count_mismatches(record, answers, COUNTS)


def _check_answers(record: dict[str, Any]) -> None:
    """The stored answers as the scorer needs them (dates, or one date per
    event), else a one-line :class:`TsolveError`: a row that cannot be audited."""
    puzzle = relational_from_record(record)
    stored = stored_gold(record, f"record {puzzle.id!r}")  # a misnamed one is named
    if not isinstance(stored, list):
        raise TsolveError(f"record {puzzle.id!r}: no readable stored 'answers' to audit")
    check_stored_answers(puzzle, stored)


def audit_relational(record: dict[str, Any], backend: str = "cpsat") -> AuditVerdict:
    """``ok`` or ``inconsistent`` (with proof) for one relational record."""
    _check_answers(record)
    mismatches = gold_form_mismatches(record)
    if not mismatches:
        mismatches = [m for m in [served_answer_mismatch(record, FAMILY)] if m is not None]
    if mismatches:
        return forms_verdict(str(record.get("id")), FAMILY, mismatches)
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
        return AuditVerdict(rid, FAMILY, "ok", {}, ["canonical"])
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
        rid, FAMILY, "inconsistent",
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


# --- the proof as numbered lines ---------------------------------------------------------


def _combination(record: dict[str, Any], answer: Any) -> str:
    """``the review = 2024-03-05; the launch = 2024-03-22`` (or one date)."""
    if not isinstance(answer, list):
        return str(answer)
    names = [str(e.get("name")) for e in record.get("events") or [] if isinstance(e, dict)]
    return "; ".join(f"{n} = {d}" for n, d in zip(names, answer, strict=False))


def explain(detail: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """An ``inconsistent`` proof as lines quoting the facts a stored
    combination breaks (see :mod:`tsolve.audit.explain`)."""
    import datetime as _dt

    from tsolve.audit.explain import quote

    proof = detail.get("proof")
    if not isinstance(proof, dict):
        return []
    facts = [str(f.get("text", "")) for f in record.get("facts") or [] if isinstance(f, dict)]
    lines: list[str] = []
    bad = proof.get("stored_but_impossible")
    if isinstance(bad, dict):
        lines.append(f"The stored answers hold {quote(_combination(record, bad.get('answer')))}.")
        broken: list[int] = []
        if isinstance(bad.get("answer"), list):
            puzzle = relational_from_record(record)
            problem = problem_of(puzzle)
            days = [_dt.date.fromisoformat(d).toordinal() for d in bad["answer"]]
            env = {e.var: d for e, d in zip(puzzle.events, days, strict=True)}
            broken = [i for i, ok in enumerate(get_backend("cpsat").check(problem, env)) if not ok]
        for i in broken:
            lines.append(f"Fact {i + 1} says {quote(facts[i] if i < len(facts) else '?')}: "
                         "that combination breaks it.")  # fmt: skip
        if not broken:
            lines.append(str(bad.get("breaks")))
    missing = proof.get("missing")
    if isinstance(missing, dict):
        lines.append(f"{quote(_combination(record, missing.get('answer')))} satisfies every "
                     "fact, yet the stored answers leave it out.")  # fmt: skip
    solved = detail.get("answers")
    if isinstance(solved, list):
        shown = [_combination(record, a) for a in solved[:5]]
        more = f" (and {len(solved) - 5} more)" if len(solved) > 5 else ""
        lines.append(f"The facts give exactly: {quote(' | '.join(shown) or 'None')}{more}.")
    return lines
