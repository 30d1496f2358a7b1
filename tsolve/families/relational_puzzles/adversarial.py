"""What the adversarial suite may see of a relational puzzle
(:mod:`tsolve.stress.adversarial`): what it asks for is its stratum, as its
prompt shows, and a hedger lists dates of the gold's month or year."""

from __future__ import annotations

import datetime as _dt
import re

from tsolve.contract.family import Record
from tsolve.stress.adversarial import date_candidates

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def relational_stratum(record: Record) -> str:
    """What a relational record asks for, as its prompt shows: ``event`` (the
    dates of one event) or ``tuples`` (a date per event). Records say so in
    ``asked.mode``; those written before ``asked`` existed ask for tuples."""
    asked = record.get("asked")
    return "event" if isinstance(asked, dict) and asked.get("mode") == "event" else "tuples"


def relational_candidates(stratum: str, gold: str) -> tuple[str, ...]:
    """Tuples: the first event on every day of its gold month, the others at
    their gold; one-event mode: every date of the gold's year."""
    if stratum == "event" or "=" not in gold:
        return date_candidates(gold)
    first = gold.splitlines()[0]
    m = _ISO.search(first)
    if m is None:
        return (first,)
    y, mo = int(m[1]), int(m[2])
    out = []
    for d in range(1, 32):
        try:
            day = _dt.date(y, mo, d).isoformat()
        except ValueError:
            break
        out.append(first[: m.start()] + day + first[m.end() :])
    return tuple(out)


def relational_item(record: Record, gold: str) -> tuple[str, tuple[str, ...]]:
    """The family's ``adversarial_item`` part: (stratum, candidates)."""
    stratum = relational_stratum(record)
    return stratum, relational_candidates(stratum, gold)
