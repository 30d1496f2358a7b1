"""Every seed-determined fact of a domain, found by the day: the facts a
generator's seed day makes true in the categories that take no randomness
(the year, the month, the weekday, the president, ...), with their packed
masks, as rows of one array.

The generator draws a hidden seed day and then, for every candidate slot,
wants each such category's fact on that day and the fact's truth over its
anchor's days. Drawing them one by one (a ``sample`` call and a mask lookup
per category, per seed) was a third of the search. Here they are one column
lookup and one fancy index: :meth:`SeedTable.rows` gives the row of each
category's fact on the day, and :meth:`SeedTable.windows` the rows' words.

A seed-determined category partitions the days: the fact it draws on a day
holds on exactly the days that draw it (``tests/test_seed_table.py`` holds
this for every such category). So when a day's fact is drawn for the first
time, its mask fills in the row for every day it holds on, and the table is
complete after a few hundred draws (one per year, month, president, ...).

Like :class:`~tsolve.encodings.facts.packed.MaskTable`, it is the state the
generator is given, not a cache behind it: :func:`seed_table` keeps one per
domain (over domains up to :data:`~tsolve.encodings.facts.packed.PROMOTE_MAX_DAYS`
days; a wider one would hold a row of 57,000 words for each of 10,000 years).
Entries never go stale: facts, domains and the calendar tables are immutable.
"""

from __future__ import annotations

import random
from functools import lru_cache

import numpy as np

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts.base import FACT_TYPES, DayView, Fact, Level, kind_ranks
from tsolve.encodings.facts.packed import mask_table, to_int

#: Row numbers of :attr:`SeedTable.row_of` not yet filled, and of days on
#: which a category draws no fact (a president before the first term).
UNKNOWN = -1
NONE = -2
#: Rows a table holds at most: every seed-determined fact of a domain (a few
#: hundred: years, decades, months, presidents, ...) and the facts searches
#: draw at random (weekday sets, day ranges, people, sports events: a few
#: hundred more). A row is a fact's mask, 18 KB over a 400-year domain.
MAX_ROWS = 4096


class SeedTable:
    """One domain's seed-determined facts by day (see the module docstring)."""

    def __init__(self, domain: DateDomain, kinds: tuple[str, ...]) -> None:
        self.domain = domain
        #: The categories, in this order in :attr:`row_of` and :meth:`rows`.
        self.kinds = kinds
        #: The level of each category (each has one).
        self.levels = tuple(FACT_TYPES[k].level for k in kinds)
        #: row_of[k, d - start]: the row of category k's fact on day d.
        self.row_of = np.full((len(kinds), domain.size), UNKNOWN, dtype=np.int32)
        #: Each row's fact.
        self.facts: list[Fact] = []
        #: Each row's mask as a Python integer (packed.to_int).
        self.ints: list[int] = []
        self._index: dict[Fact, int] = {}
        self._words = mask_table(domain).words
        self._entries = mask_table(domain).entries
        #: The rows' packed masks over the domain (grown by doubling).
        self.masks = np.zeros((64, -(-domain.size // 64)), dtype=np.uint64)
        #: How many days each row's fact holds, and its kind's rank
        #: (:func:`~tsolve.encodings.facts.base.kind_ranks`); grown with :attr:`masks`.
        self.sizes = np.zeros(64, dtype=np.int64)
        self.ranks = np.zeros(64, dtype=np.int64)
        self._rank_of = kind_ranks()

    def rows(self, day: int) -> np.ndarray:
        """The row of each category's fact on ``day`` (:data:`NONE` where it
        has none), filling any the table does not know yet."""
        col = day - self.domain.start
        got = self.row_of[:, col]
        if (got == UNKNOWN).any():
            for k in np.flatnonzero(got == UNKNOWN).tolist():
                self._fill(int(k), day)
            got = self.row_of[:, col]
        return got

    def _fill(self, k: int, day: int) -> None:
        cls = FACT_TYPES[self.kinds[k]]
        # Seed-determined: no randomness is drawn and the level is ignored.
        fact = cls.sample(random.Random(0), DayView.of_day(day), self.domain, None)
        col = day - self.domain.start
        if fact is None:
            self.row_of[k, col] = NONE
            return
        row = self._index.get(fact)
        if row is None:
            row = self._add(fact)
        self.row_of[k, col] = row
        words = self.masks[row]
        bits = np.unpackbits(words.view(np.uint8), count=self.domain.size).astype(bool)
        self.row_of[k, bits] = row

    def _add(self, fact: Fact) -> int:
        row = len(self.facts)
        if row == self.masks.shape[0]:
            grown = np.zeros((2 * row, self.masks.shape[1]), dtype=np.uint64)
            grown[:row] = self.masks
            self.masks = grown
            self.sizes = np.concatenate([self.sizes, np.zeros(row, dtype=np.int64)])
            self.ranks = np.concatenate([self.ranks, np.zeros(row, dtype=np.int64)])
        self.masks[row] = self._words(fact)
        self.sizes[row] = int(np.bitwise_count(self.masks[row]).sum())
        self.ranks[row] = self._rank_of[fact.kind]
        self.ints.append(to_int(self.masks[row]))
        self.facts.append(fact)
        self._index[fact] = row
        return row

    def row(self, fact: Fact) -> int:
        """``fact``'s row, added if new, for any fact (a seed-determined one
        or one drawn at random on a seed): its window, size and kind are then
        gathers by row, with no lookup per fact. A fact gets a row once the
        domain's :class:`~tsolve.encodings.facts.packed.MaskTable` holds its
        mask (a fact drawn once is never given a whole-domain mask: most
        facts a cold start draws are drawn once), and while the table has
        fewer than :data:`MAX_ROWS` rows; else -1, and the caller takes its
        window from the mask table."""
        got = self._index.get(fact)
        if got is not None:
            return got
        if len(self.facts) >= MAX_ROWS or self._entries.find(fact) is None:
            return -1
        return self._add(fact)

    def windows(self, rows: np.ndarray, lo: int, hi: int) -> np.ndarray:
        """Words ``lo .. hi - 1`` of the given rows' masks, one row each."""
        return self.masks[rows, lo:hi]

    def at_level(self, level: Level | None) -> list[int]:
        """Positions (in :attr:`kinds`) of the categories at ``level`` (all: None)."""
        return [i for i, lv in enumerate(self.levels) if level is None or lv == level]


# The seed table of each domain in use (a handful at a time, least recently
# used out; each bounded by its domain's facts). Keyed by the frozen domain and
# the categories, so never stale.
@lru_cache(maxsize=4)
def seed_table(domain: DateDomain, kinds: tuple[str, ...]) -> SeedTable:
    """The process's :class:`SeedTable` for ``domain`` and seed-determined ``kinds``."""
    return SeedTable(domain, kinds)
