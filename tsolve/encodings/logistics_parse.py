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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.encodings.logistics_clock import CLOCK_RE, DAY, clock_from_match, unwrap
from tsolve.encodings.logistics_model import (
    EXECUTIONS,
    QUESTION_TYPES,
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
from tsolve.errors import TsolveError

_ID = r"([a-z]+\d+(?:_\d+)*)"
_VEHICLE_RE = re.compile(r"\b(truck|airplane|plane)\s*" + _ID)
_PACKAGE_RE = re.compile(r"\b(?:package|product|parcel)\s*" + _ID)
_LOCATION_RE = re.compile(r"location\s*" + _ID)
_FROM_LOC_RE = re.compile(r"\bfrom\s+location\s*" + _ID)
_TO_LOC_RE = re.compile(r"\bto\s+location\s*" + _ID)
_DURATION_RE = re.compile(r"(?<![\d:])(\d+)\s*(?:minutes?|mins?)\b")
_HEADER_RE = re.compile(r"^.*?\boccurs?\s*:\s*", re.S)
_SENTENCE_SPLIT_RE = re.compile(r"\.(?:\s+|$)")


@dataclass(frozen=True)
class EventText:
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
    raise TsolveError(f"{field_name}: expected a string or a list of strings, got {type(value).__name__}")


def parse_event_text(text: str, *, need_timing: bool = True) -> EventText:
    """Read one event sentence by its parts (see module docstring)."""
    low = text.lower()
    vm = _VEHICLE_RE.search(low)
    if not vm:
        raise TsolveError(f"events: no truck or airplane in {text!r}")
    vtype: VehicleType = "truck" if vm.group(1) == "truck" else "airplane"
    vehicle = vm.group(2)
    pm = _PACKAGE_RE.search(low)
    clocks = tuple(clock_from_match(m) for m in CLOCK_RE.finditer(low))
    dm = _DURATION_RE.search(CLOCK_RE.sub(" ", low))
    duration = int(dm.group(1)) if dm else None
    if need_timing and duration is None and len(clocks) < 2:
        raise TsolveError(f"events: no duration or end time in {text!r}")
    if pm:
        locs = _LOCATION_RE.findall(low)
        if len(set(locs)) != 1:
            raise TsolveError(f"events: expected one location in {text!r}")
        kind: Kind = "unload" if "unload" in low else "load"
        return EventText(kind, vehicle, vtype, pm.group(1), locs[0], None, None, clocks, duration)
    fm, tm = _FROM_LOC_RE.search(low), _TO_LOC_RE.search(low)
    if fm and tm:
        origin, dest = fm.group(1), tm.group(1)
    else:
        locs = _LOCATION_RE.findall(low)
        if len(locs) != 2:
            raise TsolveError(f"events: expected an origin and a destination in {text!r}")
        origin, dest = locs
    return EventText("move", vehicle, vtype, None, None, origin, dest, clocks, duration)


def parse_events(value: Any, execution: Execution = "serial") -> tuple[Event, ...]:
    """The event list, with stated clock times unwrapped onto the absolute axis.

    Easy items give start and end, medium items start and duration, hard items
    duration only. Stated starts are unwrapped relative to the previous start:
    in serial lists a start never precedes the previous one, so the first
    later minute showing that clock is right; parallel lists may step back, so
    there the reference is half a day earlier.
    """
    out: list[Event] = []
    prev_start: int | None = None
    for s in sentences(value, "events"):
        low = s.lower()
        if "truck" not in low and "plane" not in low:
            continue  # "Given the initial states, the following events occur:"
        et = parse_event_text(s)
        start: int | None = None
        duration = et.duration
        if et.clocks:
            if prev_start is None:
                start = et.clocks[0]
            else:
                slack = 0 if execution == "serial" else DAY // 2
                start = unwrap(et.clocks[0], prev_start - slack)
            if duration is None:
                duration = (et.clocks[1] - et.clocks[0]) % DAY
            prev_start = start
        assert duration is not None
        out.append(
            Event(
                index=len(out),
                kind=et.kind,
                vehicle=et.vehicle,
                vehicle_type=et.vehicle_type,
                duration=duration,
                package=et.package,
                location=et.location,
                origin=et.origin,
                destination=et.destination,
                start=start,
            )
        )
    if not out:
        raise TsolveError("events: no events found")
    # Either every event states its start or none does (hard items).
    if any(e.start is None for e in out) and any(e.start is not None for e in out):
        out = [Event(**{**_fields(e), "start": None}) for e in out]
    return tuple(out)


def _fields(e: Event) -> dict[str, Any]:
    return {k: getattr(e, k) for k in e.__dataclass_fields__}


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
        return ex  # type: ignore[no-any-return]
    domain = str(item.get("domain_description", "")).lower()
    return "parallel" if "simultaneous" in domain else "serial"


def parse_scenario(item: Mapping[str, Any]) -> Scenario:
    """Objects, initial states and events of a benchmark item."""
    for name in ("events",):
        if name not in item:
            raise TsolveError(f"{name}: missing field")
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
    + r")|(?:is\s+|gets\s+)?(?P<dir>delayed|expedited|advanced)\s+by\s+(?P<n>\d+)\s*(?P<unit>hours?|min\w*))"
)
_LEAD_RE = re.compile(r"^(?:\s|,|\bif\b|\band\b)+")


def parse_question(text: str, scenario: Scenario, question_type: str | None = None) -> Question:
    """"[If X starts at T [and Y is delayed by N minutes],] where is the package p
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
        question_type = "hypothetical_time" if shifts else ("relative_time" if offset else "static_time")
    if question_type not in QUESTION_TYPES:
        raise TsolveError(f"question_type: unknown value {question_type!r}")
    if package not in scenario.initial and not any(e.package == package for e in scenario.events):
        raise TsolveError(f"question: package {package!r} is not in the scenario")
    qt: QuestionType = question_type  # type: ignore[assignment]
    return Question(package, clock, offset, anchor, tuple(shifts), qt)


def parse_item(item: Mapping[str, Any]) -> tuple[Scenario, Question]:
    """A benchmark item (its own fields) -> scenario and question."""
    if not isinstance(item, Mapping):
        raise TsolveError(f"item: expected a JSON object, got {type(item).__name__}")
    if "question" not in item or not isinstance(item["question"], str):
        raise TsolveError("question: missing or not a string")
    scenario = parse_scenario(item)
    qt = item.get("question_type")
    return scenario, parse_question(item["question"], scenario, qt if isinstance(qt, str) else None)
