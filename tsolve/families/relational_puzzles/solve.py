"""Relational puzzles as solver problems: events -> variables, facts -> IR.

Generation, ``tsolve solve`` and verification all read and solve relational
records through here, as :mod:`tsolve.families.time_puzzles.solve` does for single-date ones.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.calendars.domain import DateDomain, iso
from tsolve.encodings.ir import Formula, In, IntervalSet, Not
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.encoding import (
    Event,
    EventFact,
    PuzzleFact,
    events_from_json,
    lunar_allowed,
    puzzle_fact_from_json,
)
from tsolve.records.validation import (
    bad,
    expect_choice,
    expect_date_tuples,
    expect_dict,
    expect_iso_date,
    expect_iso_dates,
    expect_list,
    refuse_misnamed,
)
from tsolve.solver import get_backend
from tsolve.solver.base import (
    Problem,
    SolveResult,
    finished_status,
    solved_record,
    stopped_status,
)

FAMILY = "relational-puzzles"
KIND = "relational"
MAX_DOMAIN_DAYS = 20_000
"""The widest domain a relational record may range over (about 55 years): the
same-month/year relations compile to one disjunct per month or year in it."""


@dataclass(frozen=True)
class RelationalPuzzle:
    """What a relational record means. ``asked`` is None when the answer is
    the set of date tuples (one date per event, in ``events`` order), else the
    variable of the one event whose possible dates are asked for."""

    id: str
    events: tuple[Event, ...]
    facts: tuple[PuzzleFact, ...]
    domain: DateDomain
    asked: str | None = None
    style: str = "implicit"


def build_relational_problem(
    events: Sequence[Event], facts: Sequence[PuzzleFact], domain: DateDomain,
    asked: str | None = None,
) -> Problem:  # fmt: skip
    """One top-level constraint per fact (so ``check``/``explain`` name facts);
    every event's variable ranges over ``domain``. Solutions are the tuples of
    all events' dates, or the distinct dates of the ``asked`` event."""
    vars_ = tuple(e.var for e in events)
    return Problem(
        constraints=tuple(f.constraint(domain) for f in facts),
        domains={v: (domain.start, domain.end) for v in vars_},
        target=asked or vars_[0],
        labels=tuple(f.kind for f in facts),
        outputs=() if asked else vars_,
    )


def problem_of(puzzle: RelationalPuzzle) -> Problem:
    return build_relational_problem(puzzle.events, puzzle.facts, puzzle.domain, puzzle.asked)


def is_relational(record: Any) -> bool:
    """Is this a relational-puzzle record (by ``family`` or ``kind``)?"""
    return isinstance(record, dict) and (
        record.get("family") == FAMILY or record.get("kind") == KIND
    )


def relational_from_record(record: Any) -> RelationalPuzzle:
    """Read a relational record (as written by ``tsolve puzzle --events N``), validating it."""
    if not isinstance(record, dict):
        raise TsolveError(f"record: expected a JSON object, got {type(record).__name__}")
    rid = str(record.get("id", "?"))
    where = f"record {rid}"
    refuse_misnamed(record, ("asked", "style"), where)  # both have defaults
    events = events_from_json(record.get("events"), f"{where}: events")
    by_var = {e.var: e for e in events}
    items = expect_list(record.get("facts"), f"{where}: facts", max_len=100, min_len=1)
    facts = tuple(
        puzzle_fact_from_json(f, by_var, f"{where}: facts[{k}]") for k, f in enumerate(items)
    )
    dom = expect_dict(record.get("domain"), f"{where}: domain")
    domain = DateDomain.from_dates(
        expect_iso_date(dom.get("start"), f"{where}: domain.start"),
        expect_iso_date(dom.get("end"), f"{where}: domain.end"),
    )
    if domain.size > MAX_DOMAIN_DAYS:
        raise bad(f"{where}: domain", f"at most {MAX_DOMAIN_DAYS} days", f"{domain.size} days")
    lunar_ok = lunar_allowed(domain)
    for f in facts:
        if (
            isinstance(f, EventFact)
            and f.kind in ("chinese_zodiac", "lunar_month")
            and not lunar_ok
        ):
            raise TsolveError(
                f"{where}: fact {f.kind!r} cannot be used over the domain "
                f"{iso(domain.start)}..{iso(domain.end)} (lunar facts need 1800-01-01.."
                "2100-12-31, away from the disputed months 2057-09, 2089-09, 2097-08)"
            )
    asked_v = expect_dict(record.get("asked", {"mode": "tuples"}), f"{where}: asked")
    mode = expect_choice(asked_v.get("mode"), f"{where}: asked.mode", ("tuples", "event"))
    asked = None
    if mode == "event":
        asked = asked_v.get("event")
        if not isinstance(asked, str) or asked not in by_var:
            raise bad(f"{where}: asked.event", f"one of {', '.join(by_var)}", asked)
    style = record.get("style", "implicit")
    return RelationalPuzzle(rid, events, facts, domain, asked,
                            style if style in ("implicit", "explicit") else "implicit")  # fmt: skip


def answers_json(puzzle: RelationalPuzzle, result: SolveResult) -> list[Any]:
    """Solutions as JSON: lists of ISO dates (tuples mode) or ISO dates (one event)."""
    if puzzle.asked is not None:
        return [iso(d) for d in result.solutions]
    return [[iso(d) for d in t] for t in result.solutions]


def solve_relational(
    puzzle: RelationalPuzzle, backend: str = "cpsat", limit: int | None = None,
    time_limit: float | None = None,
) -> SolveResult:  # fmt: skip
    """The answer set (all of it unless ``limit``), with an honest status."""
    problem = problem_of(puzzle)
    if puzzle.asked is not None and backend == "cpsat":
        return _solve_projected(problem, limit, time_limit)
    return get_backend(backend, time_limit).solve(problem, limit)


def _solve_projected(problem: Problem, limit: int | None, time_limit: float | None) -> SolveResult:
    """The distinct dates of one event, on CP-SAT.

    CP-SAT's enumeration lists every full solution, so asking for one event's
    dates while another event is loosely tied (the same year: 365 ways) would
    enumerate hundreds of completions per answer. Instead: find one solution,
    forbid its value of the asked variable, repeat until unsatisfiable. The
    time limit covers the whole loop (each call gets what remains)."""
    t0 = time.perf_counter()
    found: list[int] = []
    var = problem.target
    while limit is None or len(found) < limit:
        remaining = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if remaining is not None and remaining <= 0:
            return _stopped(found, limit, t0)
        block: tuple[Formula, ...] = ()
        if found:
            block = (Not(In(var, IntervalSet.from_days(found))),)
        step = Problem(problem.constraints + block, problem.domains, var)
        res = get_backend("cpsat", remaining).solve(step, limit=1)
        if res.status == "unsat":
            break
        if not res.solutions:  # timed out before the next answer
            return _stopped(found, limit, t0)
        found.append(int(res.solutions[0]))
    else:
        return SolveResult(tuple(sorted(found)), "limit", "cpsat",
                           {"seconds": time.perf_counter() - t0})  # fmt: skip
    return SolveResult(tuple(sorted(found)), finished_status(len(found)), "cpsat",
                       {"seconds": time.perf_counter() - t0})  # fmt: skip


def _stopped(found: list[int], limit: int | None, t0: float) -> SolveResult:
    return SolveResult(tuple(sorted(found)), stopped_status(len(found), limit), "cpsat",
                       {"seconds": time.perf_counter() - t0})  # fmt: skip


def _canonical(puzzle: RelationalPuzzle, stored: list[Any]) -> list[Any] | None:
    """Stored answers in the solver's sorted form, or None if malformed."""
    try:
        if puzzle.asked is not None:
            return sorted(str(a) for a in stored)
        rows = [[str(x) for x in a] for a in stored if isinstance(a, list)]
        return sorted(rows) if len(rows) == len(stored) else None
    except TypeError:
        return None


def check_stored_answers(puzzle: RelationalPuzzle, stored: list[Any]) -> None:
    """A record's stored ``answers`` as its puzzle asks for them (dates, or one
    date per event), else a one-line :class:`TsolveError`."""
    where = f"record {puzzle.id!r}: answers"
    if puzzle.asked is not None:
        expect_iso_dates(stored, where)
    else:
        expect_date_tuples(stored, where, len(puzzle.events))


def solve_relational_record(
    record: Any, backend: str = "cpsat", limit: int | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:  # fmt: skip
    """:func:`tsolve.families.time_puzzles.solve.solve_record` for relational records: the
    same fields (``answers``, ``count``, ``status``, ``complete``, ``matches``)."""
    puzzle = relational_from_record(record)
    stored = record.get("answers")
    if isinstance(stored, list):  # checked before anyone unpacks them (the auditor does)
        check_stored_answers(puzzle, stored)
    res = solve_relational(puzzle, backend, limit, time_limit)
    answers = answers_json(puzzle, res)
    return solved_record(puzzle.id, answers, res, record.get("answers"),
                         lambda stored: _canonical(puzzle, stored) == sorted(answers))  # fmt: skip
