"""How constraints get solved: CP-SAT, Z3 and the reference enumerator behind
one interface (:class:`SolverBackend`: solve, count, check, explain).

The interface's types are exported lazily, so that importing a light module of
this package (:mod:`.backend_names`, which the CLI reads for ``--help``) does
not import the IR and NumPy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tsolve.compat.lazy import lazy_getattr
from tsolve.errors import TsolveError
from tsolve.solver.backend_names import BACKENDS, GENERATION_BACKENDS

if TYPE_CHECKING:
    from tsolve.solver.base import CountResult, Problem, SolverBackend, SolveResult

_EXPORTS = {
    name: ("tsolve.solver.base", name)
    for name in ("CountResult", "Problem", "SolveResult", "SolverBackend")
}
__getattr__ = lazy_getattr(__name__, _EXPORTS)


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
