"""Batch diagnosis in ``verify`` gives what scoring one item at a time gives,
and what the facts themselves say about each wrong date."""

from __future__ import annotations

import datetime as dt
import gc
from typing import Any
from unittest import mock

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.calendars.domain import DEFAULT_DOMAIN, iso
from tsolve.encodings.facts import DayView, Fact, fact_from_json
from tsolve.engines.gc_tuning import fewer_gc_pauses
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.score import score_puzzle
from tsolve.families.time_puzzles.solve import Puzzle, answers_iso, solve_puzzle
from tsolve.testing.strategies import days, fact_sets
from tsolve.verifiers import verify_batch as batch
from tsolve.verifiers.verify_batch import verify


def _record(k: int, facts: list[Fact]) -> dict[str, Any]:
    gold = answers_iso(solve_puzzle(Puzzle(f"r{k}", tuple(facts), DEFAULT_DOMAIN), "enumerator"))
    return {
        "id": f"r{k}",
        "family": "time-puzzles",
        "facts": [f.to_json() for f in facts],
        "answers": gold,
        "domain": {"start": iso(DEFAULT_DOMAIN.start), "end": iso(DEFAULT_DOMAIN.end)},
    }


def _truly_violated(facts: list[Fact], day: int) -> set[int]:
    """Straight from each fact's own semantics on a one-day view, not the IR."""
    view = DayView(np.asarray([day], dtype=np.int64))
    return {i for i, f in enumerate(facts) if not bool(f.holds(view)[0])}


cases = st.lists(
    st.tuples(
        fact_sets(max_size=4, max_days=2),
        st.lists(days(), max_size=3),
        st.booleans(),  # also predict the gold answers?
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=examples(40, ci=15), deadline=None)
@given(cases, st.integers(1, 3))
def test_batch_diagnosis_matches_single_items_and_the_facts(
    cases: list[tuple[list[Fact], list[int], bool]], flush_every: int
) -> None:
    recs, preds = [], []
    for k, (facts, guesses, with_gold) in enumerate(cases):
        rec = _record(k, facts)
        dates = sorted({iso(d) for d in guesses} | (set(rec["answers"]) if with_gold else set()))
        recs.append(rec)
        preds.append({"id": rec["id"], "output": "MY ANSWER: " + (", ".join(dates) or "None")})
    # small batches, so that several flushes (and a partial last one) are exercised
    with mock.patch.object(batch, "_DIAGNOSIS_BATCH", flush_every):
        report = verify(recs, preds, keep_items=True)
    assert not report.errors and len(report.items) == len(recs)
    for (facts, _g, _w), rec, pred, item in zip(cases, recs, preds, report.items, strict=True):
        single = score_puzzle(rec, pred["output"])
        assert item.diagnosis == single.diagnosis and item.metrics == single.metrics
        for date, entry in item.diagnosis.get("wrong", {}).items():
            listed = {v["index"] for v in entry["violates"]}
            assert listed == _truly_violated(facts, dt.date.fromisoformat(date).toordinal())
            assert date not in rec["answers"]
            # a non-gold date inside the domain breaks at least one fact
            assert listed or "note" in entry


def test_a_record_with_bad_facts_is_reported_and_the_batch_goes_on() -> None:
    good = _record(0, [fact_from_json({"kind": "month", "params": {"month": 3}}),
                       fact_from_json({"kind": "year", "params": {"year": 1999}})])  # fmt: skip
    bad = {**good, "id": "bad", "facts": [{"kind": "month", "params": {"month": 13}}]}
    preds = [
        {"id": "bad", "output": "MY ANSWER: 1999-04-01"},
        {"id": good["id"], "output": "MY ANSWER: 1999-04-01"},
    ]
    report = verify([bad, good], preds, keep_items=True)
    assert [it.id for it in report.items] == [good["id"]]
    assert len(report.errors) == 1 and "'bad'" in report.errors[0]
    violated = report.items[0].diagnosis["wrong"]["1999-04-01"]["violates"]
    assert [v["kind"] for v in violated] == ["month"]


def test_fact_reading_is_shared_but_never_keeps_a_bad_fact() -> None:
    a = fact_from_json({"kind": "weekday", "params": {"weekday": "Friday"}})
    b = fact_from_json({"kind": "weekday", "params": {"weekday": "Friday"}, "text": "ignored"})
    assert a is b
    for _ in range(2):  # the second read must fail just as the first did
        with pytest.raises(TsolveError, match="unknown weekday"):
            fact_from_json({"kind": "weekday", "params": {"weekday": "Caturday"}})


def test_gc_thresholds_come_back_even_after_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), fewer_gc_pauses(123_456):
        assert gc.get_threshold()[0] == 123_456
        raise RuntimeError
    assert gc.get_threshold() == before


def test_verify_leaves_the_collector_alone_unless_the_caller_asks() -> None:
    fact = fact_from_json({"kind": "weekday", "params": {"weekday": "Friday"}})
    recs = [_record(0, [fact])]
    preds = [{"id": "r0", "output": "MY ANSWER: 1999-04-01"}]
    with mock.patch.object(gc, "freeze") as freeze, mock.patch.object(gc, "set_threshold") as st_:
        verify(recs, preds)
        assert not freeze.called and not st_.called
        with fewer_gc_pauses() as batch_gc:
            verify(recs, preds, batch_gc=batch_gc)
        assert freeze.called and st_.called
