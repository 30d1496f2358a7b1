"""The mixed planner (the default asked-minute mix's plans): relays through
depots and interleaved vehicles, every plan still valid under the IPC rules.

A plain plan has one vehicle working at a time, so a package is either with
the vehicle that acts or lying at an airport, which a reader that never
tracks the package can exploit; a mixed plan must offer packages waiting at
ordinary locations and parked in one vehicle while another acts."""

from __future__ import annotations

import random

from tsolve.families.logistics.generate.planner import interleave, plan, random_layout, stops
from tsolve.families.logistics.model import Event, Scenario
from tsolve.families.logistics.rules import check_plan


def _mixed(seed: int) -> tuple[object, list[Event]]:
    rng = random.Random(seed)
    layout = random_layout(rng, mixed=True)
    return layout, plan(layout, rng, mixed=True)


def _scenario(layout: object, steps: list[Event]) -> Scenario:
    return Scenario(
        world=layout.world,  # type: ignore[attr-defined]
        initial=layout.initial,  # type: ignore[attr-defined]
        events=tuple(e._replace(duration=5) for e in steps),
        execution="serial",
        goals=layout.goals,  # type: ignore[attr-defined]
    )


def test_mixed_plans_are_valid_and_deliver_every_package() -> None:
    for seed in range(40):
        layout, steps = _mixed(seed)
        check_plan(_scenario(layout, steps))  # raises on a broken plan
        where = dict(layout.initial)  # type: ignore[attr-defined]
        for e in steps:
            if e.kind == "load":
                where[str(e.package)] = e.vehicle
            elif e.kind == "unload":
                where[str(e.package)] = str(e.location)
        assert all(where[p] == g for p, g in layout.goals.items())  # type: ignore[attr-defined]
        assert [e.index for e in steps] == list(range(len(steps)))


def test_mixed_plans_relay_and_load_several_vehicles_at_once() -> None:
    relays = overlapping = 0
    for seed in range(40):
        layout, steps = _mixed(seed)
        airports = set(layout.world.airports)  # type: ignore[attr-defined]
        goals = layout.goals  # type: ignore[attr-defined]
        aboard: dict[str, set[str]] = {}
        for e in steps:
            if e.kind == "unload" and e.location not in airports and goals[e.package] != e.location:
                relays += 1  # dropped at a depot, not its goal
            if e.kind == "load":
                aboard.setdefault(e.vehicle, set()).add(str(e.package))
            elif e.kind == "unload":
                aboard[e.vehicle].discard(str(e.package))
            if sum(1 for held in aboard.values() if held) >= 2:
                overlapping += 1
    assert relays >= 20 and overlapping >= 20


def test_plain_plans_never_relay_nor_interleave() -> None:
    """Without ``mixed`` (the ``unseentimeqa`` mix) a package waits only at
    an airport and one vehicle is loaded at a time: version 5's plans."""
    for seed in range(20):
        rng = random.Random(seed)
        layout = random_layout(rng)
        steps = plan(layout, rng)
        airports = set(layout.world.airports)
        aboard: dict[str, set[str]] = {}
        for e in steps:
            if e.kind == "unload":
                assert e.location in airports or layout.goals[str(e.package)] == e.location
            if e.kind == "load":
                aboard.setdefault(e.vehicle, set()).add(str(e.package))
            elif e.kind == "unload":
                aboard[e.vehicle].discard(str(e.package))
            assert sum(1 for held in aboard.values() if held) <= 1


def test_interleave_keeps_stops_whole_and_own_orders() -> None:
    """A stop (a move and the loads and unloads after it) stays one run, so
    parallel batches survive; each vehicle's and each package's steps keep
    their order; and the order does change."""
    changed = False
    for seed in range(10):
        rng = random.Random(seed)
        layout = random_layout(rng)
        # the duration carries each step's place in the plain plan through the merge
        steps = [e._replace(duration=k) for k, e in enumerate(plan(layout, rng))]
        merged = interleave(steps, random.Random(seed + 100))
        order = [e.duration for e in merged]
        assert sorted(order) == list(range(len(steps)))
        changed |= order != sorted(order)
        place = {k: n for n, k in enumerate(order)}
        for stop in stops(steps):
            at = [place[e.duration] for e in stop]
            assert at == list(range(at[0], at[0] + len(at)))
        for name in {e.vehicle for e in steps} | {str(e.package) for e in steps if e.package}:
            mine = [e.duration for e in merged if name in (e.vehicle, e.package)]
            assert mine == sorted(mine)
    assert changed
