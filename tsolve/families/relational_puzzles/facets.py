"""How the cross-family adapters slice a relational puzzle: the knobs that set its
difficulty (reasoning-gym's ``metadata.difficulty``) and the rows of
``tsolve report`` it counts in (a row per M, as for time puzzles)."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError


def difficulty_knobs(record: dict[str, Any]) -> dict[str, Any]:
    """``events``, ``facts``, ``solutions``, ``ask`` and ``style``."""
    return {
        "events": len(record.get("events") or []),
        "facts": len(record.get("facts") or []),
        "solutions": record.get("solution_count"),
        "ask": (record.get("asked") or {}).get("mode"),
        "style": record.get("style"),
    }


def report_breakdowns(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per answer-set size M (``solution_count``, else the number
    of ``answers``): as the time puzzles' report has."""
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
