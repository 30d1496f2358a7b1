"""Random logistics worlds and a staged planner that delivers every package.

The benchmark took its plans from ActionReasoningBench's PDDL pipeline and used
ten fixed layouts; tsolve draws fresh layouts and plans them itself, so every
record is a new scenario. The planner works in three stages, which is how a
dispatcher would do it and what the benchmark's plans look like:

1. *collect*: in each city a truck picks packages up (all packages at one stop
   are loaded back to back, which is what makes batches in parallel mode) and
   drops each at its goal, if that is in the city, or at the city's airport;
2. *fly*: airplanes fetch the packages that change city from the origin
   airports and unload them at the destination airports;
3. *deliver*: trucks take arrived packages from the airport to their goals.

Every plan is checked against the IPC rules by
:func:`tsolve.families.logistics.rules.check_plan` before it is used.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tsolve.families.logistics.model import Event, Kind, VehicleType, World


@dataclass(frozen=True)
class Layout:
    """A world with initial positions and package goals."""

    world: World
    initial: dict[str, str]
    goals: dict[str, str]
    truck_city: dict[str, str]


def random_layout(
    rng: random.Random,
    cities: tuple[int, int] = (2, 3),
    locations: tuple[int, int] = (2, 4),
    packages: tuple[int, int] = (3, 6),
    airplanes: tuple[int, int] = (1, 2),
) -> Layout:
    """Cities ``c<k>`` with locations ``l<k>_<j>`` (``l<k>_0`` is the airport),
    one truck per city (sometimes a spare), airplanes at airports, packages
    with a goal different from their start. Names follow the benchmark's
    conventions so the rendered text reads the same; listing orders are shuffled."""
    n_c = rng.randint(*cities)
    city_locs = {f"c{k}": [f"l{k}_{j}" for j in range(rng.randint(*locations))] for k in range(n_c)}
    city_of = {loc: c for c, locs in city_locs.items() for loc in locs}
    airport = {c: locs[0] for c, locs in city_locs.items()}
    n_t = n_c + (1 if rng.random() < 0.3 else 0)
    truck_names = [f"t{k}" for k in range(n_t)]
    rng.shuffle(truck_names)
    truck_city: dict[str, str] = {}
    for k, t in enumerate(truck_names):
        truck_city[t] = f"c{k}" if k < n_c else f"c{rng.randrange(n_c)}"
    planes = [f"a{k}" for k in range(rng.randint(*airplanes))]
    pkgs = [f"p{k}" for k in range(rng.randint(*packages))]
    all_locs = list(city_of)
    initial: dict[str, str] = {}
    goals: dict[str, str] = {}
    for t, c in truck_city.items():
        initial[t] = rng.choice(city_locs[c])
    for a in planes:
        initial[a] = rng.choice(list(airport.values()))
    for p in pkgs:
        initial[p] = rng.choice(all_locs)
        goals[p] = rng.choice([loc for loc in all_locs if loc != initial[p]])
    cities_order = list(city_locs)
    rng.shuffle(cities_order)
    locs_order = list(all_locs)
    rng.shuffle(locs_order)
    city_of_ordered = {loc: city_of[loc] for loc in locs_order}
    airports = [airport[c] for c in cities_order]
    trucks_order = sorted(truck_city, key=lambda _t: rng.random())
    pk_order = sorted(pkgs, key=lambda _p: rng.random())
    world = World(
        cities=tuple(cities_order),
        city_of=city_of_ordered,
        airports=tuple(airports),
        trucks=tuple(trucks_order),
        airplanes=tuple(planes),
        packages=tuple(pk_order),
    )
    return Layout(world, initial, goals, truck_city)


def plan(layout: Layout, rng: random.Random) -> list[Event]:
    """A valid plan for ``layout`` (see the module docstring for the stages):
    its events in order, untimed (``duration`` 0, no ``start``); the generator
    draws the durations."""
    world = layout.world
    city_of = world.city_of
    airport = {city_of[a]: a for a in world.airports}
    pos = dict(layout.initial)
    steps: list[Event] = []
    city_truck: dict[str, str] = {}
    for t in sorted(layout.truck_city):
        city_truck.setdefault(layout.truck_city[t], t)
    for t in sorted(layout.truck_city, key=lambda _t: rng.random()):
        if rng.random() < 0.5:  # a spare truck sometimes does the city's work
            city_truck[layout.truck_city[t]] = t

    def step(
        kind: Kind,
        v: str,
        vtype: VehicleType,
        package: str | None = None,
        location: str | None = None,
        origin: str | None = None,
        destination: str | None = None,
    ) -> None:
        steps.append(Event(len(steps), kind, v, vtype, 0, package, location, origin, destination))

    def move(v: str, vtype: VehicleType, dest: str) -> None:
        if pos[v] != dest:
            step("move", v, vtype, origin=pos[v], destination=dest)
            pos[v] = dest

    def tour(
        v: str, vtype: VehicleType, pickups: dict[str, list[str]], drops: dict[str, str]
    ) -> None:
        """Visit the pickup stops in random order, then the remaining drop
        stops; at every stop unload first, then load (the parallel domain's
        rule, and what a driver does anyway)."""
        aboard: list[str] = []
        route = list(pickups)
        rng.shuffle(route)
        for stop in route:
            move(v, vtype, stop)
            unload_here(v, vtype, stop, aboard, drops)
            for p in pickups[stop]:
                step("load", v, vtype, package=p, location=stop)
                pos[p] = v
                aboard.append(p)
        rest = sorted(set(drops[p] for p in aboard))  # sorted first: set order varies by process
        rng.shuffle(rest)
        for stop in rest:
            move(v, vtype, stop)
            unload_here(v, vtype, stop, aboard, drops)

    def unload_here(
        v: str, vtype: VehicleType, stop: str, aboard: list[str], drops: dict[str, str]
    ) -> None:
        for p in [p for p in aboard if drops[p] == stop]:
            step("unload", v, vtype, package=p, location=stop)
            pos[p] = stop
            aboard.remove(p)

    packages = sorted(layout.goals, key=lambda _p: rng.random())
    cities = list(world.cities)
    rng.shuffle(cities)
    # 1. collect: within each city, to the goal or to the airport
    for c in cities:
        pickups: dict[str, list[str]] = {}
        drops: dict[str, str] = {}
        for p in packages:
            here = pos[p]
            if city_of[here] != c:
                continue
            goal = layout.goals[p]
            exit_point = goal if city_of[goal] == c else airport[c]
            if here != exit_point:
                pickups.setdefault(here, []).append(p)
                drops[p] = exit_point
        if pickups:
            tour(city_truck[c], "truck", pickups, drops)
    # 2. fly: airports to airports
    flying = [p for p in packages if city_of[pos[p]] != city_of[layout.goals[p]]]
    by_plane: dict[str, list[str]] = {}
    for p in flying:
        by_plane.setdefault(rng.choice(world.airplanes), []).append(p)
    for a in sorted(by_plane, key=lambda _a: rng.random()):
        pickups, drops = {}, {}
        for p in by_plane[a]:
            pickups.setdefault(pos[p], []).append(p)
            drops[p] = airport[city_of[layout.goals[p]]]
        tour(a, "airplane", pickups, drops)
    # 3. deliver: from the airport to the goal
    for c in cities:
        arrived = [p for p in packages if pos[p] == airport[c] and layout.goals[p] != airport[c]]
        if not arrived:
            continue
        pickups = {airport[c]: arrived}
        drops = {p: layout.goals[p] for p in arrived}
        tour(city_truck[c], "truck", pickups, drops)
    return steps
