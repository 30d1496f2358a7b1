"""What the adversarial and shortcut suites may see of a SPAN record
(:mod:`tsolve.stress.adversarial`): its format is its stratum (a blind
guesser sees whether it asks yes/no or for a date), and a hedger lists Yes
and No, or every day 1..30 of the gold's month written as the gold is."""

from __future__ import annotations

import re

from tsolve.contract.family import Record

_DAY_FIRST = re.compile(r"^(day\s+)?(\d{1,2})\b")
_MDY = re.compile(r"^([A-Z][a-z]+) (\d{1,2}), (-?\d+)$")


def span_candidates(record: Record) -> tuple[str, ...]:
    """Yes and No; for a content item every day 1..30 of the gold's month,
    written as the gold is."""
    if record.get("format") == "polar":
        return ("Yes", "No")
    text = str(record.get("answer", ""))
    m = _MDY.match(text)
    if m:
        return tuple(f"{m[1]} {d}, {m[3]}" for d in range(1, 31))
    m2 = _DAY_FIRST.match(text)
    if m2:
        rest = text[m2.end() :]
        return tuple(f"{m2[1] or ''}{d}{rest}" for d in range(1, 31))
    return (text,)


def span_item(record: Record, gold: str) -> tuple[str, tuple[str, ...]]:
    """The family's ``adversarial_item`` part: (format, candidates)."""
    return str(record.get("format")), span_candidates(record)
