"""tsolve: temporal reasoning tasks compiled to constraints.

The main entry points are re-exported here lazily, so ``import tsolve`` stays
cheap and a user pays for OR-Tools and Z3 only when they are used:

* :func:`generate_puzzle`, :func:`generate_puzzles`, :class:`PuzzleConfig`
* :func:`solve`: recompute a puzzle record's answer set
* :func:`verify`: score predictions against records
* :func:`check_claims`: check the date claims in free text (docs/claims.md)
* :func:`create_dataset`, :func:`score_answer`: the reasoning-gym-style facade
  (:mod:`tsolve.facade`)
* :func:`register_reasoning_gym`: tsolve's families in reasoning-gym's registry,
  with typed configs and curricula (:mod:`tsolve.adapters.reasoning_gym`)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tsolve.compat import install as _install_old_paths
from tsolve.compat.lazy import lazy_getattr
from tsolve.records.derivers import install as _install_derivers

_install_old_paths()  # old module paths keep importing until 0.2 (tsolve.compat)


def _derive_columns(record: Any) -> dict[str, str]:
    from tsolve.verifiers.derived_columns import derive

    return derive(record)


def _family_installed(name: str) -> bool:
    from tsolve.verifiers.derived_columns import installed

    return installed(name)


# A table's question/answer columns come from the families, which sit above
# the records layer that reads and writes tables (tsolve.records.derivers).
_install_derivers(_derive_columns, _family_installed)

__version__ = "0.1.0"

_EXPORTS = {
    "verify": ("tsolve.verifiers.verify_batch", "verify"),
    "verify_files": ("tsolve.verifiers.verify_files", "verify_files"),
    "TsolveError": ("tsolve.errors", "TsolveError"),
    "check_claims": ("tsolve.claims", "check_claims"),
    "create_dataset": ("tsolve.facade", "create_dataset"),
    "score_answer": ("tsolve.facade", "score_answer"),
    "register_reasoning_gym": ("tsolve.adapters.reasoning_gym", "register_reasoning_gym"),
}

if TYPE_CHECKING:
    from tsolve.adapters.reasoning_gym import register_reasoning_gym
    from tsolve.claims import check_claims
    from tsolve.errors import TsolveError
    from tsolve.facade import create_dataset, score_answer
    from tsolve.verifiers.verify_batch import verify
    from tsolve.verifiers.verify_files import verify_files


_engine_getattr = lazy_getattr(__name__, _EXPORTS)


def __getattr__(name: str) -> Any:
    """The engine's names from :data:`_EXPORTS`; any other public name (in
    ``__all__``) is a built-in family's (its ``exports`` part), looked up in
    the registry only when such a name is first asked for, so neither
    ``import tsolve`` nor ``from tsolve import <submodule>`` reads it."""
    if name in _EXPORTS or name not in __all__:
        return _engine_getattr(name)
    from tsolve.contract.family import resolve
    from tsolve.contract.registry import builtin_families

    for family in builtin_families():
        if name in family.exports:
            return resolve(family.exports[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "PuzzleConfig",
    "TsolveError",
    "check_claims",
    "create_dataset",
    "generate_puzzle",
    "generate_puzzles",
    "register_reasoning_gym",
    "score_answer",
    "solve",
    "verify",
    "verify_files",
]
