"""Which fact kinds may share a puzzle: a kind never appears twice, and never
beside a kind that would restate it (a date that is "a Tuesday" is trivially
"a Tuesday or a Saturday"). As a rule over names (:func:`compatible`), as a
boolean table of every pair of kinds (:data:`CLASH`) and as bits, so that the
search tests thousands of candidates against a set's kinds in one AND."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tsolve.encodings.facts import FACT_TYPES, Level
from tsolve.encodings.facts.base import kind_ranks

# Pairs of categories where one would restate the other; a puzzle never holds both.
REDUNDANT = {
    frozenset(p)
    for p in [
        ("weekday", "weekdays"), ("weekday", "weekday_in_month"),
        ("weekdays", "weekday_in_month"), ("month", "season"), ("year", "decade"),
        ("year", "leap_year"), ("year", "chinese_zodiac"), ("day_of_month", "day_of_month_range"),
        ("day_of_month", "weekday_in_month"), ("year", "year_range"),
    ]
}  # fmt: skip

#: Each kind in a pair of :data:`REDUNDANT` -> every kind of its pairs (itself included).
CLASHES: dict[str, frozenset[str]] = {
    k: frozenset(x for pair in REDUNDANT if k in pair for x in pair)
    for pair in REDUNDANT
    for k in pair
}


def compatible(kind: str, used: set[str] | frozenset[str]) -> bool:
    """Not used yet, and not a restatement of a used category."""
    return kind not in used and used.isdisjoint(CLASHES.get(kind, ()))


#: Every fact kind's row in :data:`CLASH`, in the registry's sorted order.
KIND_INDEX: dict[str, int] = kind_ranks()
#: CLASH[i, j]: may kinds i and j not share a puzzle (the same kind, or one
#: restates the other)? The chooser's last two slots test every pair of
#: candidates at once with it.
CLASH = np.array(
    [[not compatible(a, {b}) for b in sorted(FACT_TYPES)] for a in sorted(FACT_TYPES)], dtype=bool
)
#: Row i of :data:`CLASH` as bits (kind j: bit j), so a candidate's clash with
#: a set of used kinds is one AND (:func:`kind_bits`).
CLASH_BITS = (CLASH.astype(np.int64) << np.arange(len(KIND_INDEX), dtype=np.int64)).sum(axis=1)
#: Each kind's own bit (kind j: bit j), to add a candidate's kind to a set's.
KIND_BITS = np.int64(1) << np.arange(len(KIND_INDEX), dtype=np.int64)


@lru_cache(maxsize=4096)
def kind_bits(kinds: frozenset[str]) -> int:
    """The bits of ``kinds`` (kind j: bit j). A table over the few sets of
    used kinds a search meets; fixed once the fact kinds are imported."""
    return sum(1 << KIND_INDEX[k] for k in kinds)


@lru_cache(maxsize=4096)
def open_categories(
    categories: tuple[str, ...], used: frozenset[str], level: Level | None
) -> tuple[str, ...]:
    """The categories (in ``categories``' order) compatible with ``used``, at
    ``level`` when one is given, or else at any level. A repair step asks this
    ~40 times a puzzle with a
    handful of distinct arguments, so it is a table (keyed by plain strings and
    a frozen set; fixed once the fact kinds are imported, so never stale)."""
    return tuple(
        k for k in categories
        if compatible(k, used) and (level is None or level in FACT_TYPES[k].levels())
    )  # fmt: skip
