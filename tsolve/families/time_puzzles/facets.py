"""How the cross-family adapters slice a time puzzle: the knobs that set its
difficulty (reasoning-gym's ``metadata.difficulty``) and the rows of
``tsolve report`` it counts in (the paper's breakdown by M)."""

from __future__ import annotations

from typing import Any

from tsolve.verifiers.breakdowns import by_answer_set_size


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


#: One report row per answer-set size M, as every set-answer family has.
report_breakdowns = by_answer_set_size
