"""Relational puzzles' vocabulary: named events, facts on one event, relations
between two events, all compiled to the multi-variable IR.

Every event is one date variable. A *unary* fact is an ordinary calendar fact
(:mod:`tsolve.encodings.facts`) whose IR is retargeted from ``DATE_VAR`` to the
event's variable (:func:`retarget`), so the single-date fact classes are reused
as they are, semantics and all. A *relation* ties two events, ``subject`` and
``reference``, and compiles to ``Diff`` atoms (offsets, windows, order) or to
exact disjunctions (same week, month, year), described on each class.

Only calendar facts are used on events: knowledge-base facts (presidents,
sports events, lifespans, event anchors) have answers that depend on a reading
(the knowledge horizon, a convention); they come to relational puzzles once
the readings API lands.
"""

from __future__ import annotations

import dataclasses
import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from tsolve.calendars.domain import DateDomain, gregorian_fields
from tsolve.encodings.facts import FACT_TYPES, Fact, fact_constraint, fact_from_json
from tsolve.encodings.ir import (
    DATE_VAR,
    And,
    Diff,
    Formula,
    In,
    IntervalSet,
    Mod,
    Or,
    renamed,
)
from tsolve.errors import TsolveError
from tsolve.records.validation import bad, expect_dict, expect_int, expect_list, expect_str

EVENT_NAMES: tuple[str, ...] = (
    "the board meeting",
    "the product launch",
    "the audit",
    "the press conference",
    "the team offsite",
    "the budget review",
    "the site inspection",
    "the client workshop",
)
"""The fixed list events are named from: short, distinct, and none a prefix
of another, so an answer line names each one unambiguously."""

UNARY_KINDS: tuple[str, ...] = (
    "year", "decade", "leap_year", "month", "season", "weekday", "weekdays",
    "weekday_in_month", "day_of_month", "day_of_month_range", "chinese_zodiac", "lunar_month",
)  # fmt: skip
"""Calendar fact kinds allowed on an event: their truth has one reading (the
lunar ones inside the table's span, see :func:`lunar_allowed`)."""

_LUNAR = ("chinese_zodiac", "lunar_month")
_DISPUTED_LUNAR_MONTHS = ((2057, 9), (2089, 9), (2097, 8))
"""Gregorian months in which published Chinese calendars disagree on a new
moon's day: a lunar fact is not used over a domain that touches them."""


def lunar_allowed(domain: DateDomain) -> bool:
    """May lunar facts be used over ``domain`` (inside 1800..2100, away from
    the months whose lunar dates are disputed)?"""
    if not FACT_TYPES["lunar_month"].available(domain):
        return False
    g = gregorian_fields(np.asarray([domain.start, domain.end]))
    first = int(g.year[0]) * 12 + int(g.month[0])
    last = int(g.year[1]) * 12 + int(g.month[1])
    return not any(first <= y * 12 + m <= last for y, m in _DISPUTED_LUNAR_MONTHS)


def retarget(f: Formula, var: str, source: str = DATE_VAR) -> Formula:
    """``f`` with variable ``source`` renamed to ``var``: a single-date fact's
    IR becomes a fact on one event's date."""
    return renamed(f, {source: var})


_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
NUMBER_WORDS = dict(enumerate(_WORDS.split()))


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _number(n: int, style: str) -> str:
    """Words in the implicit style (up to twenty), digits in the explicit one."""
    return NUMBER_WORDS.get(n, str(n)) if style == "implicit" else str(n)


@dataclass(frozen=True)
class Event:
    """A named event and its date variable."""

    name: str
    var: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "var": self.var}


# --------------------------------------------------------------------- unary
@dataclass(frozen=True)
class EventFact:
    """A calendar fact about one event's date."""

    fact: Fact
    event: Event

    @property
    def kind(self) -> str:
        return self.fact.kind

    @property
    def vars(self) -> tuple[str, ...]:
        return (self.event.var,)

    def constraint(self, domain: DateDomain) -> Formula:
        return retarget(fact_constraint(self.fact, domain), self.event.var)

    def mask(self, domain: DateDomain) -> np.ndarray:
        """Truth over the domain's days (the generator's fast path)."""
        return _unary_mask(self.fact, domain)

    def render(self, style: str) -> str:
        sentence = self.fact.render(style)  # type: ignore[arg-type]
        return f"For {self.event.name}, {sentence[:1].lower()}{sentence[1:]}"

    def to_json(self, style: str) -> dict[str, Any]:
        return {"kind": self.kind, "event": self.event.var, "params": self.fact.params,
                "text": self.render(style)}  # fmt: skip


@lru_cache(maxsize=4096)
def _unary_mask(fact: Fact, domain: DateDomain) -> np.ndarray:
    from tsolve.encodings.facts import domain_view

    return np.asarray(fact.holds(domain_view(domain)), dtype=bool)


# ------------------------------------------------------------------ relations
@dataclass(frozen=True)
class Relation(ABC):
    """A fact tying ``subject``'s date x to ``reference``'s date y.

    ``matrix(domain)`` is its truth table over pairs of days (rows x, columns
    y), used by the generator's counting; ``constraint`` is the IR the solvers
    see. Tests hold the two equal."""

    kind: ClassVar[str]
    symmetric: ClassVar[bool] = False

    @abstractmethod
    def ir(self, x: str, y: str, domain: DateDomain) -> Formula:
        """The IR over variables x (subject) and y (reference)."""

    @abstractmethod
    def table(self, domain: DateDomain) -> tuple[int, int] | np.ndarray:
        """The truth table's shape over the domain: ``(lo, hi)`` when it is
        lo ≤ x − y ≤ hi, else an array of period keys (one per day; true iff
        x and y have equal keys)."""

    def matrix(self, domain: DateDomain) -> np.ndarray:
        """Boolean (D x D) truth table: entry [i, j] is the truth for
        x = start + i, y = start + j (for tests and small domains)."""
        shape = self.table(domain)
        if isinstance(shape, tuple):
            idx = np.arange(domain.size, dtype=np.int64)
            d = idx[:, None] - idx[None, :]
            return np.asarray((d >= shape[0]) & (d <= shape[1]))
        return np.asarray(shape[:, None] == shape[None, :])

    def propagate(self, domain: DateDomain, v: np.ndarray, transpose: bool = False) -> np.ndarray:
        """``matrix @ v`` (or ``matrix.T @ v``) in O(D), without the matrix:
        a window sum for difference bounds (prefix sums), a per-period total
        for period keys. ``v`` holds non-negative integer counts as floats;
        sums stay exact below 2**53."""
        shape = _compiled_table(self, domain)
        if isinstance(shape, tuple):
            lo, hi = (-shape[1], -shape[0]) if transpose else shape
            n = v.size
            c = np.concatenate(([0.0], np.cumsum(v)))
            i = np.arange(n)
            a = np.clip(i - hi, 0, n)
            b = np.clip(i - lo + 1, 0, n)
            return np.where(b > a, c[b] - c[np.minimum(a, b)], 0.0)
        return np.asarray(np.bincount(shape, weights=v)[shape])

    @abstractmethod
    def phrase(self, subject: str, reference: str, style: str) -> str:
        """The English sentence."""

    @property
    def params(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@lru_cache(maxsize=1024)
def _compiled_table(rel: Relation, domain: DateDomain) -> tuple[int, int] | np.ndarray:
    """``rel.table(domain)`` with period keys renumbered 0..k-1 (for
    ``bincount``), kept per relation and domain: generation propagates the
    same relations thousands of times."""
    shape = rel.table(domain)
    if isinstance(shape, tuple):
        return shape
    return np.unique(shape, return_inverse=True)[1]


def _days_text(n: int, style: str) -> str:
    return f"{_number(n, style)} day{'s' if n != 1 else ''}"


@dataclass(frozen=True)
class DaysAfter(Relation):
    """x − y = days: "the launch was 17 days after the meeting" (negative: before)."""

    kind: ClassVar[str] = "days_after"
    days: int

    def __post_init__(self) -> None:
        expect_int(self.days, "days_after.days", -1000, 1000)
        if self.days == 0:
            raise bad("days_after.days", "a non-zero number of days", 0)

    def ir(self, x: str, y: str, domain: DateDomain) -> Formula:
        return Diff(x, y, self.days, self.days)

    def table(self, domain: DateDomain) -> tuple[int, int]:
        return (self.days, self.days)

    def phrase(self, subject: str, reference: str, style: str) -> str:
        word = "after" if self.days > 0 else "before"
        amount = _days_text(abs(self.days), style)
        text = f"{capitalised(subject)} took place {amount} {word} {reference}"
        if style == "explicit":
            sign = "+" if self.days > 0 else "-"
            unit = "day" if abs(self.days) == 1 else "days"
            text += f" ({subject}'s date = {reference}'s date {sign} {abs(self.days)} {unit})"
        return text + "."


@dataclass(frozen=True)
class WeeksAfter(Relation):
    """x − y = 7·weeks: "exactly three weeks after" (negative: before)."""

    kind: ClassVar[str] = "weeks_after"
    weeks: int

    def __post_init__(self) -> None:
        expect_int(self.weeks, "weeks_after.weeks", -150, 150)
        if self.weeks == 0:
            raise bad("weeks_after.weeks", "a non-zero number of weeks", 0)

    def ir(self, x: str, y: str, domain: DateDomain) -> Formula:
        return Diff(x, y, 7 * self.weeks, 7 * self.weeks)

    def table(self, domain: DateDomain) -> tuple[int, int]:
        return (7 * self.weeks, 7 * self.weeks)

    def phrase(self, subject: str, reference: str, style: str) -> str:
        n = abs(self.weeks)
        word = "after" if self.weeks > 0 else "before"
        text = (f"{capitalised(subject)} took place exactly {_number(n, style)} "
                f"week{'s' if n != 1 else ''} {word} {reference}")  # fmt: skip
        if style == "explicit":
            text += f" ({7 * n} days {word})"
        return text + "."


@dataclass(frozen=True)
class DaysAfterWithin(Relation):
    """lo ≤ x − y ≤ hi with 1 ≤ lo ≤ hi ("between 3 and 10 days after",
    inclusive), or −hi ≤ x − y ≤ −lo for ``direction`` "before"."""

    kind: ClassVar[str] = "days_after_within"
    lo: int
    hi: int
    direction: str = "after"

    def __post_init__(self) -> None:
        expect_int(self.lo, "days_after_within.lo", 1, 1000)
        expect_int(self.hi, "days_after_within.hi", self.lo, 1000)
        if self.direction not in ("after", "before"):
            raise bad("days_after_within.direction", "'after' or 'before'", self.direction)

    def _bounds(self) -> tuple[int, int]:
        return (self.lo, self.hi) if self.direction == "after" else (-self.hi, -self.lo)

    def ir(self, x: str, y: str, domain: DateDomain) -> Formula:
        return Diff(x, y, *self._bounds())

    def table(self, domain: DateDomain) -> tuple[int, int]:
        return self._bounds()

    def phrase(self, subject: str, reference: str, style: str) -> str:
        words = style if self.hi in NUMBER_WORDS else "explicit"  # never "twenty and 21"
        if self.lo == self.hi:
            amount = _days_text(self.hi, words)
            return f"{capitalised(subject)} took place {amount} {self.direction} {reference}."
        return (
            f"{capitalised(subject)} took place between {_number(self.lo, words)} and "
            f"{_days_text(self.hi, words)} {self.direction} {reference} (both bounds included)."
        )


@dataclass(frozen=True)
class Earlier(Relation):
    """x < y (strictly, on an earlier day): ``Diff(y, x, 1, span)``."""

    kind: ClassVar[str] = "earlier"

    def ir(self, x: str, y: str, domain: DateDomain) -> Formula:
        return Diff(y, x, 1, domain.size)

    def table(self, domain: DateDomain) -> tuple[int, int]:
        return (-domain.size, -1)

    def phrase(self, subject: str, reference: str, style: str) -> str:
        return f"{capitalised(subject)} took place on an earlier day than {reference}."


@dataclass(frozen=True)
class SameWeek(Relation):
    """Same Monday-to-Sunday week. Exact IR without a week table: if x is
    the p-th day of its week (p = 0 for Monday, i.e. x ≡ p + 1 mod 7, since
    day 1 was a Monday), y shares the week iff −p ≤ y − x ≤ 6 − p. So
    ``Or_p (Mod(x, 7, p+1) ∧ Diff(y, x, −p, 6−p))``: seven disjuncts."""

    kind: ClassVar[str] = "same_week"
    symmetric: ClassVar[bool] = True

    def ir(self, x: str, y: str, domain: DateDomain) -> Formula:
        return Or(tuple(And((Mod(x, 7, (p + 1) % 7), Diff(y, x, -p, 6 - p))) for p in range(7)))

    def table(self, domain: DateDomain) -> np.ndarray:
        return np.asarray((domain.days - 1) // 7)

    def phrase(self, subject: str, reference: str, style: str) -> str:
        return (f"{capitalised(subject)} took place in the same week as {reference} "
                "(weeks run from Monday to Sunday).")  # fmt: skip


def _period_sets(domain: DateDomain, unit: str) -> tuple[IntervalSet, ...]:
    """The months (or years) that meet ``domain``, each as an interval set."""
    g = gregorian_fields(domain.days)
    key = g.year * 12 + g.month - 1 if unit == "month" else g.year
    starts = np.flatnonzero(np.diff(np.concatenate(([key[0] - 1], key))))
    bounds: list[int] = [*(int(a) for a in starts), domain.size]
    return tuple(
        IntervalSet(((domain.start + a, domain.start + b - 1),))
        for a, b in itertools.pairwise(bounds)
    )


@dataclass(frozen=True)
class SamePeriod(Relation):
    """Same calendar month (of the same year) or same calendar year. Exact IR:
    ``Or_P (In(x, P) ∧ In(y, P))`` over the periods P that meet the domain
    (a few dozen for a relational puzzle's few-year domain)."""

    kind: ClassVar[str] = "same_period"
    symmetric: ClassVar[bool] = True
    unit: str = "month"

    def __post_init__(self) -> None:
        if self.unit not in ("month", "year"):
            raise bad("same_period.unit", "'month' or 'year'", self.unit)

    def ir(self, x: str, y: str, domain: DateDomain) -> Formula:
        return Or(tuple(And((In(x, s), In(y, s))) for s in _period_sets(domain, self.unit)))

    def table(self, domain: DateDomain) -> np.ndarray:
        g = gregorian_fields(domain.days)
        return np.asarray(g.year * 12 + g.month if self.unit == "month" else g.year)

    def phrase(self, subject: str, reference: str, style: str) -> str:
        what = "calendar month (of the same year)" if self.unit == "month" else "calendar year"
        return f"{capitalised(subject)} took place in the same {what} as {reference}."


RELATION_TYPES: dict[str, type[Relation]] = {
    c.kind: c for c in (DaysAfter, WeeksAfter, DaysAfterWithin, Earlier, SameWeek, SamePeriod)
}


@dataclass(frozen=True)
class EventRelation:
    """A relation placed on two events: (subject, reference)."""

    relation: Relation
    subject: Event
    reference: Event

    @property
    def kind(self) -> str:
        return self.relation.kind

    @property
    def vars(self) -> tuple[str, ...]:
        return (self.subject.var, self.reference.var)

    def constraint(self, domain: DateDomain) -> Formula:
        return self.relation.ir(self.subject.var, self.reference.var, domain)

    def render(self, style: str) -> str:
        return self.relation.phrase(self.subject.name, self.reference.name, style)

    def to_json(self, style: str) -> dict[str, Any]:
        return {"kind": self.kind, "events": [self.subject.var, self.reference.var],
                "params": self.relation.params, "text": self.render(style)}  # fmt: skip


PuzzleFact = EventFact | EventRelation


# ------------------------------------------------------------------ reading
def events_from_json(value: Any, field: str = "events") -> tuple[Event, ...]:
    """Validate a record's ``events`` list: 1..8 events with distinct names and variables."""
    items = expect_list(value, field, max_len=len(EVENT_NAMES), min_len=1)
    out = []
    for k, item in enumerate(items):
        d = expect_dict(item, f"{field}[{k}]")
        name = expect_str(d.get("name"), f"{field}[{k}].name", 100)
        var = expect_str(d.get("var"), f"{field}[{k}].var", 20)
        if not var.isidentifier() or var == DATE_VAR:
            raise bad(f"{field}[{k}].var", "an identifier other than 'd'", var)
        out.append(Event(name, var))
    for attr in ("name", "var"):
        seen = [getattr(e, attr) for e in out]
        if len(set(seen)) != len(seen):
            raise TsolveError(f"{field}: two events share a {attr}: {seen}")
    return tuple(out)


def puzzle_fact_from_json(value: Any, events: dict[str, Event], field: str) -> PuzzleFact:
    """One entry of a relational record's ``facts``: a unary fact (``event``)
    or a relation (``events``: [subject, reference])."""
    d = expect_dict(value, field)
    kind = expect_str(d.get("kind"), f"{field}.kind", 100)
    params = d.get("params", {})
    if "events" in d:
        cls = RELATION_TYPES.get(kind)
        if cls is None:
            raise bad(f"{field}.kind", f"a relation ({', '.join(RELATION_TYPES)})", kind)
        pair = expect_list(d["events"], f"{field}.events", max_len=2, min_len=2)
        subj, ref = (_event(events, v, f"{field}.events[{k}]") for k, v in enumerate(pair))
        if subj == ref:
            raise bad(f"{field}.events", "two different events", pair)
        params = expect_dict(params, f"{field}.params")
        names = {f.name for f in dataclasses.fields(cls)}
        if set(params) - names:
            raise bad(f"{field}.params", f"keys among {sorted(names)}", sorted(params))
        try:
            rel = cls(**params)
        except TypeError as exc:
            raise TsolveError(f"{field}.params: {exc}") from None
        return EventRelation(rel, subj, ref)
    if kind not in UNARY_KINDS:
        raise bad(f"{field}.kind", f"a calendar fact ({', '.join(UNARY_KINDS)})", kind)
    ev = _event(events, d.get("event"), f"{field}.event")
    try:
        fact = fact_from_json({"kind": kind, "params": params})
    except TsolveError as exc:
        raise TsolveError(f"{field}: {exc}") from None
    return EventFact(fact, ev)


def _event(events: dict[str, Event], var: Any, field: str) -> Event:
    name = expect_str(var, field, 20)
    if name not in events:
        raise bad(field, f"one of the record's events ({', '.join(events)})", name)
    return events[name]
