"""What a puzzle's search needs from its config alone (:class:`SearchPlan`),
and the config-level rules both searches share: which levels the slots take
and in what order, and which categories a minimal puzzle leaves out."""

from __future__ import annotations

import random
from functools import lru_cache

from tsolve.calendars.domain import DateDomain, iso
from tsolve.encodings.facts import FACT_TYPES, Level
from tsolve.encodings.facts.packed import PROMOTE_MAX_DAYS
from tsolve.encodings.facts.seed_table import SeedTable
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.clashes import kind_bits
from tsolve.families.time_puzzles.config import PuzzleConfig

# Draws of each unseeded category the last two slots offer (both searches).
LAST_VARIANTS = 3
# Draws of a range of years the last two slots offer (both searches): its
# bounds are what spread one-answer puzzles over many, and its window is one
# interval (windows.interval_window), cheap beside another kind's draw.
# Measured (20,000 default puzzles): 3 draws put a range in 23 % of them,
# 10 in 44 % (before the preference and redraws below).
RANGE_VARIANTS = 10
# Anchor categories a minimal puzzle of MINIMAL_SPARSE_FACTS or more facts does
# not draw unless asked to (``anchors``): an event's month or year (the only
# relations an event anchor takes) fixes the year-level facts, so the other
# three to five facts must all cut inside one month or year, each needed;
# measured, 14 of 221 such seeds found a set (others: 307 of 673), and they
# cost 15 % of the minimal search.
MINIMAL_SKIPPED_ANCHORS = frozenset({"event_relation"})
MINIMAL_SPARSE_FACTS = 4
# Categories a minimal puzzle of MINIMAL_SPARSE_FACTS or more facts does not
# draw for its slots unless asked to (``categories``): measured, an event's
# relation was 20 of 2,019 facts of 400 minimal puzzles, and its draws (a new
# fact to mask each time) a fifth of the instructions a minimal puzzle took.
MINIMAL_SKIPPED_CATEGORIES = frozenset({"event_relation"})
# Categories a minimal puzzle's last slots draw once rather than
# LAST_VARIANTS times: measured, an event's relation was 6 of a seed's 23
# draws and half their cost (each draw a new fact to mask), and ended in 21
# of 1,500 facts of 300 minimal puzzles; a day of the month and an nth
# weekday have one or two facts on a seed ("the 31st" or "the last day"), so
# three draws mostly repeated one.
MINIMAL_ONE_DRAW = frozenset({"event_relation", "day_of_month", "weekday_in_month"})

#: Kinds whose fact on a date is one of many that hold there (a person
#: alive then, a set of weekdays, a range of days of the month, an event and
#: a relation, a range of years): a one-answer puzzle without one is fixed
#: by its date and its kinds, so two runs' puzzles of one date and shape were
#: the same puzzle 12 % of the time (generator 12).
SPREAD_KINDS = frozenset(
    {"person_alive", "weekdays", "day_of_month_range", "event_relation", "year_range"}
)
SPREAD_BITS = kind_bits(SPREAD_KINDS)
#: A range of years has the most: its two bounds (many pairs leave the
#: same answers), so a minimal search takes a set with one first.
RANGE_BITS = kind_bits(frozenset({"year_range"}))
# The chance a minimal search gives up a seed whose chosen set holds no
# range of years and draws another: 0.9 for a set with no spread kind, 0.25
# for one with another spread kind. Measured on 20,000 unchecked default
# puzzles (seed 5): with ranges drawn but neither the range-first order nor
# the odds, 30 % held no spread kind and 182 pairs were equal puzzles; with
# both, 7 % and 28 pairs (version 12: 58 % and 547).
REDRAW_PLAIN = 0.9
REDRAW_SPREAD = 0.25

_CYCLE = (Level.YEAR, Level.MONTH, Level.DAY)
#: The chooser fills the slots by level in this order, so that its last two
#: slots (chosen as pairs) are at the levels with the most categories.
LAST_ORDER = {Level.MONTH: 0, Level.YEAR: 1, Level.DAY: 2}
#: A minimal puzzle's search fills them MONTH, DAY, YEAR, so that a
#: year-level fact takes the last slot: measured over 1,000 minimal puzzles
#: (run 7), 2.27 seeds a puzzle where the order above took 2.42 (most failed
#: seeds had sets leaving M days but a month-level fact not needed in any).
MINIMAL_ORDER = {Level.MONTH: 0, Level.DAY: 1, Level.YEAR: 2}


def determine_level(i: int, anchor_level: Level) -> Level:
    """Algorithm 2's DetermineLevel: cycle YEAR -> MONTH -> DAY, starting after
    the anchor's level, so the N facts cover the three levels as evenly as N allows."""
    return _CYCLE[(_CYCLE.index(anchor_level) + i) % 3]


def slot_levels(anchor_level: Level, n_facts: int, minimal: bool) -> list[Level]:
    """The levels of a set's slots after the anchor, in the order the search
    fills them (:data:`LAST_ORDER`, or :data:`MINIMAL_ORDER` for a minimal
    puzzle; the cycle's order within a level)."""
    levels = [determine_level(i, anchor_level) for i in range(1, n_facts)]
    order = MINIMAL_ORDER if minimal else LAST_ORDER
    levels.sort(key=order.__getitem__)  # stable: the cycle's order otherwise
    return levels


@lru_cache(maxsize=256)
def has_anchor(kind: str, domain: DateDomain) -> bool:
    """Does category ``kind`` have any anchor overlapping ``domain``? (Anchors
    are drawn uniformly from those that do, so one probe answers it. Keyed by
    the kind and the frozen domain; reads only the packaged knowledge base:
    never stale.)"""
    cls = FACT_TYPES[kind]
    return cls.available(domain) and cls.sample_anchor(random.Random(0), domain) is not None


class SearchPlan:
    """What a search needs from its config alone, worked out once per
    (config, number of facts) (:func:`search_plan`) rather than for every
    puzzle: the categories it draws, its anchor kinds, the categories a
    minimal puzzle skips, the seed-determined categories it looks up, and two
    tables the search fills as it first asks them (each pool's draws, the seed table's
    categories at a level), fixed by the same config and so never stale."""

    __slots__ = (
        "anchor_kinds", "categories", "levels_seeded", "minimal", "plans", "ranges", "seeded",
        "skipped",
    )  # fmt: skip

    def __init__(self, cfg: PuzzleConfig, n_facts: int) -> None:
        dom = cfg.domain
        allowed = (
            set(cfg.categories) if cfg.categories else {k for k, c in FACT_TYPES.items() if c.drawn}
        )
        self.categories = tuple(k for k in sorted(allowed) if FACT_TYPES[k].available(dom))
        self.minimal = cfg.minimal
        # Whether a set without a range of years may be given up (only
        # where ranges are drawn at all).
        self.ranges = "year_range" in self.categories
        sparse = cfg.minimal and n_facts >= MINIMAL_SPARSE_FACTS
        self.anchor_kinds = _anchor_kinds(cfg, sparse)
        # Categories the seeds' pools do not draw (MINIMAL_SKIPPED_CATEGORIES).
        self.skipped: frozenset[str] = frozenset()
        if sparse and cfg.categories is None:
            self.skipped = MINIMAL_SKIPPED_CATEGORIES
        # Over a packed domain, the seed-determined categories' facts come from
        # the domain's seed table (one lookup per seed), not one draw each.
        # (The table itself is not kept here: seed_table bounds how many
        # domains' tables stay alive, and a plan must not outlive that.)
        packed = dom.size <= PROMOTE_MAX_DAYS
        seeded = tuple(k for k in self.categories if FACT_TYPES[k].seed_determined)
        self.seeded = seeded if packed else ()
        self.plans: dict[tuple[Level | None, bool], list[tuple[str, int]]] = {}
        self.levels_seeded: dict[Level | None, list[int]] = {}

    def draws(self, level: Level | None, last: bool) -> list[tuple[str, int]]:
        """The categories a pool at ``level`` draws (those not looked up in
        the seed table), each with its number of draws (:meth:`variants`
        in a last slot, else one): the same for every seed of the search."""
        key = (level, last)
        got = self.plans.get(key)
        if got is None:
            looked_up = bool(self.seeded)
            got = self.plans[key] = [
                (k, self.variants(k) if last else 1)
                for k in self.categories
                if k not in self.skipped
                and (level is None or level in FACT_TYPES[k].levels())
                and not (looked_up and FACT_TYPES[k].seed_determined)
            ]  # fmt: skip
        return got

    def variants(self, kind: str) -> int:
        """How many draws of category ``kind`` a last slot offers: one of a
        seed-determined kind (every draw is the same fact), and
        :data:`LAST_VARIANTS` of another, but one of an event's relation in a
        minimal puzzle (:data:`MINIMAL_ONE_DRAW`)."""
        if FACT_TYPES[kind].seed_determined:
            return 1
        if self.minimal and kind in MINIMAL_ONE_DRAW:
            return 1
        if kind == "year_range":
            return RANGE_VARIANTS
        return LAST_VARIANTS

    def seeded_at(self, level: Level | None, seeds: SeedTable | None) -> list[int]:
        """:meth:`~tsolve.encodings.facts.seed_table.SeedTable.at_level`, kept
        per level for the search."""
        got = self.levels_seeded.get(level)
        if got is None and seeds is not None:
            got = self.levels_seeded[level] = seeds.at_level(level)
        return got or []


def _anchor_kinds(cfg: PuzzleConfig, sparse: bool) -> list[str]:
    """The anchor categories a search draws from: those asked for (or every
    anchor category) with an anchor inside the domain, less
    :data:`MINIMAL_SKIPPED_ANCHORS` for a ``sparse`` minimal puzzle unless
    asked for; a one-line error when none is left."""
    dom = cfg.domain
    anchors = cfg.anchors or tuple(k for k in sorted(FACT_TYPES) if FACT_TYPES[k].anchor)
    kinds = [k for k in anchors if has_anchor(k, dom)]
    if sparse and cfg.anchors is None:
        kinds = [k for k in kinds if k not in MINIMAL_SKIPPED_ANCHORS] or kinds
    if not kinds:
        raise TsolveError(
            f"domain: no knowledge-base anchor ({', '.join(anchors)}) falls inside "
            f"{iso(dom.start)}..{iso(dom.end)}; widen the domain or bring your own "
            "knowledge base"
        )
    return kinds


@lru_cache(maxsize=64)
def search_plan(cfg: PuzzleConfig, n_facts: int) -> SearchPlan:
    """The :class:`SearchPlan` of ``cfg`` with ``n_facts`` facts. Keyed by
    the frozen config: a run asks it for every puzzle with a handful of keys."""
    return SearchPlan(cfg, n_facts)
