"""What makes two relational puzzles the same puzzle, for ``tsolve dataset
overlap``: the domain, the events, what is asked and the facts as a set.
A relational puzzle is its structured facts, so facts that the solver would
refuse (an unknown kind, an event the record does not declare, ``null``) make
the record a bad row rather than a fingerprint every such record shares."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.encoding import events_from_json, puzzle_fact_from_json
from tsolve.generators.fingerprints import checked_facts, digest, fact_set


def relational_fingerprint(record: dict[str, Any]) -> str:
    """Domain, events, what is asked and the fact set."""
    try:
        events = {e.var: e for e in events_from_json(record.get("events"))}
    except TsolveError as exc:
        raise TsolveError(f"record {str(record.get('id'))[:80]!r}: {exc}") from None
    checked_facts(
        record, lambda fact, field: puzzle_fact_from_json(fact, events, field), required=True
    )
    return digest(
        {
            "domain": record.get("domain"),
            "events": record.get("events"),
            "asked": record.get("asked"),
            "facts": fact_set(record.get("facts")),
        }
    )
