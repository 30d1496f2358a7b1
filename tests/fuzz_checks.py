"""What the fuzz-surface tests share: run one surface's campaign and keep
the failures it finds (each test file names its own seed label and guard)."""

from __future__ import annotations

import random
from typing import Any

from tsolve.stress.fuzz_surfaces import check_surface


def surface_failures(surface: str, n: int, label: str, hang_guard: float) -> list[Any]:
    """The failures of ``n`` inputs of ``surface``, drawn from a generator
    seeded by ``label:surface`` (the same inputs on every run)."""
    rng = random.Random(f"{label}:{surface}")
    found = []
    for _ in range(n):
        failure, _reported, _took, _label = check_surface(surface, rng, hang_guard)
        if failure is not None:
            found.append(failure)
    return found
