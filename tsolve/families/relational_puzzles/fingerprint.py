"""What makes two relational puzzles the same puzzle, for ``tsolve dataset
overlap``: the domain, the events, what is asked and the facts as a set."""

from __future__ import annotations

from typing import Any

from tsolve.generators.fingerprints import digest, fact_set


def relational_fingerprint(record: dict[str, Any]) -> str:
    """Domain, events, what is asked and the fact set."""
    return digest(
        {
            "domain": record.get("domain"),
            "events": record.get("events"),
            "asked": record.get("asked"),
            "facts": fact_set(record.get("facts")),
        }
    )
