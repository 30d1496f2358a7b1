"""The reference enumerator: the IR's own NumPy semantics over the whole domain.

It is the oracle in the tests and the peer in benchmarks (it is the plain
enumeration of the Time Puzzles paper's Algorithm 3), not a production path:
its cost grows with the domain, while the solvers' does not.
"""

from __future__ import annotations

import numpy as np

from tsolve.encodings.ir import And, evaluate, variables
from tsolve.errors import TsolveError
from tsolve.solver.base import Problem, SolverBackend, SolveResult


class EnumeratorBackend(SolverBackend):
    name = "enumerator"

    def solve(self, problem: Problem, limit: int | None = None) -> SolveResult:
        used = set().union(*(variables(c) for c in problem.constraints)) | {problem.target}
        if used != {problem.target}:
            raise TsolveError(
                "enumerator: only single-variable problems can be enumerated "
                f"(got {sorted(used)}); use cpsat or z3"
            )
        lo, hi = problem.domains[problem.target]
        days = np.arange(lo, hi + 1, dtype=np.int64)
        mask = evaluate(And(tuple(problem.constraints)), {problem.target: days})
        sols = days[mask]
        complete = limit is None or sols.size <= limit
        if limit is not None:
            sols = sols[:limit]
        return SolveResult(tuple(int(v) for v in sols), complete, self.name)
