"""The solver backends by name: the one list every layer and the CLI refer to.

A module of its own, with no imports, so that the CLI can name the backends
in its help and check a ``--backend`` value without importing a solver (see
the start-up note in :mod:`tsolve.cli.app`)."""

from __future__ import annotations

from tsolve.errors import TsolveError

#: Every backend :func:`tsolve.solver.get_backend` can build. The enumerator is
#: the vectorised reference semantics: an oracle for tests and ``tsolve solve``.
BACKENDS: tuple[str, ...] = ("cpsat", "z3", "enumerator")

#: Backends a generator may certify its records with. The enumerator is left
#: out: it walks the whole domain, which is the oracle's job, not a generator's.
GENERATION_BACKENDS: tuple[str, ...] = ("cpsat", "z3")


def choices_text(names: tuple[str, ...]) -> str:
    """``names`` as help and error messages write them: ``"cpsat, z3 or enumerator"``."""
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def check_backend(name: object, allowed: tuple[str, ...] = BACKENDS, field: str = "backend") -> str:
    """``name`` if it is one of ``allowed``, else a one-line :class:`TsolveError`."""
    if not isinstance(name, str) or name not in allowed:
        raise TsolveError(f"{field}: expected {choices_text(allowed)}, got {name!r}")
    return name
