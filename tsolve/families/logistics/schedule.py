"""A solved logistics question as plain data: what every vehicle and package
does when, on the schedule the question is about.

Records carry this (their ``schedule`` field) so that anyone can draw or
inspect the plan without re-implementing the dependency rules, and
``tsolve logistics show`` draws it. It is read off the solver's own
:class:`~tsolve.families.logistics.solve.Resolution` (the schedule after the what-if
shifts, placed on the question's clock) and the package timelines
(:class:`~tsolve.families.logistics.timeline.Timeline`), so a picture cannot disagree
with the answer.

Minutes are on the solver's absolute axis (minute 0 is the midnight before
the plan's clock anchor; ``solution.minute`` uses the same axis); the clock
time of minute ``m`` is ``m mod 1440``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tsolve.families.logistics.model import Event, Question, Scenario
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.solve import Resolution, answer_question, what_if_steps
from tsolve.families.logistics.timeline import Timeline


def scenario_and_question(record: Mapping[str, Any]) -> tuple[Scenario, Question]:
    """The scenario and question of a logistics record: its structured fields
    when it has them (tsolve's own records), else its English (benchmark items)."""
    if isinstance(record.get("scenario"), dict) and isinstance(
        record.get("structured_question"), dict
    ):
        return (
            Scenario.from_json(record["scenario"]),
            Question.from_json(record["structured_question"]),
        )
    return parse_item(record)


def solve_record(record: Mapping[str, Any]) -> tuple[Scenario, Question, Resolution]:
    """Scenario, question and the solver's resolution of a logistics record
    (its ``depth`` breaks the rare tie between two days, as in answering).
    The question's what-ifs are on the steps the default reading moves (a
    repeated step's occurrence, :func:`~tsolve.families.logistics.solve.what_if_steps`),
    so a picture marks the step that actually moved."""
    scenario, question = scenario_and_question(record)
    depth = record.get("depth")
    res = answer_question(scenario, question, depth=depth if isinstance(depth, int) else None)
    return scenario, what_if_steps(scenario, question), res


def activity(event: Event) -> str:
    """What a vehicle does during ``event``, in a few words ("load p2",
    "drive to l1_0"): the label of its bar in a Gantt chart."""
    if event.kind == "move":
        verb = "drive" if event.vehicle_type == "truck" else "fly"
        return f"{verb} to {event.destination}"
    return f"{event.kind} {event.package}"


def schedule_json(scenario: Scenario, res: Resolution) -> dict[str, Any]:
    """The record's ``schedule`` field (docs/formats.md):

    * ``events``: per event, in list order, its ``start`` and ``end`` minute,
      plus ``busy_end`` where a parallel batch keeps the package busy longer;
    * ``vehicles``: per vehicle, its events in time order with what it does;
    * ``packages``: per package, its states from its timeline (``state``,
      ``where`` = the answer set during that state, the ``event`` that caused
      it); the first state has ``start`` null (since the beginning) and the
      last ``end`` null (for ever).
    """
    sched = res.schedule
    events: list[dict[str, Any]] = []
    for i in range(len(scenario.events)):
        row: dict[str, Any] = {"index": i, "start": sched.start[i], "end": sched.end[i]}
        if sched.busy_end[i] != sched.end[i]:
            row["busy_end"] = sched.busy_end[i]
        events.append(row)
    vehicles: dict[str, list[dict[str, Any]]] = {}
    for e in sorted(scenario.events, key=lambda e: (sched.start[e.index], e.index)):
        vehicles.setdefault(e.vehicle, []).append(
            {
                "event": e.index,
                "start": sched.start[e.index],
                "end": sched.end[e.index],
                "does": activity(e),
            }
        )
    packages: dict[str, list[dict[str, Any]]] = {}
    for p in _packages(scenario):
        packages[p] = [
            {
                "start": None if k == 0 else since,
                "end": to,
                "state": place.state,
                "where": list(place.answers),
                "event": place.cause,
            }
            for k, (since, to, place) in enumerate(Timeline(scenario, sched, p).segments())
        ]
    return {"events": events, "vehicles": vehicles, "packages": packages}


def _packages(scenario: Scenario) -> list[str]:
    """The packages in the order the world lists them, then any the events add."""
    seen = [p for p in scenario.world.packages if p in scenario.initial]
    for e in scenario.events:
        if e.package is not None and e.package not in seen and e.package in scenario.initial:
            seen.append(e.package)
    return seen
