"""The certifying peer (``families/time_puzzles/mask_peer.py``) does the job
it is timed on: its answer sets are what the calendar says, CP-SAT proves
them, a minimal puzzle's witnesses show every fact needed, and it refuses
masks that disagree with the solver. And the minimal search's anchor rule."""

from __future__ import annotations

import datetime as dt
import random

import numpy as np
import pytest

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import Level
from tsolve.families.time_puzzles.generate import PuzzleConfig, _Search
from tsolve.families.time_puzzles.mask_peer import CertifyingPeer

DOMAIN = DateDomain.from_dates(dt.date(1990, 1, 1), dt.date(2009, 12, 31))


def _fact_holds(key: tuple[str, tuple[int, ...]], day: dt.date) -> bool:
    """The fact from the calendar itself (``datetime``), not the peer's arrays."""
    name, values = key
    y, m, d, w = day.year, day.month, day.day, day.weekday()
    field = {
        "year": y, "decade": y // 10, "month": m, "season": (m % 12) // 3,
        "leap": int(y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)),
        "weekday": w, "nth_weekday": w * 8 + (d - 1) // 7, "day": d,
    }[name]  # fmt: skip
    return field in values


def _date(index: int) -> dt.date:
    return dt.date.fromordinal(DOMAIN.start + index)


@pytest.fixture(scope="module")
def peer() -> CertifyingPeer:
    return CertifyingPeer(DOMAIN)


@pytest.mark.parametrize("minimal", [False, True])
def test_certified_answers_and_witnesses_hold_by_the_calendar(
    peer: CertifyingPeer, minimal: bool
) -> None:
    rng = np.random.default_rng(3)
    for i in range(18):
        m = 1 + i % 6
        seed, keys, answers, witnesses = peer.certified(rng, m, minimal)
        every = [j for j in range(DOMAIN.size) if all(_fact_holds(k, _date(j)) for k in keys)]
        assert answers == every and len(answers) == m and seed in answers
        if not minimal:
            assert witnesses == []
            continue
        assert len(witnesses) == len(keys)
        for i_fact, w in enumerate(witnesses):
            assert w not in answers
            held = [_fact_holds(k, _date(w)) for k in keys]
            assert not held[i_fact] and sum(held) == len(keys) - 1


def test_masks_that_disagree_with_the_solver_are_refused() -> None:
    peer = CertifyingPeer(DOMAIN)
    rng = np.random.default_rng(0)
    seed, keys, answers, _ = peer.certified(rng, 2)
    assert peer.certify(seed, keys, 2, False)[2] == answers
    # A mask with one answer day wrongly removed: the peer's AND then leaves
    # one day, CP-SAT (on the fact's domain, built before) still two.
    mask, _ = peer.masks[keys[0]]
    bad = mask.copy()
    bad[answers[0]] = False
    peer.masks[keys[0]] = (bad, np.flatnonzero(bad))
    with pytest.raises(AssertionError, match="disagree"):
        peer.certify(answers[1], keys, 1, False)


def test_a_fact_that_is_not_needed_has_no_witness(peer: CertifyingPeer) -> None:
    rng = np.random.default_rng(5)
    _, keys, answers, _ = peer.certified(rng, 1)
    with pytest.raises(AssertionError, match="not needed"):
        peer.witnesses([*keys, keys[0]], answers)  # a fact twice: neither copy is needed


@pytest.mark.parametrize(
    ("minimal", "facts", "anchors", "events"),
    [(True, 5, None, False), (True, 3, None, True), (False, 5, None, True),
     (True, 5, ("event_relation",), True)],
)  # fmt: skip
def test_minimal_puzzles_of_four_facts_or_more_draw_no_event_anchor(
    minimal: bool, facts: int, anchors: tuple[str, ...] | None, events: bool
) -> None:
    cfg = PuzzleConfig(minimal=minimal, anchors=anchors)
    search = _Search(random.Random(0), cfg, 2, facts)
    assert ("event_relation" in search.plan.anchor_kinds) == events


@pytest.mark.parametrize(
    ("minimal", "facts", "categories", "events"),
    [(True, 4, None, False), (True, 6, None, False), (True, 3, None, True),
     (False, 5, None, True), (True, 5, ("event_relation", "month", "weekday"), True)],
)  # fmt: skip
def test_minimal_puzzles_of_four_facts_or_more_draw_no_event_relation(
    minimal: bool, facts: int, categories: tuple[str, ...] | None, events: bool
) -> None:
    """An event's relation ends in about 1 % of a minimal puzzle's facts and
    cost a fifth of its search, so a minimal puzzle of four or more facts
    draws none for its slots, unless ``categories`` asks for it."""
    cfg = PuzzleConfig(minimal=minimal, categories=categories)
    search = _Search(random.Random(0), cfg, 2, facts)
    for level in (Level.YEAR, Level.MONTH, Level.DAY, None):
        for last in (False, True):
            kinds = {k for k, _ in search.plan.draws(level, last)}
            assert ("event_relation" in kinds) == events
