"""An independent oracle for logistics schedules, shared by the schedule-field
and picture tests: earliest start times without tsolve's schedule pass."""

from __future__ import annotations

from typing import Any

import networkx as nx

from tsolve.families.logistics.event_graph import build_graph
from tsolve.families.logistics.model import Question, Scenario


def independent_starts(record: dict[str, Any]) -> list[int]:
    """Earliest starts, recomputed without tsolve's schedule pass: serial plans
    as a chain of durations, parallel ones as a longest path over the
    dependency edges; then the what-if delay (serial: the named event and all
    after it) and the anchor's clock."""
    scen = Scenario.from_json(record["scenario"])
    q = Question.from_json(record["structured_question"])
    durations = [e.duration for e in scen.events]
    if scen.execution == "serial":
        starts = [sum(durations[:k]) for k in range(len(durations))]
        for s in q.shifts:
            starts = [t + (s.minutes if k >= s.event else 0) for k, t in enumerate(starts)]
    else:
        assert not q.shifts, "parallel what-ifs are recomputed by the solver's own rule"
        g = build_graph(scen)
        starts = [0] * len(durations)
        for v in nx.topological_sort(g):
            starts[v] = max(
                (starts[u] + durations[u] + g.edges[u, v]["gap"] for u in g.predecessors(v)),
                default=0,
            )
    i, clock = q.anchor
    return [t + clock - starts[i] for t in starts]
