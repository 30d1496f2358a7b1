"""UnSeenTimeQA English -> :class:`Scenario` and :class:`Question`.

The benchmark renders each event with one of several templates per difficulty
(paper, Appendix C) and the real data adds typos the paper does not list
("flys", "from09:51 AM", "a0at location", "thelocation"). Rather than match
templates, which would break on the next unseen variant, each sentence is read
by its *parts*: the words ``package``/``truck``/``airplane``/``location`` are
always followed by an identifier, ``unload`` decides between load and unload,
"from location"/"to location" orient a move, clock times and "N minutes" give
the timing. That covers every template and typo seen so far and fails loudly
(one line naming the sentence) on anything that lacks a part.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from tsolve.encodings.event_graph import Dependencies
from tsolve.encodings.logistics_clock import CLOCK_RE, DAY, clock_from_match, unwrap
from tsolve.encodings.logistics_model import (
    DIFFICULTIES,
    EXECUTIONS,
    QUESTION_TYPES,
    Difficulty,
    Event,
    Execution,
    Kind,
    Question,
    QuestionType,
    Scenario,
    Shift,
    VehicleType,
    World,
)
from tsolve.encodings.logistics_templates import BY_KEY, sentence_key
from tsolve.errors import TsolveError

_ID = r"([a-z]+\d+(?:_\d+)*)"
# One cheap search per part, each led by a literal so the regex engine can
# skip ahead (several times faster than one alternation over all parts; this
# is the answerer's hot loop). "from"/"to" before a location orient a move.
_TRUCK_RE = re.compile(r"truck\s*" + _ID)
_AIRPLANE_RE = re.compile(r"airplane\s*" + _ID)
# Clock times are found from their colon (a literal, so the scan is fast) and
# the hour is read just before it.
_COLON_RE = re.compile(r":\s*(\d{2})\s*([ap])\.?\s*m")
_HOUR_BEFORE_RE = re.compile(r"(\d{1,2})\s*$")
_PACKAGE_RE = re.compile(r"(?:package|product|parcel)\s*" + _ID)
_LOCATION_RE = re.compile(r"location\s*" + _ID)
_MINUTES_RE = re.compile(r"min(?:ute)?s?\b")
_DIGITS_BEFORE_RE = re.compile(r"(\d+)\s*$")
_HEADER_RE = re.compile(r"^.*?\boccurs?\s*:\s*", re.S)
_SENTENCE_SPLIT_RE = re.compile(r"\.(?:\s+|$)")


class EventText(NamedTuple):
    """The parts of one event sentence (or of an event phrase in a question)."""

    kind: Kind
    vehicle: str
    vehicle_type: VehicleType
    package: str | None
    location: str | None
    origin: str | None
    destination: str | None
    clocks: tuple[int, ...]
    duration: int | None

    @property
    def key(self) -> tuple[str, str, str | None, str | None, str | None, str | None]:
        return (self.kind, self.vehicle, self.package, self.location, self.origin, self.destination)


def sentences(value: Any, field_name: str) -> list[str]:
    """A description field as a list of sentences (the data has lists; the
    paper's examples are paragraphs, so both are accepted)."""
    if isinstance(value, str):
        text = _HEADER_RE.sub("", value) if "occur" in value[:80] else value
        return [s.strip() for s in _SENTENCE_SPLIT_RE.split(text) if s.strip()]
    if isinstance(value, Sequence) and all(isinstance(s, str) for s in value):
        return [s for s in value if s.strip()]
    raise TsolveError(
        f"{field_name}: expected a string or a list of strings, got {type(value).__name__}"
    )


def parse_event_text(text: str, *, need_timing: bool = True) -> EventText:
    """Read one event sentence by its parts (see module docstring)."""
    return parse_event_texts([text], need_timing=need_timing)[0]


def parse_event_texts(
    texts: Sequence[str], *, need_timing: bool = True, lows: Sequence[str] | None = None
) -> list[EventText]:
    """Read many event sentences at once.

    The sentences are joined (with a separator no pattern crosses) and each
    part is found with one scan over the whole text, then dealt back to its
    sentence by position. That keeps the per-sentence Python work tiny, which
    is what the answerer's throughput depends on.
    """
    if lows is None:
        lows = [t.lower() for t in texts]
    out: list[EventText | None] = [_template_match(low) for low in lows]
    todo = [k for k, et in enumerate(out) if et is None]
    if todo:
        slow = _parse_parts([texts[k] for k in todo], [lows[k] for k in todo], need_timing)
        for k, et in zip(todo, slow, strict=True):
            out[k] = et
    return out  # type: ignore[return-value]


def _template_match(low: str) -> EventText | None:
    """The fast path: the sentence is exactly one known template."""
    for c in BY_KEY.get(sentence_key(low), ()):
        m = c.pattern.fullmatch(low)
        if m is None:
            continue
        g = m.groupdict()
        clocks: tuple[int, ...] = ()
        if g.get("sh") is not None:
            clocks = (_clock(g["sh"], g["sm"], g["sa"]),)
            if g.get("eh") is not None:
                clocks += (_clock(g["eh"], g["em"], g["ea"]),)
        n = g.get("n")
        duration = int(n) if n is not None else None
        if c.source == "handle":
            kind: Kind = "unload" if g["ed"].startswith("un") else "load"
            vt: VehicleType = "truck" if g["vt"] == "truck" else "airplane"
            return EventText(kind, g["v"], vt, g["p"], g["l"], None, None, clocks, duration)
        mv: VehicleType = "truck" if c.source == "truck" else "airplane"
        return EventText("move", g["v"], mv, None, None, g["o"], g["d"], clocks, duration)
    return None


def _parse_parts(texts: Sequence[str], lows: Sequence[str], need_timing: bool) -> list[EventText]:
    """The general reader: each part found by its own scan of the joined text."""
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
                    _clock(h.group(1), m.group(1), m.group(2))
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


def _clock(hour: str, minute: str, half: str) -> int:
    h, m = int(hour), int(minute)
    if not 1 <= h <= 12 or m > 59:
        raise TsolveError(f"time: not a 12-hour clock time: {hour}:{minute} {half}m")
    return (h % 12) * 60 + m + (720 if half.lower() == "p" else 0)


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
    # skip "Given the initial states, the following events occur:"
    pairs = [(s, s.lower()) for s in sentences(value, "events")]
    pairs = [(s, low) for s, low in pairs if "truck" in low or "plane" in low]
    texts = parse_event_texts([s for s, _ in pairs], lows=[low for _, low in pairs])
    if not texts:
        raise TsolveError("events: no events found")
    stated = all(et.clocks for et in texts)  # hard items (or a mix): durations only
    starts: list[int | None] = [None] * len(texts)
    if stated and execution == "serial":
        prev: int | None = None
        for k, et in enumerate(texts):
            prev = unwrap(et.clocks[0], prev) if prev is not None else et.clocks[0]
            starts[k] = prev
    events = [
        Event(
            k,
            et.kind,
            et.vehicle,
            et.vehicle_type,
            et.duration if et.duration is not None else (et.clocks[1] - et.clocks[0]) % DAY,
            et.package,
            et.location,
            et.origin,
            et.destination,
            starts[k],
        )
        for k, et in enumerate(texts)
    ]
    if stated and execution != "serial":
        empty = World((), {}, (), (), (), ())
        deps = Dependencies.of(Scenario(empty, {}, tuple(events), "parallel"))
        placed: list[int] = []
        for e, et in zip(events, texts, strict=True):
            preds = [placed[u] for u, _gap in deps.preds[e.index]]
            placed.append(
                unwrap(et.clocks[0], max(preds) if preds else texts[0].clocks[0] - DAY // 2)
            )
        events = [e._replace(start=st) for e, st in zip(events, placed, strict=True)]
    return tuple(events)


_CITIES_RE = re.compile(r"there (?:are|is) \d+ cit(?:y|ies)\s*,?(.*)")
_IN_CITY_RE = re.compile(r"locations?\s+(.*?)\s+(?:are|is) in (?:the )?city\s*" + _ID)
_AIRPORTS_RE = re.compile(r"airports? (?:are|is)\s*(.*)")
_LIST_RE = {
    "trucks": re.compile(r"there (?:are|is) \d+ trucks?\s*,?(.*)"),
    "airplanes": re.compile(r"there (?:are|is) \d+ airplanes?\s*,?(.*)"),
    "packages": re.compile(r"there (?:are|is) \d+ packages?\s*,?(.*)"),
}
_IDS_RE = re.compile(r"\b[a-z]+\d+(?:_\d+)*\b")
_AT_RE = re.compile(r"\b(truck|airplane|plane|package|product)\s*" + _ID + r".*?location\s*" + _ID)


def parse_world(value: Any) -> World:
    """The objects description: cities, which city each location is in, airports,
    trucks, airplanes, packages (in the order stated)."""
    cities: list[str] = []
    city_of: dict[str, str] = {}
    airports: list[str] = []
    lists: dict[str, list[str]] = {k: [] for k in _LIST_RE}
    for s in sentences(value, "objects_description"):
        low = s.lower()
        if m := _CITIES_RE.search(low):
            cities = _IDS_RE.findall(m.group(1))
        elif m := _IN_CITY_RE.search(low):
            for loc in _IDS_RE.findall(m.group(1)):
                city_of[loc] = m.group(2)
        elif "airport" in low and (m := _AIRPORTS_RE.search(low)):
            airports = _IDS_RE.findall(m.group(1))
        else:
            for name, rx in _LIST_RE.items():
                if m := rx.search(low):
                    lists[name] = _IDS_RE.findall(m.group(1))
    return World(
        cities=tuple(cities),
        city_of=city_of,
        airports=tuple(airports),
        trucks=tuple(lists["trucks"]),
        airplanes=tuple(lists["airplanes"]),
        packages=tuple(lists["packages"]),
    )


def parse_initial(value: Any) -> dict[str, str]:
    """``{object: location}`` from "truck t1 is at the location l1_1." sentences."""
    out: dict[str, str] = {}
    for s in sentences(value, "initial_states_description"):
        for m in _AT_RE.finditer(s.lower()):
            out[m.group(2)] = m.group(3)
    return out


def detect_execution(item: Mapping[str, Any]) -> Execution:
    """The item's ``execution`` field, or else the domain description: only the
    parallel items allow loading several packages "simultaneously"."""
    ex = item.get("execution")
    if ex is not None:
        if ex not in EXECUTIONS:
            raise TsolveError(f"execution: unknown value {ex!r} (expected serial or parallel)")
        return ex
    domain = str(item.get("domain_description", "")).lower()
    return "parallel" if "simultaneous" in domain else "serial"


def detect_difficulty(item: Mapping[str, Any]) -> Difficulty:
    """The item's ``data_split``, or else its first event: easy states start and
    end, medium start and duration, hard duration only."""
    ds = item.get("data_split")
    if isinstance(ds, str) and ds in DIFFICULTIES:
        return ds
    for s in sentences(item.get("events", []), "events"):
        low = s.lower()
        if "truck" in low or "plane" in low:
            n = len(CLOCK_RE.findall(low))
            return "easy" if n >= 2 else ("medium" if n == 1 else "hard")
    raise TsolveError("events: no events found")


def parse_scenario(item: Mapping[str, Any]) -> Scenario:
    """Objects, initial states and events of a benchmark item."""
    if "events" not in item:
        raise TsolveError("events: missing field")
    execution = detect_execution(item)
    events = parse_events(item["events"], execution)
    world = parse_world(item.get("objects_description", []))
    initial = parse_initial(item.get("initial_states_description", []))
    _fill_initial(initial, events)
    return Scenario(world=world, initial=initial, events=events, execution=execution)


def _fill_initial(initial: dict[str, str], events: Iterable[Event]) -> None:
    """Objects whose start the text omits start where they are first used."""
    for e in events:
        initial.setdefault(e.vehicle, e.place)
        if e.package is not None:
            initial.setdefault(e.package, e.location)  # type: ignore[arg-type]


_WHERE_RE = re.compile(
    r"where\s+is\s+(?:the\s+)?(?:package|product|parcel)?\s*" + _ID + r"\s*(.*)$", re.S
)
_OFFSET_RE = re.compile(r"(\d+)\s*(hours?|hrs?|minutes?|mins?)\b")
_CLAUSE_RE = re.compile(
    r"(?P<ev>[a-z].*?)\s*,?\s+(?:starts?\s+at\s+(?P<time>"
    + CLOCK_RE.pattern
    + r")|(?:is\s+|gets\s+)?(?P<dir>delayed|expedited|advanced)\s+by\s+"
    r"(?P<n>\d+)\s*(?P<unit>hours?|min\w*))"
)
_LEAD_RE = re.compile(r"^(?:\s|,|\bif\b|\band\b)+")


def parse_question(text: str, scenario: Scenario, question_type: str | None = None) -> Question:
    """ "[If X starts at T [and Y is delayed by N minutes],] where is the package p
    [at T | N hours before/after T]?" -> :class:`Question`."""
    low = " ".join(text.lower().split())
    wm = _WHERE_RE.search(low)
    if not wm:
        raise TsolveError(f"question: cannot find 'where is the package ...' in {text!r}")
    package = wm.group(1)
    rest = wm.group(2)
    times = list(CLOCK_RE.finditer(rest))
    if not times:
        raise TsolveError(f"question: no clock time after the package in {text!r}")
    clock = clock_from_match(times[-1])
    offset = 0
    head = rest[: times[-1].start()]
    if "before" in head or "after" in head:
        total = 0
        for m in _OFFSET_RE.finditer(head):
            total += int(m.group(1)) * (60 if m.group(2).startswith("h") else 1)
        if total == 0 and not _OFFSET_RE.search(head):
            raise TsolveError(f"question: relative time without an amount in {text!r}")
        offset = -total if "before" in head else total
    anchor: tuple[int, int] | None = None
    shifts: list[Shift] = []
    prefix = low[: wm.start()]
    for m in _CLAUSE_RE.finditer(prefix):
        phrase = _LEAD_RE.sub("", m.group("ev"))
        idx = scenario.find(parse_event_text(phrase, need_timing=False).key)
        if m.group("time"):
            anchor = (idx, clock_from_match(CLOCK_RE.search(m.group("time"))))  # type: ignore[arg-type]
        else:
            n = int(m.group("n")) * (60 if m.group("unit").startswith("h") else 1)
            shifts.append(Shift(idx, -n if m.group("dir") != "delayed" else n))
    if prefix.strip(" ,") and anchor is None and not shifts:
        raise TsolveError(f"question: cannot read the condition {prefix.strip()!r}")
    if question_type is None:
        question_type = (
            "hypothetical_time" if shifts else ("relative_time" if offset else "static_time")
        )
    if question_type not in QUESTION_TYPES:
        raise TsolveError(f"question_type: unknown value {question_type!r}")
    if package not in scenario.initial and not any(e.package == package for e in scenario.events):
        raise TsolveError(f"question: package {package!r} is not in the scenario")
    qt: QuestionType = question_type
    return Question(package, clock, offset, anchor, tuple(shifts), qt)


def parse_item(item: Mapping[str, Any]) -> tuple[Scenario, Question]:
    """A benchmark item (its own fields) -> scenario and question."""
    if not isinstance(item, Mapping):
        raise TsolveError(f"item: expected a JSON object, got {type(item).__name__}")
    text = item.get("question")
    if isinstance(text, list) and text and all(isinstance(t, str) for t in text):
        text = " ".join(text)  # some releases wrap the question in a list
    if not isinstance(text, str) or not text.strip():
        raise TsolveError("question: missing or not a string")
    scenario = parse_scenario(item)
    qt = item.get("question_type")
    return scenario, parse_question(text, scenario, qt if isinstance(qt, str) else None)
