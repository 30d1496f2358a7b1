"""What makes two time puzzles the same puzzle, for ``tsolve dataset overlap``:
the domain and the facts as a set, so either wording style and any fact order match."""

from __future__ import annotations

from typing import Any

from tsolve.generators.fingerprints import digest, fact_set


def time_puzzle_fingerprint(record: dict[str, Any]) -> str:
    """Domain and fact set (either wording style, any fact order)."""
    return digest({"domain": record.get("domain"), "facts": fact_set(record.get("facts"))})
