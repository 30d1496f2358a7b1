"""How constraints get solved: CP-SAT, Z3 and the reference enumerator behind
one interface (:class:`SolverBackend`: solve, count, check, explain)."""

from __future__ import annotations

from tsolve.errors import TsolveError
from tsolve.solver.backend_names import BACKENDS, GENERATION_BACKENDS
from tsolve.solver.base import CountResult, Problem, SolverBackend, SolveResult


def get_backend(name: str = "cpsat", time_limit: float | None = None) -> SolverBackend:
    """A fresh backend by name. Imports are lazy so that using one backend never
    pays for importing the others."""
    if name == "cpsat":
        from tsolve.solver.cpsat import CpSatBackend

        return CpSatBackend(time_limit)
    if name == "z3":
        from tsolve.solver.z3_backend import Z3Backend

        return Z3Backend(time_limit)
    if name == "enumerator":
        from tsolve.solver.enumerator import EnumeratorBackend

        return EnumeratorBackend(time_limit)
    raise TsolveError(f"backend: unknown backend {name!r} (choose from {', '.join(BACKENDS)})")


__all__ = [
    "BACKENDS",
    "GENERATION_BACKENDS",
    "CountResult",
    "Problem",
    "SolveResult",
    "SolverBackend",
    "get_backend",
]
