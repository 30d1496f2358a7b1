"""A seed's candidate facts for each slot, with their windows stacked so
that a search judges a whole slot in one AND and popcount
(:class:`SeedPools`): the seed-determined ones gathered from the domain's
seed table, the others drawn true on the seed."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tsolve.encodings.facts import FACT_TYPES, DayView, Fact, Level
from tsolve.encodings.facts.packed import answer_set_size
from tsolve.encodings.facts.seed_table import SeedTable
from tsolve.families.time_puzzles.clashes import CLASH_BITS, KIND_INDEX
from tsolve.families.time_puzzles.search.plan import SearchPlan
from tsolve.families.time_puzzles.search.windows import (
    INTERVAL_KINDS,
    AnchorWindows,
    interval_size,
)

#: Draws a fact of a kind true on a day, at a level (or any: None).
Draw = Callable[[str, DayView, "Level | None"], "Fact | None"]


class Pool:
    """A slot's candidates (:meth:`SeedPools.pool`): the facts, their windows
    over the anchor's words, their kinds' rows in :data:`CLASH`, and those
    rows as bits (:data:`CLASH_BITS`).

    This and the searches' partial sets are plain slotted classes, not
    dataclasses: the search makes thousands of them, and a frozen
    dataclass's ``__init__`` (one ``object.__setattr__`` per field) and its
    class creation at import (about 1 ms each, on the first puzzle's path)
    bought nothing here. Treat them as immutable."""

    __slots__ = ("clash", "facts", "kinds", "sizes", "windows")

    def __init__(
        self, facts: list[Fact], windows: np.ndarray, kinds: np.ndarray, sizes: np.ndarray
    ) -> None:
        self.facts = facts
        self.windows = windows
        self.kinds = kinds
        self.sizes = sizes  # how many days of the domain each candidate holds
        self.clash = CLASH_BITS[kinds]  # the kinds each candidate may not share a set with


class SeedPools:
    """The pools of one seed: drawn once per level (:attr:`cache`), so every
    step of the seed's search judges the same candidates, less those whose
    category is used. ``seed_rows`` are the seed's rows of the domain's seed
    table (``seeds``, None over a domain too wide for one); ``draw`` draws
    the other categories' facts (the search's randomness)."""

    __slots__ = ("cache", "draw", "plan", "seed", "seed_rows", "seeds", "windows")

    def __init__(
        self,
        plan: SearchPlan,
        seeds: SeedTable | None,
        seed: DayView,
        windows: AnchorWindows,
        draw: Draw,
    ) -> None:
        self.plan = plan
        self.seeds = seeds
        self.seed = seed
        self.windows = windows
        self.draw = draw
        self.seed_rows = (
            np.zeros(0, dtype=np.int32) if seeds is None else seeds.rows(int(seed.days[0]))
        )
        self.cache: dict[tuple[object, ...], Pool] = {}

    def pool(self, level: Level | None, last: bool) -> Pool:
        """The seed's candidate facts for a slot at ``level`` (any level:
        None), with their windows stacked: one per category there (several
        for an unseeded category when ``last``), each true on the seed."""
        key = (level, last)
        got = self.cache.get(key)
        if got is None:
            facts: list[Fact] = []
            seeds = self.seeds
            found = np.zeros(0, dtype=np.int32)
            if seeds is not None:
                found = self.seed_rows[self.plan.seeded_at(level, seeds)]
                found = found[found >= 0]
                facts += [seeds.facts[r] for r in found.tolist()]
            for k, draws in self.plan.draws(level, last):
                variants: list[Fact] = []  # distinct draws of this category
                for _ in range(draws):
                    new = self.draw(k, self.seed, level)
                    if new is not None and new not in variants:
                        variants.append(new)
                facts += variants
            got = self.by_fact(facts) if seeds is None else self.by_row(facts, found, seeds)
            self.cache[key] = got
        return got

    def any_level(self, level: Level | None, last: bool) -> Pool:
        """The pool at ``level`` followed by the pool of any level, as one
        (kept with the seed's pools), for the rows with no category open at
        ``level``."""
        key = ("any", level, last)
        got = self.cache.get(key)
        if got is None:
            one, every = self.pool(level, last), self.pool(None, last)
            got = self.cache[key] = Pool(
                one.facts + every.facts,
                np.concatenate([one.windows, every.windows]),
                np.concatenate([one.kinds, every.kinds]),
                np.concatenate([one.sizes, every.sizes]),
            )
        return got

    def candidate(self, kind: str, level: Level | None) -> tuple[Fact | None, np.ndarray]:
        """Category ``kind``'s fact on the seed (from the seed table when it
        is seed-determined, else drawn at ``level``) and its window."""
        seeds, win = self.seeds, self.windows
        if seeds is not None and FACT_TYPES[kind].seed_determined:
            row = int(self.seed_rows[seeds.kinds.index(kind)])
            if row < 0:
                return None, self.seed_rows[:0]
            return seeds.facts[row], seeds.masks[row, win.lo : win.hi]
        fact = self.draw(kind, self.seed, level)
        if fact is None:
            return None, self.seed_rows[:0]
        return fact, win.window(fact)

    def by_row(self, facts: list[Fact], found: np.ndarray, seeds: SeedTable) -> Pool:
        """A pool whose candidates' windows, sizes and kinds are gathers from
        the seed table's rows (:meth:`SeedTable.row`): ``found`` are the rows
        of the first facts, the seed-determined ones; the facts drawn after
        them are looked up, and one with no row yet is taken fact by fact."""
        rows = found.tolist() + [
            -1 if f.kind in INTERVAL_KINDS else seeds.row(f) for f in facts[found.size :]
        ]
        missing = [i for i, r in enumerate(rows) if r < 0]
        at = np.array(rows, dtype=np.int64)
        if missing:
            at[missing] = 0  # a placeholder, overwritten below
        win = self.windows
        stack = seeds.masks[at, win.lo : win.hi]
        kinds, sizes = seeds.ranks[at], seeds.sizes[at]
        for i in missing:
            f = facts[i]
            stack[i] = win.window(f)
            kinds[i] = KIND_INDEX[f.kind]
            sizes[i] = (
                interval_size(f, win.domain)
                if f.kind in INTERVAL_KINDS
                else answer_set_size(f, win.domain)
            )
        return Pool(facts, stack, kinds, sizes)

    def by_fact(self, facts: list[Fact]) -> Pool:
        """A pool of ``facts`` built fact by fact (over a domain too wide for
        a seed table)."""
        win = self.windows
        width = win.hi - win.lo if win.packed else len(win.view)
        stack = np.empty((len(facts), width), dtype=np.uint64 if win.packed else bool)
        for i, f in enumerate(facts):
            stack[i] = win.window(f)
        kinds = np.array([KIND_INDEX[f.kind] for f in facts], dtype=np.int64)
        sizes = np.array([answer_set_size(f, win.domain) for f in facts], dtype=np.int64)
        return Pool(facts, stack, kinds, sizes)
