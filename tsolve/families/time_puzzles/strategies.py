"""Hypothesis strategies of the time-puzzles family (its ``strategies``
part, importable from :mod:`tsolve.testing.strategies` by name)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from tsolve.contract import get_family
from tsolve.testing.strategies import option_dicts


def puzzle_configs(
    fixed: Mapping[str, Any] | None = None,
    choices: Mapping[str, Sequence[Any]] | None = None,
) -> st.SearchStrategy[Any]:
    """Random :class:`PuzzleConfig` objects (validated like the CLI's)."""
    fam = get_family("time-puzzles", need="generate")
    return option_dicts("time-puzzles", fixed, choices).map(fam.make_options)
