"""What makes two time puzzles the same puzzle, for ``tsolve dataset overlap``:
the domain and the facts as a set, so either wording style and any fact order match.
Facts that are not facts (``null``, a number, an unknown kind, bad params) make
the record a bad row (:func:`~tsolve.generators.fingerprints.checked_facts`)."""

from __future__ import annotations

import json
from typing import Any

from tsolve.encodings.facts import fact_from_json
from tsolve.errors import TsolveError
from tsolve.generators.fingerprints import checked_facts, digest, fact_set

#: Fact parameters that word a fact rather than constrain the date (a
#: person's description beside their name and dates).
WORDING_PARAMS = ("description",)


def _read_fact(value: Any, field: str) -> object:
    """One fact as the scorer reads it, or a one-line error naming ``field``."""
    try:
        return fact_from_json(value)
    except TsolveError as exc:
        raise TsolveError(f"{field}: {exc}") from None


def _text(record: dict[str, Any]) -> str | None:
    """The puzzle's text (``prompt``, else ``question``), if it has one."""
    text = record.get("prompt") or record.get("question")
    return text if isinstance(text, str) and text.strip() else None


def time_puzzle_fingerprint(record: dict[str, Any]) -> str:
    """Domain and fact set (either wording style, any fact order); a puzzle
    without structured facts is its text (whitespace aside), and one with
    neither has nothing to compare (an error, so not a match for every other)."""
    facts = checked_facts(record, _read_fact, required=False)
    if facts is None:
        text = _text(record)
        if text is None:
            raise TsolveError(
                f"record {str(record.get('id'))[:80]!r}: no facts and no prompt to compare"
            )
        return digest({"domain": record.get("domain"), "text": " ".join(text.split())})
    return digest({"domain": record.get("domain"), "facts": fact_set(facts)})


def time_puzzle_answer_fingerprint(record: dict[str, Any]) -> str:
    """The constraints that fix the answer: the domain and each fact's kind and
    parameters, as a set. A record without structured facts (a benchmark
    item, a puzzle someone wrote) is read back from its text
    (:func:`tsolve.families.time_puzzles.parse.read_puzzle`), which reads
    both wording styles, so the same puzzle in either style, in any order,
    matches; sentences the reader cannot read take part as they are."""
    facts = checked_facts(record, _read_fact, required=False)
    unread: list[str] = []
    if facts is None:
        text = _text(record)
        if text is None:
            return time_puzzle_fingerprint(record)
        from tsolve.families.time_puzzles.parse import read_puzzle

        try:
            reading = read_puzzle(text)
        except Exception:  # fingerprints raise nothing: an unreadable text is itself
            return time_puzzle_fingerprint(record)
        facts = [r.fact.to_json() for r in reading.facts]
        unread = sorted(" ".join(s.text.split()) for s in reading.unread)
    constraints = []
    for f in facts:
        if isinstance(f, dict):
            params = f.get("params")
            if isinstance(params, dict):
                params = {k: v for k, v in params.items() if k not in WORDING_PARAMS}
            f = {"kind": f.get("kind"), "params": params}
        constraints.append(json.dumps(f, sort_keys=True, separators=(",", ":"), default=str))
    return digest({"domain": record.get("domain"), "facts": sorted(constraints), "unread": unread})
