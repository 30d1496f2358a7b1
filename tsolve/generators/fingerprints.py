"""Content fingerprints: what ``tsolve dataset overlap`` compares.

Two records with the same fingerprint ask the same thing, whatever their ids.
Each family says what "the same thing" is (the ``fingerprint`` part of its
:class:`~tsolve.families.Family`); a family that says nothing gets
:func:`default_fingerprint`. A fingerprint is the SHA-256 of a canonical JSON
value (sorted keys, no spaces), so it is stable across processes and
platforms, and never Python's ``hash``.

* **Time puzzles**: the domain and the facts as a *set* (kind, level and
  parameters; not the sentence, which depends on the wording style, and not
  the order, which the generator shuffles). So the implicit and explicit
  wordings of one puzzle, and a copy with its facts reordered, match.
* **Relational puzzles**: the same, plus the events (their names and the
  variables the facts refer to) and what is asked.
* **SPAN**: the question itself: direction, reference date, offset, unit,
  sign, festival and format (polar or content), not the candidate of a polar
  item or the wording of the answer instruction.
* **Logistics**: the scenario and the question as read back from the item's
  English (:func:`tsolve.families.logistics.parse.item.parse_item`), so a generated
  record and the same item in the benchmark's own form (text only) match;
  an item the reader cannot parse falls back to its text fields.

Fingerprints take records as JSON. A field that is missing or of the wrong
type mostly takes part as it is (a damaged record matches only an identically
damaged one), with one exception: structured ``facts`` are what a puzzle's
fingerprint *is*, and every malformed list (``[null]``, ``[5]``, ``[{}]``, an
unknown kind) would otherwise reduce to the same few strings, so two unrelated
puzzles would match. :func:`checked_facts` reads each entry with the family's
own fact reader first, and a record it refuses raises a one-line
:class:`~tsolve.errors.TsolveError` naming the entry: ``dataset overlap``
counts it as a bad row, never as a fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from tsolve.errors import TsolveError

#: Fields that name or stamp a record rather than say what it asks.
NON_CONTENT = ("id", "pair", "generator", "family")


def digest(value: Any) -> str:
    """SHA-256 (hex) of ``value``'s canonical JSON."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def default_fingerprint(record: dict[str, Any]) -> str:
    """The record without the fields that name it (:data:`NON_CONTENT`): for
    families that declare no fingerprint of their own."""
    return digest({k: v for k, v in record.items() if k not in NON_CONTENT})


def fact_set(facts: Any) -> Any:
    """Facts as a sorted list of their canonical JSON, without the rendered
    sentence (style-dependent) and derived numbers."""
    if not isinstance(facts, list):
        return facts
    keep = []
    for f in facts:
        if isinstance(f, dict):
            f = {k: v for k, v in f.items() if k not in ("text", "information_gain")}
        keep.append(json.dumps(f, sort_keys=True, separators=(",", ":"), default=str))
    return sorted(keep)


def checked_facts(
    record: dict[str, Any], read_one: Callable[[Any, str], object], *, required: bool
) -> list[Any] | None:
    """``record["facts"]`` once every entry has passed ``read_one(entry,
    field)`` (the family's fact reader, raising :class:`TsolveError`), or None
    when the record has no facts and they are not ``required`` (a puzzle
    given only as text). A present ``facts`` that is not a non-empty list, or
    any entry the reader refuses, raises a one-line error naming the record
    and the entry (``facts[2]: ...``)."""
    facts = record.get("facts")
    if facts is None and not required:
        return None
    where = f"record {str(record.get('id'))[:80]!r}"
    if not isinstance(facts, list) or not facts:
        got = "none" if facts is None else repr(facts)[:60]
        raise TsolveError(f"{where}: facts: expected a non-empty list of facts, got {got}")
    for k, fact in enumerate(facts):
        try:
            read_one(fact, f"facts[{k}]")
        except TsolveError as exc:
            raise TsolveError(f"{where}: {exc}") from None
    return facts
