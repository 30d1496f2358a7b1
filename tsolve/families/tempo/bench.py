"""TEMPO metric throughput: how many queries per second tsolve scores.

Three workloads over one seeded synthetic collection (``prepare``):

* ``metrics``: the pure metric functions on precomputed 0/1 verdicts and
  coverage vectors (what a caller with its own judgments pays);
* ``score``: :func:`tsolve.families.tempo.score_run` end to end from interval scopes
  (overlaps, the ideal ranking from the collection, every metric at every k);
* ``tag``: the tagger over short document texts (texts/s).

``tsolve bench --family tempo`` reports them with the other groups;
:func:`metric_throughput` is the same without the bench harness.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tsolve.bench.measure import Measurement, Size, rate_measure
from tsolve.families.tempo.inputs import Document, Query, parse_document, parse_query
from tsolve.families.tempo.metrics import (
    ndcg_full_coverage,
    temporal_coverage,
    temporal_precision,
    temporal_relevance,
)
from tsolve.families.tempo.scoring import score_run
from tsolve.families.tempo.tagger import tag

KS = (1, 5, 10)
DEPTH = 10


@dataclass
class BenchData:
    queries: dict[str, Query]
    docs: dict[str, Document]
    run: dict[str, list[str]]
    judged: list[tuple[list[int], list[list[int]], list[float]]]
    texts: list[str]


def _year_scope(rng: random.Random) -> str:
    a = rng.randint(1990, 2025)
    kind = rng.random()
    if kind < 0.4:
        return str(a)
    if kind < 0.7:
        return f"{a}-{rng.randint(1, 12):02d}"
    return f"{a}..{min(a + rng.randint(1, 6), 2026)}"


_TEMPLATES = (
    "Fees rose sharply in {y} and again in Q{q} {y2}.",
    "Between {y} and {y2} the protocol changed twice; see the report of March {d}, {y2}.",
    "Adoption has grown since {y}, as noted two years ago.",
    "In the {dec}s the market was small; by {y2} it had doubled.",
    "No dates here, only a description of how the hashing works.",
)


def prepare(n_queries: int, docs_per_query: int = 20, seed: int = 0) -> BenchData:
    """A synthetic collection: queries with scopes and two periods, documents
    with one or two scope intervals, a run of depth 10 per query."""
    rng = random.Random(seed)
    n_docs = max(DEPTH, n_queries * docs_per_query // 10)
    docs = {
        f"d{i}": parse_document(
            {"id": f"d{i}", "scope": [_year_scope(rng) for _ in range(rng.randint(1, 2))]}
        )
        for i in range(n_docs)
    }
    ids = list(docs)
    queries: dict[str, Query] = {}
    run: dict[str, list[str]] = {}
    judged = []
    for i in range(n_queries):
        a = rng.randint(1995, 2020)
        b = rng.randint(a + 1, 2026)
        q = parse_query(
            {"id": f"q{i}", "scope": f"{a}..{b}", "periods": {"baseline": str(a), "now": str(b)}}
        )
        queries[q.id] = q
        run[q.id] = rng.sample(ids, DEPTH)
        verdicts = [rng.randint(0, 1) for _ in range(DEPTH)]
        coverage = [[rng.randint(0, 1), rng.randint(0, 1)] for _ in range(DEPTH)]
        judged.append((verdicts, coverage, [float(rng.randint(0, 2)) for _ in range(DEPTH)]))
    texts = [
        rng.choice(_TEMPLATES).format(
            y=rng.randint(1990, 2020),
            y2=rng.randint(2021, 2026),
            q=rng.randint(1, 4),
            d=rng.randint(1, 28),
            dec=rng.randint(195, 201) * 10,
        )
        for _ in range(n_queries)
    ]
    return BenchData(queries, docs, run, judged, texts)


def run_metrics(data: BenchData) -> int:
    """Every metric at every k for every query's precomputed judgments."""
    for verdicts, coverage, gains in data.judged:
        for k in KS:
            temporal_precision(verdicts, k)
            temporal_relevance(verdicts, k)
            temporal_coverage(coverage, k)
            ndcg_full_coverage(gains, coverage, k)
    return len(data.judged)


def run_score(data: BenchData) -> int:
    return len(score_run(data.queries, data.docs, data.run, None, KS).queries)


def run_tag(data: BenchData) -> int:
    for t in data.texts:
        tag(t)
    return len(data.texts)


WORKLOADS: dict[str, tuple[str, Callable[[BenchData], int]]] = {
    "metrics": ("queries/s", run_metrics),
    "score": ("queries/s", run_score),
    "tag": ("texts/s", run_tag),
}


def repeated(name: str, data: BenchData) -> Callable[[int], int]:
    """Workload ``name`` as ``run(repetition) -> items done`` (the bench harness's shape)."""
    fn = WORKLOADS[name][1]

    def run(_rep: int) -> int:
        return fn(data)

    return run


def metric_throughput(n_queries: int = 2000, reps: int = 3, seed: int = 0) -> dict[str, Any]:
    """Best-of-``reps`` rate of each workload on one prepared collection."""
    data = prepare(n_queries, seed=seed)
    out: dict[str, Any] = {"queries": n_queries, "docs": len(data.docs), "k": list(KS)}
    for name, (unit, fn) in WORKLOADS.items():
        rates = []
        for _ in range(reps):
            t0 = time.perf_counter()
            n = fn(data)
            rates.append(n / max(time.perf_counter() - t0, 1e-9))
        out[name] = {"rate": round(max(rates), 1), "unit": unit}
    return out


__all__ = ["WORKLOADS", "BenchData", "metric_throughput", "prepare", "repeated"]


# ---------------------------------------------------------------- tsolve bench


def bench_cases(size: Size) -> list[Measurement]:
    """TEMPO metric throughput (workloads in :mod:`tsolve.families.tempo.bench`)."""
    from tsolve.families.tempo.bench import KS, WORKLOADS, prepare, repeated

    data = prepare(size(1000, 20000))
    params = {"k": list(KS), "docs": len(data.docs)}
    reps = size.reps(3, 5)
    out = []
    for name, (unit, _fn) in WORKLOADS.items():
        work = len(data.queries)
        run = repeated(name, data)
        out.append(rate_measure(f"tempo.{name}", "tempo", name, unit, work, reps, run, params))
    return out
