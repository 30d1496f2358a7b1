"""Interval sets reach CP-SAT as domains cut to the variable's bounds; the
cut must keep exactly the set's members inside them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.encodings.ir import IntervalSet

cpsat = pytest.importorskip("tsolve.solver.cpsat", reason="OR-Tools is not installed")

intervals = st.lists(
    st.tuples(st.integers(0, 200), st.integers(0, 30)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=8,
)


def members(flat: list[int]) -> set[int]:
    return {v for a, b in zip(flat[0::2], flat[1::2], strict=True) for v in range(a, b + 1)}


@given(intervals, st.integers(-5, 240), st.integers(0, 60))
def test_cut_domain_keeps_the_members_inside(
    items: list[tuple[int, int]], lo: int, width: int
) -> None:
    hi = lo + width
    s = IntervalSet.from_intervals(items)
    starts, ends = s.bounds
    got = cpsat._cut_domain(starts, ends, lo, hi).flattened_intervals()
    expect = {v for a, b in items for v in range(a, b + 1)} & set(range(lo, hi + 1))
    assert members(got) == expect
    # canonical: sorted, disjoint, non-adjacent, as CP-SAT's own domains are
    assert all(b + 1 < c for b, c in zip(got[1::2], got[2::2], strict=False))


@given(intervals, st.integers(-5, 240), st.integers(0, 60))
def test_a_set_posted_on_bounded_date_keeps_exactly_its_members(
    items: list[tuple[int, int]], lo: int, width: int
) -> None:
    # Whole, cut, or holding every value of the bounds (then not posted at
    # all): the solutions are the set's members within the bounds.
    from tsolve.encodings.ir import DATE_VAR, In
    from tsolve.solver.base import Problem

    hi = lo + width
    s = IntervalSet.from_intervals(items)
    problem = Problem((In(DATE_VAR, s),), {DATE_VAR: (lo, hi)}, DATE_VAR)
    got = cpsat.CpSatBackend().solve(problem).solutions
    expect = sorted({v for a, b in items for v in range(a, b + 1)} & set(range(lo, hi + 1)))
    assert list(got) == expect
