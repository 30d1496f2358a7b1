"""The IR's interval arithmetic against plain Python sets."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tsolve.encodings.ir import IntervalSet

intervals = st.lists(
    st.tuples(st.integers(0, 200), st.integers(0, 30)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=8,
)


def as_set(s: IntervalSet) -> set[int]:
    return {v for lo, hi in s for v in range(lo, hi + 1)}


def raw(items: list[tuple[int, int]]) -> set[int]:
    return {v for lo, hi in items for v in range(lo, hi + 1)}


@given(intervals)
def test_normal_form_is_sorted_disjoint_and_non_adjacent(items: list[tuple[int, int]]) -> None:
    s = IntervalSet.from_intervals(items)
    assert as_set(s) == raw(items)
    for (a1, b1), (a2, b2) in zip(s.intervals, s.intervals[1:], strict=False):
        assert a1 <= b1 < a2 - 1 <= b2
    assert s.size == len(raw(items))


@given(intervals, intervals)
def test_intersect_and_complement(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> None:
    sa, sb = IntervalSet.from_intervals(a), IntervalSet.from_intervals(b)
    assert as_set(sa.intersect(sb)) == raw(a) & raw(b)
    assert as_set(sa.complement(0, 250)) == set(range(0, 251)) - raw(a)
    assert as_set(sa.clip(20, 100)) == raw(a) & set(range(20, 101))


def both_forms(items: list[tuple[int, int]]) -> list[IntervalSet]:
    """The normalised set held as pairs, and the same set held as arrays (the
    form the vectorised constructors make), whose methods take other paths."""
    s = IntervalSet.from_intervals(items)
    starts, ends = s.bounds
    return [s, IntervalSet(arrays=(starts.copy(), ends.copy()))]


@given(intervals, st.integers(-5, 240), st.integers(0, 60))
def test_clip_matches_sets(a: list[tuple[int, int]], lo: int, width: int) -> None:
    hi = lo + width
    expect = raw(a) & set(range(lo, hi + 1))
    for s in both_forms(a):
        cut = s.clip(lo, hi)
        assert as_set(cut) == expect
        assert cut == IntervalSet.from_intervals((v, v) for v in expect)  # canonical


@given(intervals, st.lists(st.integers(-5, 260), max_size=40))
def test_contains_matches_membership_in_both_forms(
    a: list[tuple[int, int]], values: list[int]
) -> None:
    # up to 16 values take the few-values paths, more the vectorised one
    for s in both_forms(a):
        got = s.contains(np.asarray(values, dtype=np.int64))
        assert got.tolist() == [v in raw(a) for v in values]


@given(intervals, st.lists(st.integers(-5, 260), max_size=30))
def test_contains_matches_membership(a: list[tuple[int, int]], values: list[int]) -> None:
    s = IntervalSet.from_intervals(a)
    got = s.contains(np.asarray(values, dtype=np.int64))
    assert got.tolist() == [v in raw(a) for v in values]


@given(st.lists(st.booleans(), min_size=1, max_size=60), st.integers(0, 1000))
def test_from_mask_round_trip(mask: list[bool], base: int) -> None:
    days = np.arange(base, base + len(mask))
    s = IntervalSet.from_mask(days, np.asarray(mask))
    assert as_set(s) == {base + i for i, m in enumerate(mask) if m}
    # membership through the bounds kept from the mask, on both search paths
    probe = np.arange(base - 2, base + len(mask) + 2, dtype=np.int64)
    expect = [int(v) in as_set(s) for v in probe]
    assert s.contains(probe).tolist() == expect
    assert [bool(s.contains(probe[k : k + 1])[0]) for k in range(probe.size)] == expect
