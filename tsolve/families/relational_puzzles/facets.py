"""How the cross-family adapters slice a relational puzzle: the knobs that set its
difficulty (reasoning-gym's ``metadata.difficulty``) and the rows of
``tsolve report`` it counts in (a row per M, as for time puzzles)."""

from __future__ import annotations

from typing import Any

from tsolve.verifiers.breakdowns import by_answer_set_size


def difficulty_knobs(record: dict[str, Any]) -> dict[str, Any]:
    """``events``, ``facts``, ``solutions``, ``ask`` and ``style``."""
    return {
        "events": len(record.get("events") or []),
        "facts": len(record.get("facts") or []),
        "solutions": record.get("solution_count"),
        "ask": (record.get("asked") or {}).get("mode"),
        "style": record.get("style"),
    }


#: One report row per answer-set size M, as every set-answer family has.
report_breakdowns = by_answer_set_size
