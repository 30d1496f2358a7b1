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

__version__ = "0.1.0"

_EXPORTS = {
    "generate_puzzle": ("tsolve.generators.time_puzzles", "generate_puzzle"),
    "generate_puzzles": ("tsolve.generators.time_puzzles", "generate_puzzles"),
    "PuzzleConfig": ("tsolve.generators.time_puzzles", "PuzzleConfig"),
    "solve": ("tsolve.solver.puzzle", "solve_record"),
    "verify": ("tsolve.verifiers.batch", "verify"),
    "verify_files": ("tsolve.verifiers.batch", "verify_files"),
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
    from tsolve.generators.time_puzzles import PuzzleConfig, generate_puzzle, generate_puzzles
    from tsolve.solver.puzzle import solve_record as solve
    from tsolve.verifiers.batch import verify, verify_files


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        mod, attr = _EXPORTS[name]
        return getattr(importlib.import_module(mod), attr)
    raise AttributeError(f"module 'tsolve' has no attribute {name!r}")


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
