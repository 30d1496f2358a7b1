"""Knowledge-based facts: lifespans, presidencies, sporting years, historical
events. Their params carry the dates themselves (not just a name), so a record
stays solvable and checkable even if the shipped knowledge base changes.

The *implicit* style names the event and leaves the dates to the reader (the
paper's default, which needs recall or search); the *explicit* style spells
the dates out, isolating pure temporal reasoning.
"""

from __future__ import annotations

import calendar as _cal
import datetime as _dt
import random
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import ClassVar

import numpy as np

from tsolve.calendars import knowledge
from tsolve.calendars.domain import DateDomain, parse_iso
from tsolve.encodings.facts.base import DayView, Fact, Level, Style, register_fact
from tsolve.encodings.facts.words import join_or
from tsolve.encodings.ir import IntervalSet
from tsolve.errors import TsolveError


@lru_cache(maxsize=65536)
def _day(text: str, field: str) -> int:
    return parse_iso(text, field).toordinal()


def _month_end(d: _dt.date) -> int:
    """The day number of the last day of ``d``'s month."""
    return d.toordinal() - d.day + _cal.monthrange(d.year, d.month)[1]


def _overlaps(lo: int, hi: int, domain: DateDomain) -> bool:
    return lo <= domain.end and hi >= domain.start


@register_fact
@dataclass(frozen=True)
class PersonAliveFact(Fact):
    """born ≤ date ≤ died. ``died`` null means still alive: only ``born`` binds."""

    kind: ClassVar[str] = "person_alive"
    level: ClassVar[Level] = Level.YEAR
    anchor: ClassVar[bool] = True
    person: str
    born: str
    died: str | None = None
    description: str | None = None

    def __post_init__(self) -> None:
        b = _day(self.born, "person_alive.born")
        if self.died is not None and _day(self.died, "person_alive.died") < b:
            raise TsolveError(f"person_alive.died: {self.died} is before born {self.born}")

    def _range(self) -> tuple[int, int]:
        hi = _day(self.died, "died") if self.died is not None else _dt.date.max.toordinal()
        return _day(self.born, "born"), hi

    def holds(self, view: DayView) -> np.ndarray:
        lo, hi = self._range()
        return np.asarray((view.days >= lo) & (view.days <= hi))

    def day_intervals(self) -> IntervalSet:
        return IntervalSet((self._range(),))

    def render(self, style: Style = "implicit") -> str:
        who = self.description or self.person
        if style == "explicit":
            if self.died is None:
                return f"The date is on or after {self.born} (the birth date of {self.person})."
            return (
                f"The date is between {self.born} and {self.died} inclusive "
                f"(the lifetime of {self.person})."
            )
        return f"{who[0].upper()}{who[1:]} was alive on this date."

    @classmethod
    def _from_person(cls, p: knowledge.Person) -> PersonAliveFact:
        return _person_fact(p)

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        alive = knowledge.lifetimes().containing(int(seed.days[0]))
        return cls._from_person(rng.choice(alive)) if alive else None

    @classmethod
    def sample_anchor(cls, rng: random.Random, domain: DateDomain) -> Fact | None:
        ok = _people_in(domain)
        return cls._from_person(rng.choice(ok)) if ok else None


# The fact of each packaged person, built once: a fact is a frozen value, so the
# one object serves every draw (constructing it parses its dates, a few µs the
# generator spent on every draw). Bounded by the packaged table; never stale.
@cache
def _person_fact(p: knowledge.Person) -> PersonAliveFact:
    died = p.died.isoformat() if p.died else None
    return PersonAliveFact(p.name, p.born.isoformat(), died, p.description)


# The people an anchor may name over a domain (dead, and alive in it): a few
# domains are in use at a time; the packaged table and the frozen domain fix
# it, so never stale.
@lru_cache(maxsize=16)
def _people_in(domain: DateDomain) -> tuple[knowledge.Person, ...]:
    return tuple(
        p for p in knowledge.people()
        if p.died is not None and _overlaps(p.born.toordinal(), p.died.toordinal(), domain)
    )  # fmt: skip


@register_fact
@dataclass(frozen=True)
class UsPresidentFact(Fact):
    """The date falls in one of the terms. Terms are closed and inauguration day
    belongs to the incoming president, so a term ends the day before the
    successor's inauguration."""

    kind: ClassVar[str] = "us_president"
    level: ClassVar[Level] = Level.YEAR
    anchor: ClassVar[bool] = True
    seed_determined: ClassVar[bool] = True
    president: str
    terms: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        if not self.terms:
            raise TsolveError("us_president.terms: at least one [start, end] term is needed")
        for t in self.terms:
            if not isinstance(t, tuple) or len(t) != 2 or t[1] is None:
                raise TsolveError(f"us_president.terms: each term must be [start, end], got {t!r}")
            if _day(t[1], "us_president.terms") < _day(t[0], "us_president.terms"):
                raise TsolveError(f"us_president.terms: term {list(t)} ends before it starts")

    def holds(self, view: DayView) -> np.ndarray:
        out = np.zeros(view.days.shape, dtype=bool)
        for s, e in self.terms:
            out |= (view.days >= _day(s, "start")) & (view.days <= _day(e, "end"))
        return out

    def day_intervals(self) -> IntervalSet:
        return IntervalSet.from_intervals((_day(s, "start"), _day(e, "end")) for s, e in self.terms)

    def render(self, style: Style = "implicit") -> str:
        if style == "explicit":
            spans = join_or([f"between {s} and {e}" for s, e in self.terms])
            return f"The date is {spans} inclusive (when {self.president} was US president)."
        return (
            f"{self.president} was the President of the United States on this date "
            "(an inauguration day counts for the incoming president)."
        )

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        found = _president_index().containing(int(seed.days[0]))
        return found[0] if found else None

    @classmethod
    def sample_anchor(cls, rng: random.Random, domain: DateDomain) -> Fact | None:
        ok = _presidents_in(domain)
        return rng.choice(ok) if ok else None


#: The first day of the presidents the generator draws (as anchors and on a
#: seed day): Truman's, where the knowledge base began when generator version
#: 11's records were made. The presidents before him (Washington on, 1789) are
#: known to every reader, solver, reading and audit, but drawing them would
#: change the records that every existing config regenerates byte for byte.
GENERATED_PRESIDENTS_FROM = _dt.date(1945, 4, 12)


def generated_presidents() -> tuple[knowledge.President, ...]:
    """The packaged presidents the generator may name (every tenure from
    :data:`GENERATED_PRESIDENTS_FROM` on)."""
    return tuple(p for p in knowledge.presidents() if p.terms[0][0] >= GENERATED_PRESIDENTS_FROM)


# Each generated president's fact, indexed by the days of their known terms:
# the first president (in the table's order) whose term holds a day, by one
# binary search where a scan parsed every term's dates on every draw. Built
# once from the packaged table; never stale.
@cache
def _president_index() -> knowledge.IntervalIndex[UsPresidentFact]:
    items, lo, hi = [], [], []
    for p in generated_presidents():
        fact = UsPresidentFact(p.name, known_terms(p))
        for s, e in fact.terms:
            items.append(fact)
            lo.append(_day(s, "s"))
            hi.append(_day(e, "e"))
    return knowledge.IntervalIndex(items, lo, hi)


# The presidents an anchor may name over a domain (a term in it); keyed by the
# frozen domain, a few in use at a time; never stale.
@lru_cache(maxsize=16)
def _presidents_in(domain: DateDomain) -> tuple[UsPresidentFact, ...]:
    ok = []
    for p in generated_presidents():
        terms = known_terms(p)
        if any(_overlaps(_day(s, "s"), _day(e, "e"), domain) for s, e in terms):
            ok.append(UsPresidentFact(p.name, terms))
    return tuple(ok)


def known_terms(p: knowledge.President) -> tuple[tuple[str, str], ...]:
    """``p``'s tenures as far as they are known: a tenure still under way ends,
    for the canonical reading, on the knowledge base's as-of date (what comes
    after it is the horizon reading, see ``readings``)."""
    asof = knowledge.KNOWLEDGE_AS_OF
    return tuple(
        (s.isoformat(), (e if e is not None else max(s, asof)).isoformat()) for s, e in p.terms
    )


SPORTS_LABELS = {
    "summer_olympics": "the Summer Olympic Games were held",
    "winter_olympics": "the Winter Olympic Games were held",
    "fifa_world_cup": "the FIFA World Cup was held",
}


@register_fact
@dataclass(frozen=True)
class SportsEventYearFact(Fact):
    kind: ClassVar[str] = "sports_event_year"
    level: ClassVar[Level] = Level.YEAR
    anchor: ClassVar[bool] = True
    event: str
    years: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.event not in SPORTS_LABELS:
            raise TsolveError(
                f"sports_event_year.event: unknown event {self.event!r} "
                f"(known: {', '.join(SPORTS_LABELS)})"
            )
        if not self.years or not all(
            isinstance(y, int) and not isinstance(y, bool) for y in self.years
        ):
            raise TsolveError(
                f"sports_event_year.years: expected a list of years, got {self.years!r}"
            )

    def holds(self, view: DayView) -> np.ndarray:
        y = view.greg.year
        if y.size == 0:
            return np.zeros(0, dtype=bool)
        lo = int(y.min())
        lut = np.zeros(int(y.max()) - lo + 1, dtype=bool)
        inside = [v - lo for v in self.years if 0 <= v - lo < lut.size]
        lut[inside] = True
        return lut[y - lo]

    def day_intervals(self) -> IntervalSet:
        return IntervalSet.from_intervals(
            (_dt.date(y, 1, 1).toordinal(), _dt.date(y, 12, 31).toordinal())
            for y in self.years
            if _dt.MINYEAR <= y <= _dt.MAXYEAR
        )

    def render(self, style: Style = "implicit") -> str:
        if style == "explicit":
            ys = ", ".join(str(y) for y in self.years)
            return f"The year is one of {ys} (the years in which {SPORTS_LABELS[self.event]})."
        return f"The date is in a year in which {SPORTS_LABELS[self.event]}."

    @classmethod
    def _of(cls, event: str) -> SportsEventYearFact:
        return _sports_fact(event)

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        ok = _sports_in_year(int(seed.greg.year[0]))
        return cls._of(rng.choice(ok)) if ok else None

    @classmethod
    def sample_anchor(cls, rng: random.Random, domain: DateDomain) -> Fact | None:
        lo, hi = domain.start_date.year, domain.end_date.year
        ok = [
            e for e, ev in sorted(knowledge.sports_events().items())
            if any(lo <= y <= hi for y in ev.years)
        ]  # fmt: skip
        return cls._of(rng.choice(ok)) if ok else None


RELATION_LEVELS = {
    "same_day": Level.DAY,
    "anniversary": Level.DAY,
    "same_month": Level.MONTH,
    "same_year": Level.YEAR,
    "before": Level.YEAR,
    "after": Level.YEAR,
}


def _relation_holds(ev: knowledge.HistoricalEvent, relation: str, d: _dt.date) -> bool:
    """Scalar twin of :meth:`EventRelationFact.holds` for one day, used to pick
    candidate events fast; tests hold the two equal."""
    s, e = ev.start, ev.end
    if relation == "same_day":
        return s <= d <= e
    if relation == "anniversary":
        return (d.month, d.day) == (s.month, s.day)
    if relation == "same_month":
        return (s.year, s.month) <= (d.year, d.month) <= (e.year, e.month)
    if relation == "same_year":
        return s.year <= d.year <= e.year
    if relation == "before":
        return d < s
    return d > e


def _relation_key(relation: str, d: _dt.date) -> int:
    """The number a day is looked up by in :func:`_relation_facts`."""
    if relation == "anniversary":
        return d.month * 32 + d.day
    if relation == "same_month":
        return d.year * 12 + d.month
    if relation == "same_year":
        return d.year
    return d.toordinal()


def _relation_span(ev: knowledge.HistoricalEvent, relation: str) -> tuple[int, int]:
    """The keys (:func:`_relation_key`) of the days ``relation`` to ``ev`` holds on."""
    s, e = ev.start, ev.end
    if relation == "anniversary":
        return s.month * 32 + s.day, s.month * 32 + s.day
    if relation == "same_month":
        return s.year * 12 + s.month, e.year * 12 + e.month
    if relation == "same_year":
        return s.year, e.year
    if relation == "before":
        return 1, s.toordinal() - 1
    if relation == "after":
        return e.toordinal() + 1, _dt.date.max.toordinal()
    return s.toordinal(), e.toordinal()


#: The first day of the events the generator draws on a seed day into a
#: domain that begins on or after it: the first day of tsolve's default
#: domain, on or after which every event lay when generator version 11's
#: records were made. A seed day relates to events before it too ("after",
#: "anniversary"), so the events added before 1900 would otherwise change the
#: records every existing config regenerates byte for byte. A domain that
#: begins earlier (``--preset paper``, 1800 on) draws every packaged event.
GENERATED_EVENTS_FROM = _dt.date(1900, 1, 31)


def generated_events_since(domain: DateDomain) -> int:
    """The day number from which the generator draws events on a seed day of
    ``domain`` (:data:`GENERATED_EVENTS_FROM`, or every event: 1)."""
    since = GENERATED_EVENTS_FROM.toordinal()
    return 1 if domain.start < since else since


# Per relation, the facts "relation to each packaged event" (those that
# start on or after day ``since``), indexed by the keys of the days the
# relation holds on (knowledge.IntervalIndex): a draw finds its candidates as
# facts, built once (a fact's construction parses its dates). Six relations
# times the two ``since`` values in use; built from the packaged table, so
# never stale.
@cache
def _relation_facts(relation: str, since: int = 1) -> knowledge.IntervalIndex[EventRelationFact]:
    events = [ev for ev in knowledge.historical_events() if ev.start.toordinal() >= since]
    spans = [_relation_span(ev, relation) for ev in events]
    facts = [_event_fact(ev, relation) for ev in events]
    return knowledge.IntervalIndex(facts, [a for a, _ in spans], [b for _, b in spans])


def _facts_related(day: int, relation: str, since: int = 1) -> tuple[EventRelationFact, ...]:
    """The facts "``relation`` to an event" (one starting on or after day
    ``since``) true on ``day``, in the knowledge base's order: by binary
    search in the relation's index, not a scan of every event (tests hold it
    equal to :func:`_relation_holds` over all events)."""
    key = _relation_key(relation, _dt.date.fromordinal(day))
    return _relation_facts(relation, since).containing(key)


@register_fact
@dataclass(frozen=True)
class EventRelationFact(Fact):
    """The date relates to a dated historical event ``[start, end]``:

    * ``same_day``: on a day of the event (start ≤ d ≤ end)
    * ``anniversary``: same month and day as the event's start, any year
    * ``same_month``: in a (year, month) the event touched
    * ``same_year``: in a year the event touched
    * ``before``: strictly before the start; ``after``: strictly after the end
    """

    kind: ClassVar[str] = "event_relation"
    level: ClassVar[Level] = Level.YEAR  # nominal; see fact_level()
    anchor: ClassVar[bool] = True
    event: str
    start: str
    end: str
    relation: str

    def __post_init__(self) -> None:
        if self.relation not in RELATION_LEVELS:
            raise TsolveError(
                f"event_relation.relation: unknown relation {self.relation!r} "
                f"(known: {', '.join(RELATION_LEVELS)})"
            )
        if _day(self.end, "event_relation.end") < _day(self.start, "event_relation.start"):
            raise TsolveError(f"event_relation.end: {self.end} is before start {self.start}")

    @classmethod
    def levels(cls) -> tuple[Level, ...]:
        return (Level.YEAR, Level.MONTH, Level.DAY)

    def fact_level(self) -> Level:
        return RELATION_LEVELS[self.relation]

    def holds(self, view: DayView) -> np.ndarray:
        s = _dt.date.fromordinal(_day(self.start, "start"))
        e = _dt.date.fromordinal(_day(self.end, "end"))
        d, g = view.days, view.greg
        r = self.relation
        if r == "same_day":
            return np.asarray((d >= s.toordinal()) & (d <= e.toordinal()))
        if r == "anniversary":
            return np.asarray((g.month == s.month) & (g.day == s.day))
        if r == "same_month":
            ym = g.year * 12 + g.month
            return np.asarray((ym >= s.year * 12 + s.month) & (ym <= e.year * 12 + e.month))
        if r == "same_year":
            return np.asarray((g.year >= s.year) & (g.year <= e.year))
        if r == "before":
            return np.asarray(d < s.toordinal())
        return np.asarray(d > e.toordinal())

    def periodic(self) -> bool:
        return self.relation == "anniversary"

    def day_intervals(self) -> IntervalSet | None:
        s = _dt.date.fromordinal(_day(self.start, "start"))
        e = _dt.date.fromordinal(_day(self.end, "end"))
        r = self.relation
        if r == "anniversary":  # recurs every year: no few intervals
            return None
        if r == "same_day":
            span = (s.toordinal(), e.toordinal())
        elif r == "same_month":
            span = (s.replace(day=1).toordinal(), _month_end(e))
        elif r == "same_year":
            span = (_dt.date(s.year, 1, 1).toordinal(), _dt.date(e.year, 12, 31).toordinal())
        elif r == "before":
            span = (1, s.toordinal() - 1)
        else:
            span = (e.toordinal() + 1, _dt.date.max.toordinal())
        return IntervalSet.from_intervals([span])

    def render(self, style: Style = "implicit") -> str:
        single = self.start == self.end
        ev = self.event
        r = self.relation
        if r == "same_day":
            text = f"The date is the day of {ev}" if single else f"The date falls during {ev}"
        elif r == "anniversary":
            # "as" takes a noun phrase: "as the first day of X", never "as X began"
            # ("the same month and day as Charles Lindbergh's flight began" read badly).
            start = "" if single else "the first day of "
            text = f"The date has the same month and day as {start}{ev}"
        elif r == "same_month":
            text = (
                f"The date is in the same month of the same year as {ev}" if single
                else f"The date is in the same month of the same year as a day of {ev}"
            )  # fmt: skip
        elif r == "same_year":
            text = (
                f"The date is in the same year as {ev}" if single
                else f"The date is in a year in which {ev} was under way"
            )  # fmt: skip
        elif r == "before":
            text = f"The date is before {ev}" + ("" if single else " began")
        else:
            text = f"The date is after {ev}" + ("" if single else " ended")
        if style == "explicit":
            text += f" ({self.start})" if single else f" ({self.start} to {self.end})"
        # One full stop, also after a name that ends in one ("Martin Luther King Jr.").
        return text if text.endswith(".") else text + "."

    @classmethod
    def _of(cls, ev: knowledge.HistoricalEvent, relation: str) -> EventRelationFact:
        return _event_fact(ev, relation)

    @classmethod
    def sample(
        cls, rng: random.Random, seed: DayView, domain: DateDomain, level: Level | None
    ) -> Fact | None:
        rels, weights = _relation_choices(level)
        day = int(seed.days[0])
        # A relation is drawn by weight among those some event meets on the
        # seed (looked up once each), so a draw never comes back empty-handed
        # while a relation with events remains.
        since = generated_events_since(domain)
        found = [_facts_related(day, r, since) for r in rels]
        open_rels = [i for i, ok in enumerate(found) if ok]
        if not open_rels:
            return None
        pick = rng.choices(open_rels, [weights[i] for i in open_rels])[0]
        return rng.choice(found[pick])

    @classmethod
    def sample_anchor(cls, rng: random.Random, domain: DateDomain) -> Fact | None:
        ok = _events_in(domain)
        if not ok:
            return None
        return cls._of(rng.choice(ok), rng.choice(("same_year", "same_year", "same_month")))


# The events an anchor may name over a domain (touching it): keyed by the
# frozen domain, a few in use at a time; never stale.
@lru_cache(maxsize=16)
def _events_in(domain: DateDomain) -> tuple[knowledge.HistoricalEvent, ...]:
    return tuple(
        ev for ev in knowledge.historical_events()
        if _overlaps(ev.start.toordinal(), ev.end.toordinal(), domain)
    )  # fmt: skip


# The relations a draw at a level may take, with their weights: same_day pins
# a single-day event's date outright, so it is kept rare. Four levels (None
# included); fixed by RELATION_LEVELS, so never stale.
@cache
def _relation_choices(level: Level | None) -> tuple[list[str], list[float]]:
    rels = [r for r, lv in RELATION_LEVELS.items() if level is None or lv == level]
    return rels, [0.2 if r == "same_day" else 1.0 for r in rels]


# Each (packaged event, relation)'s fact, built once (a frozen value; its
# construction parses two dates). Bounded: the table's events times six
# relations, least recently used out beyond that; never stale.
@lru_cache(maxsize=8192)
def _event_fact(ev: knowledge.HistoricalEvent, relation: str) -> EventRelationFact:
    return EventRelationFact(ev.name, ev.start.isoformat(), ev.end.isoformat(), relation)


# The fact of each packaged sports event, built once, as _person_fact: a draw
# made a new fact with its tuple of years each time. Bounded by the packaged
# table; never stale.
@cache
def _sports_fact(event: str) -> SportsEventYearFact:
    return SportsEventYearFact(event, tuple(knowledge.sports_events()[event].years))


# The sporting events held in a year, sorted by name: one entry per year a
# draw asks about (bounded); the packaged table fixes it, so never stale.
@lru_cache(maxsize=1024)
def _sports_in_year(year: int) -> tuple[str, ...]:
    return tuple(e for e, ev in sorted(knowledge.sports_events().items()) if year in ev.years)
