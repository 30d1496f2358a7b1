"""Relational puzzles: several events, one or more unknown dates.

A puzzle has N named events (2..4 by default). Its relations form a tree over
the events (each event after the first is tied to an earlier one), and calendar
facts sit on single events. Generation mirrors the single-date generator:

1. draw the tree and a hidden seed tuple (one date per event) that satisfies
   every relation: the root's date uniformly, each child's from its relation;
2. add calendar facts true on the seed tuple, then repair (add, drop or redraw
   a fact) until the answer set has exactly M elements: M date tuples, or M
   dates of the asked event when the record asks for one event;
3. take the gold answers from the solver with cap M + 1, and fail loudly if
   the solver disagrees with the search.

The search counts exactly by message passing over the tree (belief
propagation with counts): each relation's truth table is applied in O(D) as a
window sum or a per-period total (:meth:`Relation.propagate`), so a count costs
a few NumPy passes over the domain, not a solver call.

Record i is a pure function of ``(seed, i)`` and the config.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import networkx as nx
import numpy as np

from tsolve.calendars.domain import DateDomain, iso
from tsolve.encodings.facts import FACT_TYPES, DayView
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.encoding import (
    EVENT_NAMES,
    UNARY_KINDS,
    DaysAfter,
    DaysAfterWithin,
    Earlier,
    Event,
    EventFact,
    EventRelation,
    PuzzleFact,
    Relation,
    SamePeriod,
    SameWeek,
    WeeksAfter,
    capitalised,
    lunar_allowed,
)
from tsolve.families.relational_puzzles.solve import (
    FAMILY,
    KIND,
    MAX_DOMAIN_DAYS,
    RelationalPuzzle,
    answers_json,
    solve_relational,
)
from tsolve.generators.options import cycled
from tsolve.generators.seeding import generator_stamp, record_rng, run_records
from tsolve.generators.style_pairs import (
    as_tuple,
    check_styles,
    content_fingerprint,
    pair_id,
    style_json,
    style_slot,
    styled_id,
)

GENERATOR_NAME = "relational-puzzles"
# 2: ids name the style (``rp-2-0-implicit``), ``pair`` names the same
# puzzle's id in the other style, and ``style`` may list both
# (generators/style_pairs.py). The random key carries the version, as for
# every family (tsolve.generators.seeding), so puzzle i of a run differs from version 1's.
# 3: the random key carries the options' salt and a redraw attempt (generators/seeding.py).
GENERATOR_VERSION = "3"
# Ids carry the options' fingerprint (``rp-2-0-0c41d7-implicit``) since issue
# 21; the version is kept because content is unchanged (it keys the randomness).
MAX_EVENTS = 4
MAX_SOLUTIONS = 60
DEFAULT_DOMAIN = DateDomain.from_dates("2023-01-01", "2025-12-31")
"""Three years: wide enough for every relation, small enough that the
enumerator oracle can check 2-event puzzles over it (1,096² pairs); tests of
3-4 events use smaller domains so the oracle stays under 5M combinations."""

RELATION_KINDS = ("days_after", "weeks_after", "days_after_within", "earlier",
                  "same_week", "same_month", "same_year")  # fmt: skip

# Categories that would restate each other on one event (as in the single-date generator).
_CLASH = {
    frozenset(p)
    for p in [
        ("weekday", "weekdays"), ("weekday", "weekday_in_month"), ("weekdays", "weekday_in_month"),
        ("month", "season"), ("year", "decade"), ("year", "leap_year"), ("year", "chinese_zodiac"),
        ("day_of_month", "day_of_month_range"), ("day_of_month", "weekday_in_month"),
    ]
}  # fmt: skip

PROMPT_TEMPLATE = """\
Several events took place, each on one day. From the time-related constraints below, \
determine {what}. Depending on the conditions, there may be zero, one or several. Unless \
otherwise stated, interpret all constraints using the Gregorian calendar; every date lies \
between {start} and {end}.

Note: Seasons are defined as:
- Winter: December, January, February
- Spring: March, April, May
- Summer: June, July, August
- Autumn: September, October, November

The events are: {events}.

The constraints are as follows:

{constraints}

Carefully review the constraints and reason step-by-step. {answer}"""

ANSWER_TUPLES = """\
After thorough consideration, end your response with one line per valid combination, each \
of the form
MY ANSWER: {example}
naming every event once, with dates in the format "YYYY-MM-DD". If no combination is valid, \
end with the single line "MY ANSWER: None"."""

ANSWER_EVENT = """\
After thorough consideration, end your response on a new line with "MY ANSWER: " followed by \
the possible date(s) of {event} in the format "YYYY-MM-DD". If there are several, list them \
separated by commas. If no valid date exists, respond with "MY ANSWER: None"."""


@dataclass(frozen=True)
class RelationalConfig:
    """Options. ``solutions`` may be a tuple, cycled over the index as in
    :class:`~tsolve.families.time_puzzles.generate.PuzzleConfig`. ``ask`` is
    ``tuples`` (answers are date tuples), ``event`` (the dates of one event)
    or ``mixed`` (alternating by index)."""

    events: int = 2
    solutions: int | tuple[int, ...] = 1
    facts: int | None = None  # calendar facts; None: N .. N+2 to start, repaired from there
    style: str | tuple[str, ...] = "implicit"  # several: generators/style_pairs.py
    backend: str = "cpsat"
    domain: DateDomain = DEFAULT_DOMAIN
    ask: str = "tuples"
    max_attempts: int = 2_000

    def __post_init__(self) -> None:
        if (
            isinstance(self.events, bool)
            or not isinstance(self.events, int)
            or not (2 <= self.events <= MAX_EVENTS)
        ):
            raise TsolveError(f"events: expected 2..{MAX_EVENTS} for a relational puzzle, "
                              f"got {self.events!r}")  # fmt: skip
        sols = self.solutions if isinstance(self.solutions, tuple) else (self.solutions,)
        if not sols or any(
            isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= MAX_SOLUTIONS
            for m in sols
        ):
            raise TsolveError(f"solutions: expected integers in 0..{MAX_SOLUTIONS}, got {sols!r}")
        if self.facts is not None and not 1 <= self.facts <= 10:
            raise TsolveError(f"facts: expected 1..10 calendar facts, got {self.facts}")
        check_styles(as_tuple(self.style))
        if self.ask not in ("tuples", "event", "mixed"):
            raise TsolveError(f"ask: expected tuples, event or mixed, got {self.ask!r}")
        if self.domain.size > MAX_DOMAIN_DAYS:
            raise TsolveError(
                f"domain: {self.domain.size} days is more than a relational puzzle's "
                f"{MAX_DOMAIN_DAYS}; give --domain-start/--domain-end"
            )
        if self.max_attempts < 1:
            raise TsolveError(f"max_attempts: must be positive, got {self.max_attempts}")

    def target(self, index: int) -> int:
        return cycled(self.solutions, index)

    def asks_event(self, index: int) -> bool:
        return self.ask == "event" or (self.ask == "mixed" and index % 2 == 1)

    def to_json(self) -> dict[str, Any]:
        """The config as written into each record's ``generator.params``. Every
        family's config has this shape: a frozen dataclass, validated when
        built, with ``to_json``."""
        sols = self.solutions
        return {"events": self.events, "solutions": list(sols) if isinstance(sols, tuple) else sols,
                "facts": self.facts, "style": style_json(self.style), "backend": self.backend,
                "domain": self.domain.to_json(), "ask": self.ask}  # fmt: skip


# ----------------------------------------------------------------- counting
def count_answers(
    n: int, unary: list[np.ndarray], relations: list[tuple[int, int, Relation]],
    domain: DateDomain, asked: int | None = None,
) -> int:  # fmt: skip
    """Exact size of the answer set of a tree-shaped puzzle.

    ``unary[i]`` is event i's mask over the domain (all its facts together);
    ``relations`` are (subject, reference, relation) with n − 1 of them forming
    a tree. Rooted at ``asked`` (or event 0), each event's *belief* is its mask
    times, for every child, the number of ways the child's subtree can be
    completed. Tuples: the sum of the root's belief. Asked event: the number
    of its days with a non-zero belief.
    """
    adj: list[list[tuple[int, Relation, bool]]] = [[] for _ in range(n)]
    for s, r, rel in relations:
        adj[s].append((r, rel, False))  # belief(s) needs matrix @ belief(r)
        adj[r].append((s, rel, True))  # belief(r) needs matrix.T @ belief(s)
    root = 0 if asked is None else asked

    def belief(v: int, parent: int) -> np.ndarray:
        b = unary[v].astype(np.float64)
        for c, rel, transpose in adj[v]:
            if c != parent and b.any():
                b = b * rel.propagate(domain, belief(c, v), transpose)
        return b

    rb = belief(root, -1)
    return int(np.count_nonzero(rb)) if asked is not None else round(float(rb.sum()))


# ----------------------------------------------------------------- search
def _child_offset(rng: random.Random, kind: str, day: int, domain: DateDomain) -> int | None:
    """A child date for a relation of ``kind`` to a parent on ``day``."""
    g = DayView(np.asarray([day])).greg
    sign = rng.choice((1, -1))
    if kind == "days_after" or kind == "days_after_within" or kind == "earlier":
        return day + sign * rng.randint(1, 40)
    if kind == "weeks_after":
        return day + sign * 7 * rng.randint(1, 8)
    if kind == "same_week":
        return day - (day - 1) % 7 + rng.randint(0, 6)
    if kind == "same_month":
        return day - int(g.day[0]) + rng.randint(1, int(g.days_in_month[0]))
    year = int(g.year[0])
    first = DateDomain.from_dates(f"{year:04d}-01-01", f"{year:04d}-12-31")
    return rng.randint(first.start, first.end)


def _relation(rng: random.Random, kind: str, d: int) -> Relation:
    """The relation of ``kind`` that holds when subject − reference = d."""
    if kind == "days_after":
        return DaysAfter(d)
    if kind == "weeks_after":
        return WeeksAfter(d // 7)
    if kind == "days_after_within":
        lo = rng.randint(1, abs(d))
        hi = rng.randint(abs(d), abs(d) + 14)
        return DaysAfterWithin(lo, hi, "after" if d > 0 else "before")
    if kind == "earlier":
        return Earlier()
    if kind == "same_week":
        return SameWeek()
    return SamePeriod("month" if kind == "same_month" else "year")


class _Search:
    def __init__(self, rng: random.Random, cfg: RelationalConfig, target: int,
                 asked: int | None) -> None:  # fmt: skip
        self.rng, self.cfg, self.m, self.asked = rng, cfg, target, asked
        self.n = cfg.events
        dom = cfg.domain
        lunar = lunar_allowed(dom)
        self.kinds = [k for k in UNARY_KINDS if FACT_TYPES[k].available(dom)
                      and (lunar or k not in ("chinese_zodiac", "lunar_month"))]  # fmt: skip

    def structure(self) -> tuple[list[int], list[tuple[int, int, Relation]]] | None:
        """Seed days and a relation tree that holds on them."""
        dom, rng = self.cfg.domain, self.rng
        days = [rng.randint(dom.start, dom.end)]
        rels: list[tuple[int, int, Relation]] = []
        for k in range(1, self.n):
            parent = rng.randrange(k)
            kind = rng.choice(RELATION_KINDS)
            child = _child_offset(rng, kind, days[parent], dom)
            if child is None or not dom.start <= child <= dom.end:
                return None
            if kind in ("days_after", "days_after_within", "weeks_after", "earlier") and (
                child == days[parent]
            ):
                return None
            days.append(child)
            subject, reference = (k, parent) if rng.random() < 0.5 else (parent, k)
            d = days[subject] - days[reference]
            if kind == "earlier" and d > 0:
                subject, reference = reference, subject
                d = -d
            rels.append((subject, reference, _relation(rng, kind, d)))
        return days, rels

    def draw_fact(self, facts: list[tuple[int, Any]], days: list[int]) -> tuple[int, Any] | None:
        """A calendar fact true on the seed date of a random event, of a
        category not used on that event (nor one restating a used one)."""
        ev = self.rng.randrange(self.n)
        used = {f.kind for e, f in facts if e == ev}
        cands = [k for k in self.kinds if k not in used
                 and not any(frozenset((k, u)) in _CLASH for u in used)]  # fmt: skip
        self.rng.shuffle(cands)
        seed = DayView(np.asarray([days[ev]]))
        for k in cands:
            fact = FACT_TYPES[k].sample(self.rng, seed, self.cfg.domain, None)
            if fact is not None:
                return ev, fact
        return None

    def count(self, facts: list[tuple[int, Any]], rels: list[tuple[int, int, Relation]]) -> int:
        from tsolve.encodings.facts import domain_view

        dom = self.cfg.domain
        view = domain_view(dom)
        unary = [np.ones(dom.size, dtype=bool) for _ in range(self.n)]
        for ev, fact in facts:
            unary[ev] = unary[ev] & np.asarray(fact.holds(view), dtype=bool)
        return count_answers(self.n, unary, rels, dom, self.asked)

    def run(self) -> tuple[list[int], list[tuple[int, int, Relation]], list[tuple[int, Any]], int]:
        rng = self.rng
        lo = self.cfg.facts or 1
        hi = self.cfg.facts or self.n + 4
        attempts = 0
        while attempts < self.cfg.max_attempts:
            attempts += 1
            built = self.structure()
            if built is None:
                continue
            days, rels = built
            facts: list[tuple[int, Any]] = []
            start = self.cfg.facts or rng.randint(self.n, self.n + 2)
            while len(facts) < start:
                new = self.draw_fact(facts, days)
                if new is None:
                    break
                facts.append(new)
            size = self.count(facts, rels)
            for _ in range(40):
                attempts += 1
                if self.m == 0 and size > 0 and facts:
                    trial = self._contradict(facts, rels)
                    if trial is not None:
                        return days, rels, trial, attempts
                    continue
                if size == self.m:
                    return days, rels, facts, attempts
                trial = list(facts)
                if size > self.m and len(trial) < hi and rng.random() < 0.6:
                    new = self.draw_fact(trial, days)
                    if new is not None:
                        trial.append(new)
                elif size < self.m and len(trial) > lo and rng.random() < 0.6:
                    trial.pop(rng.randrange(len(trial)))
                elif trial:
                    pos = rng.randrange(len(trial))
                    rest = trial[:pos] + trial[pos + 1 :]
                    new = self.draw_fact(rest, days)
                    if new is not None:
                        trial = [*rest, new]
                new_size = self.count(trial, rels)
                if abs(new_size - self.m) <= abs(size - self.m) or rng.random() < 0.2:
                    facts, size = trial, new_size
        raise TsolveError(
            f"solutions: no relational puzzle with exactly {self.m} "
            f"answer{'s' if self.m != 1 else ''} found in "
            f"{self.cfg.max_attempts} attempts; try other --facts or another domain"
        )

    def _contradict(
        self, facts: list[tuple[int, Any]], rels: list[tuple[int, int, Relation]]
    ) -> list[tuple[int, Any]] | None:
        """M = 0: redraw one fact from a decoy date of its event, so that no
        tuple satisfies everything."""
        pos = self.rng.randrange(len(facts))
        ev, old = facts[pos]
        decoy = DayView(np.asarray([self.rng.randint(self.cfg.domain.start, self.cfg.domain.end)]))
        new = FACT_TYPES[old.kind].sample(self.rng, decoy, self.cfg.domain, None)
        if new is None:
            return None
        trial = [*facts[:pos], (ev, new), *facts[pos + 1 :]]
        return trial if self.count(trial, rels) == 0 else None


# ----------------------------------------------------------------- records
def dependency_graph(events: list[Event], facts: list[PuzzleFact]) -> nx.DiGraph:
    """Events as nodes; an edge reference -> subject for every relation (the
    subject's date is stated relative to the reference's)."""
    g = nx.DiGraph()
    for e in events:
        g.add_node(e.var, name=e.name)
    for i, f in enumerate(facts):
        if isinstance(f, EventRelation):
            g.add_edge(f.reference.var, f.subject.var, kind=f.kind, fact=i)
    return g


def graph_json(g: nx.DiGraph) -> dict[str, Any]:
    """Nodes, edges and depth: the longest chain of relations, counted in
    edges, with edges directed reference -> subject (a tree: always a DAG)."""
    return {
        "nodes": [{"id": v, "name": d["name"]} for v, d in g.nodes(data=True)],
        "edges": [
            {"source": u, "target": v, "kind": d["kind"], "fact": d["fact"]}
            for u, v, d in g.edges(data=True)
        ],
        "depth": int(nx.dag_longest_path_length(g)),
    }


def render_prompt(events: list[Event], facts: list[PuzzleFact], style: str,
                  domain: DateDomain, asked: Event | None) -> str:  # fmt: skip
    lines = "\n".join(f"{i}. {f.render(style)}" for i, f in enumerate(facts, 1))
    names = ", ".join(capitalised(e.name) if i == 0 else e.name for i, e in enumerate(events))
    if asked is None:
        what = "every valid combination of dates, one date per event"
        example = "; ".join(f"{e.name} = YYYY-MM-DD" for e in events)
        answer = ANSWER_TUPLES.format(example=example)
    else:
        what = f"every possible date of {asked.name}"
        answer = ANSWER_EVENT.format(event=asked.name)
    return PROMPT_TEMPLATE.format(what=what, start=iso(domain.start), end=iso(domain.end),
                                  events=names, constraints=lines, answer=answer)  # fmt: skip


ID_PREFIX = "rp"


def puzzle_id(
    seed: int, index: int, style: str = "implicit", config: RelationalConfig | None = None
) -> str:
    """The id of puzzle ``index`` of run ``seed`` in ``style`` made with
    ``config`` (its puzzle number, not its record index, and the fingerprint
    of the options that shape content: see generators/style_pairs.py)."""
    return styled_id(ID_PREFIX, seed, index, style, id_fingerprint(config or RelationalConfig()))


@lru_cache(maxsize=64)
def id_fingerprint(config: RelationalConfig) -> str:
    """The fingerprint ids carry (:func:`~tsolve.generators.style_pairs.content_fingerprint`)."""
    return content_fingerprint(config.to_json())


def generate_relational_puzzle(
    seed: int = 0, index: int = 0, config: RelationalConfig | None = None, **overrides: Any
) -> dict[str, Any]:
    """Relational puzzle ``index`` of run ``seed`` as a JSON-ready record."""
    cfg = replace(config or RelationalConfig(), **overrides) if overrides else (
        config or RelationalConfig())  # fmt: skip
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TsolveError(f"seed: expected a non-negative integer, got {seed!r}")
    number, style = style_slot(cfg.style, index)  # the puzzle, and its wording
    rng = record_rng(GENERATOR_NAME, GENERATOR_VERSION, seed, number, id_fingerprint(cfg))
    target = cfg.target(number)
    names = rng.sample(EVENT_NAMES, cfg.events)
    events = [Event(name, f"e{k + 1}") for k, name in enumerate(names)]
    asked_i = rng.randrange(cfg.events) if cfg.asks_event(number) else None
    days, rels, unary, attempts = _Search(rng, cfg, target, asked_i).run()
    facts: list[PuzzleFact] = [EventRelation(rel, events[s], events[r]) for s, r, rel in rels]
    facts += [EventFact(f, events[ev]) for ev, f in unary]
    rng.shuffle(facts)
    asked = events[asked_i] if asked_i is not None else None

    puzzle = RelationalPuzzle(puzzle_id(seed, number, style, cfg), tuple(events), tuple(facts),
                              cfg.domain, asked.var if asked else None, style)  # fmt: skip
    result = solve_relational(puzzle, cfg.backend, limit=target + 1)
    if result.count != target or not result.complete:
        raise AssertionError(
            f"internal error: search found {target} answers but {cfg.backend} found "
            f"{result.count} ({result.status}) for seed={seed} index={index}"
        )
    return {
        "id": puzzle.id,
        "pair": pair_id(ID_PREFIX, seed, number, style, id_fingerprint(cfg)),
        "family": FAMILY,
        "kind": KIND,
        "generator": generator_stamp(
            GENERATOR_NAME,
            GENERATOR_VERSION,
            seed,
            index,
            cfg.to_json(),
            seed_dates=[iso(d) for d in days],
            attempts=attempts,
        ),
        "style": style,
        "domain": cfg.domain.to_json(),
        "events": [e.to_json() for e in events],
        "asked": {"mode": "event", "event": asked.var} if asked else {"mode": "tuples"},
        "facts": [f.to_json(style) for f in facts],
        "graph": graph_json(dependency_graph(events, facts)),
        "prompt": render_prompt(events, facts, style, cfg.domain, asked),
        "answers": answers_json(puzzle, result),
        "solution_count": result.count,
        "solver": {
            "backend": result.backend,
            "cap": target + 1,
            "count": result.count,
            "status": result.status,
            "complete": result.complete,
        },
    }


def generate_relational_puzzles(
    count: int, seed: int = 0, config: RelationalConfig | None = None, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of run ``seed``, lazily."""
    return run_records(generate_relational_puzzle, count, seed, config, start)
