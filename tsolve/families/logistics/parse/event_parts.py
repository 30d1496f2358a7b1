"""The general event reader: a sentence read by its parts, in any word order.

The words ``package``/``truck``/``airplane``/``location`` are always followed
by an identifier, ``unload`` decides between load and unload, "from
location"/"to location" orient a move, clock times and "N minutes" give the
timing. Every typo seen in the real data so far is taken; a sentence that
lacks a part fails with one line naming it. Sentences that are exactly a
known template take the faster :mod:`.event_templates` path instead.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import clock_minute
from tsolve.families.logistics.model import Kind, VehicleType
from tsolve.families.logistics.parse.event_text import EventText
from tsolve.families.logistics.parse.lexicon import ID_GROUP

# One cheap search per part, each led by a literal so the regex engine can
# skip ahead (several times faster than one alternation over all parts; this
# is the answerer's hot loop). "from"/"to" before a location orient a move.
_TRUCK_RE = re.compile(r"truck\s*" + ID_GROUP)
_AIRPLANE_RE = re.compile(r"airplane\s*" + ID_GROUP)
# Clock times are found from their colon (a literal, so the scan is fast) and
# the hour is read just before it.
_COLON_RE = re.compile(r":\s*(\d{2})\s*([ap])\.?\s*m")
_HOUR_BEFORE_RE = re.compile(r"(\d{1,2})\s*$")
_PACKAGE_RE = re.compile(r"(?:package|product|parcel)\s*" + ID_GROUP)
_LOCATION_RE = re.compile(r"location\s*" + ID_GROUP)
_MINUTES_RE = re.compile(r"min(?:ute)?s?\b")
_DIGITS_BEFORE_RE = re.compile(r"(\d+)\s*$")


def read_by_parts(texts: Sequence[str], lows: Sequence[str], need_timing: bool) -> list[EventText]:
    """Read each of ``texts`` (``lows``: the same, lowercased) by its parts.

    The sentences are joined (with a separator no pattern crosses) and each
    part is found by its own scan of the joined text, then dealt back to its
    sentence by position: that keeps the per-sentence Python work tiny.
    ``need_timing=False`` accepts a phrase with no duration (a question's)."""
    text = "|".join(lows)
    starts = [0]
    for low in lows:
        starts.append(starts[-1] + len(low) + 1)
    n = len(lows)
    vehicles: list[tuple[str, str] | None] = [None] * n
    packages: list[str | None] = [None] * n
    locs: list[list[tuple[str, str]]] = [[] for _ in range(n)]
    clocks: list[list[int]] = [[] for _ in range(n)]
    durations: list[int | None] = [None] * n
    first_at: list[int] = [len(text)] * n
    for kind, rx in (("truck", _TRUCK_RE), ("airplane", _AIRPLANE_RE)):
        for m in rx.finditer(text):
            at = m.start()
            k = bisect_right(starts, at) - 1
            if at < first_at[k]:
                first_at[k] = at
                vehicles[k] = (kind, m.group(1))
    for m in _PACKAGE_RE.finditer(text):
        k = bisect_right(starts, m.start()) - 1
        if packages[k] is None:
            packages[k] = m.group(1)
    for m in _LOCATION_RE.finditer(text):
        at = m.start()
        locs[bisect_right(starts, at) - 1].append((_cue(text, at), m.group(1)))
    if ":" in text:
        for m in _COLON_RE.finditer(text):
            at = m.start()
            h = _HOUR_BEFORE_RE.search(text, max(0, at - 4), at)
            if h is not None:
                clocks[bisect_right(starts, at) - 1].append(
                    clock_minute(h.group(1), m.group(1), m.group(2))
                )
    for m in _MINUTES_RE.finditer(text):
        at = m.start()
        d = _DIGITS_BEFORE_RE.search(text, max(0, at - 8), at)
        if d is not None and (d.start() == 0 or text[d.start() - 1] not in ":0123456789"):
            k = bisect_right(starts, at) - 1
            if durations[k] is None:
                durations[k] = int(d.group(1))
    return [
        _event_text(
            texts[k],
            lows[k],
            vehicles[k],
            packages[k],
            locs[k],
            tuple(clocks[k]),
            durations[k],
            need_timing,
        )
        for k in range(n)
    ]


def _event_text(
    text: str,
    low: str,
    vehicle: tuple[str, str] | None,
    package: str | None,
    locs: list[tuple[str, str]],
    clocks: tuple[int, ...],
    duration: int | None,
    need_timing: bool,
) -> EventText:
    """One sentence's parts put together, or a one-line error naming the missing part."""
    if vehicle is None:
        raise TsolveError(f"events: no truck or airplane in {text!r}")
    vtype: VehicleType = "truck" if vehicle[0] == "truck" else "airplane"
    if need_timing and duration is None and len(clocks) < 2:
        raise TsolveError(f"events: no duration or end time in {text!r}")
    if package is not None:
        if len({loc for _, loc in locs}) != 1:
            raise TsolveError(f"events: expected one location in {text!r}")
        kind: Kind = "unload" if "unload" in low else "load"
        return EventText(kind, vehicle[1], vtype, package, locs[0][1], None, None, clocks, duration)
    origin = next((loc for cue, loc in locs if cue == "from"), None)
    dest = next((loc for cue, loc in locs if cue == "to"), None)
    if origin is None or dest is None:
        if len(locs) != 2:
            raise TsolveError(f"events: expected an origin and a destination in {text!r}")
        origin, dest = locs[0][1], locs[1][1]
    return EventText("move", vehicle[1], vtype, None, None, origin, dest, clocks, duration)


def _cue(low: str, at: int) -> str:
    """ "from" or "to" right before position ``at`` (a location), else ""."""
    before = low[max(0, at - 6) : at].rstrip()
    if before.endswith("from"):
        return "from"
    return "to" if before.endswith("to") and not before.endswith("into") else ""
