"""How the cross-family adapters slice a logistics question: the knobs that
set its difficulty (reasoning-gym's ``metadata.difficulty``) and the rows of
``tsolve report`` it counts in: UnSeenTimeQA's two-way table of difficulty
(hard split by execution, as the paper does) x question type."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError


def difficulty_knobs(record: dict[str, Any]) -> dict[str, Any]:
    """``difficulty`` (the benchmark's split), ``execution``,
    ``question_type`` and ``depth`` (events)."""
    return {
        "difficulty": record.get("data_split"),
        "execution": record.get("execution"),
        "question_type": record.get("question_type"),
        "depth": record.get("depth"),
    }


def paper_difficulty(split: Any, execution: Any) -> Any:
    """UnSeenTimeQA's difficulty level as its paper names it: its hard
    questions are two levels, ``hard_serial`` and ``hard_parallel``, which
    the records keep as ``data_split`` ``hard`` and an ``execution`` field."""
    if split == "hard" and execution in ("serial", "parallel"):
        return f"hard_{execution}"
    return split


def report_breakdowns(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's cell of difficulty (``data_split``, else ``difficulty``;
    :func:`paper_difficulty`) x ``question_type``, when it has both."""
    split = next(
        (record[k] for k in ("data_split", "difficulty") if record.get(k) not in (None, "")), None
    )
    kind = record.get("question_type")
    if split is None or kind in (None, ""):
        return []
    level = paper_difficulty(split, record.get("execution"))
    for what, value in (("difficulty", level), ("question_type", kind)):
        if not isinstance(value, str):
            raise TsolveError(f"{what}: expected text, got {type(value).__name__} {value!r:.40}")
    return [{"difficulty": level, "question_type": kind}]
