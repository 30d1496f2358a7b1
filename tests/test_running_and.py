"""The running AND the searches' necessity tests use, against NumPy's own
accumulate (which it replaces for speed) on random packed words."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tsolve.encodings.facts.packed import running_and


@given(st.integers(0, 7), st.integers(1, 3), st.integers(1, 20), st.integers(0, 2**32))
def test_running_and_is_the_accumulated_and(rows: int, sets: int, words: int, seed: int) -> None:
    stack = np.random.default_rng(seed).integers(
        0, 2**64, size=(rows, sets, words), dtype=np.uint64, endpoint=False
    )
    got = running_and(stack)
    assert got.shape == stack.shape
    if rows:
        assert np.array_equal(got, np.bitwise_and.accumulate(stack, axis=0))
        assert np.array_equal(running_and(stack[::-1])[::-1],
                              np.bitwise_and.accumulate(stack[::-1], axis=0)[::-1])  # fmt: skip
