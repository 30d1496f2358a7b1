"""Readings: the other ways a careful reader could take a fact's sentence.

A fact's params are the generator's own reading (``canonical``). Its sentence
may admit others, each of which is the same kind of constraint over the same
date with different data:

* ``horizon``: beyond :data:`~tsolve.calendars.knowledge.KNOWLEDGE_AS_OF` a
  world-knowledge fact's truth is unknown. Scheduled sports editions may be
  held, the incumbent president may serve out the term (and a former president
  who is not term-limited may serve again), a living person may die.
* ``knowledge-<as-of>``: the fact's data as the current knowledge base has it,
  when that differs from the params (a record made with an older knowledge
  base: "the FIFA World Cup was held" without 2026).
* ``convention:<name>``: another dating of a historical event under a named
  convention (``event_conventions.csv``: V-E Day on 9 May, ...).
* ``lunar-other-sources``: the three future lunar months whose first day the
  libraries put a day apart (docs/calendars.md), as Calendrical Calculations
  and ``lunardate`` have them.
* Wording that leaves a choice open, marked in the fact's params (the Time
  Puzzles release's sentences, :mod:`~tsolve.encodings.facts.range_facts`):
  ``end-days-included`` ("between A and B" with A and B), ``century`` ("the
  1900s" as 1900-1999).

Explicit-style sentences spell out the dates of knowledge facts, which removes
the knowledge readings; the lunar reading stays, since the explicit text of a
lunar fact names the month only.

For a puzzle (a conjunction of facts) the answer set is the same under every
combination of readings iff the conjunction of each fact's *lower* bound (true
under every reading) has as many dates as the conjunction of its *upper* bound
(true under some reading): per fact lower ⊆ canonical ⊆ any reading ⊆ upper,
so every combination is sandwiched between the two conjunctions.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tsolve.calendars import knowledge
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts.base import DayView, Fact, domain_view, fact_constraint
from tsolve.encodings.facts.knowledge_facts import (
    EventRelationFact,
    PersonAliveFact,
    SportsEventYearFact,
    UsPresidentFact,
    known_terms,
)
from tsolve.encodings.facts.lunar_facts import LunarMonthFact, OtherSourcesLunarMonthFact
from tsolve.encodings.facts.range_facts import DateRangeFact, YearRangeFact
from tsolve.encodings.ir import DATE_VAR, Formula, In, IntervalSet

CANONICAL = "canonical"
HORIZON = "horizon"
KNOWLEDGE = f"knowledge-{knowledge.KNOWLEDGE_AS_OF.isoformat()}"
LUNAR = "lunar-other-sources"
END_DAYS_INCLUDED = "end-days-included"
CENTURY = "century"
CONVENTION_PREFIX = "convention:"

# Far enough to be "never ended" for every domain (the IR is over day numbers).
_NEVER = "9999-12-31"
# A living person's future: no one verified has lived 123 years.
_MAX_LIFESPAN_YEARS = 123
# Twenty-second Amendment: more than six years in office means elected twice,
# or more than two years of another's term and elected once; either bars
# another election.
_TERM_LIMIT_DAYS = 6 * 365 + 2
# Article II: a president is at least 35 when first taking office.
_MIN_PRESIDENT_AGE = 35


@dataclass(frozen=True)
class Reading:
    """One alternative reading of one fact: its name and the fact it makes."""

    name: str
    fact: Fact


_Rule = Callable[[Fact], list[Reading]]
# kind -> (its rule, does the rule apply to implicit sentences only?)
_RULES: dict[str, tuple[_Rule, bool]] = {}


def _rule(kind: str, *, implicit_only: bool = False) -> Callable[[_Rule], _Rule]:
    """Register the readings of ``kind``. A rule that reads the knowledge base
    is ``implicit_only``: an explicit sentence spells out the dates, so what
    is known or unknown about them cannot change it."""

    def deco(fn: _Rule) -> _Rule:
        _RULES[kind] = (fn, implicit_only)
        return fn

    return deco


def fact_readings(fact: Fact, style: str = "implicit") -> tuple[Reading, ...]:
    """The readings of ``fact`` other than its own, as rendered in ``style``.

    Only readings that change the fact's data are returned (a reading whose
    fact equals the canonical one is no alternative).
    """
    return _fact_readings(fact, style)


@lru_cache(maxsize=16384)
def _fact_readings(fact: Fact, style: str) -> tuple[Reading, ...]:
    rule, implicit_only = _RULES.get(fact.kind, (None, False))
    if rule is None or (implicit_only and style == "explicit"):
        return ()
    out: list[Reading] = []
    seen: set[str] = set()
    for r in rule(fact):
        if r.fact != fact and r.name not in seen:
            seen.add(r.name)
            out.append(r)
    return tuple(out)


def reading_names(fact: Fact, style: str = "implicit") -> tuple[str, ...]:
    return tuple(r.name for r in fact_readings(fact, style))


def fact_under(fact: Fact, style: str, name: str) -> Fact:
    """``fact`` as reading ``name`` has it (the fact itself if it has no such reading)."""
    for r in fact_readings(fact, style):
        if r.name == name:
            return r.fact
    return fact


def bound_masks(fact: Fact, style: str, view: DayView) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) truth over ``view``: true under every / some reading."""
    base = np.asarray(fact.holds(view), dtype=bool)
    lo, hi = base.copy(), base.copy()
    for r in fact_readings(fact, style):
        m = np.asarray(r.fact.holds(view), dtype=bool)
        lo &= m
        hi |= m
    return lo, hi


@lru_cache(maxsize=4096)
def bound_constraints(fact: Fact, style: str, domain: DateDomain) -> tuple[Formula, Formula]:
    """(lower, upper) IR of ``fact`` over ``domain``; the canonical IR twice
    when the fact has no other reading.

    When the fact and each of its readings know their days as a few intervals
    (:meth:`~tsolve.encodings.facts.base.Fact.day_intervals`: a lifetime, a
    term of office, an event's span), the bounds are their intersection and
    union, with no pass over the domain: every generated puzzle that names a
    new person or event builds these, and the two passes of ``holds`` over
    the domain cost 0.2 to 3 ms a fact (tests hold both ways equal)."""
    readings = fact_readings(fact, style)
    if not readings:
        c = fact_constraint(fact, domain)
        return c, c
    spans = [fact.day_intervals(), *(r.fact.day_intervals() for r in readings)]
    if all(s is not None for s in spans):
        known = [s for s in spans if s is not None]
        lower = known[0]
        for s in known[1:]:
            lower = lower.intersect(s)
        upper = IntervalSet.from_intervals(iv for s in known for iv in s)
        return (In(DATE_VAR, lower.clip(domain.start, domain.end)),
                In(DATE_VAR, upper.clip(domain.start, domain.end)))  # fmt: skip
    return bound_constraints_from_masks(fact, style, domain)


def bound_constraints_from_masks(
    fact: Fact, style: str, domain: DateDomain
) -> tuple[Formula, Formula]:
    """(lower, upper) IR of ``fact`` over ``domain`` from its readings' truth
    on every day (:func:`bound_masks`): the general way, for any fact."""
    lo, hi = bound_masks(fact, style, domain_view(domain))
    days = domain.days
    return (In(DATE_VAR, IntervalSet.from_mask(days, lo)),
            In(DATE_VAR, IntervalSet.from_mask(days, hi)))  # fmt: skip


@lru_cache(maxsize=4096)
def reading_constraint(fact: Fact, style: str, name: str, domain: DateDomain) -> Formula:
    """The IR of ``fact`` under reading ``name`` over ``domain``."""
    return fact_constraint(fact_under(fact, style, name), domain)


# --------------------------------------------------------------------------
# The rules, one per knowledge-dependent kind

_AS_OF = knowledge.KNOWLEDGE_AS_OF


@_rule("sports_event_year", implicit_only=True)
def _sports(fact: Fact) -> list[Reading]:
    assert isinstance(fact, SportsEventYearFact)
    held = knowledge.sports_events().get(fact.event)
    known = tuple(held.years) if held else fact.years
    sched = knowledge.scheduled_sports_events().get(fact.event)
    future = tuple(sched.years) if sched else ()
    return [
        Reading(KNOWLEDGE, SportsEventYearFact(fact.event, known)),
        Reading(HORIZON, SportsEventYearFact(fact.event, tuple(sorted({*known, *future})))),
    ]


def _president(name: str) -> knowledge.President | None:
    return next((p for p in knowledge.presidents() if p.name == name), None)


def _person(name: str) -> knowledge.Person | None:
    return next((p for p in knowledge.people() if p.name == name), None)


def _life_end(name: str) -> _dt.date | None:
    """Last day ``name`` can be alive: the death date, or for a living person
    born + 123 years (None: not in the knowledge base)."""
    p = _person(name)
    if p is None:
        return None
    if p.died is not None:
        return p.died
    return _dt.date(p.born.year + _MAX_LIFESPAN_YEARS, 1, 1)


@_rule("us_president", implicit_only=True)
def _us_president(fact: Fact) -> list[Reading]:
    assert isinstance(fact, UsPresidentFact)
    p = _president(fact.president)
    if p is None:
        return []
    known = known_terms(p)
    out = [Reading(KNOWLEDGE, UsPresidentFact(fact.president, known))]
    future: list[tuple[str, str]] = []
    served = 0
    for s, e in p.terms:
        end = e if e is not None else knowledge.incumbent_term_end(s)
        served += (end - s).days + 1
        if e is None and end > _AS_OF:
            future.append(((_AS_OF + _dt.timedelta(days=1)).isoformat(), end.isoformat()))
    # After the current term nobody knows who is president: a former
    # president who is neither term-limited nor known to have died may be.
    incumbent = next((t for q in knowledge.presidents() for t in q.terms if t[1] is None), None)
    if incumbent is not None and served <= _TERM_LIMIT_DAYS:
        nxt = knowledge.incumbent_term_end(incumbent[0]) + _dt.timedelta(days=1)
        last = _life_end(p.name)
        if last is None and p.terms:
            # Not in people.csv: at least 35 at the first inauguration and at
            # most 123 years old, so Washington cannot serve again, while a
            # recent president without a birth date still may.
            first = p.terms[0][0]
            bound = _dt.date(first.year + _MAX_LIFESPAN_YEARS - _MIN_PRESIDENT_AGE, 1, 1)
            last = bound if bound < nxt else None
        if last is None:
            future.append((nxt.isoformat(), _NEVER))
        elif last >= nxt:
            future.append((nxt.isoformat(), last.isoformat()))
    if future:
        out.append(Reading(HORIZON, UsPresidentFact(fact.president, (*known, *future))))
    return out


@_rule("person_alive", implicit_only=True)
def _person_alive(fact: Fact) -> list[Reading]:
    assert isinstance(fact, PersonAliveFact)
    out: list[Reading] = []
    p = _person(fact.person)
    born, died = fact.born, fact.died
    if p is not None:
        born = p.born.isoformat()
        died = p.died.isoformat() if p.died else None
        out.append(Reading(KNOWLEDGE, PersonAliveFact(fact.person, born, died, fact.description)))
    if died is None or fact.died is None:
        # Alive on the as-of date; may die any day after it.
        out.append(Reading(HORIZON, PersonAliveFact(fact.person, born, _AS_OF.isoformat(),
                                                    fact.description)))  # fmt: skip
    return out


@_rule("event_relation", implicit_only=True)
def _event_relation(fact: Fact) -> list[Reading]:
    assert isinstance(fact, EventRelationFact)
    out: list[Reading] = []
    ev = next((e for e in knowledge.historical_events() if e.name == fact.event), None)
    if ev is not None:
        out.append(Reading(KNOWLEDGE, EventRelationFact(
            fact.event, ev.start.isoformat(), ev.end.isoformat(), fact.relation)))  # fmt: skip
    for c in knowledge.event_conventions():
        if c.event == fact.event:
            end = c.end.isoformat() if c.end is not None else _NEVER
            alt = EventRelationFact(fact.event, c.start.isoformat(), end, fact.relation)
            out.append(Reading(CONVENTION_PREFIX + c.convention, alt))
    return out


@_rule("lunar_month")
def _lunar_month(fact: Fact) -> list[Reading]:
    assert isinstance(fact, LunarMonthFact)
    alt = OtherSourcesLunarMonthFact(fact.month, fact.leap)
    return [Reading(LUNAR, alt)] if alt.differs() else []


@_rule("date_range")
def _date_range(fact: Fact) -> list[Reading]:
    assert isinstance(fact, DateRangeFact)
    if fact.ends != "unstated":
        return []
    return [Reading(END_DAYS_INCLUDED, DateRangeFact(fact.start, fact.end, "included"))]


@_rule("year_range")
def _year_range(fact: Fact) -> list[Reading]:
    assert isinstance(fact, YearRangeFact)
    if not fact.century:
        return []
    return [Reading(CENTURY, YearRangeFact(fact.first, fact.first + 99))]
