"""The logistics world as plain values: objects, events, scenarios and questions.

Everything downstream (the dependency graph, the CP-SAT cross-check, the
timeline, the generator and the verifier) works on these frozen dataclasses, so
a scenario parsed from the benchmark's English and one produced by tsolve's own
generator are the same kind of object and are answered by the same code.

Times are integer minutes on an absolute axis: minute 0 is the midnight before
the scenario's clock anchor, so ``1440`` is the next midnight. Clock times in
the text are 12-hour and wrap past midnight; :mod:`tsolve.families.logistics.clock`
converts between the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from tsolve.errors import TsolveError
from tsolve.records.validation import (
    bad,
    expect_choice,
    expect_dict,
    expect_int,
    expect_list,
    expect_str,
    optional,
)

Kind = Literal["load", "unload", "move"]
VehicleType = Literal["truck", "airplane"]
Execution = Literal["serial", "parallel"]

Timing = Literal["together", "own-step", "group-end"]
TIMINGS: tuple[Timing, ...] = ("together", "own-step", "group-end")
DEFAULT_TIMING: Timing = "together"
"""How a parallel plan's grouped steps take their time (:mod:`.readings`)."""
Difficulty = Literal["easy", "medium", "hard"]
QuestionType = Literal["static_time", "relative_time", "hypothetical_time"]

KINDS: tuple[Kind, ...] = ("load", "unload", "move")
VEHICLE_TYPES: tuple[VehicleType, ...] = ("truck", "airplane")
EXECUTIONS: tuple[Execution, ...] = ("serial", "parallel")
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
QUESTION_TYPES: tuple[QuestionType, ...] = ("static_time", "relative_time", "hypothetical_time")

# Bounds on what a record may state (docs/robustness.md). Far above anything the
# benchmark or the generator produces, and low enough that no schedule, timeline
# or clock arithmetic can overflow or allocate without limit.
MINUTES_PER_DAY = 24 * 60
MAX_MINUTES = 1_000_000  # about 694 days: durations, stated starts, offsets, shifts
MAX_EVENTS = 10_000
MAX_OBJECTS = 10_000
MAX_NAME = 200


class Event(NamedTuple):
    """One plan step with its duration.

    ``location`` is where a load/unload happens; a move has ``origin`` and
    ``destination`` instead. ``start`` is the stated start (easy and medium
    items state it; hard items give durations only, so it is ``None``).

    A named tuple rather than a frozen dataclass: the answerer builds tens of
    thousands of these a second and tuple construction is several times
    cheaper. :meth:`check` holds the invariants; :class:`Scenario` runs it.
    """

    index: int  # type: ignore[assignment]  # the list position; shadows tuple.index on purpose
    kind: Kind
    vehicle: str
    vehicle_type: VehicleType
    duration: int
    package: str | None = None
    location: str | None = None
    origin: str | None = None
    destination: str | None = None
    start: int | None = None

    def check(self) -> None:
        """Raise :class:`TsolveError` if the event is malformed."""
        if self.kind not in KINDS:
            raise TsolveError(f"event {self.index}: unknown kind {self.kind!r}")
        if self.vehicle_type not in VEHICLE_TYPES:
            raise TsolveError(f"event {self.index}: unknown vehicle type {self.vehicle_type!r}")
        if not isinstance(self.duration, int) or self.duration < 0:
            raise TsolveError(f"event {self.index}: duration must be >= 0, got {self.duration}")
        if self.kind == "move":
            if not self.origin or not self.destination:
                raise TsolveError(f"event {self.index}: a move needs an origin and a destination")
        elif not self.package or not self.location:
            raise TsolveError(f"event {self.index}: a {self.kind} needs a package and a location")

    @property
    def key(self) -> tuple[str, str, str | None, str | None, str | None, str | None]:
        """What identifies the event in English, without its timing: a question
        names an event by exactly these parts."""
        return (self.kind, self.vehicle, self.package, self.location, self.origin, self.destination)

    @property
    def event_type(self) -> str:
        """The IPC action name: load_truck, unload_airplane, drive_truck, fly_airplane ..."""
        if self.kind == "move":
            return "drive_truck" if self.vehicle_type == "truck" else "fly_airplane"
        return f"{self.kind}_{self.vehicle_type}"

    @property
    def place(self) -> str:
        """Where the vehicle stands during a load/unload (for moves: the origin)."""
        return self.location if self.kind != "move" else self.origin  # type: ignore[return-value]

    def phrase(self) -> str:
        """The canonical gerund phrase the benchmark's questions use."""
        if self.kind == "move":
            verb = "driving" if self.vehicle_type == "truck" else "flying"
            return (
                f"{verb} {self.vehicle_type} {self.vehicle} from location {self.origin} "
                f"to location {self.destination}"
            )
        prep = "into" if self.kind == "load" else "from"
        return (
            f"{self.kind}ing package {self.package} {prep} {self.vehicle_type} {self.vehicle} "
            f"at location {self.location}"
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "type": self.event_type,
            "kind": self.kind,
            "vehicle": self.vehicle,
            "vehicle_type": self.vehicle_type,
            "duration": self.duration,
        }
        for name in ("package", "location", "origin", "destination", "start"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "scenario.events[?]") -> Event:
        """An event from its record form, every field type- and range-checked."""
        d = expect_dict(data, where)

        def name(key: str, required: bool = False) -> str | None:
            value = d.get(key)
            if value is None and not required:
                return None
            return expect_str(value, f"{where}.{key}", MAX_NAME)

        return cls(
            index=expect_int(d.get("index"), f"{where}.index", 0, MAX_EVENTS),
            kind=expect_choice(d.get("kind"), f"{where}.kind", KINDS),  # type: ignore[arg-type]
            vehicle=name("vehicle", required=True),  # type: ignore[arg-type]
            vehicle_type=expect_choice(  # type: ignore[arg-type]
                d.get("vehicle_type"), f"{where}.vehicle_type", VEHICLE_TYPES
            ),
            duration=expect_int(d.get("duration"), f"{where}.duration", 0, MAX_MINUTES),
            package=name("package"),
            location=name("location"),
            origin=name("origin"),
            destination=name("destination"),
            start=optional(d.get("start"), expect_int, f"{where}.start", 0, MAX_MINUTES),
        )


@dataclass(frozen=True)
class World:
    """The objects: which locations lie in which city, which are airports, and
    the vehicles and packages. Order is kept as stated (it is rendered back)."""

    cities: tuple[str, ...]
    city_of: Mapping[str, str]
    airports: tuple[str, ...]
    trucks: tuple[str, ...]
    airplanes: tuple[str, ...]
    packages: tuple[str, ...]

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(self.city_of)

    def to_json(self) -> dict[str, Any]:
        return {
            "cities": list(self.cities),
            "city_of": dict(self.city_of),
            "airports": list(self.airports),
            "trucks": list(self.trucks),
            "airplanes": list(self.airplanes),
            "packages": list(self.packages),
        }

    @classmethod
    def from_json(cls, data: Any) -> World:
        d = expect_dict(data, "scenario.world")

        def names(key: str) -> tuple[str, ...]:
            field = f"scenario.world.{key}"
            items = expect_list(d.get(key), field, MAX_OBJECTS)
            return tuple(expect_str(x, f"{field}[{i}]", MAX_NAME) for i, x in enumerate(items))

        city_of = _present(expect_dict(d.get("city_of"), "scenario.world.city_of"))
        if len(city_of) > MAX_OBJECTS:
            raise bad("scenario.world.city_of", f"at most {MAX_OBJECTS} locations", len(city_of))
        for loc, city in city_of.items():
            expect_str(city, f"scenario.world.city_of.{loc}", MAX_NAME)
        return cls(
            cities=names("cities"),
            city_of=dict(city_of),
            airports=names("airports"),
            trucks=names("trucks"),
            airplanes=names("airplanes"),
            packages=names("packages"),
        )


@dataclass(frozen=True)
class Dependencies:
    """The dependency DAG as plain tuples: for every event, its predecessors
    with the gap each requires, and its batch id.

    This is what the schedule pass walks (a few microseconds per event);
    :func:`build_graph` turns exactly this into a networkx DiGraph for analysis
    and for the CP-SAT model, so the two views cannot disagree.
    """

    preds: tuple[tuple[tuple[int, int], ...], ...]
    batch: tuple[int, ...]
    execution: str
    timing: Timing = DEFAULT_TIMING

    def edges(self) -> list[tuple[int, int, int]]:
        """(u, v, gap) for every edge."""
        return [(u, v, gap) for v, ps in enumerate(self.preds) for u, gap in ps]


@dataclass(frozen=True)
class Scenario:
    """Objects, initial states and a timed plan, plus how it executes.

    ``initial`` maps every truck, airplane and package to its starting location;
    ``goals`` maps packages to their destinations (known for generated
    scenarios; the benchmark's text leaves them implicit).
    ``execution`` decides the schedule: serial runs the list back to back (or at
    the stated times), parallel starts each event once its dependencies allow.
    ``dependencies`` is the events' dependency DAG when whoever built the
    scenario already has it (the parser builds it to place a parallel list's
    clock times), so :func:`tsolve.families.logistics.event_graph.dependencies` need not
    build it again; it must be ``dependencies_of(scenario)``, and it takes no
    part in equality or ``repr``.
    """

    world: World
    initial: Mapping[str, str]
    events: tuple[Event, ...]
    execution: Execution = "serial"
    goals: Mapping[str, str] = field(default_factory=dict)
    dependencies: Dependencies | None = field(default=None, compare=False, repr=False)

    def validate(self) -> Scenario:
        """Check every event's shape and numbering; return ``self``.

        Run on everything read from JSON. The parser and the generator build
        well-formed events by construction, so the hot answering path skips it.
        """
        for k, e in enumerate(self.events):
            if e.index != k:
                raise TsolveError(f"events: event at position {k} has index {e.index}")
            e.check()
        return self

    @property
    def stated_times(self) -> bool:
        """Easy and medium items state every start; hard items give durations only."""
        return bool(self.events) and all(e.start is not None for e in self.events)

    def find(self, key: tuple[str | None, ...], what: str = "event") -> int:
        """Index of the first event with this identity (see :attr:`Event.key`).

        The benchmark names events by their parts; when a plan repeats an
        identical step the first one is meant (that is the one its generator
        reaches first when walking the list).
        """
        for ev in self.events:
            if ev.key == key:
                return ev.index
        raise TsolveError(f"question: {what} {_describe_key(key)!r} is not in the event list")

    def to_json(self) -> dict[str, Any]:
        return {
            "world": self.world.to_json(),
            "initial": dict(self.initial),
            "events": [e.to_json() for e in self.events],
            "execution": self.execution,
            "goals": dict(self.goals),
        }

    @classmethod
    def from_json(cls, data: Any) -> Scenario:
        """A scenario from its record form, checked field by field (see
        :mod:`tsolve.records.validation`) and then by :meth:`validate`."""
        d = expect_dict(data, "scenario")
        execution = expect_choice(d.get("execution", "serial"), "scenario.execution", EXECUTIONS)
        initial = _present(expect_dict(d.get("initial"), "scenario.initial"))
        for obj, loc in initial.items():
            expect_str(loc, f"scenario.initial.{obj}", MAX_NAME)
        goals = _present(expect_dict(d.get("goals") or {}, "scenario.goals"))
        for obj, loc in goals.items():
            expect_str(loc, f"scenario.goals.{obj}", MAX_NAME)
        events = expect_list(d.get("events"), "scenario.events", MAX_EVENTS)
        return cls(
            world=World.from_json(d.get("world")),
            initial=dict(initial),
            events=tuple(Event.from_json(e, f"scenario.events[{k}]") for k, e in enumerate(events)),
            execution=execution,  # type: ignore[arg-type]
            goals=dict(goals),
        ).validate()


@dataclass(frozen=True)
class Shift:
    """A what-if: event ``event`` starts ``minutes`` later (negative: earlier)."""

    event: int
    minutes: int


@dataclass(frozen=True)
class Question:
    """Where is ``package`` at ``clock`` + ``offset``?

    ``clock`` is the minute of day named in the question (0..1439) and
    ``offset`` the relative part ("3 hours before" is -180). ``anchor`` is
    (event index, minute of day) for hard items' "If X starts at HH:MM";
    ``shifts`` are the delays/expedites of hypothetical questions.
    """

    package: str
    clock: int
    offset: int = 0
    anchor: tuple[int, int] | None = None
    shifts: tuple[Shift, ...] = field(default_factory=tuple)
    question_type: QuestionType = "static_time"

    def to_json(self) -> dict[str, Any]:
        return {
            "package": self.package,
            "clock": self.clock,
            "offset": self.offset,
            "anchor": list(self.anchor) if self.anchor else None,
            "shifts": [{"event": s.event, "minutes": s.minutes} for s in self.shifts],
            "question_type": self.question_type,
        }

    @classmethod
    def from_json(cls, data: Any) -> Question:
        """A structured question from its record form, every field checked."""
        d = expect_dict(data, "structured_question")
        where = "structured_question"
        anchor = d.get("anchor")
        if anchor is not None:
            pair = expect_list(anchor, f"{where}.anchor", 2, 2)
            anchor = (
                expect_int(pair[0], f"{where}.anchor[0]", 0, MAX_EVENTS),
                expect_int(pair[1], f"{where}.anchor[1]", 0, MINUTES_PER_DAY - 1),
            )
        shifts = expect_list(d.get("shifts", []), f"{where}.shifts", MAX_EVENTS)
        return cls(
            package=expect_str(d.get("package"), f"{where}.package", MAX_NAME),
            clock=expect_int(d.get("clock"), f"{where}.clock", 0, MINUTES_PER_DAY - 1),
            offset=expect_int(d.get("offset", 0), f"{where}.offset", -MAX_MINUTES, MAX_MINUTES),
            anchor=anchor,
            shifts=tuple(
                Shift(
                    expect_int(
                        expect_dict(x, f"{where}.shifts[{i}]").get("event"),
                        f"{where}.shifts[{i}].event",
                        0,
                        MAX_EVENTS,
                    ),
                    expect_int(
                        x.get("minutes"), f"{where}.shifts[{i}].minutes", -MAX_MINUTES, MAX_MINUTES
                    ),
                )
                for i, x in enumerate(shifts)
            ),
            question_type=expect_choice(  # type: ignore[arg-type]
                d.get("question_type", "static_time"), f"{where}.question_type", QUESTION_TYPES
            ),
        )


def _present(mapping: dict[str, Any]) -> dict[str, Any]:
    """A name -> name mapping without ``None`` values. An Arrow table (Hugging
    Face ``datasets``) stores such a mapping as one struct for every row, so
    each row gets the other rows' keys with ``None``: those keys are absent."""
    return {k: v for k, v in mapping.items() if v is not None}


def _describe_key(key: tuple[str | None, ...]) -> str:
    return " ".join(str(k) for k in key if k)
