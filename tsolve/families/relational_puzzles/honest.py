"""A relational puzzle's gold as the honest styles render it
(:mod:`tsolve.stress.honest`): one event's dates, or a date per event."""

from __future__ import annotations

from tsolve.contract.family import Record
from tsolve.stress.honest import DATE_SET_STYLES, DATE_STYLES, Gold, Style, each, tuple_style, under

_WHY = "checked against every constraint"


def relational_gold(record: Record) -> Gold:
    """The family's ``honest_gold`` part: the record's ``answers``, as dates
    (one event asked) or as (event, date) rows."""
    answers = record.get("answers")
    if not answers:
        return Gold("relational-puzzles", "MY ANSWER:", none=True, justification=_WHY)
    from tsolve.families.relational_puzzles.solve import relational_from_record

    puzzle = relational_from_record(record)
    if puzzle.asked is not None:
        return Gold("relational-puzzles", "MY ANSWER:", dates=tuple(str(d) for d in answers),
                    justification=_WHY)  # fmt: skip
    events = [e.name for e in puzzle.events]
    rows = tuple(tuple(zip(events, (str(d) for d in row), strict=True)) for row in answers)
    return Gold("relational-puzzles", "MY ANSWER:", tuples=rows, justification=_WHY)


STYLES: dict[str, Style] = {
    **DATE_SET_STYLES,
    "pairs separated by commas": tuple_style("{e} = {d}", ", "),
    "'event on date'": tuple_style("{e} on {d}"),
    "'event: date'": tuple_style("{e}: {d}"),
    "one marker, one combination per line": lambda g: under(g, g.marker) if g.tuples else None,
    "written dates, pairs separated by commas": lambda g: (
        each(g, "{m} {a}", g.lines(DATE_STYLES["date as 'December 29, 1933'"], join=", "))
        if g.tuples
        else None
    ),
}
"""The family's ``honest_styles``: the date-set styles and the tuple ones."""
