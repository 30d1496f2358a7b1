"""The fast event reader: a sentence that is word for word a known template.

Written for speed (it runs once per event of every item answered): each
template of :data:`tsolve.families.logistics.sentence_templates.BY_SHAPE` gets its own
reader (:func:`_reader`), which reads the slots by position and only checks
their shape, with no regular expression at all. Anything odd returns None and
the sentence goes to the general reader (:mod:`.event_parts`), which gives the
same result on every template (the tests check it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tsolve.families.logistics.clock import clock_minute
from tsolve.families.logistics.model import VehicleType
from tsolve.families.logistics.parse.event_text import EventText
from tsolve.families.logistics.sentence_templates import BY_SHAPE, WordTemplate

Reader = Callable[[list[str]], EventText | None]
"""Reads a sentence's words as one template, or returns None."""

_HANDLING = frozenset(("loaded", "unloaded", "loading", "unloading"))
_VEHICLE_TYPES = frozenset(("truck", "airplane"))


def read_by_template(low: str) -> EventText | None:
    """The lowercased sentence ``low`` read as the first template it is word
    for word, or None when it is none of them."""
    words = low.split()
    if not words:
        return None
    node = TEMPLATE_READERS.get((len(words), words[0]))
    if node is None:
        return None
    k, table, rest = node
    for read in table.get(words[k], rest):
        et = read(words)
        if et is not None:
            return et
    return None


def _clock_words() -> dict[tuple[str, str], int]:
    """``{("09:15", "pm"): minute of day}`` for every valid clock word (with and
    without the hour's leading zero) and half: a dict lookup instead of reading
    digits. A pair not in the table goes to :func:`_word_clock`, which decides."""
    table: dict[tuple[str, str], int] = {}
    for half in ("am", "pm"):
        for h in range(1, 13):
            for m in range(60):
                minute = clock_minute(str(h), f"{m:02d}", half[0])
                table[f"{h:02d}:{m:02d}", half] = table[f"{h}:{m:02d}", half] = minute
    return table


_CLOCK_WORDS = _clock_words()


def _word_clock(words: list[str], i: int) -> int | None:
    """The clock time in words ``i`` ("09:15") and ``i+1`` ("am", "pm.")."""
    hh, _, mm = words[i].partition(":")
    half = words[i + 1][:2]
    if half not in ("am", "pm") or not (hh.isdigit() and mm.isdigit() and len(mm) == 2):
        return None
    return clock_minute(hh, mm, half[0])


def _reader(wt: WordTemplate) -> Reader:
    """A function reading a sentence's words by ``wt``'s positions (None when a
    literal word or a slot's shape does not fit). Same checks as ever; the
    positions are bound once so the hot loop does no attribute lookups."""
    literals, literal_words = wt.literals, wt.literal_words
    vi, si, ei, ni = wt.v, wt.s, wt.e, wt.n
    clock_word, slow, new = _CLOCK_WORDS.get, _word_clock, tuple.__new__
    handle = wt.source == "handle"
    pi, li, edi, vti, oi, di = wt.p, wt.l, wt.ed, wt.vt, wt.o, wt.d
    move_type: VehicleType = "truck" if wt.source == "truck" else "airplane"

    def read(words: list[str]) -> EventText | None:
        if literals(words) != literal_words:
            return None
        v = words[vi].rstrip(",.")
        if not v[-1:].isdigit():
            return None
        clocks: tuple[int, ...] = ()
        if si >= 0:
            start = clock_word((words[si], words[si + 1][:2]))
            if start is None and (start := slow(words, si)) is None:
                return None
            if ei >= 0:
                end = clock_word((words[ei], words[ei + 1][:2]))
                if end is None and (end := slow(words, ei)) is None:
                    return None
                clocks = (start, end)
            else:
                clocks = (start,)
        n: int | None = None
        if ni >= 0:
            num = words[ni]
            if not num.isdigit():
                return None
            n = int(num)
        if handle:
            ed, vt = words[edi], words[vti]
            if vt not in _VEHICLE_TYPES or ed not in _HANDLING:
                return None
            kind = "unload" if ed[0] == "u" else "load"
            p, loc = words[pi].rstrip(",."), words[li].rstrip(",.")
            return new(EventText, (kind, v, vt, p, loc, None, None, clocks, n))
        o, d = words[oi].rstrip(",."), words[di].rstrip(",.")
        return new(EventText, ("move", v, move_type, None, None, o, d, clocks, n))

    return read


def _dispatch(
    wts: Sequence[WordTemplate],
) -> tuple[int, dict[str, tuple[Reader, ...]], tuple[Reader, ...]]:
    """``(k, {word: readers}, others)`` for one :data:`BY_SHAPE` bucket: the
    readers worth trying when word ``k`` of the sentence is ``word`` (``others``
    for any other word). ``k`` is the position that best tells the bucket's
    templates apart; a template with no literal at ``k`` is in every list, and
    every list keeps the bucket's order, so the first template that reads a
    sentence is the same as when the whole bucket is tried in turn."""
    lits = [dict(zip(wt.literal_pos, wt.literal_words, strict=True)) for wt in wts]
    readers = [_reader(wt) for wt in wts]
    if len(wts) == 1:  # word 0 is the bucket's own first word: nothing to split
        return 0, {}, tuple(readers)

    def tries(k: int) -> int:  # the most readers any sentence would try
        at_k = [lit.get(k) for lit in lits]
        return at_k.count(None) + max([at_k.count(w) for w in at_k if w is not None], default=0)

    k = min(range(1, wts[0].n_words), key=tries)
    table = {
        w: tuple(r for lit, r in zip(lits, readers, strict=True) if lit.get(k) in (w, None))
        for w in {lit[k] for lit in lits if k in lit}
    }
    return k, table, tuple(r for lit, r in zip(lits, readers, strict=True) if k not in lit)


TEMPLATE_READERS = {shape: _dispatch(wts) for shape, wts in BY_SHAPE.items()}
"""The fast path's readers: :data:`BY_SHAPE` (keyed by word count and first
word) with each bucket split by one more word, as :func:`_dispatch` says."""
