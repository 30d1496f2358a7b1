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
    "generate_puzzle": ("tsolve.families.time_puzzles.generate", "generate_puzzle"),
    "generate_puzzles": ("tsolve.families.time_puzzles.generate", "generate_puzzles"),
    "PuzzleConfig": ("tsolve.families.time_puzzles.generate", "PuzzleConfig"),
    "solve": ("tsolve.families.time_puzzles.solve", "solve_record"),
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
    from tsolve.families.time_puzzles.generate import (
        PuzzleConfig,
        generate_puzzle,
        generate_puzzles,
    )
    from tsolve.families.time_puzzles.solve import solve_record as solve
    from tsolve.verifiers.verify_batch import verify
    from tsolve.verifiers.verify_files import verify_files


__getattr__ = lazy_getattr(__name__, _EXPORTS)


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
