"""How the cross-family adapters slice a time puzzle: the knobs that set its
difficulty (reasoning-gym's ``metadata.difficulty``) and the rows of
``tsolve report`` it counts in (the paper's breakdown by M)."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError


def difficulty_knobs(record: dict[str, Any]) -> dict[str, Any]:
    """``solutions`` (M), ``facts``, the measured ``level`` and ``score``
    (:mod:`tsolve.families.time_puzzles.difficulty`) and ``style``."""
    measured = record.get("difficulty") or {}
    return {
        "solutions": record.get("solution_count", len(record.get("answers") or [])),
        "facts": len(record.get("facts") or []),
        "level": measured.get("label"),
        "score": measured.get("score"),
        "style": record.get("style"),
    }


def report_breakdowns(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per answer-set size M (``solution_count``, else the number
    of ``answers``): the Time Puzzles paper's breakdown."""
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
