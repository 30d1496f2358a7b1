"""Time Puzzles generation (Algorithms 1-3 of the Time Puzzles paper).

Algorithm 1: pick a knowledge-based anchor t_kb and a hidden seed date in
C(t_kb); Algorithm 2: add N-1 facts true on the seed, from distinct categories
with balanced levels; Algorithm 3: intersect in information-gain order; repeat
until the answer set has exactly M dates.

The search itself is cheap bit arithmetic over the anchor's days (windows of
the facts' packed domain masks, :class:`~tsolve.encodings.facts.packed.MaskTable`,
not the solver), which is what lets it try hundreds of fact sets per puzzle.
The record's gold answers are read off those masks and then proved by the
solver backend: every gold date is checked under every reading, and one
solver call proves no other date satisfies the facts under any reading
(:func:`~tsolve.families.time_puzzles.solve.certify_known_gold`). If the masks ever
disagreed with the solver's IR, generation fails loudly rather than emit the
record.

Every record is a pure function of ``(seed, index)`` and the config: the RNG is
seeded from that pair alone, and nothing that varies between runs (timings)
goes into the record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, cast

import numpy as np

from tsolve.bounded_store import BoundedStore
from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain, iso
from tsolve.calendars.knowledge import KNOWLEDGE_AS_OF
from tsolve.encodings.facts import (
    FACT_TYPES,
    DayView,
    Fact,
    Level,
    Style,
    information_gain,
)
from tsolve.encodings.facts.base import kind_ranks
from tsolve.encodings.facts.calendar_facts import day_range_draws, weekdays_draws
from tsolve.encodings.facts.packed import (
    PROMOTE_MAX_DAYS,
    MaskTable,
    all_of,
    answer_set_size,
    days_of,
    mask_table,
    packed_mask,
    packed_masks,
    running_and,
    unpack,
    window_days,
    word_range,
)
from tsolve.encodings.facts.packed import size as popcount
from tsolve.encodings.facts.readings import fact_readings
from tsolve.encodings.facts.seed_table import SeedTable, seed_table
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.certify import (
    certify_contradiction,
    certify_necessity,
    first_days,
)
from tsolve.families.time_puzzles.difficulty import (
    LABELS,
    DaySet,
    difficulty,
    fact_masks,
    sizes_without,
)
from tsolve.families.time_puzzles.solve import (
    Puzzle,
    certify_known_gold,
    puzzle_readings,
)
from tsolve.generators.options import cycled, parse_int_list
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
from tsolve.records.validation import shown

GENERATOR_NAME = "time-puzzles"
# 2: knowledge base to 2026-11-23; a puzzle is kept only if its gold is the
# same under every reading of its facts (records gain ``readings``).
# 3: zero-answer puzzles are minimal unsatisfiable sets (no two-fact
# contradiction; ``contradiction`` in the record), ``minimal`` puzzles, and
# ``without`` (the answer-set size without each fact) on both; every record
# carries its measured ``difficulty``.
# 4: ids name the style (``tp-3-0-implicit``) and ``pair`` names the same
# puzzle's id in the other style, so both wordings can share a file;
# ``style`` may list both (generators/style_pairs.py). The random key
# carries the version, as for every family (tsolve.generators.seeding), so puzzle i of a
# run has other facts than in version 3.
# 5: a minimal puzzle's search loosens another fact when one is spare (the
# spare's own slot can never become needed): minimal puzzles 1.12-1.18x faster than
# version 4 (benchmarks/experiments/generation_targets.py). The random key
# carries the version, so every puzzle of a run differs from version 4's.
# 6: fact sentences read as English: an anniversary of a
# multi-day event is "the same month and day as the first day of X" (was "as
# X began"), a month of one is "the same month of the same year as a day of
# X", and a name ending in a full stop ("Jr.") gets no second one. The random
# key carries the version, so every puzzle of a run differs from version 5's.
# 7: fact sets are chosen whole from the seed's candidates: each
# slot's candidates, drawn once per seed (the seed-determined ones looked up in
# the domain's seed table), are judged at once by AND and popcount over the
# anchor's words, and the last two slots as pairs, where versions 1-6 drew one
# set and repaired it fact by fact. The random key carries the version, so
# every puzzle of a run differs from version 6's.
# 8: a minimal puzzle of four or more facts draws no event anchor (of a
# month or a year, they almost never admit a set with every fact needed), unless
# ``anchors`` asks for one. The random key carries the version, so every
# puzzle of a run differs from version 7's.
# 9: a minimal puzzle's fact sets are judged whole, every set of the seed's
# candidates slot by slot in NumPy passes (_Search._minimal_sets), where
# versions 5-8 followed them depth first; its last slots draw a day of the
# month and an nth weekday once (MINIMAL_ONE_DRAW), and one of four or more
# facts draws no event relation unless ``categories`` asks for it
# (MINIMAL_SKIPPED_CATEGORIES).
# The random key carries the version, so every puzzle of a run differs from
# version 8's.
# 10: a minimal puzzle's slots are filled MONTH, DAY, YEAR (_MINIMAL_ORDER;
# fewer seeds fail), and its search offers only a set whose answers are the
# same under every reading (same_under_readings, from the masks), where one
# the certificate then rejected sent the search back to a new anchor. The
# random key carries the version, so every puzzle of a run differs from
# version 9's.
# 11: a weekday set and a day-of-month range are drawn with one random number
# from a table of what their sampler draws, each fact as often as its chance
# (_DRAW_TABLES; the same distribution, tests/test_draw_tables.py), where
# the sampler spent up to four. The random key carries the version, so every
# puzzle of a run differs from version 10's.
# 12: the random key carries the options' salt and a redraw attempt (generators/seeding.py).
GENERATOR_VERSION = "12"
# Ids carry the fingerprint of the options that shape content
# (``tp-3-0-5be2a1-implicit``; generators/style_pairs.py), so that
# runs with different options never share an id; with
# the version kept: the random key carries the version, and the content of
# every record is what version 5 made; only its id (and pair) gained the part.
FAMILY = "time-puzzles"
IMPLICIT: Style = "implicit"  # the wording whose readings include the other's
MAX_SOLUTIONS = 60
# Fact sets found by the search but rejected because a reading changes their
# gold, before giving up; measured rejections are a few percent.
MAX_READING_REJECTIONS = 200
# Beyond six facts, sets whose every fact is needed are too rare for the
# search (seven facts for one answer date rarely leave none redundant).
MAX_MINIMAL_FACTS = 6
# The fact-set chooser (_Search.choose): steps of the depth-first search of a
# puzzle that need not be minimal per seed before it draws another seed, and
# candidates it follows from each slot; draws of each unseeded category the
# last two slots offer (both searches).
MAX_NODES = 24
BRANCHES = 4
LAST_VARIANTS = 3
# Sets a minimal puzzle's search offers to the test that its anchor is needed.
ANCHOR_TRIES = 8
# Partial sets a minimal puzzle's search carries from one slot to the next
# (_Search._minimal_sets); past it, a random BEAM go on.
BEAM = 48
# Bytes of stacked windows a minimal puzzle's necessity test judges at once
# (_Search._necessary): a few sets over a wide anchor, dozens over a narrow one;
# most seeds' first few sets hold one that passes.
HIT_BATCH_BYTES = 2**16
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

PROMPT_TEMPLATE = """\
From the time-related constraints below, determine all valid date(s) (if any) that satisfy them. \
Depending on the conditions, the result may be zero, one, or multiple dates. Unless otherwise \
stated, interpret all constraints using the Gregorian calendar.

Note: Seasons are defined as:
- Winter: December, January, February
- Spring: March, April, May
- Summer: June, July, August
- Autumn: September, October, November

The constraints are as follows:

{constraints}

Carefully review the constraints and reason step-by-step to identify all valid date(s). After \
thorough consideration, end your response on a new line with "MY ANSWER: " followed by the valid \
date(s) in the format "YYYY-MM-DD". If there are multiple valid dates, list them separated by \
commas. If no valid date exists, respond with "MY ANSWER: None"."""


@dataclass(frozen=True)
class PuzzleConfig:
    """Generator options. ``solutions`` may be a tuple: puzzle i then targets
    ``solutions[i % len(solutions)]``, which gives evenly spread datasets like
    the paper's (600 puzzles, M = 1..6)."""

    solutions: int | tuple[int, ...] = 1
    facts: int | None = None  # total facts incl. the anchor; None: 4..6 as in the paper
    # One style, or several: record i is then puzzle i // k in style i % k
    # (generators/style_pairs.py), so both wordings of each puzzle come together.
    style: Style | tuple[Style, ...] = "implicit"
    backend: str = "cpsat"
    domain: DateDomain = DEFAULT_DOMAIN
    max_attempts: int = 20_000
    categories: tuple[str, ...] | None = None  # restrict the non-anchor categories
    anchors: tuple[str, ...] | None = None  # restrict the anchor categories
    # Keep only puzzles where every fact is necessary (dropping any one changes
    # the answer set). Off here for library callers; `tsolve puzzle` and
    # `tsolve dataset` turn it on unless asked otherwise
    # (families/time_puzzles.minimal_by_default).
    minimal: bool = False
    # M = 0 as the old generator made it: one fact swapped for a decoy's, often
    # a two-fact contradiction ("June" + "the 31st"). Off: a minimal
    # unsatisfiable set of at least three facts, every pair satisfiable.
    trivial_contradictions: bool = False
    # Keep only puzzles of this measured difficulty (families/time_puzzles/difficulty.py).
    difficulty: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.domain, DateDomain):
            # A (start, end) pair of ISO dates or dates is what a caller means;
            # anything else would fail deep inside the search with no word of why.
            if not (isinstance(self.domain, tuple | list) and len(self.domain) == 2):
                raise TsolveError(
                    "domain: expected a DateDomain or a (start, end) pair of dates, "
                    f"got {self.domain!r}"
                )
            object.__setattr__(self, "domain", DateDomain.from_dates(*self.domain))
        sols = self.solutions if isinstance(self.solutions, tuple) else (self.solutions,)
        if not sols:
            raise TsolveError("solutions: give at least one target")
        for m in sols:
            if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= MAX_SOLUTIONS:
                raise TsolveError(
                    f"solutions: expected an integer in 0..{MAX_SOLUTIONS}, got {m!r}"
                )
        if self.facts is not None and not 2 <= self.facts <= 10:
            raise TsolveError(
                f"facts: expected 2..10 facts (including the anchor), got {self.facts}"
            )
        check_styles(as_tuple(self.style))
        for name in (self.categories or ()) + (self.anchors or ()):
            if name not in FACT_TYPES:
                raise TsolveError(f"categories: unknown fact kind {name!r}")
        for name in self.anchors or ():
            if not FACT_TYPES[name].anchor:
                raise TsolveError(f"anchors: {name!r} is not a knowledge-based anchor category")
        if self.minimal and self.facts is not None and self.facts > MAX_MINIMAL_FACTS:
            raise TsolveError(
                f"minimal: puzzles with every fact necessary have at most {MAX_MINIMAL_FACTS} "
                f"facts, got --facts {self.facts} (use --no-minimal)"
            )
        if self.minimal and self.trivial_contradictions and 0 in sols:
            raise TsolveError(
                "trivial_contradictions: a two-fact clash leaves the other facts unneeded, so "
                "it cannot be minimal; use it with --no-minimal (minimal zero-answer puzzles "
                "are minimal unsatisfiable sets already)"
            )
        if self.difficulty is not None and self.difficulty not in LABELS:
            raise TsolveError(
                f"difficulty: expected one of {', '.join(LABELS)}, got {self.difficulty!r}"
            )
        if self.max_attempts < 1:
            raise TsolveError(f"max_attempts: must be positive, got {self.max_attempts}")

    def target(self, index: int) -> int:
        return cycled(self.solutions, index)

    def to_json(self) -> dict[str, Any]:
        """The config as written into each record's ``generator.params``. Every
        family's config has this shape: a frozen dataclass, validated when
        built, with ``to_json``."""
        return {
            "solutions": list(self.solutions)
            if isinstance(self.solutions, tuple)
            else self.solutions,
            "facts": self.facts,
            "style": style_json(self.style),
            "backend": self.backend,
            "domain": self.domain.to_json(),
            "categories": list(self.categories) if self.categories else None,
            "anchors": list(self.anchors) if self.anchors else None,
            "knowledge_as_of": KNOWLEDGE_AS_OF.isoformat(),
            "minimal": self.minimal,
            "trivial_contradictions": self.trivial_contradictions,
            "difficulty": self.difficulty,
        }


_CYCLE = (Level.YEAR, Level.MONTH, Level.DAY)

# Pairs of categories where one would restate the other (a date that is "a
# Tuesday" is trivially "a Tuesday or a Saturday"); a puzzle never holds both.
_REDUNDANT = {
    frozenset(p)
    for p in [
        ("weekday", "weekdays"), ("weekday", "weekday_in_month"),
        ("weekdays", "weekday_in_month"), ("month", "season"), ("year", "decade"),
        ("year", "leap_year"), ("year", "chinese_zodiac"), ("day_of_month", "day_of_month_range"),
        ("day_of_month", "weekday_in_month"),
    ]
}  # fmt: skip


_CLASHES: dict[str, frozenset[str]] = {
    k: frozenset(x for pair in _REDUNDANT if k in pair for x in pair)
    for pair in _REDUNDANT
    for k in pair
}


def _compatible(kind: str, used: set[str] | frozenset[str]) -> bool:
    """Not used yet, and not a restatement of a used category."""
    return kind not in used and used.isdisjoint(_CLASHES.get(kind, ()))


#: Every fact kind's row in :data:`CLASH`, in the registry's sorted order.
KIND_INDEX: dict[str, int] = kind_ranks()
#: CLASH[i, j]: may kinds i and j not share a puzzle (the same kind, or one
#: restates the other)? The chooser's last two slots test every pair of
#: candidates at once with it.
CLASH = np.array(
    [[not _compatible(a, {b}) for b in sorted(FACT_TYPES)] for a in sorted(FACT_TYPES)], dtype=bool
)
#: Row i of :data:`CLASH` as bits (kind j: bit j), so a candidate's clash with
#: a set of used kinds is one AND (:func:`_kind_bits`).
CLASH_BITS = (CLASH.astype(np.int64) << np.arange(len(KIND_INDEX), dtype=np.int64)).sum(axis=1)
#: Each kind's own bit (kind j: bit j), to add a candidate's kind to a set's.
KIND_BITS = np.int64(1) << np.arange(len(KIND_INDEX), dtype=np.int64)


@lru_cache(maxsize=4096)
def _kind_bits(kinds: frozenset[str]) -> int:
    """The bits of ``kinds`` (kind j: bit j). A table over the few sets of
    used kinds a search meets; fixed once the fact kinds are imported."""
    return sum(1 << KIND_INDEX[k] for k in kinds)


@lru_cache(maxsize=4096)
def _open_categories(
    categories: tuple[str, ...], used: frozenset[str], level: Level | None
) -> tuple[str, ...]:
    """The categories (in ``categories``' order) compatible with ``used``, at
    ``level`` when one is given, or else at any level. A repair step asks this
    ~40 times a puzzle with a
    handful of distinct arguments, so it is a table (keyed by plain strings and
    a frozen set; fixed once the fact kinds are imported, so never stale)."""
    return tuple(
        k for k in categories
        if _compatible(k, used) and (level is None or level in FACT_TYPES[k].levels())
    )  # fmt: skip


#: The chooser fills the slots by level in this order, so that its last two
#: slots (chosen as pairs) are at the levels with the most categories.
_LAST_ORDER = {Level.MONTH: 0, Level.YEAR: 1, Level.DAY: 2}
#: A minimal puzzle's search fills them MONTH, DAY, YEAR, so that a
#: year-level fact takes the last slot: measured over 1,000 minimal puzzles
#: (run 7), 2.27 seeds a puzzle where the order above took 2.42 (most failed
#: seeds had sets leaving M days but a month-level fact not needed in any).
_MINIMAL_ORDER = {Level.MONTH: 0, Level.DAY: 1, Level.YEAR: 2}


def determine_level(i: int, anchor_level: Level) -> Level:
    """Algorithm 2's DetermineLevel: cycle YEAR -> MONTH -> DAY, starting after
    the anchor's level, so the N facts cover the three levels as evenly as N allows."""
    return _CYCLE[(_CYCLE.index(anchor_level) + i) % 3]


@lru_cache(maxsize=256)
def _has_anchor(kind: str, domain: DateDomain) -> bool:
    """Does category ``kind`` have any anchor overlapping ``domain``? (Anchors
    are drawn uniformly from those that do, so one probe answers it. Keyed by
    the kind and the frozen domain; reads only the packaged knowledge base:
    never stale.)"""
    cls = FACT_TYPES[kind]
    return cls.available(domain) and cls.sample_anchor(random.Random(0), domain) is not None


def _anchor_days(key: tuple[Fact, DateDomain]) -> DayView:
    """C(t) ∩ D of an anchor as a view of its days: from its day intervals, or
    else from its packed domain mask."""
    fact, domain = key
    spans = fact.day_intervals()
    if spans is None:
        days = domain.days[unpack(packed_mask(fact, domain), domain.size)]
    else:
        parts = [np.arange(a, b + 1, dtype=np.int64)
                 for a, b in spans.clip(domain.start, domain.end)]  # fmt: skip
        days = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return DayView(days)


#: Anchors' days with their calendar fields, shared by every attempt that draws
#: the same anchor: (anchor, domain) -> DayView. Bounded by bytes (an anchor's
#: days number a few thousand on the default domain, and millions for "before
#: the Moon landing" over 0001..9999), counting the days and the five Gregorian
#: fields a search computes on them. Never stale: keys are frozen values.
ANCHOR_VIEWS: BoundedStore[tuple[Fact, DateDomain], DayView] = BoundedStore(
    128 * 2**20, lambda view: 6 * view.days.nbytes
)


def _window_view(key: tuple[int, int, DateDomain]) -> DayView:
    lo, hi, domain = key
    return window_days(lo, hi, domain)


#: The days that packed words lo .. hi - 1 of a domain cover, with the calendar
#: fields a fact's ``holds`` computes on them, shared by every seed of the same
#: anchor: (lo, hi, domain) -> DayView. Bounded by bytes like ANCHOR_VIEWS
#: (the days and the Gregorian fields). Never stale: keys are frozen values.
WINDOW_VIEWS: BoundedStore[tuple[int, int, DateDomain], DayView] = BoundedStore(
    128 * 2**20, lambda view: 6 * view.days.nbytes
)


class _Pool:
    """A slot's candidates (:meth:`_Search._pool`): the facts, their windows
    over the anchor's words, their kinds' rows in :data:`CLASH`, and those
    rows as bits (:data:`CLASH_BITS`).

    This and :class:`_Partial` are plain slotted classes, not dataclasses: the
    search makes thousands of them, and a frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` per field) and its class creation at import (about
    1 ms each, on the first puzzle's path) bought nothing here. Treat them as
    immutable."""

    __slots__ = ("clash", "facts", "kinds", "sizes", "windows")

    def __init__(
        self, facts: list[Fact], windows: np.ndarray, kinds: np.ndarray, sizes: np.ndarray
    ) -> None:
        self.facts = facts
        self.windows = windows
        self.kinds = kinds
        self.sizes = sizes  # how many days of the domain each candidate holds
        self.clash = CLASH_BITS[kinds]  # the kinds each candidate may not share a set with


class _Partial:
    """A fact set the chooser of a puzzle that need not be minimal is growing
    (:meth:`_Search._extend`): the facts (the anchor first) and the AND of
    their windows over the anchor's words (``prefix``)."""

    __slots__ = ("facts", "prefix")

    def __init__(self, facts: list[Fact], prefix: np.ndarray) -> None:
        self.facts = facts
        self.prefix = prefix


class _Beam:
    """The partial fact sets a minimal puzzle's search carries from one slot
    to the next (:meth:`_Search._minimal_sets`), one row each: ``picks[s]``,
    the candidate each set took in slot s + 1 (an index into that slot's
    pool, ``pools[s]``); ``used``, the bits of the kinds it holds
    (:func:`_kind_bits`); ``prefix``, the AND of its windows over the words
    ``cols`` of the anchor's window (the words where some set still has a
    day); ``counts``, the days each set leaves."""

    __slots__ = ("cols", "counts", "picks", "pools", "prefix", "used")

    def __init__(
        self,
        prefix: np.ndarray,
        cols: np.ndarray,
        counts: np.ndarray,
        used: np.ndarray,
        picks: list[np.ndarray],
        pools: list[_Pool],
    ) -> None:
        self.prefix = prefix
        self.cols = cols
        self.counts = counts
        self.used = used
        self.picks = picks
        self.pools = pools


#: Categories whose draw on a seed is one ``rng.choice`` from a table of the
#: facts ``sample`` would draw there, each as often as its chance
#: (calendar_facts.weekdays_draws, day_range_draws): the same distribution
#: with one random number instead of up to four, for the two categories a
#: minimal puzzle's last slots draw most.
_DRAW_TABLES: dict[str, Callable[[DayView], tuple[Fact, ...]]] = {
    "weekdays": lambda on: weekdays_draws(int(on.greg.weekday[0])),
    "day_of_month_range": lambda on: day_range_draws(int(on.greg.day[0])),
}


class _SearchPlan:
    """What a search needs from its config alone, worked out once per
    (config, number of facts) (:func:`_search_plan`) rather than for every
    puzzle: the categories it draws, its anchor kinds, the categories a
    minimal puzzle skips, the seed-determined categories it looks up, and two
    tables the search fills as it first asks them (each pool's draws, the seed table's
    categories at a level), fixed by the same config and so never stale."""

    __slots__ = ("anchor_kinds", "categories", "levels_seeded", "plans", "seeded", "skipped")

    def __init__(self, cfg: PuzzleConfig, n_facts: int) -> None:
        dom = cfg.domain
        allowed = (
            set(cfg.categories) if cfg.categories else {k for k, c in FACT_TYPES.items() if c.drawn}
        )
        self.categories = tuple(k for k in sorted(allowed) if FACT_TYPES[k].available(dom))
        anchors = cfg.anchors or tuple(k for k in sorted(FACT_TYPES) if FACT_TYPES[k].anchor)
        kinds = [k for k in anchors if _has_anchor(k, dom)]
        if cfg.minimal and cfg.anchors is None and n_facts >= MINIMAL_SPARSE_FACTS:
            kinds = [k for k in kinds if k not in MINIMAL_SKIPPED_ANCHORS] or kinds
        if not kinds:
            raise TsolveError(
                f"domain: no knowledge-base anchor ({', '.join(anchors)}) falls inside "
                f"{iso(dom.start)}..{iso(dom.end)}; widen the domain or bring your own "
                "knowledge base"
            )
        self.anchor_kinds = kinds
        # Categories the seeds' pools do not draw (MINIMAL_SKIPPED_CATEGORIES).
        self.skipped: frozenset[str] = frozenset()
        if cfg.minimal and cfg.categories is None and n_facts >= MINIMAL_SPARSE_FACTS:
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


@lru_cache(maxsize=64)
def _search_plan(cfg: PuzzleConfig, n_facts: int) -> _SearchPlan:
    """The :class:`_SearchPlan` of ``cfg`` with ``n_facts`` facts. Keyed by
    the frozen config: a run asks it for every puzzle with a handful of keys."""
    return _SearchPlan(cfg, n_facts)


class _Search:
    """One puzzle's randomized search; all randomness comes from ``rng``."""

    def __init__(
        self,
        rng: random.Random,
        cfg: PuzzleConfig,
        target: int,
        n_facts: int,
        table: MaskTable | None = None,
    ) -> None:
        self.rng = rng
        self.cfg = cfg
        # The domain's packed fact masks, the search's working state: a slot's
        # truth on the anchor's days is a window of its fact's mask.
        self.table = table or mask_table(cfg.domain)
        # Facts of seed-determined categories (Fact.seed_determined) drawn on
        # a day: (kind, day) -> the fact. Such a draw uses no randomness, so
        # reusing it changes nothing but the time; emptied at each new seed.
        self.drawn: dict[tuple[str, int], Fact | None] = {}
        # The current anchor's windows of the facts drawn for it: fact -> its
        # words over the anchor's days. Emptied at each new anchor.
        self.windows: dict[Fact, np.ndarray] = {}
        # The days those windows cover (packed.window_days), made on first use.
        self.span: DayView | None = None
        # Over a domain longer than 400 years the windows of wide anchors are
        # millions of days, where packing them per seed cost more than it
        # saved (0.73x the rate over 0001..9999): slots are then boolean masks
        # on the anchor's days (self.view, its fields cached in ANCHOR_VIEWS).
        self.packed = cfg.domain.size <= PROMOTE_MAX_DAYS
        self.view = DayView(np.zeros(0, dtype=np.int64))
        self.m = target
        self.n = n_facts
        # The current seed's chooser state (:meth:`choose`): the anchor's word
        # range, the seed, the slots' levels, and the search steps spent.
        self.lo = self.hi = self.nodes = 0
        self.seed = DayView(np.zeros(0, dtype=np.int64))
        self.levels: list[Level] = []
        self.pools: dict[tuple[Any, ...], _Pool] = {}
        # Which candidates of each of the seed's pools (by id: the pools are
        # kept in self.pools as long) hold outside the anchor (_outside).
        self.outside: dict[int, np.ndarray] = {}
        # A minimal puzzle's proposed witnesses, one day per fact of the set
        # run() returned (the anchor first): each a day only that fact
        # excludes, read off the masks the search judged them by; a proposal
        # for certify_necessity, which checks each against the facts' IR.
        self.witnesses: list[int | None] = []
        plan = _search_plan(cfg, n_facts)
        self.categories = plan.categories
        self.anchor_kinds = plan.anchor_kinds
        self.skipped = plan.skipped
        self.seeds = seed_table(cfg.domain, plan.seeded) if plan.seeded else None
        # Each pool's categories to draw (_draws) and the seed table's
        # categories at each level (_seeded): fixed by the config.
        self.plans = plan.plans
        self.levels_seeded = plan.levels_seeded
        self.seed_rows = np.zeros(0, dtype=np.int32)

    def anchor(self) -> tuple[Fact, DayView] | None:
        cls = FACT_TYPES[self.rng.choice(self.anchor_kinds)]
        fact = cls.sample_anchor(self.rng, self.cfg.domain)
        if fact is None:
            return None
        view = ANCHOR_VIEWS.get((fact, self.cfg.domain), _anchor_days)
        return (fact, view) if len(view) else None

    def draw(self, kind: str, on: DayView, level: Level | None) -> Fact | None:
        """Algorithm 2's InstantiateFact: a fact of ``kind`` true on the day in
        ``on`` (at ``level`` when the kind spans levels); a seed-determined
        kind's fact is drawn once per day (:attr:`drawn`)."""
        cls = FACT_TYPES[kind]
        table = _DRAW_TABLES.get(kind)
        if table is not None:
            return self.rng.choice(table(on))
        if not cls.seed_determined:
            return cls.sample(self.rng, on, self.cfg.domain, level)
        key = (kind, int(on.days[0]))
        if key not in self.drawn:
            self.drawn[key] = cls.sample(self.rng, on, self.cfg.domain, level)
        return self.drawn[key]

    def facts_for(self, anchor: Fact, seed: DayView) -> list[Fact] | None:
        """Algorithm 2 (GENERATEFACT)."""
        facts = [anchor]
        used = {anchor.kind}
        for i in range(1, self.n):
            level = determine_level(i, anchor.fact_level())
            frozen = frozenset(used)
            cands = list(_open_categories(self.categories, frozen, level))
            self.rng.shuffle(cands)
            rest = [k for k in _open_categories(self.categories, frozen, None) if k not in cands]
            self.rng.shuffle(rest)
            new = None
            for k in cands + rest:
                lv = level if k in cands else None
                new = self.draw(k, seed, lv)
                if new is not None:
                    break
            if new is None:
                return None
            facts.append(new)
            used.add(new.kind)
        return facts

    def answer_mask(self, facts: list[Fact], view: DayView) -> np.ndarray:
        """Algorithm 3 (SOLVEPUZZLE) on the anchor's days: intersect in
        descending information gain, stopping early once the set is empty."""
        order = sorted(facts, key=lambda f: -information_gain(f, self.cfg.domain))
        mask = np.ones(len(view), dtype=bool)
        for f in order:
            mask &= f.holds(view)
            if not mask.any():
                break
        return mask

    def window(self, fact: Fact, lo: int, hi: int) -> np.ndarray:
        """``fact``'s window of the table over the current anchor's words
        ``lo .. hi - 1``, kept in :attr:`windows` so that a fact drawn again
        for the same anchor costs one dict lookup."""
        got = self.windows.get(fact)
        if got is None and not self.packed:
            got = self.windows[fact] = np.asarray(fact.holds(self.view), dtype=bool)
        if got is None:
            if self.span is None:
                self.span = WINDOW_VIEWS.get((lo, hi, self.cfg.domain), _window_view)
            got = self.windows[fact] = self.table.window(fact, lo, hi, self.span)
        return got

    def count(self, mask: np.ndarray) -> int:
        """How many of the anchor's days a slot mask (or an AND of them) holds."""
        return popcount(mask) if self.packed else int(np.count_nonzero(mask))

    def count_rows(self, stack: np.ndarray) -> np.ndarray:
        """:meth:`count` of each row of a stack of slot masks, in one call."""
        if self.packed:
            return np.add.reduce(np.bitwise_count(stack), axis=-1, dtype=np.int64)
        return np.count_nonzero(stack, axis=-1)

    def run(self) -> tuple[list[Fact], int, int]:
        """Algorithm 1's loop: an anchor and a seed day on it, then (for M >= 1)
        a whole fact set chosen from the seed's candidates (:meth:`choose`),
        or a minimal contradiction (M = 0). Returns (facts, seed day, attempts)."""
        inner = 24
        attempts = 0
        while attempts < self.cfg.max_attempts:
            picked = self.anchor()
            attempts += 1
            if picked is None:
                continue
            anchor, view = picked
            days = view.days
            seed_day = int(days[self.rng.randrange(days.size)])
            seed = DayView.of_day(seed_day)
            self.drawn.clear()
            if self.m == 0:
                facts = self.facts_for(anchor, seed)
                if facts is None:
                    continue
                for _ in range(inner):
                    attempts += 1
                    if self.cfg.trivial_contradictions:
                        trial = self._contradict(facts, days, view)
                    else:
                        trial = self._minimal_contradiction(facts, days, view)
                    if trial is not None:
                        return trial, seed_day, attempts
                continue
            chosen = self.choose(anchor, view, seed)
            attempts += self.nodes
            if chosen is not None:
                return chosen, seed_day, attempts
        raise TsolveError(
            f"solutions: no puzzle with exactly {_answers(self.m)} found in "
            f"{self.cfg.max_attempts} attempts; try other --facts or a wider domain"
        )

    def choose(self, anchor: Fact, view: DayView, seed: DayView) -> list[Fact] | None:
        """Algorithm 2 and 3 at once, on the seed's candidates: the slots'
        levels cycle from the anchor's (:func:`determine_level`), and each slot
        takes one of the categories open at its level, drawn true on the seed.
        Rather than draw one set and repair it fact by fact (the repair search
        of versions 1-6, ~40 redraws a puzzle), every candidate of a slot is
        judged at once: the windows of its facts' packed masks are stacked and
        ANDed with the set so far, and a popcount per row says which keep at
        least M of the anchor's days. The last two slots are chosen together
        (:meth:`_last_two`), at random among the pairs that leave exactly M;
        a dead end backs up one slot, within :data:`MAX_NODES` steps per seed.

        With ``minimal``, every fact must be needed: the sets are judged
        whole, all of a seed's at once (:meth:`_minimal_sets`).

        The slots are filled MONTH first and DAY last (:data:`_LAST_ORDER`;
        a minimal puzzle's YEAR last, :data:`_MINIMAL_ORDER`),
        so the pairs come from the levels with the most categories, and the
        last two slots' unseeded categories offer :data:`LAST_VARIANTS` draws
        each, so the last step has many answer-set sizes to choose from."""
        lo, hi = word_range(view.days, self.cfg.domain)
        self.windows.clear()
        self.span, self.view = None, view
        levels = [determine_level(i, anchor.fact_level()) for i in range(1, self.n)]
        order = _MINIMAL_ORDER if self.cfg.minimal else _LAST_ORDER
        levels.sort(key=order.__getitem__)  # stable: the cycle's order otherwise
        self.lo, self.hi, self.seed, self.levels = lo, hi, seed, levels
        self.nodes = 0
        self.pools.clear()
        self.outside.clear()
        if self.seeds is not None:
            self.seed_rows = self.seeds.rows(int(seed.days[0]))
        base = np.array(self.window(anchor, lo, hi))
        if self.cfg.minimal:
            return self._minimal_sets(anchor, base)
        return self._extend(_Partial([anchor], base))

    def _pool(self, level: Level | None, last: bool) -> _Pool:
        """The seed's candidate facts for a slot at ``level`` (any level:
        None), with their windows stacked: one per category there (several
        for an unseeded category when ``last``), each true on the seed. Drawn
        once per seed and level (:attr:`pools`), so every step of the seed's
        search judges the same candidates, less those whose category is used."""
        key = (level, last)
        got = self.pools.get(key)
        if got is None:
            facts: list[Fact] = []
            seeds = self.seeds
            found = np.zeros(0, dtype=np.int32)
            if seeds is not None:
                found = self.seed_rows[self._seeded(level)]
                found = found[found >= 0]
                facts += [seeds.facts[r] for r in found.tolist()]
            for k, draws in self._draws(level, last):
                variants: list[Fact] = []  # distinct draws of this category
                for _ in range(draws):
                    new = self.draw(k, self.seed, level)
                    if new is not None and new not in variants:
                        variants.append(new)
                facts += variants
            if seeds is None:
                got = self._pool_by_fact(facts)
            else:
                got = self._pool_by_row(facts, found, seeds)
            self.pools[key] = got
        return got

    def _pool_by_row(self, facts: list[Fact], found: np.ndarray, seeds: SeedTable) -> _Pool:
        """A pool whose candidates' windows, sizes and kinds are gathers from
        the seed table's rows (:meth:`SeedTable.row`): ``found`` are the rows
        of the first facts, the seed-determined ones; the facts drawn after
        them are looked up, and one with no row yet is taken fact by fact."""
        rows = found.tolist() + [seeds.row(f) for f in facts[found.size :]]
        missing = [i for i, r in enumerate(rows) if r < 0]
        at = np.array(rows, dtype=np.int64)
        if missing:
            at[missing] = 0  # a placeholder, overwritten below
        stack = seeds.masks[at, self.lo : self.hi]
        kinds, sizes = seeds.ranks[at], seeds.sizes[at]
        dom = self.cfg.domain
        for i in missing:
            f = facts[i]
            stack[i] = self.window(f, self.lo, self.hi)
            kinds[i], sizes[i] = KIND_INDEX[f.kind], answer_set_size(f, dom)
        return _Pool(facts, stack, kinds, sizes)

    def _pool_by_fact(self, facts: list[Fact]) -> _Pool:
        """A pool of ``facts`` built fact by fact (over a domain too wide for
        a seed table)."""
        width = self.hi - self.lo if self.packed else len(self.view)
        stack = np.empty((len(facts), width), dtype=np.uint64 if self.packed else bool)
        for i, f in enumerate(facts):
            stack[i] = self.window(f, self.lo, self.hi)
        kinds = np.array([KIND_INDEX[f.kind] for f in facts], dtype=np.int64)
        dom = self.cfg.domain
        sizes = np.array([answer_set_size(f, dom) for f in facts], dtype=np.int64)
        return _Pool(facts, stack, kinds, sizes)

    def _seeded(self, level: Level | None) -> list[int]:
        """:meth:`~tsolve.encodings.facts.seed_table.SeedTable.at_level`, kept
        per level for the search."""
        got = self.levels_seeded.get(level)
        if got is None and self.seeds is not None:
            got = self.levels_seeded[level] = self.seeds.at_level(level)
        return got or []

    def _draws(self, level: Level | None, last: bool) -> list[tuple[str, int]]:
        """The categories a pool at ``level`` draws (those not looked up in
        the seed table), each with its number of draws (:meth:`_variants`
        in a last slot, else one): the same for every seed of the search."""
        key = (level, last)
        got = self.plans.get(key)
        if got is None:
            got = self.plans[key] = [
                (k, self._variants(k) if last else 1)
                for k in self.categories
                if k not in self.skipped
                and (level is None or level in FACT_TYPES[k].levels())
                and not (self.seeds is not None and FACT_TYPES[k].seed_determined)
            ]  # fmt: skip
        return got

    def _variants(self, kind: str) -> int:
        """How many draws of category ``kind`` a last slot offers: one of a
        seed-determined kind (every draw is the same fact), and
        :data:`LAST_VARIANTS` of another, but one of an event's relation in a
        minimal puzzle (:data:`MINIMAL_ONE_DRAW`)."""
        if FACT_TYPES[kind].seed_determined:
            return 1
        if self.cfg.minimal and kind in MINIMAL_ONE_DRAW:
            return 1
        return LAST_VARIANTS

    def _open(self, slot: int, used: frozenset[str]) -> tuple[_Pool, np.ndarray]:
        """Slot ``slot``'s pool and which of its candidates have a category
        open beside ``used``; the pool of any level when none at the slot's
        level is open. (A mask, not a copy: the steps judge the whole pool and
        drop the closed rows from their verdict.)"""
        last = slot >= self.n - 2
        for level in (self.levels[slot - 1], None):
            pool = self._pool(level, last)
            is_open = (CLASH_BITS[pool.kinds] & _kind_bits(used)) == 0
            if is_open.any():
                return pool, is_open
        return pool, is_open

    def _extend(self, part: _Partial) -> list[Fact] | None:
        """:meth:`choose`'s depth-first step from the set so far. With two
        slots left, both are chosen at once (:meth:`_last_two`)."""
        self.nodes += 1
        slot = len(part.facts)
        used = frozenset(f.kind for f in part.facts)
        if slot == self.n - 2:
            return self._last_two(part, used)
        if slot < self.n - 1:
            return self._extend_one(part, used)
        pool, ok = self._open(slot, used)  # a puzzle of two facts: the one slot
        ok &= self.count_rows(pool.windows & part.prefix) == self.m
        picks = np.flatnonzero(ok)
        if picks.size == 0:
            return None
        return [*part.facts, pool.facts[int(picks[self.rng.randrange(picks.size)])]]

    def _extend_one(self, part: _Partial, used: frozenset[str]) -> list[Fact] | None:
        """A step that need not be minimal, before the last two slots: any
        candidate that keeps at least M days will do, so the categories open
        at the slot's level are tried one by one in random order, each drawn
        only when its turn comes (the first to pass is a uniform choice among
        those that pass, as :meth:`_extend`'s is), and at most
        :data:`BRANCHES` are followed."""
        slot = len(part.facts)
        level: Level | None = self.levels[slot - 1]
        kinds = list(_open_categories(self.categories, used, level))
        if not kinds:
            level = None
            kinds = list(_open_categories(self.categories, used, None))
        self.rng.shuffle(kinds)
        followed = 0
        for k in kinds:
            fact, window = self._candidate(k, level)
            if fact is None:
                continue
            prefix = window & part.prefix
            if self.count(prefix) < self.m:
                continue
            got = self._extend(_Partial([*part.facts, fact], prefix))
            followed += 1
            if got is not None or followed >= BRANCHES or self.nodes >= MAX_NODES:
                return got
        return None

    def _candidate(self, kind: str, level: Level | None) -> tuple[Fact | None, np.ndarray]:
        """Category ``kind``'s fact on the seed (from the seed table when it
        is seed-determined, else drawn at ``level``) and its window."""
        seeds = self.seeds
        if seeds is not None and FACT_TYPES[kind].seed_determined:
            row = int(self.seed_rows[seeds.kinds.index(kind)])
            if row < 0:
                return None, self.seed_rows[:0]
            return seeds.facts[row], seeds.masks[row, self.lo : self.hi]
        fact = self.draw(kind, self.seed, level)
        if fact is None:
            return None, self.seed_rows[:0]
        return fact, self.window(fact, self.lo, self.hi)

    def _last_two(self, part: _Partial, used: frozenset[str]) -> list[Fact] | None:
        """The last two slots at once: every pair of an open candidate of the
        one and the other (categories apart, :data:`CLASH`) is judged in one
        AND and popcount over the words where the set so far has days, and a
        pair that leaves exactly M is chosen at random."""
        slot = len(part.facts)
        (a, a_open), (b, b_open) = self._open(slot, used), self._open(slot + 1, used)
        if not a_open.any() or not b_open.any():
            return None
        m = self.m
        prefix = part.prefix
        a_and = a.windows & prefix
        rows = np.flatnonzero(a_open & (self.count_rows(a_and) >= m))
        if rows.size == 0:
            return None
        cols = np.flatnonzero(prefix) if self.packed else slice(None)
        a_cut, b_cut = a_and[rows][:, cols], b.windows[:, cols]
        both = self.count_rows(a_cut[:, None, :] & b_cut[None, :, :])
        ok = (both == m) & ~CLASH[a.kinds[rows]][:, b.kinds] & b_open[None, :]
        hits = np.flatnonzero(ok)
        if hits.size == 0:
            return None
        i, j = divmod(int(hits[self.rng.randrange(hits.size)]), ok.shape[1])
        return [*part.facts, a.facts[rows[i]], b.facts[j]]

    def _minimal_sets(self, anchor: Fact, base: np.ndarray) -> list[Fact] | None:
        """A minimal puzzle's fact set, judged whole: every set of the seed's
        candidates is grown slot by slot in NumPy passes, one row per partial
        set (:class:`_Beam`): each slot ANDs every open candidate
        (:meth:`_slot`) onto every row at once, and a popcount per row keeps
        the sets where the new fact cuts (a fact that removes no day of the
        set before it is never needed) and enough days are left for each
        slot to come to cut again. Past :data:`BEAM` rows, a random
        :data:`BEAM` go on. After the last slot, the sets that leave exactly
        M days are tested for necessity from their masks
        (:meth:`_necessary`), and the first that passes, in random order, is
        the puzzle: a uniform choice among the sets that pass.

        Where versions 1-8 followed one partial set at a time (a depth-first
        search with a step per candidate), this judges the seed's sets in one
        pass per slot, so a seed costs a few NumPy calls whatever its number
        of sets, and the sets the depth-first search never reached are in."""
        m = self.m
        cols = base.nonzero()[0]
        beam = _Beam(
            base[cols][None, :],
            cols,
            np.array([self.count(base)], dtype=np.int64),
            np.array([_kind_bits(frozenset({anchor.kind}))], dtype=np.int64),
            [],
            [],
        )
        slots = self.n - 1
        for slot in range(1, slots + 1):
            self.nodes += 1
            pool, allowed = self._slot(slot, beam, base)
            rows, picks = allowed.nonzero()
            if rows.size == 0:
                return None
            # Gathers by take, the pool's windows cut to the live words first.
            ands = beam.prefix.take(rows, axis=0)
            ands &= pool.windows[:, beam.cols].take(picks, axis=0)
            counts = self.count_rows(ands)
            # Each slot after this one must cut again (one day at least).
            keep = (counts == m) if slot == slots else (counts >= m + slots - slot)
            keep &= counts < beam.counts[rows]
            rows, picks, ands, counts = rows[keep], picks[keep], ands[keep], counts[keep]
            if rows.size > BEAM and slot < slots:
                kept = np.array(sorted(self.rng.sample(range(rows.size), BEAM)))
                rows, picks, ands, counts = rows[kept], picks[kept], ands[kept], counts[kept]
            if rows.size == 0:
                return None
            # The words where some set still has a day (all of them after
            # the last slot, which no pass reads again).
            live = np.bitwise_or.reduce(ands, axis=0).nonzero()[0] if slot < slots else ...
            beam = _Beam(
                ands[:, live],
                beam.cols[live],
                counts,
                beam.used[rows] | KIND_BITS[pool.kinds[picks]],
                [*(p[rows] for p in beam.picks), picks],
                [*beam.pools, pool],
            )
        return self._necessary(anchor, base, beam)

    def _slot(self, slot: int, beam: _Beam, base: np.ndarray) -> tuple[_Pool, np.ndarray]:
        """Slot ``slot``'s pool and which of its candidates each row of
        ``beam`` may take: a category open beside the row's (:data:`CLASH_BITS`),
        at the slot's level, or at any level for a row with none open there
        (as :meth:`_open` decides for one set). Where the slot draws from the
        same pool as the one before, a row takes only a later candidate than
        that slot's, so each set is judged once, not in both orders. A
        candidate true only inside the anchor is never offered: the other
        facts would then confine the answers to the anchor, and the anchor
        would not be needed."""
        last = slot >= self.n - 2
        level = self.levels[slot - 1]
        pool = self._pool(level, last)
        used = beam.used[:, None]
        is_open = (pool.clash & used) == 0
        lacking = ~is_open.any(axis=1)
        if lacking.any():
            narrow = len(pool.facts)
            pool = self._any_level(level, last)
            is_open = (pool.clash & used) == 0
            is_open &= (np.arange(len(pool.facts)) < narrow)[None, :] | lacking[:, None]
        if beam.pools and beam.pools[-1] is pool:
            is_open &= np.arange(len(pool.facts))[None, :] > beam.picks[-1][:, None]
        if self.packed:
            is_open &= self._outside(pool, base)[None, :]
        return pool, is_open

    def _outside(self, pool: _Pool, base: np.ndarray) -> np.ndarray:
        """Which of ``pool``'s candidates hold on a day outside the anchor
        (``base``, its window): those whose days inside it are fewer than all
        their days. Kept with the seed's pools."""
        got = self.outside.get(id(pool))
        if got is None:
            # The anchor lies inside the window, so a fact's days inside the
            # anchor are those of its window's AND with it.
            got = self.outside[id(pool)] = self.count_rows(pool.windows & base) < pool.sizes
        return got

    def _any_level(self, level: Level | None, last: bool) -> _Pool:
        """The pool at ``level`` followed by the pool of any level, as one
        (kept with the seed's pools), for the rows with no category open at
        ``level``."""
        key = ("any", level, last)
        got = self.pools.get(key)
        if got is None:
            one, every = self._pool(level, last), self._pool(None, last)
            got = self.pools[key] = _Pool(
                one.facts + every.facts,
                np.concatenate([one.windows, every.windows]),
                np.concatenate([one.kinds, every.kinds]),
                np.concatenate([one.sizes, every.sizes]),
            )
        return got

    def _necessary(self, anchor: Fact, base: np.ndarray, beam: _Beam) -> list[Fact] | None:
        """The first of ``beam``'s sets (each leaving exactly M days), in
        random order, whose every fact is needed, or None.

        A fact after the anchor is needed when the others leave more than M
        of the anchor's days: the sets' windows are stacked, a batch of
        :data:`HIT_BATCH_BYTES` at a time, and each fact's "all the others"
        is one prefix and one suffix conjunction over the stack (as
        :func:`~tsolve.families.time_puzzles.certify.witnesses_without`
        does), with a popcount. The anchor is needed when the other facts
        leave more than M days of the whole domain (a popcount of their
        packed masks), asked of at most :data:`ANCHOR_TRIES` sets. The solver
        certifies the set chosen (:func:`certify_necessity`)."""
        m = self.m
        order = list(range(beam.counts.size))
        self.rng.shuffle(order)
        width = base.size
        facts = len(beam.picks) + 1
        batch = max(1, HIT_BATCH_BYTES // (facts * width * base.itemsize))
        tries = 0
        for start in range(0, len(order), batch):
            rows = np.array(order[start : start + batch])
            # Fact-major (fact, set, word), so each running AND below is a
            # pass over contiguous blocks, not a strided one.
            stack = np.empty((facts, rows.size, width), dtype=base.dtype)
            stack[0] = base
            for s, (pool, picks) in enumerate(zip(beam.pools, beam.picks, strict=True), 1):
                stack[s] = pool.windows.take(picks[rows], axis=0)
            before = running_and(stack)  # AND of facts 0..i
            after = running_and(stack[::-1])[::-1]  # facts i..
            others = np.empty((facts - 1, rows.size, width), dtype=base.dtype)
            others[:-1] = before[:-2] & after[2:]
            others[-1] = before[-2]
            needed = (self.count_rows(others) > m).all(axis=0)
            for i in np.flatnonzero(needed).tolist():
                r = int(rows[i])
                pairs = zip(beam.pools, beam.picks, strict=True)
                chosen = [pool.facts[int(p[r])] for pool, p in pairs]
                facts_all = [anchor, *chosen]
                beyond = self._beyond_anchor(anchor, chosen)
                if beyond is not None and same_under_readings(facts_all, m, self.cfg.domain):
                    self.witnesses = [beyond, *self._days(others[:, i] & ~stack[1:, i])]
                    return facts_all
                tries += 1
                if tries >= ANCHOR_TRIES:
                    return None
        return None

    def _beyond_anchor(self, anchor: Fact, chosen: list[Fact]) -> int | None:
        """The first day of the domain outside the anchor on which every fact
        of ``chosen`` holds, or None: the anchor is needed exactly when there
        is one (the answers lie inside it). From the facts' masks as Python
        integers (:meth:`MaskTable.as_int`): an AND of a few integers and one
        bit trick, where NumPy took a pass and a call per fact over the
        domain's words."""
        table = self.table
        rest = table.as_int(chosen[0])
        for f in chosen[1:]:
            rest &= table.as_int(f)
        beyond = rest & ~table.as_int(anchor)
        if not beyond:
            return None
        return self.cfg.domain.start + (beyond & -beyond).bit_length() - 1

    def _days(self, rows: np.ndarray) -> list[int | None]:
        """The first day of each row of slot masks over the anchor's window
        (None for an empty row)."""
        if self.packed:
            got = first_days(rows, self.cfg.domain)
            return [None if d is None else d + 64 * self.lo for d in got]
        days = self.view.days
        return [int(days[np.argmax(r)]) if r.any() else None for r in rows]

    def _minimal_contradiction(
        self, facts: list[Fact], days: np.ndarray, view: DayView
    ) -> list[Fact] | None:
        """M = 0 that needs reasoning: swap one fact for one drawn from a decoy
        date, then shrink the now unsatisfiable set to a minimal unsatisfiable
        subset. Keep it only if it holds the anchor, has at least three facts,
        and every pair of its facts is satisfiable, so no two facts contradict
        each other outright. The solver certifies the result
        (:func:`certify_contradiction`).

        While the anchor is in, only its days matter, so the swap and the
        deletion of other facts work on the anchor's (few) days; the whole
        domain is consulted once per candidate, for the sets without the
        anchor (is the anchor needed? do two other facts clash?)."""
        if len(facts) < 3:
            return None
        trial = self._decoy_swap(facts, days)
        if trial is None:
            return None
        local = [f.holds(view) for f in trial]
        if all_of(local).any():
            return None
        core = list(range(len(trial)))
        for i in self.rng.sample(core[1:], len(core) - 1):  # the anchor stays
            rest = [j for j in core if j != i]
            if not all_of(local[j] for j in rest).any():
                core = rest
        if len(core) < 3:
            return None
        for i in core[1:]:  # the anchor with each other fact, on the anchor's days
            if not local[i].any():
                return None
        packed = packed_masks(trial, self.cfg.domain)
        others = {i: packed[i] for i in core[1:]}
        if not all_of(others.values()).any():
            return None  # the others clash without the anchor: not minimal with it
        for a in core[1:]:
            for b in core[1:]:
                if a < b and not (others[a] & others[b]).any():
                    return None
        return [trial[i] for i in core]

    def _contradict(self, facts: list[Fact], days: np.ndarray, view: DayView) -> list[Fact] | None:
        """M = 0: replace one non-anchor fact by one of the same category drawn
        from a decoy date in the anchor's range, so that no date satisfies all.
        (Algorithm 1 never yields an empty set since the seed satisfies every
        fact; this is the smallest change that does.)"""
        if len(facts) < 2:
            return None
        trial = self._decoy_swap(facts, days)
        return trial if trial is not None and not self.answer_mask(trial, view).any() else None

    def _decoy_swap(self, facts: list[Fact], days: np.ndarray) -> list[Fact] | None:
        """``facts`` with one non-anchor fact replaced by one of the same
        category drawn from a decoy date among the anchor's ``days``."""
        pos = self.rng.randrange(1, len(facts))
        decoy = DayView(np.asarray([int(days[self.rng.randrange(days.size)])]))
        old = facts[pos]
        lv = old.fact_level() if len(type(old).levels()) > 1 else None
        new = FACT_TYPES[old.kind].sample(self.rng, decoy, self.cfg.domain, lv)
        return None if new is None else [*facts[:pos], new, *facts[pos + 1 :]]


def same_under_readings(facts: list[Fact], m: int, domain: DateDomain) -> bool:
    """Do ``facts`` (whose masks leave ``m`` days) leave the same days under
    every reading of every fact? From packed masks: a fact's lower bound is
    the AND of its readings' masks and its own, its upper bound their OR, and
    the answers are the same under every reading exactly when the ANDs of the
    lower and of the upper bounds both keep ``m`` days (lower ⊆ canonical ⊆
    upper). The implicit wording's readings include the explicit one's, so
    they are the ones asked, as :func:`generate_puzzle` asks the solver.

    The search asks this of a set before it offers it, and takes the next set
    when the answer is no: the solver's certificate (which decides) then
    rarely rejects a set, where a rejection threw away the whole search
    (7 % of minimal puzzles drew again from a new anchor). The masks are
    Python integers (:meth:`MaskTable.as_int`), each fact's bounds kept in
    :data:`BOUND_INTS`: an AND or OR per fact and two bit counts."""
    if not any(fact_readings(f, IMPLICIT) for f in facts):
        return True
    table = mask_table(domain)
    lower = upper = -1  # every bit: the AND of no masks
    for f in facts:
        if fact_readings(f, IMPLICIT):
            lo, hi = BOUND_INTS.get((f, domain), _bound_ints)
        else:
            lo = hi = table.as_int(f)
        lower &= lo
        upper &= hi
    return lower.bit_count() == m and upper.bit_count() == m


def _bound_ints(key: tuple[Fact, DateDomain]) -> tuple[int, int]:
    """A fact's mask under every and under some of its readings (the implicit
    wording's, which include the explicit one's), as Python integers."""
    fact, domain = key
    table = mask_table(domain)
    lo = hi = table.as_int(fact)
    for r in fact_readings(fact, IMPLICIT):
        w = table.as_int(r.fact)
        lo, hi = lo & w, hi | w
    return lo, hi


#: Each fact with readings: (its AND and its OR over them, as integers), by
#: (fact, domain). The anchors and knowledge facts that have readings recur
#: across puzzles, and a minimal puzzle's search asks same_under_readings of
#: every set it offers. Bounded by bytes; never stale: keys are frozen values.
BOUND_INTS: BoundedStore[tuple[Fact, DateDomain], tuple[int, int]] = BoundedStore(
    64 * 2**20, lambda v: (v[0].bit_length() + v[1].bit_length()) // 8 + 64
)


def _answers(n: int) -> str:
    """The count in the search's error messages: "1 answer", "3 answers"."""
    return f"{n} answer" if n == 1 else f"{n} answers"


def render_prompt(facts: list[Fact], style: Style) -> str:
    lines = "\n".join(f"{i}. {f.render(style)}" for i, f in enumerate(facts, 1))
    return PROMPT_TEMPLATE.format(constraints=lines)


ID_PREFIX = "tp"


def puzzle_id(
    seed: int, index: int, style: str = "implicit", config: PuzzleConfig | None = None
) -> str:
    """The id of puzzle ``index`` of run ``seed`` in ``style`` made with
    ``config`` (its puzzle number, not its record index, and the fingerprint
    of the options that shape content: see generators/style_pairs.py)."""
    return styled_id(ID_PREFIX, seed, index, style, id_fingerprint(config or PuzzleConfig()))


@lru_cache(maxsize=64)
def id_fingerprint(config: PuzzleConfig) -> str:
    """The fingerprint ids carry (:func:`~tsolve.generators.style_pairs.content_fingerprint`)."""
    return content_fingerprint(config.to_json())


def generate_puzzle(
    seed: int = 0, index: int = 0, config: PuzzleConfig | None = None, **overrides: Any
) -> dict[str, Any]:
    """Generate puzzle ``index`` of run ``seed`` as a JSON-ready record.

    ``overrides`` are :class:`PuzzleConfig` fields, for one-off calls:
    ``generate_puzzle(7, 0, solutions=3)``.
    """
    cfg = _call_config(config, overrides)
    _check_position(seed, "seed")
    _check_position(index, "index")
    number, slot = style_slot(cfg.style, index)  # the puzzle, and its wording
    style = cast(Style, slot)
    rng = record_rng(GENERATOR_NAME, GENERATOR_VERSION, seed, number, id_fingerprint(cfg))
    target = cfg.target(number)
    n_facts = cfg.facts if cfg.facts is not None else rng.randint(4, 6)
    search = _Search(rng, cfg, target, n_facts)
    table, packed_domain = search.table, search.packed
    attempts = 0
    zero_core = target == 0 and not cfg.trivial_contradictions
    for _ in range(MAX_READING_REJECTIONS):
        search.witnesses = []
        facts, seed_day, tries = search.run()
        attempts += tries
        masks = fact_masks(facts, cfg.domain)
        # The same masks as integers where the mask table keeps them cheaply
        # (a domain of a few hundred years): the sizes below are ANDs and bit
        # counts of a few integers, not a NumPy call per AND.
        sets: list[DaySet] = [table.as_int(f) for f in facts] if packed_domain else list(masks)
        # A minimal set's every fact is needed (the search judged it so, and
        # certify_necessity proves it below), so all of them fix the answer.
        measured = difficulty(facts, sets, cfg.domain, style, cfg.minimal or zero_core)
        if cfg.difficulty is not None and measured["label"] != cfg.difficulty:
            continue
        # The gold is read off the facts' packed masks; keep the set only if
        # the solver proves that under every reading of its facts those dates,
        # and no others, are the answers (one call, an infeasibility proof).
        gold = days_of(all_of(masks), cfg.domain)
        if gold.size != target:
            raise AssertionError(
                f"internal error: the search found {target} answers but the facts' masks "
                f"give {gold.size} for seed={seed} index={index}"
            )
        puzzle = Puzzle(puzzle_id(seed, number, style, cfg), tuple(facts), cfg.domain, style)
        result, invariant = certify_known_gold(puzzle, gold.tolist(), cfg.backend)
        # A pair is one puzzle in two wordings, and a one-style run makes the
        # same puzzle as a paired one: keep a set only if its gold holds under
        # the readings of both wordings (deciding by the record's own style
        # let the two wordings of a pair diverge). The implicit
        # wording leaves to knowledge what the explicit one spells out, so its
        # readings include the explicit one's: an implicit record needs no
        # second call, an explicit one checks the implicit readings too.
        if invariant and style != IMPLICIT:
            implicit = replace(puzzle, style=IMPLICIT)
            _, invariant = certify_known_gold(implicit, gold.tolist(), cfg.backend)
        if invariant:
            readings = puzzle_readings(puzzle)
            break
    else:
        wanted = f" of {cfg.difficulty} difficulty" if cfg.difficulty else ""
        raise TsolveError(
            f"solutions: no puzzle{wanted} with exactly {_answers(target)} under every reading "
            f"found in {MAX_READING_REJECTIONS} tries; try other --facts or a wider domain"
        )
    order = list(range(len(facts)))
    rng.shuffle(order)  # the anchor need not come first in the prompt
    facts = [facts[i] for i in order]
    sets = [sets[i] for i in order]

    extra: dict[str, Any] = {}
    if cfg.minimal or zero_core:
        proposed = [search.witnesses[i] for i in order] if search.witnesses else None
        certify_necessity(facts, cfg.domain, cfg.backend, result.solutions, proposed)
        extra["without"] = sizes_without(sets, cfg.domain)
    if zero_core:
        # certify_known_gold's "unsat" is the proof that no date meets the
        # facts' upper bounds: the whole set's "no solution", not asked twice
        proved = result.status == "unsat"
        extra["contradiction"] = certify_contradiction(facts, cfg.domain, cfg.backend, proved)
    # The other wording of these facts; a difficulty filter (measured per
    # style) may keep other facts there, so such puzzles name no pair.
    pair = (
        {}
        if cfg.difficulty
        else {"pair": pair_id(ID_PREFIX, seed, number, style, id_fingerprint(cfg))}
    )
    return {
        "id": puzzle_id(seed, number, style, cfg),
        **pair,
        "family": FAMILY,
        "generator": generator_stamp(
            GENERATOR_NAME,
            GENERATOR_VERSION,
            seed,
            index,
            cfg.to_json(),
            seed_date=iso(seed_day),
            attempts=attempts,
        ),
        "style": style,
        "domain": cfg.domain.to_json(),
        "facts": [
            {**f.to_json(style), "information_gain": round(information_gain(f, cfg.domain), 6)}
            for f in facts
        ],
        "prompt": render_prompt(facts, style),
        "answers": [iso(d) for d in result.solutions],
        "readings": readings,
        **extra,
        "difficulty": measured,
        "solution_count": result.count,
        "solver": {
            "backend": result.backend,
            "cap": target + 1,
            "count": result.count,
            "complete": result.complete or result.count < target + 1,
        },
    }


def generate_puzzles(
    count: int, seed: int = 0, config: PuzzleConfig | None = None, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of run ``seed``, lazily. A wrong
    ``seed`` or ``config`` raises here, before the first record is read."""
    cfg = _call_config(config, {})
    _check_position(seed, "seed")
    return run_records(generate_puzzle, count, seed, cfg, start)


def _check_position(value: object, what: str) -> None:
    """A run's ``seed`` or a record's ``index``: a non-negative ``int`` (not a
    bool, which Python counts as one and a record would store as ``true``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TsolveError(f"{what}: expected a non-negative integer, got {shown(value)}")


def _call_config(config: object, overrides: dict[str, Any]) -> PuzzleConfig:
    """The config of a library call: ``config`` (a :class:`PuzzleConfig` or
    None) with ``overrides`` applied, or a one-line error naming what is wrong.
    A mapping is refused rather than read, since :class:`PuzzleConfig` takes
    parsed values (``tsolve.create_dataset`` takes the CLI's option text)."""
    if config is not None and not isinstance(config, PuzzleConfig):
        raise TsolveError(
            f"config: expected a PuzzleConfig or None, got {type(config).__name__} "
            f"{shown(config)} (options as text: tsolve.create_dataset('time-puzzles', ...))"
        )
    base = config or PuzzleConfig()
    if not overrides:
        return base
    known = {f.name for f in fields(PuzzleConfig)}
    unknown = sorted(str(k) for k in overrides if k not in known)
    if unknown:
        raise TsolveError(
            f"{unknown[0]}: not a PuzzleConfig field (fields: {', '.join(sorted(known))})"
        )
    return replace(base, **overrides)


def parse_solutions(spec: Any, name: str = "solutions") -> int | tuple[int, ...]:
    """``"3"`` -> 3; ``"1-6"`` -> (1, ..., 6); ``"1,3,5"`` -> (1, 3, 5), each in
    ``0..MAX_SOLUTIONS``. The shared list parser, checked against this
    generator's bounds before any range is expanded."""
    return parse_int_list(spec, name, lo=0, hi=MAX_SOLUTIONS)
