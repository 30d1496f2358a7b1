"""Logistics invariants: the properties every generated record must have
(``tsolve stress logistics`` and the property tests).

They recompute what the generator claims by an independent route: the text
parser and the CP-SAT schedule. The record's ``schedule`` field (what others
draw) must be the solver's, and must respect every dependency and duration of
the plan, checked edge by edge rather than by rerunning the schedule pass.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.logistics.event_graph import (
    build_graph,
    dependencies_of,
    earliest_schedule,
    shifted_schedule,
)
from tsolve.families.logistics.generate import generate_record
from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.schedule import schedule_json
from tsolve.families.logistics.schedule_cpsat import cpsat_schedule
from tsolve.families.logistics.solve import answer_question
from tsolve.generators.record_checks import Violations, round_trip, same_record


def logistics_invariants(rec: dict[str, Any], seed: int, index: int, cfg: Any) -> Violations:
    """The record's own text, parsed back, reproduces its answers; the answer
    has the benchmark's shape (a location, a vehicle, or both); the graph
    schedule equals the CP-SAT schedule; a delay never makes an event earlier."""
    out: Violations = []
    same_record(generate_record(seed, index, cfg), rec, out)
    back = round_trip(rec, out)
    item = back if back is not None else rec

    # The text alone (as a benchmark item) answers the same.
    text_only = {
        k: v
        for k, v in item.items()
        if k not in ("scenario", "structured_question", "solution", "answers")
    }
    try:
        scen_t, q_t = parse_item(text_only)
        got = answer_question(scen_t, q_t, item.get("depth")).answers
        if sorted(got) != sorted(item["answers"]):
            out.append(
                (
                    "text-answer",
                    f"parsing the text answers {list(got)}, record says {item['answers']}",
                )
            )
    except TsolveError as exc:
        out.append(("text-parse", f"the record's own text does not parse: {exc}"))

    scen = Scenario.from_json(item["scenario"])
    q = Question.from_json(item["structured_question"])
    res = answer_question(scen, q, item.get("depth"))
    if sorted(res.answers) != sorted(item["answers"]):
        out.append(("answer", f"structured answer {list(res.answers)} != {item['answers']}"))
    if item.get("schedule") != schedule_json(scen, res):
        out.append(("schedule", "the record's schedule is not the solver's schedule"))
    else:
        out.extend(schedule_violations(scen, q, item["schedule"]))
    vehicles = set(scen.world.trucks) | set(scen.world.airplanes)
    locations = set(scen.world.locations)
    ans = list(item["answers"])
    kinds = sorted(
        "vehicle" if a in vehicles else "location" if a in locations else "?" for a in ans
    )
    if kinds not in (["location"], ["vehicle"], ["location", "vehicle"]):
        out.append(("answer-shape", f"answer {ans} is not a location, a vehicle, or both"))

    g = build_graph(scen)
    graph_s = earliest_schedule(scen, g)
    cp_s = cpsat_schedule(scen, g)
    if graph_s.start != cp_s.start:
        bad = [i for i, (a, b) in enumerate(zip(graph_s.start, cp_s.start, strict=True)) if a != b]
        out.append(("schedule-cpsat", f"graph and CP-SAT schedules differ at events {bad[:5]}"))
    for i, e in enumerate(scen.events):
        delayed = shifted_schedule(scen, {i: 7}, base=graph_s, graph=g)
        early = [j for j in range(len(scen.events)) if delayed.start[j] < graph_s.start[j]]
        if early:
            out.append(
                ("delay-monotone", f"delaying event {i} ({e.kind}) makes {early[:5]} earlier")
            )
            break
    return out


def schedule_violations(scen: Scenario, q: Question, schedule: dict[str, Any]) -> Violations:
    """Every event lasts its duration and starts no earlier than each of its
    dependencies (plus their gap) allows, and every package's states follow
    one another without gap or overlap. The one exception is the rule the
    benchmark states: an expedited event may start before its predecessors end
    (docs/logistics.md, "Expedites may overlap")."""
    out: Violations = []
    rows = schedule["events"]
    start = [r["start"] for r in rows]
    end = [r["end"] for r in rows]
    for e in scen.events:
        if end[e.index] - start[e.index] != e.duration:
            out.append(("schedule-duration", f"event {e.index} does not last {e.duration} min"))
        if rows[e.index].get("busy_end", end[e.index]) < end[e.index]:
            out.append(("schedule-busy", f"event {e.index}: busy_end before its end"))
    expedited = {s.event for s in q.shifts if s.minutes < 0}
    for u, v, gap in dependencies_of(scen).edges():
        if v not in expedited and start[v] < end[u] + gap:
            out.append(("schedule-dependency", f"event {v} starts before event {u} allows"))
    for p, states in schedule["packages"].items():
        bounds = [(s["start"], s["end"]) for s in states]
        if (
            bounds[0][0] is not None
            or bounds[-1][1] is not None
            or any(a[1] != b[0] for a, b in pairwise(bounds))
        ):
            out.append(("schedule-package", f"the states of {p} leave a gap or overlap"))
    return out
