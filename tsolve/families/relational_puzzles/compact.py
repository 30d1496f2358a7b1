"""A relational puzzle's compact gold: event names, what is asked, the answers.

EM, F1 and Jaccard compare answer tuples (or the asked event's dates); a
reply is read with the event names alone, so a trainer's row need not carry
the facts (:mod:`tsolve.rl`). The per-fact diagnosis is not computed here."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.score import _ZERO, _gold, parse_tuple_answer
from tsolve.families.relational_puzzles.solve import relational_from_record
from tsolve.records.validation import expect_field, expect_iso_date, expect_iso_dates, expect_str
from tsolve.verifiers.answer_parsing import date_order, parse_answer
from tsolve.verifiers.metrics import answer_set_metrics


def relational_gold(record: dict[str, Any]) -> dict[str, Any]:
    """``{"events": [name, ...], "asked": bool, "answers": [...]}`` (answers:
    the asked event's ISO dates, or one list of dates per tuple), plus
    ``date_order`` when the record declares one."""
    puzzle = relational_from_record(record)
    keys = _gold(record, puzzle)
    gold: dict[str, Any] = {
        "events": [e.name for e in puzzle.events],
        "asked": puzzle.asked is not None,
        "answers": keys if puzzle.asked is not None else [k.split("|") for k in keys],
    }
    order = date_order(record)
    if order is not None:
        gold["date_order"] = order
    return gold


def score_relational_gold(gold: dict[str, Any], output: str) -> dict[str, float]:
    """The scorer's EM / F1 / Jaccard from :func:`relational_gold`'s fields."""
    names = expect_field(gold, "events", "ground truth")
    answers = expect_field(gold, "answers", "ground truth")
    asked = gold.get("asked", False)
    if not isinstance(names, list) or not names or not isinstance(answers, list):
        raise TsolveError("ground truth: 'events' and 'answers' must be lists")
    if not isinstance(asked, bool):
        raise TsolveError("ground truth: 'asked' must be true or false")
    events = [expect_str(n, "ground truth: events") for n in names]
    if asked:
        want = expect_iso_dates(answers, "ground truth: answers")
        parsed = parse_answer(output, date_order(gold))
        if parsed.failed:
            return dict(_ZERO)
        keys, invalid = parsed.dates, parsed.invalid
    else:
        want = []
        for row in answers:
            if not isinstance(row, list) or len(row) != len(events):
                raise TsolveError(f"ground truth: each answer must list {len(events)} dates")
            want.append("|".join(expect_iso_date(d, "ground truth: answers") for d in row))
        parsed_t = parse_tuple_answer(output, events)
        if parsed_t.failed:
            return dict(_ZERO)
        keys, invalid = ["|".join(t) for t in parsed_t.tuples], parsed_t.invalid
    return answer_set_metrics(want, keys + [f"invalid:{t}" for t in invalid])
