"""Knowledge-base anchors by name: "Barack Obama", "Albert Einstein", "the
fall of the Berlin Wall", "the Summer Olympics". A name is read only when it
names exactly one entry (a surname shared by two presidents names none), and
the fact carries the knowledge base's dates, as a generated one would."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from typing import TypeVar

from tsolve.calendars import knowledge
from tsolve.calendars.knowledge import name_key
from tsolve.encodings.facts.knowledge_facts import (
    EventRelationFact,
    PersonAliveFact,
    SportsEventYearFact,
    UsPresidentFact,
    known_terms,
)

T = TypeVar("T")


def _unique(pairs: Iterable[tuple[str, T]]) -> dict[str, T]:
    """Name -> entry, for the names that name one entry only."""
    seen: dict[str, list[T]] = defaultdict(list)
    for k, v in pairs:
        if v not in seen[k]:
            seen[k].append(v)
    return {k: vs[0] for k, vs in seen.items() if len(vs) == 1}


@cache
def _people() -> dict[str, knowledge.Person]:
    """By name, by description ("the physicist Albert Einstein") and by a
    surname only one person has ("Einstein")."""
    full = _unique(
        (name_key(n), p) for p in knowledge.people() for n in (p.name, p.description or p.name)
    )
    last = _unique((name_key(p.name).split()[-1], p) for p in knowledge.people())
    return {**last, **full}


@cache
def _presidents() -> dict[str, knowledge.President]:
    """By full name, without the middle initials, and by surname when only one
    president has it ("Obama", not "Bush"). Every initial goes at once:
    "George H. W. Bush" without one of two would be "George W. Bush", his son."""
    full = _unique(
        (name_key(n), p)
        for p in knowledge.presidents()
        for n in (p.name, re.sub(r"(?:\s+[A-Z]\.)+\s+", " ", p.name))
    )
    last = _unique((name_key(p.name).split()[-1], p) for p in knowledge.presidents())
    return {**last, **full}


@cache
def _events() -> dict[str, knowledge.HistoricalEvent]:
    return _unique((name_key(e.name), e) for e in knowledge.historical_events())


def person(name: str) -> PersonAliveFact | None:
    p = _people().get(name_key(name))
    if p is None:
        return None
    died = p.died.isoformat() if p.died else None
    return PersonAliveFact(p.name, p.born.isoformat(), died, p.description)


def president(name: str) -> UsPresidentFact | None:
    p = _presidents().get(name_key(re.sub(r"^(?:US\s+|U\.S\.\s+)?President\s+", "", name)))
    return UsPresidentFact(p.name, known_terms(p)) if p is not None else None


def event(name: str, relation: str) -> EventRelationFact | None:
    e = _events().get(name_key(name))
    if e is None:
        return None
    return EventRelationFact(e.name, e.start.isoformat(), e.end.isoformat(), relation)


_SPORTS = (
    (re.compile(r"(?i)summer\s+olympic"), "summer_olympics"),
    (re.compile(r"(?i)winter\s+olympic"), "winter_olympics"),
    (re.compile(r"(?i)(?:fifa\s+)?(?:men's\s+)?(?:football\s+|soccer\s+)?world\s+cup"),
     "fifa_world_cup"),
)  # fmt: skip


def sports(words: str) -> SportsEventYearFact | None:
    """The sporting event ``words`` name ("the Summer Olympics", "a World Cup")."""
    for pattern, name in _SPORTS:
        if pattern.search(words):
            return SportsEventYearFact(name, tuple(knowledge.sports_events()[name].years))
    return None
