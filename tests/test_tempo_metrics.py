"""TEMPO metrics: the paper's worked examples, hand computations and properties."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.errors import TsolveError
from tsolve.families.tempo import (
    mean_defined,
    ndcg,
    ndcg_full_coverage,
    temporal_coverage,
    temporal_intent,
    temporal_precision,
    temporal_relevance,
)

# --------------------------------------------------------------- Table 13
# TEMPO, Appendix C.4.3, Table 13: "Mathematical Weighting of Temporal
# Precision (TP) at k = 5".


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ([1, 0, 0, 0, 0], 1.000),  # Table 13, "Rank 1 Hit"
        ([0, 0, 0, 0, 1], 0.200),  # Table 13, "Rank 5 Hit"
        ([1, 1, 0, 0, 0], 1.000),  # Table 13, "Double Hit (Top)"
    ],
)
def test_table_13_temporal_precision_at_5(verdicts: list[int], expected: float) -> None:
    assert temporal_precision(verdicts, 5) == pytest.approx(expected, abs=5e-4)


# --------------------------------------------------------------- Table 12
# Table 12: "Temporal Coverage (TC) Decision Matrix for Trend Analysis
# Queries", M = 2 periods (baseline, comparison).


@pytest.mark.parametrize(
    ("coverage", "expected"),
    [
        ([[1, 0]], 0.500),  # Table 12, "Baseline Only"
        ([[0, 1]], 0.500),  # Table 12, "Comparison Only"
        ([[1, 1]], 1.000),  # Table 12, "Both (Full Coverage)"
        ([[1, 0], [0, 1]], 1.000),  # the same synthesis from two documents
    ],
)
def test_table_12_temporal_coverage(coverage: list[list[int]], expected: float) -> None:
    assert temporal_coverage(coverage, 10) == pytest.approx(expected)


def test_table_12_only_full_coverage_keeps_ndcg() -> None:
    # Eq. 5 applied to the three rows of Table 12.
    assert math.isnan(ndcg_full_coverage([1], [[1, 0]], 10))
    assert math.isnan(ndcg_full_coverage([1], [[0, 1]], 10))
    assert ndcg_full_coverage([1], [[1, 1]], 10) == 1.0


# --------------------------------------------------------------- Table 11
# Table 11: "Validation of Temporal Intent and Cross-Period Classification
# Logic" (query, detected intent, cross-period). The paper's specific_time
# label is kept; its change_over_time rows are ours too.


@pytest.mark.parametrize(
    ("query", "intent", "cross"),
    [
        ("How have Bitcoin fees changed since 2017?", "change_over_time", True),
        ("What is a Merkle tree?", "none", False),
        ("Who was the president in 1920?", "specific_time", False),
        ("Recent evolution of the Lightning Network.", "change_over_time", True),
    ],
)
def test_table_11_intent(query: str, intent: str, cross: bool) -> None:
    got = temporal_intent(query)
    assert (got.intent, got.cross_period) == (intent, cross)


# -------------------------------------------------------- hand computations


def test_tp_hand_computed() -> None:
    # R = {2, 3}: (1/2 + 2/3) / 2 = 7/12
    assert temporal_precision([0, 1, 1, 0], 4) == pytest.approx(7 / 12)
    # R = {1, 3} within k = 3; rank 4 is cut off: (1/1 + 2/3) / 2 = 5/6
    assert temporal_precision([1, 0, 1, 1], 3) == pytest.approx(5 / 6)
    # No relevant document in the top k: 0.0 (documented convention).
    assert temporal_precision([0, 0, 1], 2) == 0.0
    assert temporal_precision([], 5) == 0.0


def test_tr_divides_by_k_even_for_short_lists() -> None:
    assert temporal_relevance([1, 0, 1], 3) == pytest.approx(2 / 3)
    assert temporal_relevance([1, 1], 10) == pytest.approx(0.2)  # Eq. 2: 1/k


def test_tc_hand_computed_and_conventions() -> None:
    cov = [[1, 0, 0], [0, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert [temporal_coverage(cov, k) for k in (1, 2, 3, 4)] == pytest.approx(
        [1 / 3, 1 / 3, 2 / 3, 1.0]
    )
    assert math.isnan(temporal_coverage([[], []], 5))  # M = 0: nothing to cover
    assert temporal_coverage([], 5) == 0.0  # nothing retrieved
    assert math.isnan(temporal_coverage([], 5, periods=0))
    with pytest.raises(TsolveError, match=r"coverage\[1\]"):
        temporal_coverage([[1, 0], [1]], 5)


def test_ndcg_wikipedia_worked_example() -> None:
    # en.wikipedia.org/wiki/Discounted_cumulative_gain, "Example": graded
    # relevances 3, 2, 3, 0, 1, 2 give DCG6 = 6.861; with the ideal order of
    # all judged documents (3, 3, 3, 2, 2, 2, 1, 0) IDCG6 = 8.740, nDCG6 = 0.785.
    gains = [3, 2, 3, 0, 1, 2]
    assert ndcg(gains, 6, ideal=[3, 3, 3, 2, 2, 2, 1, 0]) == pytest.approx(6.861 / 8.740, abs=1e-3)


def test_ndcg_hand_computed() -> None:
    # gains 0, 2, 1 against judged {2, 1, 1}:
    # DCG = 2/log2(3) + 1/2 = 1.761860; IDCG = 2 + 1/log2(3) + 1/2 = 3.130930
    assert ndcg([0, 2, 1], 3, ideal=[2, 1, 1]) == pytest.approx(1.761860 / 3.130930, abs=1e-6)
    assert ndcg([0, 0], 2) == 0.0  # ideal DCG 0
    assert ndcg([1, 0], 2) == 1.0  # ideal = sorted retrieved gains


def test_bad_arguments_are_one_line_errors() -> None:
    for call in (
        lambda: temporal_precision([1, 2], 2),
        lambda: temporal_relevance([0.5], 1),
        lambda: temporal_precision([1], 0),
        lambda: ndcg([-1], 1),
        lambda: ndcg([float("nan")], 1),
    ):
        with pytest.raises(TsolveError):
            call()


def test_mean_defined_skips_nan_and_counts() -> None:
    assert mean_defined([0.5, float("nan"), 1.0]) == (0.75, 2)
    m, n = mean_defined([float("nan")])
    assert math.isnan(m) and n == 0


# --------------------------------------------------------------- properties

bits = st.lists(st.integers(0, 1), max_size=30)
ks = st.integers(1, 35)


def _tp_from_sets(verdicts: list[int], k: int) -> float:
    """Eq. 1 written literally with sets: an independent implementation."""
    rel = {i + 1 for i, v in enumerate(verdicts[:k]) if v}
    if not rel:
        return 0.0
    return sum(len({j for j in rel if j <= r}) / r for r in rel) / len(rel)


@given(bits, ks)
def test_tp_matches_eq1_and_metrics_in_unit_interval(verdicts: list[int], k: int) -> None:
    tp, tr = temporal_precision(verdicts, k), temporal_relevance(verdicts, k)
    assert tp == pytest.approx(_tp_from_sets(verdicts, k))
    assert 0.0 <= tp <= 1.0 and 0.0 <= tr <= 1.0


@given(bits, ks, st.data())
def test_tp_moving_a_relevant_document_up_within_the_top_k_never_lowers_it(
    verdicts: list[int], k: int, data: st.DataObject
) -> None:
    rel = [i for i, v in enumerate(verdicts[:k]) if v]
    non = [i for i, v in enumerate(verdicts) if not v]
    if not rel or not non:
        return
    i = data.draw(st.sampled_from(rel))
    above = [j for j in non if j < i]
    if not above:
        return
    j = data.draw(st.sampled_from(above))
    moved = list(verdicts)
    moved[i], moved[j] = moved[j], moved[i]
    assert temporal_precision(moved, k) >= temporal_precision(verdicts, k) - 1e-12


def test_tp_can_fall_when_a_relevant_document_enters_the_top_k() -> None:
    """Eq. 1 averages over the relevant ranks inside the top k only, so pulling
    a relevant document in from below rank k adds a rank with precision < 1:
    [1,0,0,1] has TP@3 = 1 (R = {1}); [1,0,1,0] has TP@3 = (1 + 2/3)/2. This is
    the paper's metric, not a bug; TR@k is the one that rewards the move."""
    assert temporal_precision([1, 0, 0, 1], 3) == 1.0
    assert temporal_precision([1, 0, 1, 0], 3) == pytest.approx((1 + 2 / 3) / 2)
    assert temporal_relevance([1, 0, 1, 0], 3) > temporal_relevance([1, 0, 0, 1], 3)


coverages = st.integers(1, 4).flatmap(
    lambda m: st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), max_size=15)
)


@given(coverages, ks)
def test_tc_in_unit_interval_and_monotone_in_k(cov: list[list[int]], k: int) -> None:
    m = len(cov[0]) if cov else 1
    values = [temporal_coverage(cov, j, m) for j in range(1, k + 1)]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert all(a <= b for a, b in itertools.pairwise(values))


@given(coverages, ks, st.data())
def test_ndcg_fc_is_nan_exactly_when_coverage_is_not_full(
    cov: list[list[int]], k: int, data: st.DataObject
) -> None:
    gains = data.draw(st.lists(st.integers(0, 3), min_size=len(cov), max_size=len(cov)))
    m = len(cov[0]) if cov else 1
    full = all(any(row[p] for row in cov[:k]) for p in range(m))
    got = ndcg_full_coverage(gains, cov, k, periods=m)
    assert math.isnan(got) == (not full)
    if full:
        assert got == ndcg(gains, k)
        assert 0.0 <= got <= 1.0 + 1e-12
