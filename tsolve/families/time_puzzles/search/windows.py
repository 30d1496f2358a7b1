"""An anchor's days, and the facts' truth on them as the search judges it:
windows of each fact's packed domain mask over the words the anchor covers
(:class:`AnchorWindows`), or boolean masks on its days over a domain too
wide to pack. Counting the days a slot mask (or an AND of them) keeps is
the one operation both searches build on."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

import numpy as np

from tsolve.bounded_store import BoundedStore
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import DayView, Fact
from tsolve.encodings.facts.packed import MaskTable, pack, packed_mask, unpack, window_days
from tsolve.encodings.facts.packed import size as popcount
from tsolve.families.time_puzzles.certify import first_days


def anchor_days(key: tuple[Fact, DateDomain]) -> DayView:
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


def window_view(key: tuple[int, int, DateDomain]) -> DayView:
    lo, hi, domain = key
    return window_days(lo, hi, domain)


#: The days that packed words lo .. hi - 1 of a domain cover, with the calendar
#: fields a fact's ``holds`` computes on them, shared by every seed of the same
#: anchor: (lo, hi, domain) -> DayView. Bounded by bytes like ANCHOR_VIEWS
#: (the days and the Gregorian fields). Never stale: keys are frozen values.
WINDOW_VIEWS: BoundedStore[tuple[int, int, DateDomain], DayView] = BoundedStore(
    128 * 2**20, lambda view: 6 * view.days.nbytes
)


#: Kinds drawn with random bounds, so that nearly every draw is a new fact of
#: one interval of days: their windows are filled from that interval
#: (:func:`interval_window`), not asked of the mask table, which would keep a
#: whole-domain mask of each one drawn twice.
INTERVAL_KINDS = frozenset({"year_range"})


def one_interval(fact: Fact) -> tuple[int, int]:
    """The first and last day of a fact of :data:`INTERVAL_KINDS` (a range
    of years: from January 1 of its first year to December 31 of its last,
    what its ``day_intervals`` says, without building the interval set)."""
    first, last = getattr(fact, "first"), getattr(fact, "last")  # noqa: B009
    return _new_year(first), _new_year(last + 1) - 1


@lru_cache(maxsize=16384)
def _new_year(year: int) -> int:
    """The day number of January 1 of ``year`` (10000: the day after 9999's end)."""
    if year > 9999:
        return dt.date(9999, 12, 31).toordinal() + 1
    return dt.date(year, 1, 1).toordinal()


def interval_size(fact: Fact, domain: DateDomain) -> int:
    """How many days of ``domain`` a fact of :data:`INTERVAL_KINDS` holds."""
    a, b = one_interval(fact)
    return max(0, min(b, domain.end) - max(a, domain.start) + 1)


def interval_window(a: int, b: int, lo: int, hi: int, domain: DateDomain) -> np.ndarray:
    """Words ``lo .. hi - 1`` of the packed mask of days ``a .. b`` over
    ``domain`` (what :meth:`MaskTable.window` gives for a fact holding on
    exactly those days)."""
    first = domain.start + 64 * lo
    width = 64 * (hi - lo)
    mask = np.zeros(width, dtype=bool)
    i = max(a, domain.start, first) - first
    j = min(b, domain.end, first + width - 1) - first + 1
    if i < j:
        mask[i:j] = True
    return pack(mask)


class AnchorWindows:
    """The facts' slot masks over one anchor's days, for one seed's search:
    over a packed domain, each fact's window of the domain's mask table over
    the anchor's words ``lo .. hi - 1``; over a domain longer than 400 years,
    where the windows of wide anchors are millions of days and packing them
    per seed cost more than it saved (0.73x the rate over 0001..9999), a
    boolean mask on the anchor's days (``view``). Each fact's mask is made
    once and kept."""

    __slots__ = ("cache", "domain", "hi", "lo", "packed", "span", "table", "view")

    def __init__(
        self, table: MaskTable, domain: DateDomain, packed: bool, view: DayView, lo: int, hi: int
    ) -> None:
        self.table = table
        self.domain = domain
        self.packed = packed
        self.view = view
        self.lo, self.hi = lo, hi
        self.cache: dict[Fact, np.ndarray] = {}  # fact -> its slot mask
        self.span: DayView | None = None  # the days the words cover, made on first use

    def window(self, fact: Fact) -> np.ndarray:
        """``fact``'s slot mask, kept so that a fact drawn again for the same
        seed costs one dict lookup."""
        got = self.cache.get(fact)
        if got is None and self.packed and fact.kind in INTERVAL_KINDS:
            a, b = one_interval(fact)
            got = self.cache[fact] = interval_window(a, b, self.lo, self.hi, self.domain)
        if got is None and not self.packed:
            got = self.cache[fact] = np.asarray(fact.holds(self.view), dtype=bool)
        if got is None:
            if self.span is None:
                self.span = WINDOW_VIEWS.get((self.lo, self.hi, self.domain), window_view)
            got = self.cache[fact] = self.table.window(fact, self.lo, self.hi, self.span)
        return got

    def count(self, mask: np.ndarray) -> int:
        """How many of the anchor's days a slot mask (or an AND of them) holds."""
        return popcount(mask) if self.packed else int(np.count_nonzero(mask))

    def count_rows(self, stack: np.ndarray) -> np.ndarray:
        """:meth:`count` of each row of a stack of slot masks, in one call."""
        if self.packed:
            return np.add.reduce(np.bitwise_count(stack), axis=-1, dtype=np.int64)
        return np.count_nonzero(stack, axis=-1)

    def first_days(self, rows: np.ndarray) -> list[int | None]:
        """The first day of each row of slot masks (None for an empty row)."""
        if self.packed:
            got = first_days(rows, self.domain)
            return [None if d is None else d + 64 * self.lo for d in got]
        days = self.view.days
        return [int(days[np.argmax(r)]) if r.any() else None for r in rows]
