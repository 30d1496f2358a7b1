"""How the cross-family adapters slice a SPAN question: the knobs that set
its difficulty (reasoning-gym's ``metadata.difficulty``) and the rows of
``tsolve report`` it counts in: per reference year and per conversion
direction (the SPAN paper's Future-Date Degradation and Calendar Asymmetry
Bias), and the two-way table of ``type`` x ``format``."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError


def difficulty_knobs(record: dict[str, Any]) -> dict[str, Any]:
    """``direction``, ``format`` (polar / date), ``type``, ``unit`` and
    ``offset`` (not the kind of a polar candidate, nor whether the
    table-free estimator gets the item right: beside the prompt, either
    tells the label)."""
    params = record.get("params") or {}
    return {
        "direction": record.get("direction"),
        "format": record.get("format"),
        "type": record.get("type"),
        "unit": params.get("unit"),
        "offset": params.get("offset"),
    }


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r:.40}"


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TsolveError(f"{what}: expected a dict, got {_shown(value)}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TsolveError(f"{what}: expected text, got {_shown(value)}")
    return value


def report_breakdowns(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A row for the record's reference year (``params.reference_date.gregorian``),
    one for its ``direction`` (``gregorian->chinese``) and one for its
    ``type`` x ``format`` cell, each when the record has it."""
    keys: list[dict[str, Any]] = []
    params = _mapping(record.get("params"), "record.params")
    ref = _mapping(params.get("reference_date"), "params.reference_date")
    gregorian = ref.get("gregorian")
    if gregorian is not None:
        text = _text(gregorian, "reference_date.gregorian")
        head = text[:4]
        if len(text) < 4 or not head.isascii() or not head.isdigit():
            raise TsolveError(f"reference_date.gregorian: not a date: {_shown(gregorian)}")
        keys.append({"reference_year": int(head)})
    direction = record.get("direction")
    if direction not in (None, ""):
        keys.append({"direction": _text(direction, "direction")})
    kind, form = record.get("type"), record.get("format")
    if kind not in (None, "") and form not in (None, ""):
        keys.append({"type": _text(kind, "type"), "format": _text(form, "format")})
    return keys
