"""Scoring a run with TEMPO's metrics, relevance and coverage computed from intervals.

For each query and each document in its ranking (top ``max(k)``):

* temporal relevance (the verdict v_i) = the document's scope overlaps the
  query's scope;
* coverage c_{i,m} = the document's scope overlaps required period m;
* the NDCG gain = the qrels grade (0 when unjudged or negative) if qrels are
  given, else the verdict (binary temporal relevance). The ideal ranking is
  every judged document of the query (qrels) or every document in DOCS that is
  temporally relevant (no qrels).

A document listed in the run but absent from DOCS has no scope: it is not
relevant and covers nothing (and is counted in ``unknown_docs``). A query with
no scope (none annotated, nothing tagged) has no temporal intent in the
paper's sense: its TP/TR/TC/NDCG|FC are NaN, as the paper does (C.2.1). With
qrels, a query absent from the qrels gets NaN NDCG (nothing was judged).
Aggregates are :func:`tsolve.families.tempo.metrics.mean_defined`: mean over the
queries where the value is defined, with their count; NaN is ``null`` in JSON.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.tempo.inputs import Document, Query
from tsolve.families.tempo.intervals import Interval, overlaps
from tsolve.families.tempo.metrics import (
    NAN,
    mean_defined,
    ndcg,
    temporal_coverage,
    temporal_precision,
    temporal_relevance,
)
from tsolve.records import BadRow

METRICS = ("TP", "TR", "TC", "NDCG", "NDCG|FC")
DEFAULT_KS = (1, 5, 10)


def parse_ks(text: str) -> tuple[int, ...]:
    """``"1,5,10"`` -> (1, 5, 10), sorted and de-duplicated; each 1..10000."""
    out: set[int] = set()
    for part in text.split(","):
        p = part.strip()
        if not p.isascii() or not p.isdigit() or not 1 <= int(p) <= 10_000:
            raise TsolveError(f"k: expected comma-separated integers in 1..10000, got {text!r}")
        out.add(int(p))
    return tuple(sorted(out))


@dataclass
class QueryScore:
    id: str
    scope_source: str
    periods: list[str]
    retrieved: int
    relevant_in_collection: int | None  # binary gains only; counted up to max(k)
    values: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "scope_source": self.scope_source,
            "periods": self.periods,
            "retrieved": self.retrieved,
            **{k: _json_float(v) for k, v in self.values.items()},
        }


def _json_float(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


@dataclass
class TempoReport:
    ks: tuple[int, ...]
    queries: list[QueryScore] = field(default_factory=list)
    bad_rows: list[BadRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unknown_docs: int = 0
    graded: bool = False

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per metric@k: ``mean`` over the queries where it is defined, and ``n``."""
        out: dict[str, dict[str, Any]] = {}
        for name in METRICS:
            for k in self.ks:
                key = f"{name}@{k}"
                mean, n = mean_defined(q.values[key] for q in self.queries)
                out[key] = {"mean": _json_float(mean), "n": n}
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "k": list(self.ks),
            "queries": len(self.queries),
            "gains": "qrels" if self.graded else "temporal relevance (binary)",
            "summary": self.summary(),
            "per_query": [q.to_json() for q in self.queries],
            "unknown_docs": self.unknown_docs,
            "warnings": self.warnings,
            "bad_rows": [str(b) for b in self.bad_rows],
        }


def score_query(
    query: Query,
    ranking: Sequence[str],
    docs: Mapping[str, Document],
    ks: Sequence[int] = DEFAULT_KS,
    judged: Mapping[str, int] | None = None,
    graded: bool = False,
    index: RelevanceIndex | None = None,
) -> QueryScore:
    """Every metric at every k for one query (see the module docstring).

    ``graded``: gains come from ``judged`` (the query's qrels, possibly None =
    not judged) rather than from temporal relevance."""
    depth = max(ks)
    top = ranking[:depth]
    scopes = [docs[d].scope if d in docs else () for d in top]
    temporal = bool(query.scope)
    verdicts = [1 if overlaps(s, query.scope) else 0 for s in scopes]
    periods = [p for _, p in query.periods]
    coverage = [[1 if overlaps(s, p) else 0 for p in periods] for s in scopes]
    relevant_total: int | None = None
    if graded:
        gains: list[float] | None = (
            [float(max(0, judged.get(d, 0))) for d in top] if judged is not None else None
        )
        ideal: list[float] | None = (
            [float(max(0, g)) for g in judged.values()] if judged is not None else None
        )
    elif temporal:
        gains = [float(v) for v in verdicts]
        relevant_total = (index or RelevanceIndex(docs)).count(query.scope, depth)
        ideal = [1.0] * relevant_total
    else:
        gains = ideal = None
    values: dict[str, float] = {}
    for k in ks:
        tc = temporal_coverage(coverage, k, len(periods)) if temporal else NAN
        nd = ndcg(gains, k, ideal) if gains is not None else NAN
        values[f"TP@{k}"] = temporal_precision(verdicts, k) if temporal else NAN
        values[f"TR@{k}"] = temporal_relevance(verdicts, k) if temporal else NAN
        values[f"TC@{k}"] = tc
        values[f"NDCG@{k}"] = nd
        values[f"NDCG|FC@{k}"] = nd if tc == 1.0 else NAN
    order = [f"{m}@{k}" for m in METRICS for k in ks]
    return QueryScore(
        query.id,
        query.scope_source,
        [name for name, _ in query.periods],
        len(ranking),
        relevant_total,
        {key: values[key] for key in order},
    )


class RelevanceIndex:
    """How many documents of a collection overlap a scope, counted up to a
    bound (the binary ideal DCG@k needs at most k of them).

    The first :data:`SCAN` documents are tried in Python, which settles the
    common case (relevant documents are plentiful) at once; otherwise one
    vectorised pass over every document interval decides, instead of a Python
    loop over the whole collection for every query."""

    SCAN = 256

    def __init__(self, docs: Mapping[str, Document]) -> None:
        import numpy as np

        self._scopes = [d.scope for d in docs.values()]
        rows = [(x.start, x.end, i) for i, sc in enumerate(self._scopes) for x in sc]
        arr = np.array(rows, dtype=np.int64).reshape(-1, 3)
        self._starts, self._ends, self._owner = arr[:, 0], arr[:, 1], arr[:, 2]

    def count(self, scope: Sequence[Interval], enough: int) -> int:
        """min(number of documents whose scope overlaps ``scope``, ``enough``)."""
        import numpy as np

        found = 0
        for sc in self._scopes[: self.SCAN]:
            if overlaps(sc, scope):
                found += 1
                if found >= enough:
                    return enough
        if len(self._scopes) <= self.SCAN:
            return found
        hit = np.zeros(self._starts.shape, dtype=bool)
        for x in scope:
            hit |= (self._starts <= x.end) & (self._ends >= x.start)
        return min(int(np.unique(self._owner[hit]).size), enough)


def score_run(
    queries: Mapping[str, Query],
    docs: Mapping[str, Document],
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]] | None = None,
    ks: Sequence[int] = DEFAULT_KS,
) -> TempoReport:
    """Score every query of ``queries`` against its ranking in ``run``.

    A query with no ranking is scored with an empty one (and warned about); a
    ranked query id absent from ``queries`` is a bad row (it cannot be scored)."""
    if not ks:
        raise TsolveError("k: expected at least one cut-off")
    report = TempoReport(tuple(sorted(set(ks))), graded=qrels is not None)
    missing = [qid for qid in queries if qid not in run]
    if missing:
        report.warnings.append(
            f"{len(missing)} queries have no ranking and score as empty lists: "
            + ", ".join(missing[:5])
            + (" ..." if len(missing) > 5 else "")
        )
    for qid in run:
        if qid not in queries:
            report.bad_rows.append(BadRow(f"run:{qid}", f"query {qid!r} is not in QUERIES"))
    depth = max(report.ks)
    index = RelevanceIndex(docs) if qrels is None else None
    for qid, q in queries.items():
        ranking = run.get(qid, [])
        report.unknown_docs += sum(1 for d in ranking[:depth] if d not in docs)
        judged = qrels.get(qid) if qrels is not None else None
        graded = qrels is not None
        report.queries.append(score_query(q, ranking, docs, report.ks, judged, graded, index))
    if report.unknown_docs:
        report.warnings.append(
            f"{report.unknown_docs} ranked documents are not in DOCS: no scope, not relevant"
        )
    return report


def score_files(
    queries: str,
    run: str,
    docs: str,
    qrels: str | None = None,
    ks: Sequence[int] = DEFAULT_KS,
    reference: Any = None,
) -> TempoReport:
    """The ``tsolve tempo score`` library call: read the four inputs, score,
    and carry every reader's bad rows into the report."""
    from tsolve.families.tempo.inputs import read_documents, read_qrels, read_queries, read_run

    q = read_queries(queries, reference)
    d = read_documents(docs, reference)
    r = read_run(run)
    j = read_qrels(qrels) if qrels is not None else None
    report = score_run(q.items, d.items, r.items, j.items if j is not None else None, ks)
    bad_rows = [*q.bad_rows, *d.bad_rows, *r.bad_rows, *(j.bad_rows if j else [])]
    report.bad_rows[:0] = bad_rows
    return report


__all__ = ["DEFAULT_KS", "METRICS", "QueryScore", "RelevanceIndex", "TempoReport", "parse_ks",
           "score_files", "score_query", "score_run"]  # fmt: skip
