"""Date puzzles as solver problems: facts -> IR -> backend.

Generation, ``tsolve solve`` and verification all come through here, so the
gold answers, the re-computed answers and the per-fact diagnosis are produced
by one code path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain, iso
from tsolve.encodings.facts import Fact, fact_constraint, fact_from_json
from tsolve.encodings.facts.readings import (
    CANONICAL,
    bound_constraints,
    reading_constraint,
    reading_names,
)
from tsolve.encodings.ir import DATE_VAR, Formula, In, IntervalSet, evaluate
from tsolve.errors import TsolveError
from tsolve.records.validation import (
    expect_field,
    expect_iso_date,
    expect_iso_dates,
    refuse_misnamed,
)
from tsolve.solver import get_backend
from tsolve.solver.base import Problem, SolveResult, Status, solved_record


@dataclass(frozen=True)
class Puzzle:
    """What a puzzle record means: its facts and its date domain."""

    id: str
    facts: tuple[Fact, ...]
    domain: DateDomain
    style: str = "implicit"


def build_problem(facts: Sequence[Fact], domain: DateDomain = DEFAULT_DOMAIN) -> Problem:
    """One top-level constraint per fact, so check/explain can name facts."""
    return Problem(
        constraints=tuple(fact_constraint(f, domain) for f in facts),
        domains={DATE_VAR: (domain.start, domain.end)},
        target=DATE_VAR,
        labels=tuple(f.kind for f in facts),
    )


def stored_answers(record: dict[str, Any]) -> list[str]:
    """A record's stored ``answers``, each a real ISO date (``2024-02-30`` is
    refused), in stored order."""
    gold = expect_field(record, "answers", f"record {record.get('id')!r}")
    if not isinstance(gold, list):
        raise TsolveError(f"record {record.get('id')!r}: 'answers' must be a list of ISO dates")
    return expect_iso_dates(gold, f"record {record.get('id')!r}: answers")


def puzzle_from_record(record: Any) -> Puzzle:
    """Read a puzzle record (as written by ``tsolve puzzle``), validating it."""
    if not isinstance(record, dict):
        raise TsolveError(f"record: expected a JSON object, got {type(record).__name__}")
    rid = str(record.get("id", "?"))
    refuse_misnamed(record, ("domain", "style"), f"record {rid}")  # both have defaults
    facts_json = record.get("facts")
    if not isinstance(facts_json, list) or not facts_json:
        raise TsolveError(f"record {rid}: 'facts' must be a non-empty list")
    try:
        facts = tuple(fact_from_json(f) for f in facts_json)
    except TsolveError as exc:
        raise TsolveError(f"record {rid}: {exc}") from None
    dom = record.get("domain")
    if dom is None:
        domain = DEFAULT_DOMAIN
    elif isinstance(dom, dict) and "start" in dom and "end" in dom:
        domain = DateDomain.from_dates(
            expect_iso_date(dom["start"], f"record {rid}: domain.start"),
            expect_iso_date(dom["end"], f"record {rid}: domain.end"),
        )
    else:
        raise TsolveError(f'record {rid}: \'domain\' must be {{"start": ..., "end": ...}}')
    for f in facts:
        if not type(f).available(domain):
            raise TsolveError(
                f"record {rid}: fact {f.kind!r} cannot be evaluated over the domain "
                f"{iso(domain.start)}..{iso(domain.end)} (the Chinese calendar tables "
                "cover 1800-01-01..2100-12-31)"
            )
    style = record.get("style", "implicit")
    return Puzzle(rid, facts, domain, style if style in ("implicit", "explicit") else "implicit")


def solve_puzzle(
    puzzle: Puzzle, backend: str = "cpsat", limit: int | None = None,
    time_limit: float | None = None,
) -> SolveResult:  # fmt: skip
    """The answer set (all of it unless ``limit``), from a solver backend."""
    return get_backend(backend, time_limit).solve(build_problem(puzzle.facts, puzzle.domain), limit)


def answers_iso(result: SolveResult) -> list[str]:
    return [iso(d) for d in result.solutions]


def solve_record(
    record: Any, backend: str = "cpsat", limit: int | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Recompute one record's answer set; compare with its stored ``answers``.

    ``status`` says how the enumeration ended (:data:`tsolve.solver.base.Status`);
    ``complete`` is true only for ``complete`` and ``unsat``. ``matches`` is
    None when the record stores no answers, or when the enumeration stopped
    early (at ``limit`` or the time limit): then equality cannot be decided.
    A record of another family that declares a solver (relational puzzles:
    several events) is solved by that family's own reader, found through the
    registry, so that no family imports another.
    """
    # Imported here: the registry is not on the generator's path, which
    # imports this module for its certificates.
    from tsolve.contract.registry import record_solver

    other = record_solver(record, besides="time-puzzles")
    if other is not None:
        return other(record, backend, limit, time_limit)
    puzzle = puzzle_from_record(record)
    res = solve_puzzle(puzzle, backend, limit, time_limit)
    answers = answers_iso(res)
    return solved_record(puzzle.id, answers, res, record.get("answers"),
                         lambda stored: sorted(map(str, stored)) == answers)  # fmt: skip


# --------------------------------------------------------------------------
# Readings (see tsolve.encodings.facts.readings)


def puzzle_readings(puzzle: Puzzle) -> list[str]:
    """``canonical`` and then, sorted, every other reading a fact declares."""
    names = {n for f in puzzle.facts for n in reading_names(f, puzzle.style)}
    return [CANONICAL, *sorted(names)]


def bound_problems(puzzle: Puzzle) -> tuple[Problem, Problem]:
    """(lower, upper): every fact as true under all / some of its readings."""
    lows, highs = zip(
        *(bound_constraints(f, puzzle.style, puzzle.domain) for f in puzzle.facts), strict=True
    )
    return _problem(puzzle, lows), _problem(puzzle, highs)


def reading_problem(puzzle: Puzzle, name: str) -> Problem:
    """The puzzle with every fact that declares reading ``name`` read that way."""
    return _problem(puzzle, [
        reading_constraint(f, puzzle.style, name, puzzle.domain) for f in puzzle.facts
    ])  # fmt: skip


def _problem(puzzle: Puzzle, constraints: Sequence[Any]) -> Problem:
    dom = puzzle.domain
    return Problem(
        constraints=tuple(constraints),
        domains={DATE_VAR: (dom.start, dom.end)},
        target=DATE_VAR,
        labels=tuple(f.kind for f in puzzle.facts),
    )


@dataclass(frozen=True)
class ReadingCheck:
    """Lower and upper answer counts (each capped at ``cap``)."""

    lower: SolveResult
    upper: SolveResult
    cap: int

    @property
    def invariant(self) -> bool:
        """Same answer set under every combination of readings? (lower ⊆
        upper, so equal counts below the cap mean equal sets.)"""
        same = self.lower.count == self.upper.count
        return same and (self.cap == 0 or self.upper.count < self.cap)


def certify_gold(puzzle: Puzzle, m: int, backend: str = "cpsat") -> tuple[SolveResult, bool]:
    """The gold of a puzzle the search says has ``m`` dates, and whether every
    reading gives those same dates, from ONE solver call.

    The solver enumerates the *upper* problem (every fact true under some
    reading) with cap m + 1, and each date it finds is checked against the
    *lower* problem (true under every reading) by the IR's own semantics. Per
    fact lower ⊆ canonical ⊆ upper, so if the upper set has exactly m dates and
    each of them is in the lower set, the lower, canonical and upper sets are
    one set of m dates: the gold, invariant under every reading. Otherwise
    some reading changes the answers (or, with fewer than m, the search and
    the solver disagree, which the caller treats as an internal error).
    :func:`check_readings` reaches the same verdict with two enumerations;
    this spends one, which is most of a generated puzzle's solver time. With
    no reading declared, upper = lower = canonical and nothing is checked.

    Returns (the upper enumeration, invariant)."""
    lower, upper = bound_problems(puzzle)
    be = get_backend(backend)
    result = be.solve(upper, limit=m + 1)
    if result.count != m:
        return result, False
    same = lower.constraints == upper.constraints
    return result, same or bool(be.check_values(lower, result.solutions).all())


def certify_known_gold(
    puzzle: Puzzle, gold: Sequence[int], backend: str = "cpsat"
) -> tuple[SolveResult, bool]:
    """:func:`certify_gold` for a puzzle whose answers the caller already has
    (the generator reads them off its packed masks): one solver call proves
    them the whole answer set, where :func:`certify_gold` enumerates them.

    Every ``gold`` date is checked against the *lower* problem (each fact true
    under every reading) by the IR's own semantics, and the solver proves that
    no date outside ``gold`` satisfies the *upper* problem (true under some
    reading): an infeasibility proof, with no enumeration. Per fact lower ⊆
    canonical ⊆ upper, so then the gold is the answer set under every reading.
    A gold date that fails the upper problem means the caller's masks and the
    IR disagree: an internal error, raised. A gold date in the upper set but
    not the lower one, or a date outside the gold in the upper set, means some
    reading (or the canonical one, if the caller was wrong) adds or drops an
    answer: not invariant, and the caller draws again, as with
    :func:`certify_gold`.

    The proof is :meth:`~tsolve.solver.base.SolverBackend.is_satisfiable` on
    the facts' bounds (:func:`~tsolve.encodings.facts.readings.bound_constraints`,
    built once per fact) plus "outside the gold", with no intermediate
    problems: a generated puzzle pays for this on every record, so it is kept
    to the one solver call and a membership test per fact (measured in
    benchmarks/results/2026-11-27-certificate-costs.md).

    Returns (the gold as a complete result, invariant)."""
    dom, style = puzzle.domain, puzzle.style
    bounds = [bound_constraints(f, style, dom) for f in puzzle.facts]
    lows = tuple(b[0] for b in bounds)
    highs = tuple(b[1] for b in bounds)
    be = get_backend(backend)
    days = tuple(sorted({int(d) for d in gold}))
    invariant = True
    if days:
        # lower ⊆ upper per fact (bound_masks: AND and OR of the same
        # readings), so a gold inside every lower bound is inside every upper
        # one; the upper bounds are asked only when a lower one fails.
        values = np.asarray(days, dtype=np.int64)
        inside = days[0] >= dom.start and days[-1] <= dom.end
        if not (inside and _all_hold(lows, values)):
            if not (inside and _all_hold(highs, values)):
                raise AssertionError(
                    f"internal error: a gold date of {puzzle.id} fails a fact under every reading"
                )
            invariant = False
    # The date's bounds are the facts' shared range; the backend cuts each
    # set to them (the CP-SAT translator in its own code, from the whole
    # set's domain, kept across puzzles).
    lo, hi = shared_range(highs, dom)
    outside = In(DATE_VAR, IntervalSet.from_days(days).complement(lo, hi))
    proof = Problem((*highs, outside), {DATE_VAR: (lo, hi)}, DATE_VAR)
    if be.is_satisfiable(proof, range(len(proof.constraints))):
        return SolveResult(days, "partial", be.name), False
    status: Status = "complete" if days else "unsat"
    return SolveResult(days, status, be.name), invariant


def shared_range(constraints: Sequence[Formula], domain: DateDomain) -> tuple[int, int]:
    """The days every constraint that is a set of days on the date (``In``)
    leaves between its first and last day, within ``domain``: where any date
    meeting them all must lie. The certificate asks the solver about these
    days only, with each set cut to them, as a careful modeller would: a
    weekday or a day of the month over the whole domain is thousands of
    intervals, and an anchor's days are a few years. Falls back to the whole
    domain when the sets share no day (the solver then proves that)."""
    lo, hi = domain.start, domain.end
    for c in constraints:
        if isinstance(c, In) and c.var == DATE_VAR and c.set:
            lo, hi = max(lo, c.set.first), min(hi, c.set.last)
    return (lo, hi) if lo <= hi else (domain.start, domain.end)


def _all_hold(constraints: Sequence[Formula], values: np.ndarray) -> bool:
    """Does every constraint hold on every value of the date (the IR's semantics)?"""
    env = {DATE_VAR: values}
    return all(bool(evaluate(c, env).all()) for c in constraints)


def check_readings(puzzle: Puzzle, backend: str = "cpsat", cap: int | None = None) -> ReadingCheck:
    """Solve the lower and upper problems, each with ``cap`` (two solver calls).

    With ``cap = M + 1`` for a puzzle whose canonical answer set has M dates,
    ``invariant`` says exactly whether every reading gives those M dates.
    """
    lower, upper = bound_problems(puzzle)
    be = get_backend(backend)
    return ReadingCheck(be.solve(lower, cap), be.solve(upper, cap), cap or 0)
