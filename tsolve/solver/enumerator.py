"""The reference enumerator: the IR's own NumPy semantics over the whole domain.

It is the oracle in the tests and the peer in benchmarks (it is the plain
enumeration of the Time Puzzles paper's Algorithm 3), not a production path:
its cost grows with the domain, while the solvers' does not.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from tsolve.encodings.ir import And, evaluate, variables
from tsolve.errors import TsolveError
from tsolve.solver.backend_names import GENERATION_BACKENDS, choices_text
from tsolve.solver.base import (
    Problem,
    SolverBackend,
    SolveResult,
    Status,
    finished_status,
    stopped_status,
)


class EnumeratorBackend(SolverBackend):
    name = "enumerator"

    def solve(self, problem: Problem, limit: int | None = None) -> SolveResult:
        """Evaluate the formula over the domain in blocks, in order, so that the
        time limit (checked between blocks) and ``limit`` can stop it early."""
        t0 = time.perf_counter()
        deadline = self._deadline(t0)
        used = set().union(*(variables(c) for c in problem.constraints)) | {problem.target}
        if used != {problem.target} or problem.is_tuple:
            return self._solve_product(problem, sorted(used | set(problem.output_vars)), limit, t0)
        lo, hi = problem.domains[problem.target]
        formula = And(tuple(problem.constraints))
        found: list[np.ndarray] = []
        count = 0
        how: Status | None = None
        for start in range(lo, hi + 1, _BLOCK):
            if deadline is not None and time.perf_counter() > deadline:
                how = stopped_status(count, limit)
                break
            days = np.arange(start, min(start + _BLOCK, hi + 1), dtype=np.int64)
            hits = days[evaluate(formula, {problem.target: days})]
            found.append(hits)
            count += int(hits.size)
            if limit is not None and count > limit:
                how = "limit"  # more than the limit exist: stopping loses nothing we know
                break
        sols = np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
        if limit is not None:
            sols = sols[:limit]
        if how is None:  # went through the whole domain: the answer set is exact
            how = finished_status(int(sols.size))
        return SolveResult(
            tuple(int(v) for v in sols), how, self.name, {"seconds": time.perf_counter() - t0}
        )

    def _solve_product(
        self, problem: Problem, names: list[str], limit: int | None, t0: float
    ) -> SolveResult:
        """Several variables: every combination of their values, in blocks of
        the flattened product (only for small domains: this is the oracle)."""
        deadline = self._deadline(t0)
        lows = [problem.domains[v][0] for v in names]
        sizes = [problem.domains[v][1] - problem.domains[v][0] + 1 for v in names]
        total = int(np.prod(np.array(sizes, dtype=object)))
        if total > MAX_PRODUCT:
            raise TsolveError(
                f"enumerator: {total:,} combinations of {', '.join(names)} (more than "
                f"{MAX_PRODUCT:,}); use {choices_text(GENERATION_BACKENDS)}"
            )
        formula = And(tuple(problem.constraints))
        pick = [names.index(v) for v in problem.output_vars]
        found: set[Any] = set()
        how: Status | None = None
        for start in range(0, total, _BLOCK):
            if deadline is not None and time.perf_counter() > deadline:
                how = stopped_status(len(found), limit)
                break
            flat = np.arange(start, min(start + _BLOCK, total), dtype=np.int64)
            cols = np.unravel_index(flat, sizes)
            env = {v: cols[k] + lows[k] for k, v in enumerate(names)}
            hit = evaluate(formula, env)
            rows = np.stack([env[names[k]][hit] for k in pick], axis=1)
            if problem.is_tuple:
                found.update(tuple(int(x) for x in r) for r in rows)
            else:
                found.update(int(r[0]) for r in rows)
            if limit is not None and len(found) > limit:
                how = "limit"
                break
        sols = sorted(found)[:limit] if limit is not None else sorted(found)
        if how is None:
            how = finished_status(len(sols))
        return SolveResult(tuple(sols), how, self.name, {"seconds": time.perf_counter() - t0})


MAX_PRODUCT = 5_000_000
"""The most value combinations the oracle enumerates for a multi-variable problem."""

_BLOCK = 1 << 16
"""Days evaluated per step: large enough that NumPy dominates, small enough
that a time limit is honoured within a few milliseconds."""
