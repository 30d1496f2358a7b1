"""The search for a puzzle that need not be minimal: a depth-first walk over
the seed's candidates, slot by slot, each step judging a whole slot's
candidates at once, and the last two slots chosen together as pairs."""

from __future__ import annotations

import random

import numpy as np

from tsolve.encodings.facts import Fact, Level
from tsolve.families.time_puzzles.clashes import CLASH, CLASH_BITS, kind_bits, open_categories
from tsolve.families.time_puzzles.search.pools import Pool, SeedPools

# Steps of the depth-first search per seed before the search draws another
# seed, and candidates it follows from each slot.
MAX_NODES = 24
BRANCHES = 4


class Partial:
    """A fact set the chooser is growing (:meth:`DefaultChooser.extend`): the
    facts (the anchor first) and the AND of their windows over the anchor's
    words (``prefix``)."""

    __slots__ = ("facts", "prefix")

    def __init__(self, facts: list[Fact], prefix: np.ndarray) -> None:
        self.facts = facts
        self.prefix = prefix


class DefaultChooser:
    """One seed's depth-first search for a set that leaves exactly ``m`` of
    the anchor's days: ``levels`` are the slots' levels after the anchor,
    ``nodes`` the steps spent (within :data:`MAX_NODES`)."""

    __slots__ = ("categories", "levels", "m", "n", "nodes", "pools", "rng")

    def __init__(
        self,
        rng: random.Random,
        pools: SeedPools,
        levels: list[Level],
        m: int,
        categories: tuple[str, ...],
    ) -> None:
        self.rng = rng
        self.pools = pools
        self.levels = levels
        self.m = m
        self.n = len(levels) + 1
        self.categories = categories
        self.nodes = 0

    def extend(self, part: Partial) -> list[Fact] | None:
        """The depth-first step from the set so far. With two slots left,
        both are chosen at once (:meth:`last_two`)."""
        self.nodes += 1
        slot = len(part.facts)
        used = frozenset(f.kind for f in part.facts)
        if slot == self.n - 2:
            return self.last_two(part, used)
        if slot < self.n - 1:
            return self.extend_one(part, used)
        pool, ok = self.open(slot, used)  # a puzzle of two facts: the one slot
        ok &= self.pools.windows.count_rows(pool.windows & part.prefix) == self.m
        picks = np.flatnonzero(ok)
        if picks.size == 0:
            return None
        return [*part.facts, pool.facts[int(picks[self.rng.randrange(picks.size)])]]

    def extend_one(self, part: Partial, used: frozenset[str]) -> list[Fact] | None:
        """A step before the last two slots: any candidate that keeps at
        least M days will do, so the categories open at the slot's level are
        tried one by one in random order, each drawn only when its turn comes
        (the first to pass is a uniform choice among those that pass, as
        :meth:`extend`'s is), and at most :data:`BRANCHES` are followed."""
        slot = len(part.facts)
        level: Level | None = self.levels[slot - 1]
        kinds = list(open_categories(self.categories, used, level))
        if not kinds:
            level = None
            kinds = list(open_categories(self.categories, used, None))
        self.rng.shuffle(kinds)
        followed = 0
        for k in kinds:
            fact, window = self.pools.candidate(k, level)
            if fact is None:
                continue
            prefix = window & part.prefix
            if self.pools.windows.count(prefix) < self.m:
                continue
            got = self.extend(Partial([*part.facts, fact], prefix))
            followed += 1
            if got is not None or followed >= BRANCHES or self.nodes >= MAX_NODES:
                return got
        return None

    def open(self, slot: int, used: frozenset[str]) -> tuple[Pool, np.ndarray]:
        """Slot ``slot``'s pool and which of its candidates have a category
        open beside ``used``; the pool of any level when none at the slot's
        level is open. (A mask, not a copy: the steps judge the whole pool and
        drop the closed rows from their verdict.)"""
        last = slot >= self.n - 2
        for level in (self.levels[slot - 1], None):
            pool = self.pools.pool(level, last)
            is_open = (CLASH_BITS[pool.kinds] & kind_bits(used)) == 0
            if is_open.any():
                return pool, is_open
        return pool, is_open

    def last_two(self, part: Partial, used: frozenset[str]) -> list[Fact] | None:
        """The last two slots at once: every pair of an open candidate of the
        one and the other (categories apart, :data:`CLASH`) is judged in one
        AND and popcount over the words where the set so far has days, and a
        pair that leaves exactly M is chosen at random."""
        slot = len(part.facts)
        (a, a_open), (b, b_open) = self.open(slot, used), self.open(slot + 1, used)
        if not a_open.any() or not b_open.any():
            return None
        m, win = self.m, self.pools.windows
        prefix = part.prefix
        a_and = a.windows & prefix
        rows = np.flatnonzero(a_open & (win.count_rows(a_and) >= m))
        if rows.size == 0:
            return None
        cols = np.flatnonzero(prefix) if win.packed else slice(None)
        a_cut, b_cut = a_and[rows][:, cols], b.windows[:, cols]
        both = win.count_rows(a_cut[:, None, :] & b_cut[None, :, :])
        ok = (both == m) & ~CLASH[a.kinds[rows]][:, b.kinds] & b_open[None, :]
        hits = np.flatnonzero(ok)
        if hits.size == 0:
            return None
        i, j = divmod(int(hits[self.rng.randrange(hits.size)]), ok.shape[1])
        return [*part.facts, a.facts[rows[i]], b.facts[j]]


def choose_default(
    rng: random.Random,
    pools: SeedPools,
    levels: list[Level],
    m: int,
    start: Partial,
) -> tuple[list[Fact] | None, int]:
    """A set grown from ``start`` (the anchor) that leaves exactly ``m``
    days, or None, and the search steps it took."""
    chooser = DefaultChooser(rng, pools, levels, m, pools.plan.categories)
    return chooser.extend(start), chooser.nodes
