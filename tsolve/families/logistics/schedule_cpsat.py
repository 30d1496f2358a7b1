"""The plan's dependency graph as a CP-SAT model: an independent check of the
graph schedule.

:func:`tsolve.families.logistics.event_graph.earliest_schedule` computes the earliest
start of every event with one forward pass. Here the same graph becomes an
optimisation model (one interval variable per event, one linear precedence per
edge, batch ends as max-equalities, no-overlap per vehicle for its moves) and
CP-SAT minimises the sum of start times. Because the constraints are all lower
bounds on a DAG, the componentwise-earliest schedule is the unique optimum, so
the two methods must agree exactly; the property tests hold them to it. One
worker keeps the search deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import networkx as nx

from tsolve.errors import SolverTimeout, TsolveError
from tsolve.families.logistics.event_graph import Schedule, build_graph, earliest_schedule
from tsolve.families.logistics.model import Question, Scenario

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
else:  # cp_model without its pandas import (tsolve/solver/ortools_import.py)
    from tsolve.solver.ortools_import import load_cp_model

    cp_model = load_cp_model()


def cpsat_schedule(
    scenario: Scenario,
    graph: nx.DiGraph | None = None,
    forced: Mapping[int, int] | None = None,
    origin: int = 0,
    time_limit: float = 10.0,
) -> Schedule:
    """Earliest-start schedule of ``scenario`` by CP-SAT (same semantics as the
    graph pass: forced events ignore their own predecessors)."""
    g = build_graph(scenario) if graph is None else graph
    forced = dict(forced or {})
    events = scenario.events
    serial = scenario.execution == "serial"
    releases: dict[int, int] = {}
    for e in events:
        if e.start is not None and (not serial or e.index == 0):
            releases[e.index] = e.start
    anchors = [origin, *forced.values(), *releases.values()]
    slack = sum(e.duration for e in events) + sum(
        max(0, d["gap"]) for _u, _v, d in g.edges(data=True)
    )
    lo, hi = min(anchors) - 1, max(anchors) + slack + 1

    m = cp_model.CpModel()
    start = {e.index: m.new_int_var(lo, hi, f"s{e.index}") for e in events}
    end = {e.index: m.new_int_var(lo, hi + slack, f"e{e.index}") for e in events}
    interval = {
        e.index: m.new_interval_var(start[e.index], e.duration, end[e.index], f"i{e.index}")
        for e in events
    }
    for e in events:
        i = e.index
        if i in forced:
            m.add(start[i] == forced[i])
            continue
        preds = list(g.predecessors(i))
        for u in preds:
            m.add(start[i] >= end[u] + g.edges[u, i]["gap"])
        if i in releases:
            m.add(start[i] >= releases[i])
        elif not preds:
            m.add(start[i] >= origin)
    if not forced:  # a what-if may squeeze a vehicle's moves; the plan itself never does
        by_vehicle: dict[str, list[cp_model.IntervalVar]] = {}
        for e in events:
            if e.kind == "move":
                by_vehicle.setdefault(e.vehicle, []).append(interval[e.index])
        for ivs in by_vehicle.values():
            m.add_no_overlap(ivs)
    busy: dict[int, cp_model.IntVar] = {}
    if not serial:
        groups: dict[int, list[int]] = {}
        for i in g.nodes:
            groups.setdefault(g.nodes[i]["busy_group"], []).append(i)
        for b, mem in groups.items():
            if len(mem) > 1:
                last = m.new_int_var(lo, hi + slack, f"batch_end{b}")
                m.add_max_equality(last, [end[i] for i in mem])
                for i in mem:
                    busy[i] = last
    m.minimize(sum(start.values()))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(m)
    if status == cp_model.UNKNOWN:
        raise SolverTimeout(f"schedule: CP-SAT hit its {time_limit}s time limit")
    if status != cp_model.OPTIMAL:
        raise TsolveError(f"schedule: CP-SAT status {solver.status_name(status)}")
    starts = tuple(int(solver.value(start[e.index])) for e in events)
    ends = tuple(int(solver.value(end[e.index])) for e in events)
    busy_end = tuple(
        int(solver.value(busy[i])) if i in busy else ends[i] for i in range(len(events))
    )
    return Schedule(starts, ends, busy_end)


def cpsat_cross_checked(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` (a generated logistics record), once CP-SAT has given the
    same schedules as the graph pass for its question: the plan's own and, for
    a what-if, the one with the shifted events held at their shifted starts.
    Raises ``TsolveError`` naming the record when they differ. This is
    ``tsolve logistics generate --cpsat-check``: an independent check of every
    record's gold, slower than generating it."""
    scenario = Scenario.from_json(record["scenario"])
    question = Question.from_json(record["structured_question"])
    g = build_graph(scenario)
    base = earliest_schedule(scenario, g)
    forced = {s.event: base.start[s.event] + s.minutes for s in question.shifts}
    for f in ({}, forced) if forced else ({},):
        if earliest_schedule(scenario, g, forced=f) != cpsat_schedule(scenario, g, forced=f):
            raise TsolveError(f"record {record['id']}: graph and CP-SAT schedules differ")
    return record
