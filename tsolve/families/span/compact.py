"""A SPAN item's compact gold: its format, label or target date, date order.

Accuracy reads only the polar label or the gold date in the target calendar,
so a trainer's row need not carry the question or its parameters
(:mod:`tsolve.rl`). ``alt_reading`` is a diagnostic (it re-reads the
question) and is not computed here."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.span.score import score_span

_GOLD_KEYS = ("calendar", "year", "month", "day", "leap")


def span_gold(record: dict[str, Any]) -> dict[str, Any]:
    """``{"format": "polar", "answer": "Yes"}`` or ``{"format": "content",
    "gold": {calendar, year, month, day, leap}}``, plus ``date_order``."""
    from tsolve.families.span.encoding import check_span_record

    check_span_record(record)
    gold: dict[str, Any] = {"format": record["format"]}
    if record["format"] == "polar":
        gold["answer"] = record["answer"]
    else:
        gold["gold"] = {k: record["gold"].get(k) for k in _GOLD_KEYS}
    if record.get("date_order") is not None:
        gold["date_order"] = record["date_order"]
    return gold


def score_span_gold(gold: dict[str, Any], output: str) -> dict[str, float]:
    """The scorer's accuracy from :func:`span_gold`'s fields (the scorer
    itself, on a record that holds only them)."""
    extra = set(gold) - {"format", "answer", "gold", "date_order"}
    if extra:
        raise TsolveError(f"ground truth: unknown field {sorted(extra)[0]!r} for span")
    record = {"id": "", "family": "span", **gold}
    metrics = score_span(record, output, diagnose=False).metrics
    return {"accuracy": metrics["accuracy"]}
