"""TEMPO's temporal retrieval metrics (paper §4 and Appendix C.1), as pure functions.

The paper obtains the per-document verdicts and coverage vectors from an LLM
judge; tsolve computes them from intervals (:mod:`tsolve.families.tempo.scoring`), but
the metrics themselves only see 0/1 lists in rank order, so they can be
checked against the paper's worked examples (Tables 12 and 13) directly.

Conventions the paper leaves open, fixed here and in ``docs/tempo.md``:

* TP@k with no relevant document in the top k is 0.0 (the sum in Eq. 1 is
  empty; nothing relevant was ranked, which is the worst case, not "unknown").
* TR@k divides by k even when fewer than k documents were retrieved (Eq. 2);
  a short list is not rewarded for being short.
* TC@k with no required period (M = 0) is NaN: there is nothing to cover.
  With no retrieved document and M unknown it is 0.0 (pass ``periods`` to
  say what M is).
* NDCG@k uses linear gains and log2 discounts, as trec_eval's ``ndcg_cut``:
  DCG = Σ_i g_i / log2(i + 1) over ranks i = 1..k; the ideal ranking is the
  sorted ``ideal`` gains (all judged documents) or, without them, the sorted
  retrieved gains. An ideal DCG of 0 gives 0.0.
* NDCG|FC@k is NDCG@k when TC@k = 1 and NaN otherwise (also when TC@k is
  NaN). :func:`mean_defined` aggregates NaN-bearing metrics: the mean over
  the queries where the value is defined, reported with that count.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from tsolve.errors import TsolveError

NAN = float("nan")


def _check_k(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise TsolveError(f"k: expected an integer >= 1, got {k!r}")
    return k


def _bit(v: object, where: str) -> int:
    if v in (0, 1) and not isinstance(v, float):  # True/False are 1/0
        return 1 if v else 0
    raise TsolveError(f"{where}: expected 0 or 1, got {v!r}")


def temporal_precision(verdicts: Sequence[int], k: int) -> float:
    """TP@k = (1/|R|) Σ_{r∈R} |{j∈R : j ≤ r}| / r, R the relevant ranks ≤ k (Eq. 1).

    Position-weighted: precision at each relevant rank, averaged over the
    relevant ranks. 0.0 when no document in the top k is relevant."""
    _check_k(k)
    hits = 0
    total = 0.0
    for r, v in enumerate(verdicts[:k], start=1):
        if _bit(v, f"verdicts[{r - 1}]"):
            hits += 1
            total += hits / r
    return total / hits if hits else 0.0


def temporal_relevance(verdicts: Sequence[int], k: int) -> float:
    """TR@k = (1/k) Σ_{i≤k} v_i (Eq. 2): the fraction of the top k that is relevant."""
    _check_k(k)
    return sum(_bit(v, f"verdicts[{i}]") for i, v in enumerate(verdicts[:k])) / k


def temporal_coverage(
    coverage: Sequence[Sequence[int]], k: int, periods: int | None = None
) -> float:
    """TC@k = (1/M) Σ_m max_{i≤k} c_{i,m} (Eqs. 3-4): the fraction of the M
    required periods covered by at least one of the top k documents.

    ``coverage[i]`` is the 0/1 vector of document i (rank i + 1), one entry per
    required period. NaN when M = 0."""
    _check_k(k)
    m = periods if periods is not None else (len(coverage[0]) if coverage else None)
    if m is None:
        return 0.0
    if m == 0:
        return NAN
    covered = [0] * m
    for i, row in enumerate(coverage[:k]):
        if len(row) != m:
            raise TsolveError(f"coverage[{i}]: expected {m} periods, got {len(row)}")
        for j, c in enumerate(row):
            if _bit(c, f"coverage[{i}][{j}]"):
                covered[j] = 1
    return sum(covered) / m


def dcg(gains: Sequence[float], k: int) -> float:
    """Σ_{i=1..k} g_i / log2(i + 1), linear gains (trec_eval's ``ndcg_cut``)."""
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k]))


def ndcg(gains: Sequence[float], k: int, ideal: Sequence[float] | None = None) -> float:
    """NDCG@k of the retrieved ``gains`` in rank order; the ideal DCG comes from
    ``ideal`` (every judged document's gain) or else from ``gains`` sorted."""
    _check_k(k)
    for i, g in enumerate(gains):
        if isinstance(g, bool) or not isinstance(g, (int, float)) or not math.isfinite(g) or g < 0:
            raise TsolveError(f"gains[{i}]: expected a finite number >= 0, got {g!r}")
    best = dcg(sorted(ideal if ideal is not None else gains, reverse=True), k)
    return dcg(gains, k) / best if best > 0 else 0.0


def ndcg_full_coverage(
    gains: Sequence[float],
    coverage: Sequence[Sequence[int]],
    k: int,
    ideal: Sequence[float] | None = None,
    periods: int | None = None,
) -> float:
    """NDCG|FC@k (Eq. 5): NDCG@k when TC@k = 1, else ``float('nan')``."""
    tc = temporal_coverage(coverage, k, periods)
    if tc != 1.0:  # also NaN (NaN != 1.0)
        return NAN
    return ndcg(gains, k, ideal)


def mean_defined(values: Iterable[float]) -> tuple[float, int]:
    """(mean over the non-NaN values, how many there were); (NaN, 0) if none.

    This is how NaN-bearing metrics (NDCG|FC@k, any metric of a query with no
    time scope) are aggregated: the paper's "computed only on queries where
    full temporal coverage is achieved" (§4), with the count reported beside
    the mean so a high NDCG|FC over 3 queries is not mistaken for one over 300."""
    kept = [v for v in values if not math.isnan(v)]
    return (math.fsum(kept) / len(kept), len(kept)) if kept else (NAN, 0)


__all__ = ["dcg", "mean_defined", "ndcg", "ndcg_full_coverage", "temporal_coverage",
           "temporal_precision", "temporal_relevance"]  # fmt: skip
