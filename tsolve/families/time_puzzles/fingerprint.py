"""What makes two time puzzles the same puzzle, for ``tsolve dataset overlap``:
the domain and the facts as a set, so either wording style and any fact order match."""

from __future__ import annotations

import json
from typing import Any

from tsolve.generators.fingerprints import digest, fact_set

#: Fact parameters that word a fact rather than constrain the date (a
#: person's description beside their name and dates).
WORDING_PARAMS = ("description",)


def time_puzzle_fingerprint(record: dict[str, Any]) -> str:
    """Domain and fact set (either wording style, any fact order)."""
    return digest({"domain": record.get("domain"), "facts": fact_set(record.get("facts"))})


def time_puzzle_answer_fingerprint(record: dict[str, Any]) -> str:
    """The constraints that fix the answer: the domain and each fact's kind and
    parameters, as a set. A record without structured facts (a benchmark
    item, a puzzle someone wrote) is read back from its text
    (:func:`tsolve.families.time_puzzles.parse.read_puzzle`), which reads
    both wording styles, so the same puzzle in either style, in any order,
    matches; sentences the reader cannot read take part as they are."""
    facts = record.get("facts")
    unread: list[str] = []
    if not isinstance(facts, list):
        text = record.get("prompt") or record.get("question")
        if not isinstance(text, str):
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
