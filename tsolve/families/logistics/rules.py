"""The IPC logistics rules, checked by simulating a plan step by step.

A generated plan must be executable: a package is loaded only where it and the
vehicle both are, unloaded only from the vehicle it is in, trucks drive within
one city, airplanes fly between airports of different cities, and in the end
every package is at its goal. The generator runs every plan through
:func:`check_plan`, and the tests run it on the benchmark's own plans, so the
planner and the parser are both held to the domain, not to each other.
"""

from __future__ import annotations

from tsolve.errors import TsolveError
from tsolve.families.logistics.model import Scenario


def check_plan(scenario: Scenario) -> dict[str, str]:
    """Simulate the plan in list order; return the final position of every
    object (a location, or a vehicle for a package still aboard). Raises
    :class:`TsolveError` naming the first step that breaks a rule."""
    world = scenario.world
    pos = dict(scenario.initial)
    for e in scenario.events:
        where = f"events[{e.index}] ({e.phrase()})"
        v = e.vehicle
        if v not in pos:
            raise TsolveError(f"{where}: {v} has no initial location")
        if e.kind == "move":
            if pos[v] != e.origin:
                raise TsolveError(f"{where}: {v} is at {pos[v]}, not {e.origin}")
            o_city = world.city_of.get(e.origin)
            d_city = world.city_of.get(e.destination)  # type: ignore[arg-type]
            if o_city is not None and d_city is not None:
                if e.vehicle_type == "truck" and o_city != d_city:
                    raise TsolveError(f"{where}: a truck cannot leave city {o_city}")
                if e.vehicle_type == "airplane":
                    if o_city == d_city:
                        raise TsolveError(f"{where}: a flight must change city")
                    if world.airports and not {e.origin, e.destination} <= set(world.airports):
                        raise TsolveError(f"{where}: airplanes fly between airports only")
            pos[v] = e.destination  # type: ignore[assignment]
            continue
        p = e.package
        assert p is not None and e.location is not None
        if pos[v] != e.location:
            raise TsolveError(f"{where}: {v} is at {pos[v]}, not {e.location}")
        if e.kind == "load":
            if pos.get(p) != e.location:
                raise TsolveError(f"{where}: package {p} is at {pos.get(p)}, not {e.location}")
            pos[p] = v
        else:
            if pos.get(p) != v:
                raise TsolveError(f"{where}: package {p} is not in {v}")
            pos[p] = e.location
    for p, goal in scenario.goals.items():
        if pos.get(p) != goal:
            raise TsolveError(f"goals: package {p} ends at {pos.get(p)}, not its goal {goal}")
    return pos
