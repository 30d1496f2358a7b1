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

Such a plan has a shape a reader can exploit without tracking any package:
one vehicle works at a time, so a package is either with the vehicle that
acts or lying at an airport. ``plan(..., mixed=True)`` (the generator's
default asked-minute mix) breaks that shape in two ways a dispatcher would
use anyway:

* *relays*: a truck leg may drop a package at another location of the city
  (a depot), from which a later leg, by any truck of the city, takes it on;
  so a package waits at ordinary locations, not only at airports;
* *interleaving* (:func:`interleave`): the vehicles' stops are merged in a
  random order that keeps each vehicle's and each package's own order, so
  several vehicles are loaded at once, and a package waits parked in a
  vehicle while another one acts.
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
    mixed: bool = False,
) -> Layout:
    """Cities ``c<k>`` with locations ``l<k>_<j>`` (``l<k>_0`` is the airport),
    one truck per city (sometimes a spare; two per city with ``mixed``, so
    that a relay's second leg has a truck of its own), airplanes at
    airports, packages with a goal different from their start. Names follow the benchmark's
    conventions so the rendered text reads the same; listing orders are shuffled."""
    n_c = rng.randint(*cities)
    city_locs = {f"c{k}": [f"l{k}_{j}" for j in range(rng.randint(*locations))] for k in range(n_c)}
    city_of = {loc: c for c, locs in city_locs.items() for loc in locs}
    airport = {c: locs[0] for c, locs in city_locs.items()}
    spare = rng.random() < 0.3
    n_t = 2 * n_c if mixed else n_c + (1 if spare else 0)
    truck_names = [f"t{k}" for k in range(n_t)]
    rng.shuffle(truck_names)
    truck_city: dict[str, str] = {}
    for k, t in enumerate(truck_names):
        if mixed:
            truck_city[t] = f"c{k % n_c}"
        else:
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


RELAY_SHARE = 0.5
"""How often, with ``mixed``, a truck leg that could go through another
location of its city goes through one (a relay)."""


def plan(layout: Layout, rng: random.Random, mixed: bool = False) -> list[Event]:
    """A valid plan for ``layout`` (see the module docstring for the stages):
    its events in order, untimed (``duration`` 0, no ``start``); the generator
    draws the durations. ``mixed`` adds relays and interleaves the vehicles'
    stops (module docstring); without it the random draws are exactly those
    of the plain planner, which the ``unseentimeqa`` mix depends on."""
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
    trucks_of: dict[str, list[str]] = {}
    for t in sorted(layout.truck_city):
        trucks_of.setdefault(layout.truck_city[t], []).append(t)

    def relay(c: str, here: str, there: str) -> str | None:
        """With ``mixed``, sometimes a depot between ``here`` and ``there``:
        another ordinary location of city ``c``."""
        if not mixed or rng.random() >= RELAY_SHARE:
            return None
        depots = [x for x in city_of if city_of[x] == c and x not in (here, there, airport[c])]
        return rng.choice(sorted(depots)) if depots else None

    def city_legs(c: str, legs: dict[str, str]) -> None:
        """Truck city ``c``'s packages from where they are to ``legs[p]``,
        through a depot when :func:`relay` gives one: the first legs in one
        tour, the second in another, by another truck of the city."""
        onward: dict[str, str] = {}
        pickups: dict[str, list[str]] = {}
        drops: dict[str, str] = {}
        for p, there in legs.items():
            depot = relay(c, pos[p], there)
            if depot is not None:
                onward[p] = there
            pickups.setdefault(pos[p], []).append(p)
            drops[p] = depot if depot is not None else there
        if pickups:
            tour(city_truck[c], "truck", pickups, drops)
        if onward:
            second: dict[str, list[str]] = {}
            for p in onward:
                second.setdefault(pos[p], []).append(p)
            others = [t for t in trucks_of[c] if t != city_truck[c]] or trucks_of[c]
            tour(rng.choice(others), "truck", second, onward)

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
        if mixed and drops:
            city_legs(c, drops)
        elif pickups:
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
        if mixed:
            city_legs(c, drops)
        else:
            tour(city_truck[c], "truck", pickups, drops)
    return interleave(steps, rng) if mixed else steps


def stops(events: list[Event]) -> list[list[Event]]:
    """``events`` cut into stops: a vehicle's move with the loads and unloads
    it makes there before its next move (a vehicle's first stop may have no
    move). A stop is what :func:`interleave` keeps whole, so that the steps
    that run together in a parallel plan (one vehicle's consecutive loads, or
    unloads, at one stop) stay together."""
    out: list[list[Event]] = []
    last: dict[str, int] = {}  # vehicle -> its latest stop
    for e in events:
        if e.kind == "move" or last.get(e.vehicle) != len(out) - 1:
            # a new stop; a vehicle's steps after another vehicle's are one too,
            # so that each stop is a run of the list and the list's own order
            # is one the merge may keep
            last[e.vehicle] = len(out)
            out.append([e])
        else:
            out[-1].append(e)
    return out


def interleave(events: list[Event], rng: random.Random) -> list[Event]:
    """The stops of ``events`` (:func:`stops`) merged in a random order that
    keeps each vehicle's stops and each package's steps in their order: a
    stop is ready when the vehicle's previous stop and every stop holding an
    earlier step of one of its packages are placed. Those two orders are all
    the rules need (a load needs its package where its previous step left it
    and the vehicle where its previous move took it), so the result is a
    valid plan whenever ``events`` is; the events are renumbered."""
    blocks = stops(events)
    needs: list[set[int]] = []
    vehicle_last: dict[str, int] = {}
    package_last: dict[str, int] = {}
    for b, block in enumerate(blocks):
        want: set[int] = set()
        v = block[0].vehicle
        if v in vehicle_last:
            want.add(vehicle_last[v])
        vehicle_last[v] = b
        for e in block:
            if e.package is not None:
                if e.package in package_last and package_last[e.package] != b:
                    want.add(package_last[e.package])
                package_last[e.package] = b
        needs.append(want)
    placed: set[int] = set()
    order: list[int] = []
    while len(order) < len(blocks):
        ready = [b for b in range(len(blocks)) if b not in placed and needs[b] <= placed]
        b = rng.choice(ready)
        placed.add(b)
        order.append(b)
    merged = [e for b in order for e in blocks[b]]
    return [e._replace(index=k) for k, e in enumerate(merged)]
