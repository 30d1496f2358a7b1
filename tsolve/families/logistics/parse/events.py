"""Event lists: sentences read by the two tiers, then placed on the time axis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import DAY, unwrap
from tsolve.families.logistics.event_graph import dependencies_of
from tsolve.families.logistics.model import Dependencies, Event, Execution, Scenario, World
from tsolve.families.logistics.parse.event_parts import read_by_parts
from tsolve.families.logistics.parse.event_text import EventText
from tsolve.families.logistics.parse.lexicon import sentences
from tsolve.families.logistics.parse.template_reader import TEMPLATE_READERS, read_by_template


def parse_event_text(text: str, *, need_timing: bool = True) -> EventText:
    """Read one event sentence (the template fast path, else by its parts)."""
    return parse_event_texts([text], need_timing=need_timing)[0]


def parse_event_texts(
    texts: Sequence[str], *, need_timing: bool = True, lows: Sequence[str] | None = None
) -> list[EventText]:
    """Read many event sentences at once: each by the template fast path, and
    those it cannot read together by the general reader (one scan per part
    over all of them)."""
    if lows is None:
        lows = [t.lower() for t in texts]
    out: list[EventText | None] = [read_by_template(low) for low in lows]
    todo = [k for k, et in enumerate(out) if et is None]
    if todo:
        slow = read_by_parts([texts[k] for k in todo], [lows[k] for k in todo], need_timing)
        for k, et in zip(todo, slow, strict=True):
            out[k] = et
    return out  # type: ignore[return-value]


def parse_events(value: Any, execution: Execution = "serial") -> tuple[Event, ...]:
    """The event list, with stated clock times unwrapped onto the absolute axis.

    Easy items give start and end, medium items start and duration, hard items
    duration only. A clock time names a minute of the day; which day is read
    from the plan. In a serial list a start never precedes the previous start,
    so it is the first minute at or after it showing that clock. A parallel
    list may step back in time (an independent vehicle's events can be listed
    late but run early), so there an event is placed at the first minute at or
    after the starts of the events it depends on (its dependency-graph
    predecessors), and events with no dependencies within half a day of the
    first event.
    """
    return events_and_dependencies(value, execution)[0]


def events_and_dependencies(
    value: Any, execution: Execution
) -> tuple[tuple[Event, ...], Dependencies | None]:
    """:func:`parse_events`, and the dependencies it built on the way (a
    parallel list with stated times needs them to place its clock times; they
    do not depend on the start times, so they are the parsed scenario's own)."""
    # parse_event_texts, inlined: this loop runs once per event of every item answered
    found: list[EventText | None] = []
    slow: list[int] = []  # positions the fast path could not read: the general reader's
    raw: list[str] = []
    lows: list[str] = []
    readers = TEMPLATE_READERS.get
    for s in sentences(value, "events"):
        low = s.lower()
        if "truck" not in low and "plane" not in low:
            continue  # "Given the initial states, the following events occur:"
        words = low.split()  # not empty: it has "truck" or "plane"
        node = readers((len(words), words[0]))
        et = None
        if node is not None:
            k, table, rest = node
            for read in table.get(words[k], rest):
                if (et := read(words)) is not None:
                    break
        if et is None:
            slow.append(len(found))
            raw.append(s)
            lows.append(low)
        found.append(et)
    if slow:
        for k, et in zip(slow, read_by_parts(raw, lows, True), strict=True):
            found[k] = et
    texts = cast(list[EventText], found)
    if not texts:
        raise TsolveError("events: no events found")
    stated = all(et.clocks for et in texts)  # hard items (or a mix): durations only
    new = tuple.__new__  # builds the named tuples without their keyword-argument wrapper
    if stated and execution == "serial":
        prev = texts[0].clocks[0]
        events = []
        for k, (kind, v, vt, p, loc, o, d, clocks, n) in enumerate(texts):
            if k:
                prev += (clocks[0] - prev) % DAY  # unwrap(clocks[0], prev)
            dur = n if n is not None else (clocks[1] - clocks[0]) % DAY
            events.append(new(Event, (k, kind, v, vt, dur, p, loc, o, d, prev)))
        return tuple(events), None
    events = [
        new(
            Event,
            (
                k,
                kind,
                v,
                vt,
                n if n is not None else (clocks[1] - clocks[0]) % DAY,
                p,
                loc,
                o,
                d,
                None,
            ),
        )
        for k, (kind, v, vt, p, loc, o, d, clocks, n) in enumerate(texts)
    ]
    if stated:  # parallel
        empty = World((), {}, (), (), (), ())
        deps = dependencies_of(Scenario(empty, {}, tuple(events), "parallel"))
        floor = texts[0].clocks[0] - DAY // 2  # for events that depend on none
        placed: list[int] = []
        for et, ps in zip(texts, deps.preds, strict=True):
            after = max([placed[u] for u, _gap in ps]) if ps else floor
            placed.append(unwrap(et.clocks[0], after))
        events = [new(Event, (*e[:9], st)) for e, st in zip(events, placed, strict=True)]
        return tuple(events), deps
    return tuple(events), None
