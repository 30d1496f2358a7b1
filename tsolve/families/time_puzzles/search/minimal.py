"""The search for a minimal puzzle, one whose every fact is needed: every
set of a seed's candidates grown slot by slot in NumPy passes
(:class:`MinimalChooser`), then the sets that leave exactly M days tested
for necessity from their masks, each with a proposed witness per fact for
the solver's certificate."""

from __future__ import annotations

import random

import numpy as np

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import Fact, Level
from tsolve.encodings.facts.packed import MaskTable, running_and
from tsolve.families.time_puzzles.clashes import KIND_BITS, kind_bits
from tsolve.families.time_puzzles.reading_bounds import same_under_readings
from tsolve.families.time_puzzles.search.plan import (
    RANGE_BITS,
    REDRAW_PLAIN,
    REDRAW_SPREAD,
    SPREAD_BITS,
)
from tsolve.families.time_puzzles.search.pools import Pool, SeedPools

# Sets a minimal puzzle's search offers to the test that its anchor is needed.
ANCHOR_TRIES = 8
# Partial sets the search carries from one slot to the next
# (MinimalChooser.sets); past it, a random BEAM go on.
BEAM = 48
# Bytes of stacked windows the necessity test judges at once
# (MinimalChooser.necessary): a few sets over a wide anchor, dozens over a
# narrow one; most seeds' first few sets hold one that passes.
HIT_BATCH_BYTES = 2**16


class Beam:
    """The partial fact sets the search carries from one slot to the next
    (:meth:`MinimalChooser.sets`), one row each: ``picks[s]``, the candidate
    each set took in slot s + 1 (an index into that slot's pool,
    ``pools[s]``); ``used``, the bits of the kinds it holds
    (:func:`~tsolve.families.time_puzzles.clashes.kind_bits`); ``prefix``,
    the AND of its windows over the words ``cols`` of the anchor's window
    (the words where some set still has a day); ``counts``, the days each
    set leaves."""

    __slots__ = ("cols", "counts", "picks", "pools", "prefix", "used")

    def __init__(
        self,
        prefix: np.ndarray,
        cols: np.ndarray,
        counts: np.ndarray,
        used: np.ndarray,
        picks: list[np.ndarray],
        pools: list[Pool],
    ) -> None:
        self.prefix = prefix
        self.cols = cols
        self.counts = counts
        self.used = used
        self.picks = picks
        self.pools = pools


class MinimalChooser:
    """One seed's search for a minimal set over ``anchor`` (its window:
    ``base``): ``levels`` are the slots' levels after the anchor, ``nodes``
    the passes spent, ``outside`` which candidates of each pool hold outside
    the anchor (by the pool's id; the pools live as long in ``pools``), and
    ``witnesses`` the proposed witnesses of the set found, one day per fact
    (the anchor first), each a day only that fact excludes, read off the
    masks the search judged them by: a proposal for
    :func:`~tsolve.families.time_puzzles.certify.certify_necessity`."""

    __slots__ = (
        "anchor", "base", "levels", "m", "n", "nodes", "outside", "pools", "rng", "witnesses"
    )  # fmt: skip

    def __init__(
        self,
        rng: random.Random,
        pools: SeedPools,
        levels: list[Level],
        m: int,
        anchor: Fact,
        base: np.ndarray,
    ) -> None:
        self.rng = rng
        self.pools = pools
        self.levels = levels
        self.m = m
        self.n = len(levels) + 1
        self.anchor = anchor
        self.base = base
        self.nodes = 0
        self.outside: dict[int, np.ndarray] = {}
        self.witnesses: list[int | None] = []

    def sets(self) -> list[Fact] | None:
        """A minimal puzzle's fact set, judged whole: every set of the seed's
        candidates is grown slot by slot in NumPy passes, one row per partial
        set (:class:`Beam`): each slot ANDs every open candidate
        (:meth:`slot`) onto every row at once, and a popcount per row keeps
        the sets where the new fact cuts (a fact that removes no day of the
        set before it is never needed) and enough days are left for each
        slot to come to cut again. Past :data:`BEAM` rows, a random
        :data:`BEAM` go on. After the last slot, the sets that leave exactly
        M days are tested for necessity from their masks
        (:meth:`necessary`), and the first that passes, in random order, is
        the puzzle: a uniform choice among the sets that pass.

        Where versions 1-8 followed one partial set at a time (a depth-first
        search with a step per candidate), this judges the seed's sets in one
        pass per slot, so a seed costs a few NumPy calls whatever its number
        of sets, and the sets the depth-first search never reached are in."""
        m, base, win = self.m, self.base, self.pools.windows
        cols = base.nonzero()[0]
        beam = Beam(
            base[cols][None, :],
            cols,
            np.array([win.count(base)], dtype=np.int64),
            np.array([kind_bits(frozenset({self.anchor.kind}))], dtype=np.int64),
            [],
            [],
        )
        slots = self.n - 1
        for slot in range(1, slots + 1):
            self.nodes += 1
            pool, allowed = self.slot(slot, beam)
            rows, picks = allowed.nonzero()
            if rows.size == 0:
                return None
            # Gathers by take, the pool's windows cut to the live words first.
            ands = beam.prefix.take(rows, axis=0)
            ands &= pool.windows[:, beam.cols].take(picks, axis=0)
            counts = win.count_rows(ands)
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
            beam = Beam(
                ands[:, live],
                beam.cols[live],
                counts,
                beam.used[rows] | KIND_BITS[pool.kinds[picks]],
                [*(p[rows] for p in beam.picks), picks],
                [*beam.pools, pool],
            )
        return self.necessary(beam)

    def slot(self, slot: int, beam: Beam) -> tuple[Pool, np.ndarray]:
        """Slot ``slot``'s pool and which of its candidates each row of
        ``beam`` may take: a category open beside the row's (:data:`CLASH_BITS`),
        at the slot's level, or at any level for a row with none open there
        (as :meth:`DefaultChooser.open` decides for one set). Where the slot
        draws from the same pool as the one before, a row takes only a later
        candidate than that slot's, so each set is judged once, not in both
        orders. A candidate true only inside the anchor is never offered: the
        other facts would then confine the answers to the anchor, and the
        anchor would not be needed."""
        last = slot >= self.n - 2
        level = self.levels[slot - 1]
        pool = self.pools.pool(level, last)
        used = beam.used[:, None]
        is_open = (pool.clash & used) == 0
        lacking = ~is_open.any(axis=1)
        if lacking.any():
            narrow = len(pool.facts)
            pool = self.pools.any_level(level, last)
            is_open = (pool.clash & used) == 0
            is_open &= (np.arange(len(pool.facts)) < narrow)[None, :] | lacking[:, None]
        if beam.pools and beam.pools[-1] is pool:
            is_open &= np.arange(len(pool.facts))[None, :] > beam.picks[-1][:, None]
        if self.pools.windows.packed:
            is_open &= self.held_outside(pool)[None, :]
        return pool, is_open

    def held_outside(self, pool: Pool) -> np.ndarray:
        """Which of ``pool``'s candidates hold on a day outside the anchor
        (``base``, its window): those whose days inside it are fewer than all
        their days. Kept with the seed's pools."""
        got = self.outside.get(id(pool))
        if got is None:
            # The anchor lies inside the window, so a fact's days inside the
            # anchor are those of its window's AND with it.
            inside = self.pools.windows.count_rows(pool.windows & self.base)
            got = self.outside[id(pool)] = inside < pool.sizes
        return got

    def necessary(self, beam: Beam) -> list[Fact] | None:
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
        m, base, win, anchor = self.m, self.base, self.pools.windows, self.anchor
        order = list(range(beam.counts.size))
        self.rng.shuffle(order)
        # The sets holding a range of years first, then those holding
        # another spread kind (plan.SPREAD_KINDS); stable, so the set taken
        # is a uniform choice among the first group that has one passing.
        spread = ((beam.used & SPREAD_BITS) != 0).tolist()
        ranged = ((beam.used & RANGE_BITS) != 0).tolist()
        order.sort(key=lambda r: (not ranged[r], not spread[r]))
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
            needed = (win.count_rows(others) > m).all(axis=0)
            for i in np.flatnonzero(needed).tolist():
                r = int(rows[i])
                pairs = zip(beam.pools, beam.picks, strict=True)
                chosen = [pool.facts[int(p[r])] for pool, p in pairs]
                facts_all = [anchor, *chosen]
                beyond = beyond_anchor(win.table, win.domain, anchor, chosen)
                if beyond is not None and same_under_readings(facts_all, m, win.domain):
                    if not ranged[r] and self.pools.plan.ranges:
                        # No set of this seed with a range passed: give the
                        # seed up at these odds (plan.REDRAW_PLAIN).
                        odds = REDRAW_SPREAD if spread[r] else REDRAW_PLAIN
                        if self.rng.random() < odds:
                            return None
                    self.witnesses = [beyond, *win.first_days(others[:, i] & ~stack[1:, i])]
                    return facts_all
                tries += 1
                if tries >= ANCHOR_TRIES:
                    return None
        return None


def beyond_anchor(
    table: MaskTable, domain: DateDomain, anchor: Fact, chosen: list[Fact]
) -> int | None:
    """The first day of the domain outside the anchor on which every fact
    of ``chosen`` holds, or None: the anchor is needed exactly when there
    is one (the answers lie inside it). From the facts' masks as Python
    integers (:meth:`MaskTable.as_int`): an AND of a few integers and one
    bit trick, where NumPy took a pass and a call per fact over the
    domain's words."""
    rest = table.as_int(chosen[0])
    for f in chosen[1:]:
        rest &= table.as_int(f)
    beyond = rest & ~table.as_int(anchor)
    if not beyond:
        return None
    return domain.start + (beyond & -beyond).bit_length() - 1


def choose_minimal(
    rng: random.Random,
    pools: SeedPools,
    levels: list[Level],
    m: int,
    anchor: Fact,
    base: np.ndarray,
) -> tuple[list[Fact] | None, int, list[int | None]]:
    """A minimal set over ``anchor`` that leaves exactly ``m`` days, or
    None; the passes it took; and the witnesses it proposes."""
    chooser = MinimalChooser(rng, pools, levels, m, anchor, base)
    facts = chooser.sets()
    return facts, chooser.nodes, chooser.witnesses
