"""A time puzzle's gold as the honest styles render it
(:mod:`tsolve.stress.honest`): its set of ISO dates, or None."""

from __future__ import annotations

from tsolve.contract.family import Record
from tsolve.stress.honest import DATE_SET_STYLES, Gold, Style


def time_puzzle_gold(record: Record) -> Gold:
    """The family's ``honest_gold`` part: the record's ``answers``."""
    dates = tuple(str(d) for d in record.get("answers") or [])
    return Gold("time-puzzles", "MY ANSWER:", dates=dates, none=not dates,
                justification="checked against every constraint")  # fmt: skip


STYLES: dict[str, Style] = dict(DATE_SET_STYLES)
"""The family's ``honest_styles``: every way of writing a set of dates."""
