"""Hypothesis strategies of the logistics family (its ``strategies`` part,
importable from :mod:`tsolve.testing.strategies` by name)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


def logistics_params() -> st.SearchStrategy[Any]:
    """Random logistics :class:`~tsolve.families.logistics.generate.GenerateParams`:
    every difficulty, execution and question kind, a depth that is drawn
    per record (None) or fixed in 3..20, and either asked-minute mix."""
    from tsolve.families.logistics.generate import QUESTION_KINDS, GenerateParams
    from tsolve.families.logistics.generate.asked_minute import ASKED_MIXES
    from tsolve.families.logistics.model import DIFFICULTIES, EXECUTIONS

    return st.builds(
        GenerateParams,
        difficulty=st.sampled_from(DIFFICULTIES),
        execution=st.sampled_from(EXECUTIONS),
        question=st.sampled_from(QUESTION_KINDS),
        depth=st.one_of(st.none(), st.integers(3, 20)),
        asked_minute=st.sampled_from(ASKED_MIXES),
    )
