"""The adversarial suite meets every kind of relational puzzle.

A relational puzzle asks either for date tuples (a date per event) or for the
dates of one event, and says which in ``asked.mode``. The chance baseline is
computed per stratum (what a blind guesser can see), so the suite's items
must be told apart by that mode, and its records must hold both: record ``i``
of run ``seed`` asks in mode ``(seed + i) mod 2`` of the family's stress
choices (tuples, event).
"""

from __future__ import annotations

from typing import Any

import pytest

from tsolve.stress.adversarial import generate_records, make_item, run_family

FAMILY = "relational-puzzles"


@pytest.fixture(scope="module")
def runs() -> dict[int, list[dict[str, Any]]]:
    """Four records of runs 0 and 1 (generated once for the module)."""
    return {seed: generate_records(FAMILY, 4, seed) for seed in (0, 1)}


def test_the_stratum_is_what_the_record_asks_for(runs: dict[int, list[dict[str, Any]]]) -> None:
    tuples, event = runs[0][:2]
    assert (tuples["asked"]["mode"], event["asked"]["mode"]) == ("tuples", "event")
    older = {k: v for k, v in tuples.items() if k != "asked"}  # before records said so
    strata = [make_item(FAMILY, r).stratum for r in (tuples, event, older)]
    assert strata == ["tuples", "event", "tuples"]


def test_records_rotate_through_both_modes_by_seed(runs: dict[int, list[dict[str, Any]]]) -> None:
    modes = {seed: [r["asked"]["mode"] for r in recs] for seed, recs in runs.items()}
    assert modes == {0: ["tuples", "event"] * 2, 1: ["event", "tuples"] * 2}
    for recs in runs.values():
        assert [make_item(FAMILY, r).stratum for r in recs] == [r["asked"]["mode"] for r in recs]
    assert generate_records(FAMILY, 2, 1) == runs[1][:2]  # deterministic


def test_tuple_items_offer_tuple_candidates(runs: dict[int, list[dict[str, Any]]]) -> None:
    """A hedger listing candidates must list answers of the item's own shape:
    ``name = date`` lines for tuples, bare dates for one event."""
    for rec in runs[0]:
        item = make_item(FAMILY, rec)
        assert item.candidates
        if rec["asked"]["mode"] == "tuples" and rec["answers"]:
            assert all("=" in c for c in item.candidates)
        else:
            assert not any("=" in c for c in item.candidates)


def test_no_policy_beats_chance_on_both_strata(runs: dict[int, list[dict[str, Any]]]) -> None:
    result = run_family(FAMILY, runs[0] + runs[1])
    assert result.failures() == []
    assert len(result.no_answer) >= 20 and len(result.honest) >= 8
