"""The solver's certificates of a generated time puzzle, beyond its gold
(:func:`~tsolve.families.time_puzzles.solve.certify_known_gold`): that every
fact of a minimal puzzle is needed, and that a zero-answer puzzle is a minimal
unsatisfiable set with no two-fact clash.

They live apart from the search (``generate.py``) because they are the
solver's side of generation: the search proposes from packed masks, these
prove, and a record is written only when both agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import Fact
from tsolve.encodings.ir import DATE_VAR, Formula, In, IntervalSet, renamed
from tsolve.families.time_puzzles.solve import build_problem
from tsolve.solver import get_backend
from tsolve.solver.base import Problem, SolverBackend


def certify_necessity(
    facts: Sequence[Fact], domain: DateDomain, backend: str, answers: Sequence[int]
) -> None:
    """The solver's word that every fact is needed: without any one of them,
    some date outside the certified answer set satisfies the rest (the rest
    hold on every answer, so that is "more than M answers").

    One solver call for all the facts: copy i of the date variable is bound by
    every fact but i and kept out of the answers. The copies share no
    constraint, so the conjunction is satisfiable iff each copy is, which is
    each fact being needed. One call in place of one capped count per fact
    (a 6-fact puzzle spent six CP-SAT calls here); only when it fails (or the
    backend cannot take a joint problem) are the facts tried one by one, which
    also names the one that is not needed."""
    be = get_backend(backend)
    if be.joint_problems and _all_needed_jointly(be, facts, domain, answers):
        return
    for i in range(len(facts)):
        rest = build_problem([f for j, f in enumerate(facts) if j != i], domain)
        if be.count(rest, cap=len(answers) + 1).count <= len(answers):
            raise AssertionError(f"internal error: fact {i} ({facts[i].kind}) is not necessary")


def _all_needed_jointly(
    be: SolverBackend, facts: Sequence[Fact], domain: DateDomain, answers: Sequence[int]
) -> bool:
    """One call: is every copy "all facts but i, outside the answers" satisfiable?"""
    outside = IntervalSet.from_days(answers).complement(domain.start, domain.end)
    constraints: list[Formula] = []
    domains: dict[str, tuple[int, int]] = {}
    for i in range(len(facts)):
        copy = f"{DATE_VAR}_without_{i}"
        domains[copy] = (domain.start, domain.end)
        rest = build_problem([f for j, f in enumerate(facts) if j != i], domain).constraints
        constraints += [renamed(c, {DATE_VAR: copy}) for c in rest]
        constraints.append(In(copy, outside))
    problem = Problem(tuple(constraints), domains, target=f"{DATE_VAR}_without_0")
    return be.is_satisfiable(problem, range(len(constraints)))


def certify_contradiction(
    facts: Sequence[Fact], domain: DateDomain, backend: str
) -> dict[str, Any]:
    """The solver's word that ``facts`` is a minimal unsatisfiable set with no
    two-fact contradiction: the whole set has no solution, every set missing
    one fact has one, and so does every pair. (Exactly what a deletion-based
    ``explain`` would establish, but with plain satisfiability calls, which
    CP-SAT decides in about a millisecond each, where proving infeasibility
    under assumption literals took about 0.3 s.) Returned as ``contradiction``."""
    be = get_backend(backend)
    problem = build_problem(facts, domain)
    everything = list(range(len(facts)))
    if be.is_satisfiable(problem, everything):
        raise AssertionError("internal error: a zero-answer puzzle has a solution")
    for i in everything:
        if not be.is_satisfiable(problem, [j for j in everything if j != i]):
            raise AssertionError(f"internal error: fact {i} is not needed for the contradiction")
    for i in everything:
        for j in range(i + 1, len(facts)):
            if not be.is_satisfiable(problem, [i, j]):
                raise AssertionError(f"internal error: facts {i} and {j} contradict each other")
    return {"core": everything, "pairs_satisfiable": True, "by": backend}
