"""Each fact's truth over a whole domain, packed 64 days to a word and kept
per fact: the sizes the generator asks for, in microseconds.

Generation keeps asking how many dates of the domain satisfy a fact, or a
few facts together: a fact's information gain (|C(t)|), whether a puzzle's
anchor adds anything, the measured difficulty (sizes in information-gain
order, the fewest facts that fix the answer), the size without each fact.
With the domain packed into ``ceil(N / 64)`` words, a conjunction is a few
``&`` over those words and a size is a popcount: 1,142 words for the default
200-year domain, 57,000 for 0001..9999, where building interval sets just to
size them took seconds and gigabytes.

Facts recur across puzzles (the same months, weekdays, presidents), so the
packed masks are kept, keyed by the fact (a frozen value), in one
:class:`MaskTable` per domain: a least-recently-used store bounded by bytes
rather than by entries (:mod:`tsolve.bounded_store`), since one entry costs
9 KB on the default domain and 450 KB on the widest. Entries never go stale:
facts, domains and the calendar tables are immutable. The generator's search
works on windows of these masks (the words covering its anchor's days).

These masks are the facts' fast path (``holds``), as in the search; gold
answers never come from here. ``tests/test_facts.py`` holds ``holds`` equal
to the solvers' IR for every category.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

from tsolve.bounded_store import BoundedStore
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts.base import (
    GREGORIAN_CYCLE,
    DayView,
    Fact,
    cycle_residues,
    domain_view,
)
from tsolve.encodings.ir import IntervalSet

#: Bytes a domain's mask table may hold before it drops its least recently used masks.
BUDGET_BYTES = 96 * 2**20
#: How many once-asked facts a mask table remembers (:attr:`MaskTable.asked`).
MAX_ASKED = 65_536
#: Domains longer than this (one Gregorian cycle, 400 years) answer a search's
#: windows from the window's days only (:meth:`MaskTable.window`).
PROMOTE_MAX_DAYS = 146_097


class MaskTable:
    """One domain's packed fact masks, each with its popcount: the state the
    generator is given (:func:`mask_table`), not a cache hidden behind it.

    A fact's mask is built once, from its day intervals or its fast path over
    the whole domain (:func:`_truth`), and kept, least recently used out
    first, within ``budget`` bytes (:mod:`tsolve.bounded_store`; one entry is
    9 KB on the default domain, 450 KB on 0001..9999). A search confined to an
    anchor's days asks for the words that cover them (:meth:`window`), so a
    repair step is an AND and a popcount over a few hundred words instead of a
    pass of ``holds`` over the anchor's days. Entries never go stale: facts,
    domains and the calendar tables are immutable."""

    def __init__(self, domain: DateDomain, budget: int = BUDGET_BYTES) -> None:
        self.domain = domain
        self.entries: BoundedStore[Fact, tuple[np.ndarray, int]] = BoundedStore(
            budget, lambda entry: entry[0].nbytes
        )
        #: Facts whose window was asked for once and answered from their days
        #: alone (:meth:`window`); the next request builds the whole mask.
        #: Emptied when it reaches :data:`MAX_ASKED` facts.
        self.asked: set[Fact] = set()
        #: The masks as Python integers (bit i: day ``start + i``), kept apart
        #: from :attr:`entries` and bounded the same way (:meth:`as_int`).
        self.ints: BoundedStore[Fact, int] = BoundedStore(budget, lambda v: v.bit_length() // 8)

    def _build(self, fact: Fact) -> tuple[np.ndarray, int]:
        words = pack(_truth(fact, self.domain))
        return words, size(words)

    def entry(self, fact: Fact) -> tuple[np.ndarray, int]:
        """(``fact``'s packed mask over the domain, how many days it holds)."""
        return self.entries.get(fact, self._build)

    def words(self, fact: Fact) -> np.ndarray:
        return self.entries.get(fact, self._build)[0]

    def as_int(self, fact: Fact) -> int:
        """``fact``'s mask as one Python integer (bit i: day ``start + i``).

        Whether two sets of days meet is one ``&`` of such integers, about
        half a microsecond over the default domain, where a NumPy AND over
        the same words costs a call's overhead and a pass: the generator asks
        it of every candidate a minimal puzzle's search keeps (do the fact's
        witnesses survive?), and keeps the integers here."""
        return self.ints.get(fact, lambda f: to_int(self.words(f)))

    def window(self, fact: Fact, lo: int, hi: int, days: DayView | None = None) -> np.ndarray:
        """Words ``lo .. hi - 1`` of ``fact``'s packed mask (never written to;
        :func:`all_of` copies the first mask it is given).

        ``days``, when given, are the days those words cover
        (:func:`window_days`). A fact not in the table is then answered the
        first time from ``holds`` on those days alone, and only a second
        request builds and keeps its mask over the whole domain: most facts a
        cold start draws are drawn once, and a pass over 73,000 days (or 3.65
        million) for each of them made the first puzzle slower than ``holds``
        on the anchor's days had been. Over a domain longer than
        :data:`PROMOTE_MAX_DAYS` a search's windows always come from their
        days (a whole mask there is 450 KB and a pass over 3.65 million days;
        measured, promoting them halved the rate over 0001..9999)."""
        got = self.entries.find(fact)
        if got is not None:
            return got[0][lo:hi]
        wide = self.domain.size > PROMOTE_MAX_DAYS
        if days is not None and (wide or fact not in self.asked):
            if not wide:
                if len(self.asked) >= MAX_ASKED:
                    self.asked.clear()
                self.asked.add(fact)
            return pack(np.asarray(fact.holds(days), dtype=bool))
        self.asked.discard(fact)
        return self.entries.get(fact, self._build)[0][lo:hi]


# The mask table of each domain in use: domain -> MaskTable. A handful of
# domains are in use at a time (least recently used out); each table bounds
# its own bytes. Keyed by the frozen domain, so never stale.
@lru_cache(maxsize=4)
def mask_table(domain: DateDomain) -> MaskTable:
    """The process's :class:`MaskTable` for ``domain`` (one per worker process)."""
    return MaskTable(domain)


def window_days(lo: int, hi: int, domain: DateDomain) -> DayView:
    """The days of ``domain`` that packed words ``lo .. hi - 1`` cover."""
    first = domain.start + 64 * lo
    last = min(domain.end, domain.start + 64 * hi - 1)
    return DayView(np.arange(first, last + 1, dtype=np.int64))


def word_range(days: np.ndarray, domain: DateDomain) -> tuple[int, int]:
    """The packed words ``lo .. hi - 1`` that cover sorted ``days`` of ``domain``."""
    return (int(days[0]) - domain.start) // 64, (int(days[-1]) - domain.start) // 64 + 1


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


def to_int(words: np.ndarray) -> int:
    """Packed ``words`` as one Python integer: bit i is day i of the mask
    (:func:`pack` puts day 0 in the first byte's high bit, so the bits of each
    byte are reversed on the way)."""
    return int.from_bytes(_REVERSED[words.view(np.uint8)].tobytes(), "little")


#: Each byte with its bits in reverse order (for :func:`to_int`).
_REVERSED = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=np.uint8)


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    """The first ``n`` days of packed ``words`` as a boolean mask."""
    return np.unpackbits(words.view(np.uint8), count=n).astype(bool)


def days_of(words: np.ndarray, domain: DateDomain) -> np.ndarray:
    """The days of ``domain`` a packed mask holds, sorted: only the non-zero
    words are unpacked (a puzzle's few answers over 57,000 words on
    0001..9999, where unpacking all of them made 3.65 million booleans)."""
    nz = np.flatnonzero(words)
    bits = np.unpackbits(words[nz].view(np.uint8)).reshape(nz.size, 64)
    rows, cols = np.nonzero(bits)
    return (domain.start + 64 * nz[rows] + cols).astype(np.int64)


def packed_mask(fact: Fact, domain: DateDomain) -> np.ndarray:
    """``fact``'s truth on every day of ``domain``, packed (kept in the domain's
    :func:`mask_table`)."""
    return mask_table(domain).words(fact)


def packed_masks(facts: Sequence[Fact], domain: DateDomain) -> list[np.ndarray]:
    return [packed_mask(f, domain) for f in facts]


def all_of(masks: Iterable[np.ndarray]) -> np.ndarray:
    """The conjunction of masks, boolean or packed (at least one), without
    stacking them into one array first as ``np.logical_and.reduce`` would."""
    it = iter(masks)
    out = np.array(next(it))
    for w in it:
        out &= w
    return out


def running_and(stack: np.ndarray) -> np.ndarray:
    """The running AND along the first axis: ``out[i]`` is the AND of
    ``stack[0] .. stack[i]``. A loop of in-place ANDs, one per row: NumPy's
    ``bitwise_and.accumulate`` took 3-6x as long over packed words (it walks
    them one element at a time), for the prefix and suffix conjunctions of
    the searches' necessity tests."""
    out = np.empty_like(stack)
    if len(stack):
        out[0] = stack[0]
    for k in range(1, len(stack)):
        np.bitwise_and(out[k - 1], stack[k], out=out[k])
    return out


def size(words: np.ndarray) -> int:
    """How many days a packed mask holds. (``np.add.reduce`` rather than
    ``.sum()``: the search asks this of a few hundred words tens of times a
    puzzle, where the method's Python-level dispatch is a fifth of the cost.)"""
    return int(np.add.reduce(np.bitwise_count(words), dtype=np.int64))


# answer_set_size's cache: (fact, domain) -> an int. A repair step asks for
# the gain of the fact it just drew, and facts recur; the size is a value of
# two frozen objects and the fixed calendar, so never stale. Bounded.
@lru_cache(maxsize=16384)
def answer_set_size(fact: Fact, domain: DateDomain) -> int:
    """|C(t) ∩ D|: how many days of ``domain`` satisfy ``fact``. In closed form
    where that is possible, with no mask at all: from the fact's
    :meth:`~Fact.day_intervals`, or for a periodic fact over a domain longer
    than a Gregorian cycle, from its residues in one cycle."""
    spans = fact.day_intervals()
    if spans is not None:
        return spans.clip(domain.start, domain.end).size
    if fact.periodic() and domain.size > GREGORIAN_CYCLE:
        return _cycle_count(cycle_residues(fact), domain)
    return mask_table(domain).entry(fact)[1]


def _cycle_count(residues: IntervalSet, domain: DateDomain) -> int:
    """How many days d of ``domain`` have d mod 146,097 among ``residues``:
    whole cycles times the residues per cycle, plus the residues below each
    end's remainder (F(end + 1) − F(start), F(n) counting the days below n)."""
    starts, ends = residues.bounds
    per_cycle = int((ends - starts + 1).sum())

    def below(n: int) -> int:
        cycles, rest = divmod(n, GREGORIAN_CYCLE)
        partial = np.clip(np.minimum(ends, rest - 1) - starts + 1, 0, None)
        return cycles * per_cycle + int(partial.sum())

    return below(domain.end + 1) - below(domain.start)


def information_gain(fact: Fact, domain: DateDomain) -> float:
    """IG(t) = log2|D| − log2|C(t)| (Time Puzzles, Appendix A.2, Eq. 2).

    A fact true nowhere in the domain has infinite gain; we report it as
    ``inf`` so sorting still puts it first (it empties the answer set)."""
    n = answer_set_size(fact, domain)
    return math.inf if n == 0 else math.log2(domain.size) - math.log2(n)
