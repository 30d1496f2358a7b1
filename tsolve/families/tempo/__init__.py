"""TEMPO's temporal retrieval metrics, computed from time scopes instead of an LLM judge.

The TEMPO paper (Tables 11-13, §4, Appendix C.1) scores a ranked list by
whether each document is *temporally relevant* to the query and which of the
query's *required periods* it covers, and asks GPT-4o both questions. Here a
query and a document carry time scopes (annotated intervals, or intervals the
rule-based :mod:`tagger <tsolve.families.tempo.tagger>` extracts from their text), and
both answers are exact interval overlaps. See ``docs/tempo.md``.

Stable interface (checks rely on these names):

* :func:`temporal_precision` ``(verdicts, k)``, :func:`temporal_relevance`
  ``(verdicts, k)``: verdicts a 0/1 list in rank order;
* :func:`temporal_coverage` ``(coverage, k)``: a per-rank list of 0/1 lists,
  one entry per required period;
* :func:`ndcg_full_coverage` ``(gains, coverage, k)``: NaN unless coverage is full.

The names above are imported on first use (PEP 562), so that registering
the family (:mod:`.family`) does not import its scorer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tsolve.compat.lazy import lazy_getattr
from tsolve.families.tempo.family import FAMILY

_EXPORTS: dict[str, tuple[str, str]] = {
    "TemporalIntent": ("tsolve.families.tempo.intent", "TemporalIntent"),
    "temporal_intent": ("tsolve.families.tempo.intent", "temporal_intent"),
    "OPEN_END": ("tsolve.families.tempo.intervals", "OPEN_END"),
    "OPEN_START": ("tsolve.families.tempo.intervals", "OPEN_START"),
    "Interval": ("tsolve.families.tempo.intervals", "Interval"),
    "overlaps": ("tsolve.families.tempo.intervals", "overlaps"),
    "parse_scope": ("tsolve.families.tempo.intervals", "parse_scope"),
    "mean_defined": ("tsolve.families.tempo.metrics", "mean_defined"),
    "ndcg": ("tsolve.families.tempo.metrics", "ndcg"),
    "ndcg_full_coverage": ("tsolve.families.tempo.metrics", "ndcg_full_coverage"),
    "temporal_coverage": ("tsolve.families.tempo.metrics", "temporal_coverage"),
    "temporal_precision": ("tsolve.families.tempo.metrics", "temporal_precision"),
    "temporal_relevance": ("tsolve.families.tempo.metrics", "temporal_relevance"),
    "TempoReport": ("tsolve.families.tempo.scoring", "TempoReport"),
    "parse_ks": ("tsolve.families.tempo.scoring", "parse_ks"),
    "score_files": ("tsolve.families.tempo.scoring", "score_files"),
    "score_query": ("tsolve.families.tempo.scoring", "score_query"),
    "score_run": ("tsolve.families.tempo.scoring", "score_run"),
    "Finding": ("tsolve.families.tempo.tagger", "Finding"),
    "scope_of": ("tsolve.families.tempo.tagger", "scope_of"),
    "tag": ("tsolve.families.tempo.tagger", "tag"),
}

if TYPE_CHECKING:
    from tsolve.families.tempo.intent import TemporalIntent, temporal_intent
    from tsolve.families.tempo.intervals import (
        OPEN_END,
        OPEN_START,
        Interval,
        overlaps,
        parse_scope,
    )
    from tsolve.families.tempo.metrics import (
        mean_defined,
        ndcg,
        ndcg_full_coverage,
        temporal_coverage,
        temporal_precision,
        temporal_relevance,
    )
    from tsolve.families.tempo.scoring import (
        TempoReport,
        parse_ks,
        score_files,
        score_query,
        score_run,
    )
    from tsolve.families.tempo.tagger import Finding, scope_of, tag


__getattr__ = lazy_getattr(__name__, _EXPORTS)


__all__ = [
    "FAMILY",
    "OPEN_END",
    "OPEN_START",
    "Finding",
    "Interval",
    "TempoReport",
    "TemporalIntent",
    "mean_defined",
    "ndcg",
    "ndcg_full_coverage",
    "overlaps",
    "parse_ks",
    "parse_scope",
    "scope_of",
    "score_files",
    "score_query",
    "score_run",
    "tag",
    "temporal_coverage",
    "temporal_intent",
    "temporal_precision",
    "temporal_relevance",
]
