"""Which record fields are gold: what goes where the gold goes, never beside the prompt.

A record carries its prompt, fields that restate the prompt as data (a SPAN
record's ``params``, a logistics record's story), and its gold: the answer
and every field that holds or is derived from it. Anything an adapter puts
beside the prompt (reasoning-gym metadata, trainer datasets) is what a model
or a trainer can see, so it must hold no gold field: :func:`visible` is that
view, and :func:`gold_part` is the rest, which goes where the gold goes and
to the scorer (:func:`whole` puts the two back together).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

GOLD_FIELDS = frozenset({
    "answer", "answers", "gold", "solution", "schedule", "solutions", "without",
    "contradiction", "solution_count", "readings", "readings_ruled_out", "difficulty",
    "solver", "depth", "graph", "gold_detail",
})  # fmt: skip
"""Record fields that hold (or are derived from) the gold answer.
``difficulty``, ``depth`` and ``graph`` are measured from the solution, so
they leak it too; a SPAN record's ``gold_detail`` (its candidate's kind and
Gregorian date, the festival's year) restates its gold."""

HIDDEN_PARAMS = {"reference_date": "gregorian"}
"""Inside ``params``, parts that are a step of the reasoning rather than the
prompt: a SPAN reference date's Gregorian equivalent (converting it is the task)."""


def visible(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` without its gold: what a model, a trainer or a probe may
    read. A SPAN record's reference date keeps only what the prompt states
    (the date in its own calendar), not its Gregorian equivalent."""
    out = {k: v for k, v in record.items() if k not in GOLD_FIELDS}
    params = out.get("params")
    if isinstance(params, dict):
        trimmed = dict(params)
        for key, part in HIDDEN_PARAMS.items():
            inner = trimmed.get(key)
            if isinstance(inner, dict) and part in inner:
                trimmed[key] = {k: v for k, v in inner.items() if k != part}
        out["params"] = trimmed
    return out


def gold_part(record: Mapping[str, Any]) -> dict[str, Any]:
    """What :func:`visible` leaves out: the gold fields, and the hidden parts
    of ``params`` under ``params``."""
    out = {k: v for k, v in record.items() if k in GOLD_FIELDS}
    params = record.get("params")
    if isinstance(params, dict):
        hidden = {key: {part: params[key][part]} for key, part in HIDDEN_PARAMS.items()
                  if isinstance(params.get(key), dict) and part in params[key]}  # fmt: skip
        if hidden:
            out["params"] = hidden
    return out


def whole(seen: Mapping[str, Any], gold: Mapping[str, Any]) -> dict[str, Any]:
    """The record again from :func:`visible` and :func:`gold_part` (fields in
    their original order is not promised; their values are)."""
    out = dict(seen)
    for k, v in gold.items():
        if k == "params" and isinstance(v, dict) and isinstance(out.get("params"), dict):
            params = dict(out["params"])
            for key, parts in v.items():
                base = params.get(key)
                params[key] = {**base, **parts} if isinstance(base, dict) else parts
            out["params"] = params
        elif k not in out:  # a field the record itself holds (set by hand) stands
            out[k] = v
    return out


def record_in(metadata: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The whole record an adapter's metadata carries: its ``record`` (what
    sits beside the prompt) with its ``gold`` (the gold fields) put back;
    ``record`` as it is when there is no ``gold`` (metadata written before
    the two were split, or by hand); None when there is no record."""
    if not isinstance(metadata, Mapping):
        return None
    record = metadata.get("record")
    if not isinstance(record, dict):
        return None
    gold = metadata.get("gold")
    return whole(record, gold) if isinstance(gold, Mapping) else record


def split_metadata(record: Mapping[str, Any]) -> dict[str, Any]:
    """``{"record": visible(record), "gold": gold_part(record)}``: how an
    adapter's metadata carries a record (:func:`record_in` reads it back)."""
    return {"record": visible(record), "gold": gold_part(record)}


__all__ = ["GOLD_FIELDS", "gold_part", "record_in", "split_metadata", "visible", "whole"]
