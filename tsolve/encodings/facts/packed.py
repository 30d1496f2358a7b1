"""Each fact's truth over a whole domain, packed 64 days to a word and kept
per fact: the sizes the generator asks for, in microseconds.

Generation keeps asking how many dates of the domain satisfy a fact, or a
few facts together: a fact's information gain (|C(t)|), whether a puzzle's
anchor adds anything, the measured difficulty (sizes in information-gain
order, the fewest facts that fix the answer), the size without each fact.
With the domain packed into ``ceil(N / 64)`` words, a conjunction is a few
``&`` over those words and a size is a popcount: 1,142 words for the default
200-year domain, 57,000 for 0001..9999, where building interval sets just to
size them took seconds and gigabytes (issue 14).

Facts recur across puzzles (the same months, weekdays, presidents), so the
packed masks are kept, keyed by the fact (a frozen value) and the domain, in
:data:`PACKED`: a least-recently-used store bounded by bytes rather than by
entries, since one entry costs 9 KB on the default domain and 450 KB on the
widest. Entries never go stale: facts, domains and the calendar tables are
immutable.

These masks are the facts' fast path (``holds``), as in the search; gold
answers never come from here. ``tests/test_facts.py`` holds ``holds`` equal
to the solvers' IR for every category.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts.base import Fact, domain_view

#: Bytes the store may hold before it drops its least recently used masks.
BUDGET_BYTES = 96 * 2**20


class PackedStore:
    """Packed domain masks by (fact, domain), least recently used out first
    once more than ``budget`` bytes are held."""

    def __init__(self, budget: int = BUDGET_BYTES) -> None:
        self.budget = budget
        self.bytes = 0
        # (fact, domain) -> (packed mask, how many days it holds)
        self._masks: OrderedDict[tuple[Fact, DateDomain], tuple[np.ndarray, int]] = OrderedDict()

    def entry(self, fact: Fact, domain: DateDomain) -> tuple[np.ndarray, int]:
        """(packed mask, its size) of ``fact`` over ``domain``."""
        key = (fact, domain)
        got = self._masks.get(key)
        if got is not None:
            self._masks.move_to_end(key)
            return got
        words = pack(_truth(fact, domain))
        got = self._masks[key] = (words, size(words))
        self.bytes += words.nbytes
        while self.bytes > self.budget and len(self._masks) > 1:
            _, (old, _n) = self._masks.popitem(last=False)
            self.bytes -= old.nbytes
        return got

    def get(self, fact: Fact, domain: DateDomain) -> np.ndarray:
        return self.entry(fact, domain)[0]

    def __len__(self) -> int:
        return len(self._masks)

    def clear(self) -> None:
        self._masks.clear()
        self.bytes = 0


#: The process's store (one per worker process; nothing is shared between them).
PACKED = PackedStore()


def _truth(fact: Fact, domain: DateDomain) -> np.ndarray:
    """``fact``'s truth over ``domain`` as a boolean mask: filled from its
    :meth:`~Fact.day_intervals` when it has them (no pass over the days'
    calendar fields), or else its fast path ``holds`` on the whole domain."""
    spans = fact.day_intervals()
    if spans is None:
        return np.asarray(fact.holds(domain_view(domain)), dtype=bool)
    mask = np.zeros(domain.size, dtype=bool)
    for a, b in spans.clip(domain.start, domain.end):
        mask[a - domain.start : b - domain.start + 1] = True
    return mask


def pack(mask: np.ndarray) -> np.ndarray:
    """A boolean mask as 64-bit words (zero padding beyond the last day)."""
    packed = np.packbits(mask)
    pad = -packed.size % 8
    if pad:
        packed = np.concatenate([packed, np.zeros(pad, dtype=np.uint8)])
    return packed.view(np.uint64)


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    """The first ``n`` days of packed ``words`` as a boolean mask."""
    return np.unpackbits(words.view(np.uint8), count=n).astype(bool)


def packed_mask(fact: Fact, domain: DateDomain) -> np.ndarray:
    """``fact``'s truth on every day of ``domain``, packed (kept in :data:`PACKED`)."""
    return PACKED.get(fact, domain)


def packed_masks(facts: Sequence[Fact], domain: DateDomain) -> list[np.ndarray]:
    return [PACKED.get(f, domain) for f in facts]


def all_of(masks: Iterable[np.ndarray]) -> np.ndarray:
    """The conjunction of masks, boolean or packed (at least one), without
    stacking them into one array first as ``np.logical_and.reduce`` would."""
    it = iter(masks)
    out = np.array(next(it))
    for w in it:
        out &= w
    return out


def size(words: np.ndarray) -> int:
    """How many days a packed mask holds."""
    return int(np.bitwise_count(words).sum())


def answer_set_size(fact: Fact, domain: DateDomain) -> int:
    """|C(t) ∩ D|: how many days of ``domain`` satisfy ``fact``; from its
    :meth:`~Fact.day_intervals` when it has them, with no mask at all."""
    spans = fact.day_intervals()
    if spans is not None:
        return spans.clip(domain.start, domain.end).size
    return PACKED.entry(fact, domain)[1]


def information_gain(fact: Fact, domain: DateDomain) -> float:
    """IG(t) = log2|D| − log2|C(t)| (Time Puzzles, Appendix A.2, Eq. 2).

    A fact true nowhere in the domain has infinite gain; we report it as
    ``inf`` so sorting still puts it first (it empties the answer set)."""
    n = answer_set_size(fact, domain)
    return math.inf if n == 0 else math.log2(domain.size) - math.log2(n)
