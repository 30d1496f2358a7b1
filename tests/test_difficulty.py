"""Measured difficulty: the features agree with the solver,
the label follows the documented thresholds, and --difficulty filters."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import fact_from_json
from tsolve.families.time_puzzles.difficulty import (
    difficulty,
    fact_masks,
    facts_to_fix,
    label_of,
)
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
from tsolve.families.time_puzzles.solve import build_problem, puzzle_from_record
from tsolve.solver import get_backend


def test_hand_made_features() -> None:
    """June 13 in 2000..2001: "June" and "the 13th" fix it; the weekday adds
    nothing (both June 13ths, a Tuesday and a Wednesday, are kept by "Tuesday
    or Wednesday"). Sizes by hand: June 13 x 2 years."""
    dom = DateDomain.from_dates("2000-01-01", "2001-12-31")
    facts = [fact_from_json(f) for f in (
        {"kind": "month", "params": {"month": 6}},
        {"kind": "day_of_month", "params": {"day": 13}},
        {"kind": "weekdays", "params": {"weekdays": ["Tuesday", "Wednesday"]}},
    )]  # fmt: skip
    d = difficulty(facts, fact_masks(facts, dom), dom, "implicit")
    assert d["facts"] == 3 and d["implicit"] == 0 and d["calendars"] == ["gregorian"]
    assert d["sizes_by_information_gain"][-1] == 2
    assert d["facts_to_fix"] == 2 and d["score"] == 2 and d["label"] == "easy"


@pytest.mark.parametrize("i", range(6))
def test_facts_to_fix_agrees_with_the_solver(i: int) -> None:
    rec = generate_puzzle(31, i, PuzzleConfig(solutions=(0, 1, 2, 3, 4, 5)))
    d = rec["difficulty"]
    puzzle = puzzle_from_record(rec)
    be = get_backend("z3")
    gold = list(rec["answers"])
    n = len(puzzle.facts)

    def exactly_gold(combo: tuple[int, ...]) -> bool:
        p = build_problem([puzzle.facts[j] for j in combo], puzzle.domain)
        res = be.solve(p, limit=len(gold) + 1)
        return res.count == len(gold) and [str(x) for x in _iso(res.solutions)] == gold

    k = d["facts_to_fix"]
    assert any(exactly_gold(c) for c in itertools.combinations(range(n), k))
    assert not any(exactly_gold(c) for c in itertools.combinations(range(n), k - 1) if c)
    assert d["sizes_by_information_gain"][-1] == len(gold)
    assert d["label"] == label_of(d["score"])


def _iso(days: tuple[int, ...]) -> list[str]:
    import datetime as dt

    return [dt.date.fromordinal(x).isoformat() for x in days]


@pytest.mark.parametrize("label", ["easy", "medium", "hard"])
def test_difficulty_filter(label: str) -> None:
    for i in range(3):
        rec = generate_puzzle(32, i, PuzzleConfig(solutions=(1, 2), difficulty=label))
        assert rec["difficulty"]["label"] == label


def test_thresholds() -> None:
    assert [label_of(s) for s in (2, 6, 7, 8, 12)] == ["easy", "easy", "medium", "hard", "hard"]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sets(st.integers(0, 199), max_size=200), min_size=1, max_size=7))
def test_facts_to_fix_is_the_smallest_subset_with_the_same_answers(
    day_sets: list[set[int]],
) -> None:
    """Against a reference on Python sets: the fewest sets whose intersection
    is the intersection of all of them."""
    ints = [sum(1 << d for d in days) for days in day_sets]
    whole = set.intersection(*day_sets)
    best = next(
        k
        for k in range(1, len(day_sets) + 1)
        for combo in itertools.combinations(day_sets, k)
        if set.intersection(*combo) == whole
    )
    assert facts_to_fix(ints) == best


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 6), st.integers(1, 300), st.randoms(use_true_random=False))
def test_sizes_without_counts_each_fact_s_others(n: int, days: int, rnd: Any) -> None:
    # Against plain boolean masks: the days every fact but i allows.
    import numpy as np

    from tsolve.encodings.facts.packed import pack, to_int
    from tsolve.families.time_puzzles.difficulty import sizes_without

    domain = DateDomain(700_000, 700_000 + days - 1)
    plain = [np.array([rnd.random() < 0.7 for _ in range(days)]) for _ in range(n)]
    want = [
        int(np.logical_and.reduce([m for j, m in enumerate(plain) if j != i]).sum())
        if n > 1 else days
        for i in range(n)
    ]  # fmt: skip
    packed = [pack(m) for m in plain]
    assert sizes_without(packed, domain) == want
    assert sizes_without([to_int(w) for w in packed], domain) == want  # the integer form
