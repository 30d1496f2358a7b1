"""A time puzzle's compact gold: its answer dates and date order, no facts.

EM, F1 and Jaccard read only the stored answers and the parsed reply, so a
trainer's row need not carry the puzzle (:mod:`tsolve.rl`). ``alt_reading``
is a diagnostic (it needs the facts) and is not computed here."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.solve import stored_answers
from tsolve.records.validation import expect_field, expect_iso_dates
from tsolve.verifiers.answer_parsing import date_order, parse_answer
from tsolve.verifiers.metrics import answer_set_metrics

_ZERO = {"em": 0.0, "f1": 0.0, "jaccard": 0.0}


def time_puzzle_gold(record: dict[str, Any]) -> dict[str, Any]:
    """``{"answers": [ISO, ...]}`` plus ``date_order`` when the record declares one."""
    gold: dict[str, Any] = {"answers": stored_answers(record)}
    order = date_order(record)
    if order is not None:
        gold["date_order"] = order
    return gold


def score_time_puzzle_gold(gold: dict[str, Any], output: str) -> dict[str, float]:
    """The scorer's EM / F1 / Jaccard from :func:`time_puzzle_gold`'s fields."""
    answers = expect_field(gold, "answers", "ground truth")
    if not isinstance(answers, list):
        raise TsolveError("ground truth: 'answers' must be a list of ISO dates")
    want = expect_iso_dates(answers, "ground truth: answers")
    parsed = parse_answer(output, date_order(gold))
    if parsed.failed:
        return dict(_ZERO)
    return answer_set_metrics(want, parsed.dates + [f"invalid:{t}" for t in parsed.invalid])
