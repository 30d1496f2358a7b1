"""Where is package p at minute t: a piecewise-constant timeline.

Intervals are half-open: at the minute an event starts its new state holds, at
the minute it ends the next state holds. The states:

* ``at``         lying at a location                     -> {location}
* ``loading`` / ``unloading``  during the (batch) event  -> {location, vehicle}
* ``parked``     inside a vehicle that stands somewhere  -> {vehicle, its location}
* ``moving``     inside a vehicle that drives or flies   -> {vehicle}

The timeline is a sorted list of change points, so a query is one bisection.
Each change point remembers the event that caused it, which the verifier uses
to say which event a wrong answer probably missed.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from operator import itemgetter
from typing import Literal, NamedTuple

from tsolve.errors import TsolveError
from tsolve.families.logistics.event_graph import Schedule
from tsolve.families.logistics.model import Event, Scenario

State = Literal["at", "loading", "unloading", "parked", "moving"]
Position = Literal["before", "during", "between", "after"]
POSITIONS: tuple[Position, ...] = ("before", "during", "between", "after")
"""Where a minute falls relative to the package's changes of state
(:meth:`Timeline.position`)."""
_IN_EVENT: frozenset[str] = frozenset({"loading", "unloading", "moving"})
_SINCE = itemgetter(0)  # Place.since
NEVER = -(10**9)
"""Stand-in for minus infinity: the initial state holds from the beginning of time."""


class Place(NamedTuple):
    """The package's state from ``since`` until the next change point (a named
    tuple: a timeline makes a dozen of these per question answered)."""

    since: int
    state: State
    location: str | None
    vehicle: str | None
    cause: int | None  # index of the event that brought this state about

    @property
    def answers(self) -> tuple[str, ...]:
        """The answer set in the benchmark's order: location first, then vehicle."""
        return tuple(x for x in (self.location, self.vehicle) if x is not None)


@dataclass(frozen=True)
class VehicleTrack:
    """A vehicle's moves as (start, end, origin, destination, event index)."""

    initial: str
    moves: tuple[tuple[int, int, str, str, int], ...]

    def at(self, t: int) -> tuple[str | None, int | None]:
        """(location, cause) at minute ``t``; location None while moving."""
        loc, cause = self.initial, None
        for s, e, _o, d, i in self.moves:
            if s <= t < e:
                return None, i
            if e <= t:
                loc, cause = d, i
        return loc, cause

    def boundaries(self, a: int, b: int) -> list[int]:
        """Move starts and ends strictly inside (a, b)."""
        return sorted({x for s, e, *_ in self.moves for x in (s, e) if a < x < b})


class Timeline:
    """The whole history of one package under one schedule."""

    def __init__(self, scenario: Scenario, schedule: Schedule, package: str) -> None:
        if package not in scenario.initial:
            raise TsolveError(f"question: package {package!r} has no initial location")
        self.package = package
        events = scenario.events
        own: list[Event] = [e for e in events if e.package == package]
        # the moves of the vehicles the package rides in (only those matter)
        moves: dict[str, list[tuple[int, int, str, str, int]]] = {
            e.vehicle: [] for e in own if e.kind == "load"
        }
        if moves:
            starts, ends = schedule.start, schedule.end
            for i, kind, v, _vt, _dur, pkg, _loc, o, d, _st in events:
                if kind == "move" and v in moves and pkg != package:
                    moves[v].append((starts[i], ends[i], o, d, i))  # type: ignore[arg-type]
        points: list[Place] = [Place(NEVER, "at", scenario.initial[package], None, None)]
        tracks: dict[str, VehicleTrack] = {}
        for k, e in enumerate(own):
            s, busy = schedule.start[e.index], schedule.busy_end[e.index]
            state: State = "loading" if e.kind == "load" else "unloading"
            points.append(Place(s, state, e.location, e.vehicle, e.index))
            nxt = schedule.start[own[k + 1].index] if k + 1 < len(own) else None
            if e.kind == "unload":
                if nxt is None or busy < nxt:
                    points.append(Place(busy, "at", e.location, None, e.index))
                continue
            if e.vehicle not in tracks:
                start = scenario.initial.get(e.vehicle)
                if start is None:
                    raise TsolveError(
                        f"initial_states_description: no start location for {e.vehicle!r}"
                    )
                tracks[e.vehicle] = VehicleTrack(start, tuple(moves.get(e.vehicle, ())))
            points.extend(_inside(tracks[e.vehicle], e, busy, nxt))
        points.sort(key=_SINCE)  # stable: later-listed wins a tie
        self.points = tuple(points)
        self._times = list(map(_SINCE, points))

    def at(self, t: int) -> Place:
        """The package's state at minute ``t`` (half-open intervals)."""
        return self.points[bisect_right(self._times, t) - 1]

    def position(self, t: int) -> Position:
        """Where minute ``t`` falls relative to the package's changes of state:
        ``before`` its first event starts, ``during`` an event that changes its
        state (its own load or unload, or a move of the vehicle it is in),
        ``between`` two such events (lying somewhere, or in a parked vehicle),
        or ``after`` its last change (its final state, which a policy that
        skips the timing answers by reading the plan to its end).

        A question asked ``after`` or ``before`` can be answered without any
        timing; UnSeenTimeQA never asks there, so the generator does not
        either (:mod:`tsolve.families.logistics.generate.asked_minute`). The
        half-open convention places a change-point minute in the new state,
        hence in ``after`` at the last change."""
        changes = self._times[1:]  # the first point is the initial state
        if not changes or t < changes[0]:
            return "before"
        if t >= changes[-1]:
            return "after"
        return "during" if self.at(t).state in _IN_EVENT else "between"

    def changes_at(self, t: int) -> bool:
        """True when some change point of the package falls at minute ``t``
        (even one that leaves the answer set as it was, as a loading that
        ends in a parked vehicle does)."""
        i = bisect_right(self._times, t)
        return i > 0 and self._times[i - 1] == t

    def segments(self) -> list[tuple[int, int | None, Place]]:
        """(from, to, place) with ``to`` exclusive and None for "for ever";
        zero-length change points are dropped."""
        out: list[tuple[int, int | None, Place]] = []
        for k, p in enumerate(self.points):
            to = self.points[k + 1].since if k + 1 < len(self.points) else None
            if to is None or to > p.since:
                out.append((p.since, to, p))
        return out


def _inside(track: VehicleTrack, load: Event, a: int, b: int | None) -> list[Place]:
    """Change points while the package rides in ``load.vehicle`` over [a, b)."""
    if b is not None and b <= a:
        return []
    out: list[Place] = []
    far = b if b is not None else max([a, *(e for _s, e, *_ in track.moves)]) + 1
    for t in [a, *track.boundaries(a, far)]:
        loc, cause = track.at(t)
        state: State = "moving" if loc is None else "parked"
        # right after the load the load explains a parked state; a move explains moving
        why = cause if cause is not None and (t != a or loc is None) else load.index
        out.append(Place(t, state, loc, load.vehicle, why))
    return out
