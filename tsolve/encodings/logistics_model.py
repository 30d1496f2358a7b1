"""The logistics world as plain values: objects, events, scenarios and questions.

Everything downstream (the dependency graph, the CP-SAT cross-check, the
timeline, the generator and the verifier) works on these frozen dataclasses, so
a scenario parsed from the benchmark's English and one produced by tsolve's own
generator are the same kind of object and are answered by the same code.

Times are integer minutes on an absolute axis: minute 0 is the midnight before
the scenario's clock anchor, so ``1440`` is the next midnight. Clock times in
the text are 12-hour and wrap past midnight; :mod:`tsolve.encodings.logistics_clock`
converts between the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from tsolve.errors import TsolveError

Kind = Literal["load", "unload", "move"]
VehicleType = Literal["truck", "airplane"]
Execution = Literal["serial", "parallel"]
Difficulty = Literal["easy", "medium", "hard"]
QuestionType = Literal["static_time", "relative_time", "hypothetical_time"]

KINDS: tuple[Kind, ...] = ("load", "unload", "move")
VEHICLE_TYPES: tuple[VehicleType, ...] = ("truck", "airplane")
EXECUTIONS: tuple[Execution, ...] = ("serial", "parallel")
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
QUESTION_TYPES: tuple[QuestionType, ...] = ("static_time", "relative_time", "hypothetical_time")


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
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        try:
            return cls(
                index=int(data["index"]),
                kind=data["kind"],
                vehicle=str(data["vehicle"]),
                vehicle_type=data["vehicle_type"],
                duration=int(data["duration"]),
                package=data.get("package"),
                location=data.get("location"),
                origin=data.get("origin"),
                destination=data.get("destination"),
                start=data.get("start"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TsolveError(f"scenario.events: malformed event {dict(data)!r} ({exc})") from None


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
    def from_json(cls, data: Mapping[str, Any]) -> World:
        try:
            return cls(
                cities=tuple(data["cities"]),
                city_of=dict(data["city_of"]),
                airports=tuple(data["airports"]),
                trucks=tuple(data["trucks"]),
                airplanes=tuple(data["airplanes"]),
                packages=tuple(data["packages"]),
            )
        except (KeyError, TypeError) as exc:
            raise TsolveError(f"scenario.world: malformed ({exc})") from None


@dataclass(frozen=True)
class Scenario:
    """Objects, initial states and a timed plan, plus how it executes.

    ``initial`` maps every truck, airplane and package to its starting location;
    ``goals`` maps packages to their destinations (known for generated
    scenarios; the benchmark's text leaves them implicit).
    ``execution`` decides the schedule: serial runs the list back to back (or at
    the stated times), parallel starts each event once its dependencies allow.
    """

    world: World
    initial: Mapping[str, str]
    events: tuple[Event, ...]
    execution: Execution = "serial"
    goals: Mapping[str, str] = field(default_factory=dict)

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
    def from_json(cls, data: Mapping[str, Any]) -> Scenario:
        try:
            execution = data.get("execution", "serial")
            if execution not in EXECUTIONS:
                raise TsolveError(f"scenario.execution: unknown value {execution!r}")
            return cls(
                world=World.from_json(data["world"]),
                initial=dict(data["initial"]),
                events=tuple(Event.from_json(e) for e in data["events"]),
                execution=execution,
                goals=dict(data.get("goals", {})),
            ).validate()
        except (KeyError, TypeError) as exc:
            raise TsolveError(f"scenario: malformed ({exc})") from None


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
    def from_json(cls, data: Mapping[str, Any]) -> Question:
        try:
            anchor = data.get("anchor")
            return cls(
                package=str(data["package"]),
                clock=int(data["clock"]),
                offset=int(data.get("offset", 0)),
                anchor=(int(anchor[0]), int(anchor[1])) if anchor else None,
                shifts=tuple(Shift(int(s["event"]), int(s["minutes"])) for s in data["shifts"]),
                question_type=data.get("question_type", "static_time"),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise TsolveError(f"question: malformed structured question ({exc})") from None


def _describe_key(key: tuple[str | None, ...]) -> str:
    return " ".join(str(k) for k in key if k)
