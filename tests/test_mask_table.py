"""The search's packed mask tables, the indexed knowledge base and
the cached-mask bench peer decide exactly what the slower paths decide.

Each check compares against a path that shares no code with the new one: a
window of a :class:`MaskTable` against ``holds`` on the window's days; the
gold a search would read off the masks against CP-SAT's enumeration and the
reference enumerator; an :class:`IntervalIndex` and the event index against
plain scans."""

from __future__ import annotations

import datetime as dt
import random

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.calendars import knowledge
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import FACT_TYPES, DayView, answer_set_size
from tsolve.encodings.facts.knowledge_facts import (
    RELATION_LEVELS,
    _facts_related,
    _relation_holds,
)
from tsolve.encodings.facts.packed import (
    MaskTable,
    all_of,
    days_of,
    mask_table,
    size,
    unpack,
    window_days,
    word_range,
)
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
from tsolve.families.time_puzzles.mask_peer import MaskPeer
from tsolve.families.time_puzzles.solve import (
    bound_problems,
    build_problem,
    certify_gold,
    certify_known_gold,
    puzzle_from_record,
)
from tsolve.solver import get_backend
from tsolve.testing.strategies import domains, fact_sets, facts


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_a_window_of_the_table_is_the_facts_truth_on_its_days(data: st.DataObject) -> None:
    """Any run of days of the domain: the window covering it, unpacked, is
    ``holds`` on the window's days, and the table's count is the fact's size."""
    domain = data.draw(domains(max_years=40))
    fact = data.draw(facts(domain))
    a = data.draw(st.integers(domain.start, domain.end))
    b = data.draw(st.integers(a, min(domain.end, a + 3000)))
    table = MaskTable(domain)
    lo, hi = word_range(np.array([a, b]), domain)
    first = domain.start + 64 * lo
    days = np.arange(first, min(domain.end, domain.start + 64 * hi - 1) + 1, dtype=np.int64)
    assert np.array_equal(window_days(lo, hi, domain).days, days)
    truth = np.asarray(fact.holds(DayView(days)))
    # First from the window's days alone, then from the whole mask, then kept.
    for _ in range(3):
        window = table.window(fact, lo, hi, window_days(lo, hi, domain))
        assert window.size == hi - lo
        assert np.array_equal(unpack(window, days.size), truth)
        assert not np.any(unpack(window, 64 * (hi - lo))[days.size :])  # padding is zero
    assert len(table.entries) == 1 and not table.asked
    assert table.entry(fact)[1] == answer_set_size(fact, domain)


@settings(max_examples=examples(25), deadline=None)
@given(st.data())
def test_gold_from_masks_equals_cpsat_and_the_enumerator(data: st.DataObject) -> None:
    """The answers a search reads off its packed masks (the AND of the facts'
    masks over the domain) are CP-SAT's enumeration and the reference
    enumerator's, on random fact sets and domains, empty sets included."""
    domain = data.draw(domains(max_years=30))
    fs = data.draw(fact_sets(domain, min_size=1, max_size=4, max_days=2))
    table = MaskTable(domain)
    both = all_of(table.words(f) for f in fs)
    from_masks = domain.days[unpack(both, domain.size)].tolist()
    assert days_of(both, domain).tolist() == from_masks
    problem = build_problem(fs, domain)
    for backend in ("cpsat", "enumerator"):
        assert list(get_backend(backend).solve(problem).solutions) == from_masks


@settings(max_examples=examples(6), deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([1, 2, 3, 4, 5, 6]), st.booleans())
def test_generated_gold_equals_the_masks_and_the_enumerator(
    seed: int, m: int, minimal: bool
) -> None:
    """A generated record's gold (CP-SAT) has exactly M dates and equals both
    the AND of its facts' table masks and the reference enumerator's answers;
    a minimal record loses an answer-set size with any fact dropped."""
    cfg = PuzzleConfig(solutions=m, minimal=minimal)
    record = generate_puzzle(seed, 0, cfg)
    puzzle = puzzle_from_record(record)
    table = mask_table(puzzle.domain)
    words = [table.words(f) for f in puzzle.facts]
    days = puzzle.domain.days[unpack(all_of(words), puzzle.domain.size)]
    gold = [dt.date.fromordinal(int(d)).isoformat() for d in days]
    assert record["answers"] == gold and len(gold) == m
    enum = get_backend("enumerator").solve(build_problem(puzzle.facts, puzzle.domain))
    assert [dt.date.fromordinal(d).isoformat() for d in enum.solutions] == gold
    if minimal:
        for i in range(len(words)):
            assert size(all_of(w for j, w in enumerate(words) if j != i)) > m


def test_the_search_state_is_visible_and_shared_per_domain() -> None:
    domain = DateDomain.from_dates(dt.date(1990, 1, 1), dt.date(1999, 12, 31))
    assert mask_table(domain) is mask_table(domain)
    generate_puzzle(3, 0, PuzzleConfig(solutions=2, domain=domain))
    assert len(mask_table(domain).entries) >= 2  # the search's facts, kept in its table


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 30)), max_size=25),
    st.integers(-60, 90),
    st.integers(0, 40),
)
def test_interval_index_finds_what_a_scan_finds(
    spans: list[tuple[int, int]], key: int, width: int
) -> None:
    items = [f"item{i}" for i in range(len(spans))]
    index = knowledge.IntervalIndex(items, [a for a, _ in spans], [a + w for a, w in spans])
    assert index.containing(key) == tuple(
        x for x, (a, w) in zip(items, spans, strict=True) if a <= key <= a + w
    )
    lo, hi = key, key + width
    assert index.overlapping(lo, hi) == tuple(
        x for x, (a, w) in zip(items, spans, strict=True) if a <= hi and a + w >= lo
    )


EVENT_DAYS = sorted(
    {ev.start.toordinal() + k for ev in knowledge.historical_events() for k in (-1, 0, 1)}
    | {ev.end.toordinal() + k for ev in knowledge.historical_events() for k in (-1, 0, 1)}
)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.one_of(st.sampled_from(EVENT_DAYS), st.integers(1, dt.date(9999, 12, 31).toordinal())),
    st.sampled_from(sorted(RELATION_LEVELS)),
)
def test_event_index_finds_what_a_scan_of_every_event_finds(day: int, relation: str) -> None:
    d = dt.date.fromordinal(day)
    scan = tuple(ev for ev in knowledge.historical_events() if _relation_holds(ev, relation, d))
    found = _facts_related(day, relation)
    assert [(f.event, f.start, f.end) for f in found] == [
        (ev.name, ev.start.isoformat(), ev.end.isoformat()) for ev in scan
    ]
    assert all(f.relation == relation for f in found)


def test_lifetimes_index_the_people_with_a_death_date() -> None:
    spans = [(p, p.born.toordinal(), p.died.toordinal()) for p in knowledge.people() if p.died]
    for _, born, died in spans[:10]:
        for day in (born - 1, born, died + 1):
            expected = tuple(p for p, a, b in spans if a <= day <= b)
            assert knowledge.lifetimes().containing(day) == expected


def test_peer_puzzles_have_exactly_m_dates_and_minimal_ones_need_every_fact() -> None:
    """The cached-mask peer does the job it is timed on: M dates, the seed
    among them, and with ``minimal`` every fact it keeps is needed."""
    peer = MaskPeer(DateDomain.from_dates(dt.date(1950, 1, 1), dt.date(2009, 12, 31)))
    rng = np.random.default_rng(7)
    for i in range(48):
        m, minimal = 1 + i % 6, i % 2 == 1
        seed, keys = peer.puzzle(rng, m, minimal)
        masks = [peer.mask(k)[0] for k in keys]
        both = all_of(masks)
        assert int(both.sum()) == m and both[seed]
        if minimal:
            for j in range(len(masks)):
                rest = [x for k, x in enumerate(masks) if k != j]
                assert not rest or int(all_of(rest).sum()) > m


@pytest.mark.parametrize("seed", range(3))
def test_the_lean_certificate_reaches_the_enumerations_verdict(seed: int) -> None:
    """Generated puzzles (every M) and the same facts less one: the proof
    that no date outside the gold qualifies gives certify_gold's verdict and
    dates; a gold missing a date is refused (not invariant), and a gold date
    that fails a fact is an internal error."""
    cpsat = get_backend("cpsat")
    for i in range(6):
        record = generate_puzzle(seed, i, PuzzleConfig(solutions=(0, 1, 2, 3, 4, 6)))
        puzzle = puzzle_from_record(record)
        for keep in [puzzle.facts, puzzle.facts[1:]]:
            sub = type(puzzle)(puzzle.id, tuple(keep), puzzle.domain, puzzle.style)
            canonical = cpsat.solve(build_problem(sub.facts, sub.domain), limit=61).solutions
            result, invariant = certify_known_gold(sub, canonical)
            enumerated, verdict = certify_gold(sub, len(canonical))
            assert invariant == verdict
            if invariant:
                assert result.solutions == enumerated.solutions == tuple(canonical)
            if canonical:
                assert not certify_known_gold(sub, canonical[1:])[1]
            days = sub.domain.days[:2000]
            upper = get_backend("cpsat").check_values(bound_problems(sub)[1], days).all(axis=0)
            failing = int(days[np.flatnonzero(~upper)[0]])
            with pytest.raises(AssertionError, match="internal error"):
                certify_known_gold(sub, [*canonical, failing])


SEED_DETERMINED = sorted(k for k, c in FACT_TYPES.items() if c.seed_determined)


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_seed_determined_categories_draw_one_fact_per_day_and_no_randomness(
    data: st.DataObject,
) -> None:
    """The search reuses such a category's fact for the same seed day, which
    changes nothing only if ``sample`` ignores its RNG and the level."""
    assert {"year", "month", "weekday", "us_president"} <= set(SEED_DETERMINED)
    domain = data.draw(domains(max_years=60))
    kind = data.draw(st.sampled_from(SEED_DETERMINED))
    day = DayView(np.asarray([data.draw(st.integers(domain.start, domain.end))]))
    cls = FACT_TYPES[kind]
    drawn = set()
    for level in (None, *cls.levels()):
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        before = rng.getstate()
        drawn.add(cls.sample(rng, day, domain, level))
        assert rng.getstate() == before
    assert len(drawn) == 1
