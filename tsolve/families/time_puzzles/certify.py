"""The solver's certificates of a generated time puzzle, beyond its gold
(:func:`~tsolve.families.time_puzzles.solve.certify_known_gold`): that every
fact of a minimal puzzle is needed, and that a zero-answer puzzle is a minimal
unsatisfiable set with no two-fact clash.

They live apart from the search (``search/``) because they are the
solver's side of generation: the search proposes from packed masks, these
prove, and a record is written only when both agree.

A claim that something *is satisfiable* is proved by a witness: one date that
satisfies the constraints in question, checked by the IR's own semantics
(:meth:`~tsolve.solver.base.SolverBackend.check_values`, the reference every
backend is tested against), with no search. The witnesses are proposed by the
facts' packed masks (``encodings/facts/packed.py``, the search's fast path),
but a proposal is only a candidate: it counts once the IR says so, and a claim
without a checked witness goes to the solver. A claim that something has *no*
solution needs a proof, and stays one solver call. Measured, the necessity
certificate of a minimal puzzle went from one joint CP-SAT call (2.7 ms) to
about 0.1 ms (benchmarks/results/2026-11-27-certificate-costs.md).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import Fact
from tsolve.encodings.facts.packed import pack, packed_masks, running_and
from tsolve.encodings.ir import DATE_VAR, In, IntervalSet
from tsolve.errors import SolverTimeout
from tsolve.families.time_puzzles.solve import build_problem
from tsolve.solver import get_backend
from tsolve.solver.base import Problem, SolverBackend


def certify_necessity(
    facts: Sequence[Fact],
    domain: DateDomain,
    backend: str,
    answers: Sequence[int],
    proposed: Sequence[int | None] | None = None,
) -> list[int]:
    """Proof that every fact is needed: without any one of them, some date
    outside the certified answer set satisfies the rest (the rest hold on
    every answer, so that is "more than M answers").

    For each fact i, a witness: a date outside ``answers`` on which every
    other fact holds, proposed by the packed masks (:func:`witnesses_without`)
    and checked against the facts' IR. A fact with no checked witness is asked
    of the solver ("every fact but i, outside the answers"), which finds one
    or shows the fact is not needed, and then raises, naming it.

    ``proposed``: the caller's own proposals, one day (or None) per fact, in
    place of :func:`witnesses_without`'s (the generator's search has them
    from the masks it judged the set by). They are checked the same way: a
    proposal is only a candidate.

    Returns the witnesses, one day per fact (in ``facts`` order)."""
    problem = build_problem(facts, domain)
    excluded = frozenset(int(d) for d in answers)
    everything = range(len(facts))
    subsets = [[j for j in everything if j != i] for i in everything]
    if proposed is None:
        proposed = witnesses_without(facts, domain)
    be = get_backend(backend)
    found = checked_witnesses(be, problem, domain, subsets, proposed, excluded)
    for i, day in enumerate(found):
        if day is None:
            day = solver_witness(be, problem, domain, subsets[i], excluded)
            if day is None:
                raise AssertionError(f"internal error: fact {i} ({facts[i].kind}) is not necessary")
            found[i] = day
    return [int(d) for d in found if d is not None]


def certify_contradiction(
    facts: Sequence[Fact], domain: DateDomain, backend: str, unsat_proved: bool = False
) -> dict[str, Any]:
    """The solver's word that ``facts`` is a minimal unsatisfiable set with no
    two-fact contradiction: the whole set has no solution (one solver call, an
    infeasibility proof), and every set missing one fact has one, and so does
    every pair (a checked witness each, see the module's docstring; the solver
    only for a claim whose witness is missing). Returned as ``contradiction``.

    ``unsat_proved``: the caller already holds the solver's proof that no date
    satisfies the facts' *upper* bounds (true under some reading), as the
    generator does from :func:`~tsolve.families.time_puzzles.solve.certify_known_gold`
    with no gold. Each fact implies its upper bound, so that proof covers the
    whole set as written, and the solver is not asked a second time."""
    be = get_backend(backend)
    problem = build_problem(facts, domain)
    everything = list(range(len(facts)))
    if not unsat_proved and be.is_satisfiable(problem, everything):
        raise AssertionError("internal error: a zero-answer puzzle has a solution")
    without = [[j for j in everything if j != i] for i in everything]
    pairs = [[i, j] for i in everything for j in range(i + 1, len(facts))]
    proposed = witnesses_without(facts, domain, False) + pair_witnesses(facts, domain, pairs)
    found = checked_witnesses(be, problem, domain, without + pairs, proposed, frozenset())
    for k, day in enumerate(found):
        if day is None and not be.is_satisfiable(problem, (without + pairs)[k]):
            if k < len(without):
                raise AssertionError(
                    f"internal error: fact {k} is not needed for the contradiction"
                )
            i, j = pairs[k - len(without)]
            raise AssertionError(f"internal error: facts {i} and {j} contradict each other")
    return {"core": everything, "pairs_satisfiable": True, "by": backend}


def witnesses_without(
    facts: Sequence[Fact], domain: DateDomain, outside_answers: bool = True
) -> list[int | None]:
    """For each fact i, the first day of ``domain`` on which the packed masks
    say every other fact holds, and (``outside_answers``) not every fact: a
    day that fact i alone excludes. None where the masks say there is none. A
    proposal, read off the search's fast path: see :func:`checked_witnesses`.
    The conjunctions without each fact come from one prefix and one suffix
    conjunction over the stacked masks (two NumPy calls, not n² ANDs)."""
    if not facts:
        return []
    stack = np.stack(packed_masks(facts, domain))
    ones = np.full((1, stack.shape[1]), ~np.uint64(0), dtype=np.uint64)
    ones[0, -1] = pack(np.arange(64) < (domain.size - 1) % 64 + 1)[0]  # no day past the end
    prefix = running_and(np.vstack([ones, stack]))  # AND of rows < i
    suffix = running_and(np.vstack([ones, stack[::-1]]))  # last k rows
    n = len(stack)
    rests = prefix[:n] & suffix[n - 1 :: -1]
    if outside_answers:
        rests &= ~prefix[n]
    return first_days(rests, domain)


def pair_witnesses(
    facts: Sequence[Fact], domain: DateDomain, pairs: Sequence[Sequence[int]]
) -> list[int | None]:
    """For each pair (i, j), the first day on which the packed masks say both
    facts hold (None if none): proposals for :func:`checked_witnesses`."""
    if not pairs:
        return []
    stack = np.stack(packed_masks(facts, domain))
    first, second = np.asarray(pairs, dtype=np.int64).T
    return first_days(stack[first] & stack[second], domain)


def first_days(rows: np.ndarray, domain: DateDomain) -> list[int | None]:
    """The first day each row of packed masks (``encodings/facts/packed.py``'s
    layout, as :func:`~tsolve.encodings.facts.packed.days_of` reads it) holds,
    or None for an empty row: the first non-zero word of each row, and its
    first set bit, for all rows at once."""
    nonzero = rows != 0
    word = np.argmax(nonzero, axis=1)
    picked = rows[np.arange(len(rows)), word]
    bits = np.unpackbits(np.ascontiguousarray(picked).view(np.uint8)).reshape(len(rows), 64)
    day = domain.start + 64 * word + np.argmax(bits, axis=1)
    found = nonzero.any(axis=1).tolist()
    return [int(d) if ok else None for d, ok in zip(day.tolist(), found, strict=True)]


def checked_witnesses(
    be: SolverBackend,
    problem: Problem,
    domain: DateDomain,
    subsets: Sequence[Sequence[int]],
    proposed: Sequence[int | None],
    excluded: Collection[int],
) -> list[int | None]:
    """Each proposed day that is a solution of its subset of ``problem``'s
    constraints by the IR's semantics (one :meth:`check_values` for all of
    them), lies in ``domain`` and is not ``excluded``; None where it is not,
    or where nothing was proposed."""
    days = [d for d in proposed if d is not None]
    if not days:
        return [None] * len(proposed)
    truth = be.check_values(problem, days).tolist()  # read a cell at a time below
    out: list[int | None] = []
    col = 0
    for subset, day in zip(subsets, proposed, strict=True):
        if day is None:
            out.append(None)
            continue
        ok = domain.start <= day <= domain.end and day not in excluded
        out.append(day if ok and all(truth[j][col] for j in subset) else None)
        col += 1
    return out


def solver_witness(
    be: SolverBackend,
    problem: Problem,
    domain: DateDomain,
    subset: Sequence[int],
    excluded: Collection[int],
) -> int | None:
    """The solver's witness for ``subset`` outside ``excluded``, or None when it
    proves there is none (a time limit raises: an unknown is not a proof)."""
    outside = IntervalSet.from_days(excluded).complement(domain.start, domain.end)
    sub = Problem(
        (*(problem.constraints[j] for j in subset), In(DATE_VAR, outside)),
        problem.domains, problem.target,
    )  # fmt: skip
    res = be.solve(sub, limit=1)
    if res.status == "timeout":
        raise SolverTimeout(f"{be.name}: time limit of {be.time_limit}s reached")
    return int(res.solutions[0]) if res.solutions else None
