"""The faster generation paths (packed masks, one-call gold) decide exactly what the slower ones
did: packed domain masks size facts as the IR does, the one-call gold
certificate agrees with two enumerations (lower/upper readings) and with the
canonical solve, and the necessity certificate (witness dates,
tests/test_certificate_witnesses.py) agrees with one capped count per fact.
Each check compares against a path that shares no code with the new one (the
IR's interval sets, the per-fact solver calls)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.bounded_store import BoundedStore
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import answer_set_size, domain_view, fact_constraint
from tsolve.encodings.facts.knowledge_facts import EventRelationFact
from tsolve.encodings.facts.packed import all_of, pack, size, unpack
from tsolve.encodings.ir import DATE_VAR, In, InCycle, Mod, Not, Or, evaluate, renamed
from tsolve.families.time_puzzles.certify import certify_necessity
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
from tsolve.families.time_puzzles.solve import (
    build_problem,
    certify_gold,
    check_readings,
    puzzle_from_record,
)
from tsolve.solver import get_backend
from tsolve.testing.strategies import domains, fact_sets, facts


@given(st.lists(st.booleans(), min_size=1, max_size=300))
def test_pack_round_trips_and_counts(bits: list[bool]) -> None:
    mask = np.array(bits, dtype=bool)
    words = pack(mask)
    assert words.dtype == np.uint64 and words.size == -(-mask.size // 64)
    assert np.array_equal(unpack(words, mask.size), mask)
    assert size(words) == int(mask.sum())


@given(st.lists(st.lists(st.booleans(), min_size=70, max_size=70), min_size=1, max_size=5))
def test_packed_conjunction_is_the_conjunction(rows: list[list[bool]]) -> None:
    masks = [np.array(r, dtype=bool) for r in rows]
    expected = np.logical_and.reduce(masks)
    assert np.array_equal(all_of(masks), expected)
    assert np.array_equal(unpack(all_of(pack(m) for m in masks), 70), expected)


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_answer_set_size_equals_the_irs_interval_count(data: st.DataObject) -> None:
    """The packed count (the facts' fast path) against the solvers' IR."""
    domain = data.draw(domains(max_years=60))
    fact = data.draw(facts(domain))
    c = fact_constraint(fact, domain)
    if isinstance(c, In):
        expected = c.set.clip(domain.start, domain.end).size
    else:
        expected = int(evaluate(c, {DATE_VAR: domain.days}).sum())
    assert answer_set_size(fact, domain) == expected


def test_store_stays_within_its_byte_budget_least_recent_out_first() -> None:
    built: list[int] = []

    def build(k: int) -> bytes:
        built.append(k)
        return bytes(k)

    store: BoundedStore[int, bytes] = BoundedStore(100, len)
    for k in (40, 30, 20, 40, 50, 30, 500):
        assert len(store.get(k, build)) == k
        assert store.bytes <= 100
    # 40 was used again before 50 came, so 30 and 20 went first; when 30 came
    # back, 40 went. 500 is over the budget: built, never kept.
    assert built == [40, 30, 20, 50, 30, 500]
    assert store.bytes == 80 and len(store) == 2


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_renamed_formula_means_the_same_on_its_new_variable(data: st.DataObject) -> None:
    domain = data.draw(domains(max_years=5))
    fs = data.draw(fact_sets(domain, max_size=3))
    formula = Or((*(Not(fact_constraint(f, domain)) for f in fs), Mod(DATE_VAR, 7, 3)))
    moved = renamed(formula, {DATE_VAR: "other"})
    days = domain.days[:: max(1, domain.size // 500)]
    assert np.array_equal(evaluate(moved, {"other": days}), evaluate(formula, {DATE_VAR: days}))


@pytest.mark.parametrize("style", ["implicit", "explicit"])
@pytest.mark.parametrize("seed", range(4))
def test_one_call_gold_agrees_with_two_enumerations(seed: int, style: str) -> None:
    """Generated puzzles (every M), and the same facts with one fact dropped
    (whose counts the generator never certified): the one-call verdict equals
    check_readings', and its dates equal the canonical solve's."""
    cpsat = get_backend("cpsat")
    for i in range(12):
        record = generate_puzzle(seed, i, PuzzleConfig(solutions=(0, 1, 2, 3, 4, 6), style=style))
        puzzle = puzzle_from_record(record)
        for keep in [puzzle.facts, puzzle.facts[1:]]:
            sub = type(puzzle)(puzzle.id, tuple(keep), puzzle.domain, puzzle.style)
            m = cpsat.count(build_problem(sub.facts, sub.domain), cap=61).count
            result, invariant = certify_gold(sub, m)
            assert invariant == check_readings(sub, "cpsat", m + 1).invariant
            canonical = cpsat.solve(build_problem(sub.facts, sub.domain), limit=m + 1)
            if invariant:
                assert result.solutions == canonical.solutions


@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_necessity_certificate_agrees_with_per_fact_counts(backend: str) -> None:
    """Minimal puzzles pass; adding a fact that restates one of them (so one
    of the two is not needed) fails, naming a fact, on both paths."""
    cpsat = get_backend("cpsat")
    for i in range(6):
        record = generate_puzzle(5, i, PuzzleConfig(solutions=(1, 2, 3), minimal=True))
        puzzle = puzzle_from_record(record)
        answers = cpsat.solve(build_problem(puzzle.facts, puzzle.domain)).solutions
        certify_necessity(puzzle.facts, puzzle.domain, backend, answers)
        certify_necessity(puzzle.facts, puzzle.domain, "enumerator", answers)
        doubled = (*puzzle.facts, puzzle.facts[-1])
        for be in (backend, "enumerator"):
            with pytest.raises(AssertionError, match="is not necessary"):
                certify_necessity(doubled, puzzle.domain, be, answers)


WIDEST = DateDomain(1, dt.date(9999, 12, 31).toordinal())
INTERVAL_KINDS = ["year", "decade", "person_alive", "us_president", "sports_event_year",
                  "event_relation"]  # fmt: skip


@settings(max_examples=examples(80), deadline=None)
@given(st.data())
def test_day_intervals_equal_the_fast_path_anywhere_in_the_calendar(data: st.DataObject) -> None:
    """Closed-form day sets (year 1, decade 0, year 9999 included) against
    ``holds``, through the IR and the size, on domains anywhere in 0001..9999."""
    domain = data.draw(domains(max_years=30, inside=WIDEST))
    fact = data.draw(facts(domain, INTERVAL_KINDS))
    fast = np.asarray(fact.holds(domain_view(domain)), dtype=bool)
    ir = evaluate(fact.constraint(domain), {DATE_VAR: domain.days})
    assert np.array_equal(ir, fast)
    assert answer_set_size(fact, domain) == int(fast.sum())
    if fact.day_intervals() is None:
        assert fact.kind == "event_relation"  # only an anniversary has none


PERIODIC_KINDS = ["leap_year", "month", "season", "weekday_in_month", "day_of_month",
                  "day_of_month_range"]  # fmt: skip


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_periodic_facts_over_long_domains_are_one_cycle_of_residues(data: st.DataObject) -> None:
    """Over more than 400 years a periodic fact's IR is an InCycle whose
    meaning equals ``holds`` on every day, and its closed-form size equals the
    count of those days."""
    domain = data.draw(domains(min_years=401, max_years=1200, inside=WIDEST))
    fact = data.draw(facts(domain, PERIODIC_KINDS))
    c = fact.constraint(domain)
    assert isinstance(c, InCycle) and c.period == 146_097
    fast = np.asarray(fact.holds(domain_view(domain)), dtype=bool)
    assert np.array_equal(evaluate(c, {DATE_VAR: domain.days}), fast)
    assert answer_set_size(fact, domain) == int(fast.sum())


@pytest.mark.parametrize(
    "relation", ["same_day", "same_month", "same_year", "before", "after", "anniversary"]
)
@pytest.mark.parametrize(
    ("start", "end"), [("0001-01-01", "0001-03-05"), ("9999-11-20", "9999-12-31")]
)
def test_event_spans_at_the_ends_of_the_calendar(relation: str, start: str, end: str) -> None:
    """An event that never ended (end 9999-12-31) or began on day 1: the
    closed-form spans stay inside the calendar and equal ``holds``."""
    fact = EventRelationFact("an event", start, end, relation)
    for domain in (DateDomain(1, 800), DateDomain(WIDEST.end - 800, WIDEST.end)):
        fast = np.asarray(fact.holds(domain_view(domain)), dtype=bool)
        ir = evaluate(fact.constraint(domain), {DATE_VAR: domain.days})
        assert np.array_equal(ir, fast)
        assert answer_set_size(fact, domain) == int(fast.sum())
