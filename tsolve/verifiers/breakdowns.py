"""Report rows a family may declare as its ``report_breakdowns`` part, for
answers that are sets: one row per answer-set size M, the breakdown the
Time Puzzles paper reports (accuracy falls as M grows), which any family
whose records carry ``solution_count`` or a list of ``answers`` can reuse."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError


def by_answer_set_size(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per answer-set size M (``solution_count``, else the number
    of ``answers``); none when the record has neither."""
    m = record.get("solution_count")
    if m is None and isinstance(record.get("answers"), list):
        m = len(record["answers"])
    if m is None:
        return []
    if isinstance(m, float) and m.is_integer():
        m = int(m)
    if isinstance(m, bool) or not isinstance(m, int) or m < 0:
        raise TsolveError(f"solution_count: expected a count, got {type(m).__name__} {m!r:.40}")
    return [{"M": m}]
