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
    "solver", "depth", "graph", "gold_detail", "published_answers",
})  # fmt: skip
"""Record fields that hold (or are derived from) the gold answer.
``difficulty``, ``depth`` and ``graph`` are measured from the solution, so
they leak it too; a cross-calendar record's ``gold_detail`` (its
candidate's kind and Gregorian date, the festival's year) restates its gold;
an imported record's ``published_answers`` is another source's gold."""

HIDDEN_PARTS: dict[tuple[str, ...], frozenset[str]] = {
    ("params", "reference_date"): frozenset({"gregorian"}),
    ("generator",): frozenset({"seed_date", "seed_dates"}),
    ("source",): frozenset({"seed_date", "noise_date", "solution_count"}),
}
"""Inside a field that otherwise sits beside the prompt, the parts that are
gold or a step of the reasoning: the Gregorian equivalent of a
cross-calendar question's reference date (converting it is the task); a
generated time puzzle's ``generator.seed_date`` (the date the puzzle was
built around, one of its answers; a relational puzzle's ``seed_dates``, one
of its answer tuples); an imported Time Puzzles record's ``source`` dates and
published count (the release's seed date is one of its answers). Keyed by
the path to the dict that holds them."""


def _at(record: Mapping[str, Any], path: tuple[str, ...]) -> Mapping[str, Any] | None:
    node: Any = record
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else None


def _replaced(record: Mapping[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of ``record`` with the dict at ``path`` replaced by ``value``
    (copies along the path only; the record itself is never changed)."""
    out = dict(record)
    if len(path) == 1:
        out[path[0]] = value
    else:
        inner = out.get(path[0])
        out[path[0]] = _replaced(inner if isinstance(inner, Mapping) else {}, path[1:], value)
    return out


def visible(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` without its gold: what a model, a trainer or a probe may
    read. The hidden parts of :data:`HIDDEN_PARTS` are left out too (a SPAN
    reference date keeps only what the prompt states, the date in its own
    calendar)."""
    out: dict[str, Any] = {k: v for k, v in record.items() if k not in GOLD_FIELDS}
    for path, parts in HIDDEN_PARTS.items():
        node = _at(out, path)
        if node is not None and parts & set(node):
            out = _replaced(out, path, {k: v for k, v in node.items() if k not in parts})
    return out


def gold_part(record: Mapping[str, Any]) -> dict[str, Any]:
    """What :func:`visible` leaves out: the gold fields, and the hidden parts
    of :data:`HIDDEN_PARTS` at their paths."""
    out: dict[str, Any] = {k: v for k, v in record.items() if k in GOLD_FIELDS}
    for path, parts in HIDDEN_PARTS.items():
        node = _at(record, path)
        hidden = {k: node[k] for k in parts if k in node} if node is not None else {}
        if hidden:
            out = _merged(out, path, hidden)
    return out


def _merged(
    base: Mapping[str, Any], path: tuple[str, ...], parts: Mapping[str, Any]
) -> dict[str, Any]:
    """``base`` with ``parts`` merged into the dict at ``path`` (made if absent)."""
    node = _at(base, path)
    return _replaced(base, path, {**(node or {}), **parts})


def whole(seen: Mapping[str, Any], gold: Mapping[str, Any]) -> dict[str, Any]:
    """The record again from :func:`visible` and :func:`gold_part` (fields in
    their original order is not promised; their values are). A field the
    visible record holds itself (set by hand) stands."""
    out = dict(seen)
    for k, v in gold.items():
        if k not in out:
            out[k] = v
    for path in HIDDEN_PARTS:
        if path[0] in seen and _at(gold, path) is not None:
            node = _at(gold, path) or {}
            mine = _at(seen, path) or {}
            out = _replaced(out, path, {**node, **mine})
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


__all__ = [
    "GOLD_FIELDS",
    "HIDDEN_PARTS",
    "gold_part",
    "record_in",
    "split_metadata",
    "visible",
    "whole",
]
