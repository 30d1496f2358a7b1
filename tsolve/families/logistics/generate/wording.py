"""English for generated scenarios: event sentences from the Appendix C
templates (:mod:`tsolve.families.logistics.sentence_templates`, shared with the
parser), the benchmark's domain descriptions, object and state sentences, and
the question forms. Everything rendered here is read back by
:mod:`tsolve.families.logistics.parse` in the tests, so the two stay in step.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tsolve.families.logistics.clock import format_clock
from tsolve.families.logistics.model import Difficulty, Event, World
from tsolve.families.logistics.sentence_templates import DRIVE, FLY, HANDLE

HEADER = "Given the initial states, the following events occur:"

_DOMAIN_COMMON = (
    "Loading a package in a truck is possible if the package and the truck are in the same "
    "location. During the loading truck event, the package location can be either at the loading "
    "location or inside the truck. Loading a package in an airplane is possible if the package "
    "and the airplane are in the same location. During the loading airplane event, the package "
    "location can be either at the loading location or inside the airplane. Unloading a package "
    "from a truck is possible if the package and the truck are in the same location. During the "
    "unloading truck "
    "event, the package location can be either at the unloading location or inside the truck. "
    "Unloading a package from an airplane is possible if the package and the airplane are in the "
    "same location. During the unloading airplane event, the package location can be either at the "
    "unloading location or inside the airplane. Driving a truck is possible only if the source and "
    "destination locations are in the same city. During the driving event, the package location is "
    "in the truck. Flying an airplane is possible only if the source and destination locations are "
    "in different cities. During the flying event, the package location is in the airplane. "
)
DOMAIN = {
    "serial": _DOMAIN_COMMON
    + "Loading and unloading events for any trucks or airplanes, are performed one package at a "
    "time. If any event is delayed or expedited, all subsequent events are also delayed or "
    "expedited accordingly.",
    "parallel": _DOMAIN_COMMON
    + "Multiple packages can be loaded onto or unloaded from a truck simultaneously, but loading "
    "and unloading cannot occur at the same time. Similarly, multiple packages can be loaded or "
    "unloaded simultaneously from an airplane, but simultaneous loading and unloading are not "
    "permitted. When a truck reaches a new location, unloading of packages must occur before "
    "loading new packages. When an airplane arrives at a new location, unloading of packages must "
    "occur before loading new packages. If any event is delayed or expedited, all subsequent "
    "dependent events are also delayed or expedited accordingly.",
}


def render_event(e: Event, difficulty: Difficulty, start: int, rng: random.Random) -> str:
    """One event sentence; ``start`` is the absolute start minute (unused for hard)."""
    table = (DRIVE if e.vehicle_type == "truck" else FLY) if e.kind == "move" else HANDLE
    template = rng.choice(table[difficulty])
    load = e.kind == "load"
    return template.format(
        p=e.package,
        vt=e.vehicle_type,
        v=e.vehicle,
        l=e.location,
        o=e.origin,
        d=e.destination,
        s=format_clock(start),
        e=format_clock(start + e.duration),
        n=e.duration,
        ed="loaded into" if load else "unloaded from",
        ing="loading" if load else "unloading",
        prep="into" if load else "from",
    )


def join_names(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b, and c`` (the benchmark's serial comma)."""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def render_objects(world: World) -> list[str]:
    out = [
        f"there are {len(world.cities)} cities, {join_names(world.cities)}.",
        f"there are {len(world.city_of)} locations, {join_names(list(world.city_of))}.",
    ]
    for c in world.cities:
        locs = [loc for loc, city in world.city_of.items() if city == c]
        verb = "are" if len(locs) > 1 else "is"
        noun = "locations" if len(locs) > 1 else "location"
        out.append(f"{noun} {join_names(locs)} {verb} in city {c}.")
    out.append(
        f"there are {len(world.airports)} airports, The location of the airports are "
        f"{join_names(world.airports)}."
    )
    out.append(f"there are {len(world.airplanes)} airplanes, {join_names(world.airplanes)}.")
    out.append(f"there are {len(world.trucks)} trucks, {join_names(world.trucks)}.")
    out.append(f"there are {len(world.packages)} packages, {join_names(world.packages)}.")
    return out


def render_initial(world: World, initial: dict[str, str], rng: random.Random) -> list[str]:
    kinds = {**{t: "truck" for t in world.trucks}, **{a: "airplane" for a in world.airplanes}}
    kinds.update({p: "package" for p in world.packages})
    names = [n for n in kinds if n in initial]
    rng.shuffle(names)
    return [f"{kinds[n]} {n} is at the location {initial[n]}." for n in names]


def render_question(
    package: str,
    minute_text: str,
    anchor: tuple[Event, int] | None,
    shift: tuple[Event, int] | None,
) -> str:
    """The question in the benchmark's forms; ``minute_text`` is "at 01:15 PM"
    or "3 hours after 10:18 PM"."""
    where = f"where is the package {package} {minute_text}?"
    conds: list[str] = []
    if anchor is not None:
        conds.append(f"{anchor[0].phrase()} starts at {format_clock(anchor[1])}")
    if shift is not None:
        word = "delayed" if shift[1] > 0 else "expedited"
        conds.append(f"{shift[0].phrase()} is {word} by {abs(shift[1])} minutes")
    capital = "W" + where[1:]
    if not conds:
        return capital
    # The benchmark capitalises "Where" after an easy/medium what-if, not after a hard anchor.
    return "If " + " and ".join(conds) + ", " + (where if anchor is not None else capital)
