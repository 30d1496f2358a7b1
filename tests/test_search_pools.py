"""The minimal search's candidate pools gathered from the seed table's rows
hold exactly what building them fact by fact gives: each candidate's window
over the anchor's words, its size over the domain and its kind."""

from __future__ import annotations

import random

import numpy as np
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.encodings.facts import DayView
from tsolve.families.time_puzzles.generate import PuzzleConfig, _Search


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**20), st.integers(1, 6), st.integers(4, 6))
def test_pools_by_row_equal_pools_by_fact(seed: int, m: int, n: int) -> None:
    cfg = PuzzleConfig(solutions=m, minimal=True)
    search = _Search(random.Random(seed), cfg, m, n)
    picked = search.anchor()
    if picked is None:
        return
    anchor, view = picked
    day = int(view.days[search.rng.randrange(view.days.size)])
    pools = search.choose(anchor, view, DayView.of_day(day)).pools
    assert pools.cache, "the search built no pool"
    for pool in pools.cache.values():
        plain = pools.by_fact(pool.facts)
        assert np.array_equal(pool.windows, plain.windows)
        assert np.array_equal(pool.sizes, plain.sizes)
        assert np.array_equal(pool.kinds, plain.kinds)
