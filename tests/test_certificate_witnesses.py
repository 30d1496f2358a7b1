"""The witness certificates (families/time_puzzles/certify.py): a claim that
facts are satisfiable is proved by one date, proposed by the packed masks and
checked by the IR. Each test compares against the IR's truth over the whole
domain (``evaluate``), which shares no code with the masks, or against the
solver path the witnesses replace; and each shows the certificate still
refuses what it must (an unneeded fact, a two-fact clash, a wrong proposal).
Also: the reading bounds built from intervals equal those built from masks,
and the lean gold certificate refuses a gold that a reading drops."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import tsolve.families.time_puzzles.certify as certify
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import Fact, fact_constraint
from tsolve.encodings.facts.calendar_facts import (
    DayOfMonthFact,
    MonthFact,
    WeekdayFact,
    YearFact,
)
from tsolve.encodings.facts.knowledge_facts import PersonAliveFact
from tsolve.encodings.facts.packed import all_of, days_of, pack, packed_masks
from tsolve.encodings.facts.readings import (
    bound_constraints,
    bound_constraints_from_masks,
    fact_readings,
)
from tsolve.encodings.ir import DATE_VAR, evaluate
from tsolve.families.time_puzzles.certify import (
    certify_contradiction,
    certify_necessity,
    checked_witnesses,
    first_days,
    pair_witnesses,
    witnesses_without,
)
from tsolve.families.time_puzzles.generate import same_under_readings
from tsolve.families.time_puzzles.solve import (
    Puzzle,
    build_problem,
    certify_known_gold,
    shared_range,
)
from tsolve.solver import get_backend
from tsolve.testing.strategies import domains, fact_sets, facts

SMALL = DateDomain.from_dates(dt.date(2001, 1, 1), dt.date(2004, 12, 31))


def truth(fs: Sequence[Fact], domain: DateDomain) -> np.ndarray:
    """Each fact's IR over every day of ``domain`` (facts x days)."""
    env = {DATE_VAR: domain.days}
    return np.array([evaluate(fact_constraint(f, domain), env) for f in fs], dtype=bool)


def first(mask: np.ndarray, domain: DateDomain) -> int | None:
    hits = np.flatnonzero(mask)
    return int(domain.start + hits[0]) if hits.size else None


@settings(max_examples=examples(40))
@given(st.lists(st.lists(st.booleans(), min_size=150, max_size=150), min_size=1, max_size=6))
def test_first_days_read_the_packed_layout(rows: list[list[bool]]) -> None:
    masks = [np.array(r, dtype=bool) for r in rows]
    domain = DateDomain(500, 649)
    assert first_days(np.stack([pack(m) for m in masks]), domain) == [
        first(m, domain) for m in masks
    ]


@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_proposals_are_the_first_days_the_ir_allows(data: st.DataObject) -> None:
    """Without fact i: the first day every other fact holds on and not all of
    them (or, for a contradiction, and any day); for a pair, both."""
    domain = data.draw(domains(max_years=3))
    fs = data.draw(fact_sets(domain, min_size=1, max_size=5, max_days=2))
    t = truth(fs, domain)
    every = t.all(axis=0)
    others = [np.delete(t, i, axis=0).all(axis=0) for i in range(len(fs))]
    assert witnesses_without(fs, domain) == [first(o & ~every, domain) for o in others]
    assert witnesses_without(fs, domain, False) == [first(o, domain) for o in others]
    pairs = [[i, j] for i in range(len(fs)) for j in range(i + 1, len(fs))]
    assert pair_witnesses(fs, domain, pairs) == [first(t[i] & t[j], domain) for i, j in pairs]


@settings(max_examples=examples(20), deadline=None)
@given(st.data())
def test_necessity_holds_exactly_when_every_fact_is_needed(data: st.DataObject) -> None:
    """Random facts true on one day: certify_necessity returns a witness per
    fact, each checked here by the IR, iff dropping any fact adds an answer;
    otherwise it names a fact that is not needed."""
    domain = data.draw(domains(max_years=3))
    fs = data.draw(fact_sets(domain, min_size=2, max_size=4, max_days=1))
    t = truth(fs, domain)
    every = t.all(axis=0)
    answers = [int(d) for d in domain.days[every]]
    needed = all((np.delete(t, i, axis=0).all(axis=0) & ~every).any() for i in range(len(fs)))
    if not needed:
        with pytest.raises(AssertionError, match="is not necessary"):
            certify_necessity(fs, domain, "cpsat", answers)
        return
    found = certify_necessity(fs, domain, "cpsat", answers)
    assert len(found) == len(fs)
    for i, day in enumerate(found):
        col = t[:, day - domain.start]
        assert day not in answers and np.delete(col, i).all() and not col[i]


def test_a_wrong_proposal_is_no_witness() -> None:
    """Only a day in the domain, not excluded, on which every constraint of
    its subset holds, counts; anything else is None (and goes to the solver)."""
    fs = [MonthFact(6), DayOfMonthFact(13), YearFact(2002)]
    problem = build_problem(fs, SMALL)
    be = get_backend("cpsat")
    june13 = dt.date(2002, 6, 13).toordinal()
    july13 = dt.date(2002, 7, 13).toordinal()
    subsets = [[0, 1, 2], [0, 1, 2], [0, 1, 2], [1, 2], [0, 1, 2], [0]]
    proposed = [june13, july13, SMALL.end + 1, july13, None, june13]
    got = checked_witnesses(be, problem, SMALL, subsets, proposed, excluded={june13 + 1})
    assert got == [june13, None, None, july13, None, june13]
    assert checked_witnesses(be, problem, SMALL, subsets[:1], [june13], {june13}) == [None]


@pytest.mark.parametrize("backend", ["cpsat", "z3", "enumerator"])
def test_without_proposals_the_solver_finds_the_same_verdicts(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Masks that propose nothing (or nonsense): every claim goes to the
    solver, which proves the same claims, and refuses the same bad sets, on
    every backend."""
    fs = [MonthFact(6), DayOfMonthFact(13), WeekdayFact("Thursday")]
    answers = [dt.date(2002, 6, 13).toordinal()]
    expected = certify_necessity(fs, SMALL, backend, answers)
    monkeypatch.setattr(certify, "witnesses_without", lambda f, d, o=True: [SMALL.start] * len(f))
    monkeypatch.setattr(certify, "pair_witnesses", lambda f, d, p: [None] * len(p))
    found = certify_necessity(fs, SMALL, backend, answers)
    t = truth(fs, SMALL)
    for i, day in enumerate(found):
        assert day not in answers and np.delete(t[:, day - SMALL.start], i).all()
    assert len(found) == len(expected) == 3
    with pytest.raises(AssertionError, match=r"fact 0 \(month\) is not necessary"):
        certify_necessity([*fs, MonthFact(6)], SMALL, backend, answers)
    clash = [MonthFact(6), DayOfMonthFact(31)]  # each alone holds; together, never
    with pytest.raises(AssertionError, match="facts 0 and 1 contradict each other"):
        certify_contradiction(clash, SMALL, backend)


def test_a_callers_proposals_are_checked_like_the_masks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator's search hands certify_necessity its own proposals: a
    wrong one (an answer, a day a fact excludes, a day outside the domain) is
    no witness, and the solver finds a real one; an unneeded fact is refused
    whatever the caller proposes; and with proposals given the masks are not
    asked for any."""
    fs = [MonthFact(6), DayOfMonthFact(13), WeekdayFact("Thursday")]
    june13 = dt.date(2002, 6, 13).toordinal()  # the one answer over SMALL
    called: list[int] = []
    real = certify.solver_witness
    monkeypatch.setattr(
        certify,
        "solver_witness",
        lambda *a: called.append(1) or real(*a),  # type: ignore[func-returns-value]
    )
    monkeypatch.setattr(certify, "witnesses_without", lambda *a: pytest.fail("masks asked"))
    bad = [june13, dt.date(2002, 7, 13).toordinal(), SMALL.end + 1]
    found = certify_necessity(fs, SMALL, "cpsat", [june13], bad)
    t = truth(fs, SMALL)
    for i, day in enumerate(found):
        col = t[:, day - SMALL.start]
        assert day != june13 and np.delete(col, i).all() and not col[i]
    assert len(called) == 3  # every proposal was refused, so the solver found each
    with pytest.raises(AssertionError, match=r"fact 0 \(month\) is not necessary"):
        certify_necessity([*fs, MonthFact(6)], SMALL, "cpsat", [june13], [SMALL.start] * 4)


def test_the_minimal_search_proposes_witnesses_the_ir_accepts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A minimal puzzle's search proposes a witness per fact from the masks
    it judged the set by: each holds under the IR as a witness (checked here
    against the IR over the whole domain), so the solver is never asked."""
    from tsolve.families.time_puzzles import generate as gen

    proposals: list[list[int | None]] = []
    real = certify.certify_necessity

    def spy(fs, domain, backend, answers, proposed=None):  # type: ignore[no-untyped-def]
        assert proposed is not None and len(proposed) == len(fs)
        proposals.append(list(proposed))
        t = truth(fs, domain)
        for i, day in enumerate(proposed):
            assert day is not None and day not in answers
            col = t[:, day - domain.start]
            assert np.delete(col, i).all() and not col[i]
        return real(fs, domain, backend, answers, proposed)

    monkeypatch.setattr(gen, "certify_necessity", spy)
    monkeypatch.setattr(certify, "solver_witness", lambda *a: pytest.fail("solver asked"))
    cfg = gen.PuzzleConfig(solutions=(1, 2, 3), minimal=True)
    for i in range(examples(6)):
        gen.generate_puzzle(4, i, cfg)
    assert len(proposals) == examples(6)


def test_contradiction_certificate_refuses_what_it_must() -> None:
    """A minimal unsatisfiable set with satisfiable pairs passes; a set with a
    solution, a set with an unneeded fact, and a two-fact clash do not."""
    mus = [MonthFact(2), DayOfMonthFact(29), YearFact(2002)]  # no 29 February in 2002
    assert certify_contradiction(mus, SMALL, "cpsat")["core"] == [0, 1, 2]
    with pytest.raises(AssertionError, match="has a solution"):
        certify_contradiction([MonthFact(2), DayOfMonthFact(28)], SMALL, "cpsat")
    with pytest.raises(AssertionError, match="fact 3 is not needed"):
        certify_contradiction([*mus, WeekdayFact("Sunday")], SMALL, "cpsat")
    with pytest.raises(AssertionError, match="facts 0 and 1 contradict"):
        certify_contradiction([MonthFact(6), DayOfMonthFact(31)], SMALL, "cpsat")


def test_a_proved_contradiction_is_not_proved_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``unsat_proved`` (the generator's gold certificate already proved
    "no date" on the upper bounds), the whole set is not sent to the solver
    again; the witnesses still are checked. Without it, it is asked once."""
    mus = [MonthFact(2), DayOfMonthFact(29), YearFact(2002)]
    asked: list[list[int]] = []
    be = get_backend("cpsat")
    real = type(be).is_satisfiable

    def counting(self: object, problem: object, subset: Sequence[int]) -> bool:
        asked.append(list(subset))
        return real(be, problem, subset)  # type: ignore[arg-type]

    monkeypatch.setattr(type(be), "is_satisfiable", counting)
    assert certify_contradiction(mus, SMALL, "cpsat")["core"] == [0, 1, 2]
    assert asked == [[0, 1, 2]]  # the witnesses of the subsets came from the masks
    asked.clear()
    assert certify_contradiction(mus, SMALL, "cpsat", unsat_proved=True)["core"] == [0, 1, 2]
    assert asked == []
    with pytest.raises(AssertionError, match="fact 3 is not needed"):  # witnesses still checked
        certify_contradiction([*mus, WeekdayFact("Sunday")], SMALL, "cpsat", unsat_proved=True)


READING_KINDS = ["person_alive", "us_president", "sports_event_year", "event_relation"]


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_reading_bounds_from_intervals_equal_those_from_masks(data: st.DataObject) -> None:
    domain = data.draw(domains(max_years=200))
    fact = data.draw(facts(domain, READING_KINDS))
    style = data.draw(st.sampled_from(["implicit", "explicit"]))
    assert bound_constraints(fact, style, domain) == bound_constraints_from_masks(
        fact, style, domain
    )


def test_a_gold_that_a_reading_drops_is_not_invariant() -> None:
    """A living person "alive" in 2040: the canonical reading keeps every day
    of 2040, the horizon reading (may have died since the knowledge base's
    date) none. The gold is in the upper bound, so no internal error, but not
    in the lower one: not invariant."""
    domain = DateDomain.from_dates(dt.date(2030, 1, 1), dt.date(2049, 12, 31))
    person = PersonAliveFact("A. Person", "1990-05-01")
    assert fact_readings(person, "implicit")
    puzzle = Puzzle("p", (person, YearFact(2040)), domain, "implicit")
    gold = list(range(dt.date(2040, 1, 1).toordinal(), dt.date(2040, 12, 31).toordinal() + 1))
    result, invariant = certify_known_gold(puzzle, gold)
    assert result.solutions == tuple(gold) and not invariant
    assert not certify_known_gold(puzzle, gold[1:])[1]  # and a gold missing a date


def test_the_lean_certificate_still_sees_the_first_and_last_dates() -> None:
    """The certificate asks the solver only about the days the facts' sets
    share (2003 here: the year cuts the weekday's and the domain's days).
    2003 began and ended on a Wednesday, so its first and last Wednesdays sit
    on the edges of that range: a gold without either is caught, and the
    whole gold is proved."""
    puzzle = Puzzle("p", (YearFact(2003), WeekdayFact("Wednesday")), SMALL, "implicit")
    first, last = dt.date(2003, 1, 1).toordinal(), dt.date(2003, 12, 31).toordinal()
    assert dt.date.fromordinal(first).weekday() == dt.date.fromordinal(last).weekday() == 2
    highs = [fact_constraint(f, SMALL) for f in puzzle.facts]
    assert shared_range(highs, SMALL) == (first, last)
    gold = list(range(first, last + 1, 7))
    assert gold[-1] == last
    result, invariant = certify_known_gold(puzzle, gold)
    assert invariant and result.status == "complete" and result.solutions == tuple(gold)
    for short in (gold[1:], gold[:-1]):
        got, ok = certify_known_gold(puzzle, short)
        assert not ok and got.status == "partial"


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_the_search_reading_check_agrees_with_the_certificate(data: st.DataObject) -> None:
    """The generator offers a set only if its masks say every reading leaves
    the same answers (same_under_readings); the solver's certificate decides.
    Over random satisfiable sets rich in facts with readings, the two agree."""
    domain = DateDomain.from_dates(dt.date(1990, 1, 1), dt.date(2060, 12, 31))
    # Half the days after the knowledge base's date, where a living person's
    # "alive" differs between readings.
    future = dt.date(2027, 1, 1).toordinal()
    day = data.draw(
        st.one_of(st.integers(domain.start, future - 1), st.integers(future, domain.end))
    )
    first = data.draw(
        st.sampled_from(["person_alive", "us_president", "sports_event_year", "lunar_month"])
    )
    rest = data.draw(
        st.lists(st.sampled_from(["month", "year", "weekday", "day_of_month"]), unique=True)
    )
    fact_list = [data.draw(facts(domain, [k], day=day)) for k in [first, *rest[:3]]]
    gold = days_of(all_of(packed_masks(fact_list, domain)), domain)
    puzzle = Puzzle("p", tuple(fact_list), domain, "implicit")
    _, invariant = certify_known_gold(puzzle, gold.tolist())
    assert same_under_readings(fact_list, gold.size, domain) == invariant


def test_the_search_reading_check_refuses_a_living_persons_future() -> None:
    """The living person "alive" in 2040 of the test above: the canonical
    reading keeps 2040, the horizon reading none; a dead person's year stays."""
    domain = DateDomain.from_dates(dt.date(2030, 1, 1), dt.date(2049, 12, 31))
    living = [PersonAliveFact("A. Person", "1990-05-01"), YearFact(2040)]
    assert not same_under_readings(living, 366, domain)
    dead = [PersonAliveFact("B. Person", "1950-05-01", "2045-01-01"), YearFact(2040)]
    assert fact_readings(dead[0], "implicit") == ()
    assert same_under_readings(dead, 366, domain)
