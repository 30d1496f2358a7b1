"""The temporal dependency graph of a plan and its earliest-start schedules.

Nodes are event indices; an edge ``u -> v`` means "u must finish before v
starts" (``start(v) >= end(u) + gap``). Because every edge points forward in
the list, list order is a topological order and the earliest-start schedule is
one forward pass (a longest-path computation), which is what makes answering
thousands of questions a second cheap. :mod:`tsolve.solver.schedule_cpsat`
solves the same graph as a CP-SAT model so the tests can hold the two equal.

Serial execution is a chain in list order. With stated times (easy, medium) the
chain edges carry the stated gaps, so a delay or expedite moves the named event
and every later one by the same amount, as the serial domain description says.

Parallel execution follows the rules stated in the benchmark's parallel domain
description, made precise as "rule 3" of issue 5:

* a *batch* is a run of consecutive list entries of one kind (loads, or
  unloads) on one vehicle; its members start together, at the latest of the
  vehicle's arrival, the end of every earlier batch of the other kind at the
  same stop, and the end of each member package's previous event;
* a batch ends when its longest member ends, and each package in it counts as
  being loaded/unloaded until then (:attr:`Schedule.busy_end`);
* a move starts when the vehicle's previous move and every batch at its current
  stop have ended.

Giving every member of a batch the same predecessors is exactly "start
together", so the batch needs no special node and the graph stays a plain
precedence DAG that CP-SAT can check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

import networkx as nx

from tsolve.encodings.logistics_model import Event, Scenario
from tsolve.errors import TsolveError


def batches(events: tuple[Event, ...]) -> tuple[int, ...]:
    """Batch id of every event (rule 3): consecutive loads (or unloads) on the
    same vehicle share an id; every other event is a batch of its own."""
    out: list[int] = []
    for i, e in enumerate(events):
        prev = events[i - 1] if i else None
        same = (
            prev is not None
            and e.kind != "move"
            and prev.kind == e.kind
            and prev.vehicle == e.vehicle
            and prev.location == e.location
        )
        out.append(out[-1] if same else i)
    return tuple(out)


@dataclass(frozen=True)
class Dependencies:
    """The dependency DAG as plain tuples: for every event, its predecessors
    with the gap each requires, and its batch id.

    This is what the schedule pass walks (a few microseconds per event);
    :func:`build_graph` turns exactly this into a networkx DiGraph for analysis
    and for the CP-SAT model, so the two views cannot disagree.
    """

    preds: tuple[tuple[tuple[int, int], ...], ...]
    batch: tuple[int, ...]
    execution: str

    @classmethod
    def of(cls, scenario: Scenario) -> Dependencies:
        events = scenario.events
        if scenario.execution == "serial":
            preds: list[tuple[tuple[int, int], ...]] = [()]
            preds += [((a.index, _stated_gap(a, b)),) for a, b in pairwise(events)]
            return cls(tuple(preds), tuple(range(len(events))), "serial")
        bid = batches(events)
        return cls(_parallel_preds(events, bid), bid, "parallel")

    @classmethod
    def from_graph(cls, g: nx.DiGraph, execution: str) -> Dependencies:
        n = g.number_of_nodes()
        preds = tuple(tuple(sorted((u, d["gap"]) for u, d in g.pred[i].items())) for i in range(n))
        return cls(preds, tuple(g.nodes[i]["batch"] for i in range(n)), execution)

    def edges(self) -> list[tuple[int, int, int]]:
        """(u, v, gap) for every edge."""
        return [(u, v, gap) for v, ps in enumerate(self.preds) for u, gap in ps]


def dependencies(
    scenario: Scenario, graph: nx.DiGraph | Dependencies | None = None
) -> Dependencies:
    """The dependencies of ``scenario``, reusing ``graph`` when given."""
    if isinstance(graph, Dependencies):
        return graph
    if graph is not None:
        return Dependencies.from_graph(graph, scenario.execution)
    return Dependencies.of(scenario)


def build_graph(scenario: Scenario) -> nx.DiGraph:
    """The dependency DAG of ``scenario`` under its execution mode, as a
    networkx DiGraph.

    Node attributes: ``duration``, ``batch``. Edge attribute ``gap``: extra
    minutes required between the end of ``u`` and the start of ``v``
    (stated-time serial lists keep their stated gaps; everything else is 0).
    """
    deps = Dependencies.of(scenario)
    g = nx.DiGraph()
    g.add_nodes_from(
        (e.index, {"duration": e.duration, "batch": deps.batch[e.index]}) for e in scenario.events
    )
    g.add_edges_from((u, v, {"gap": gap}) for u, v, gap in deps.edges())
    return g


def _stated_gap(a: Event, b: Event) -> int:
    if a.start is not None and b.start is not None:
        return b.start - (a.start + a.duration)
    return 0


def _parallel_preds(
    events: tuple[Event, ...], bid: tuple[int, ...]
) -> tuple[tuple[tuple[int, int], ...], ...]:
    members: dict[int, list[int]] = {}
    for e in events:
        members.setdefault(bid[e.index], []).append(e.index)
    preds: list[tuple[tuple[int, int], ...]] = [()] * len(events)
    last_move: dict[str, int] = {}  # vehicle -> index of its latest move so far
    stop_batches: dict[str, list[int]] = {}  # vehicle -> batch ids at its current stop
    last_of_package: dict[str, int] = {}  # package -> its latest event so far

    def link(found: set[int], batch: int) -> None:
        mem = members[batch]
        edge = tuple(sorted((u, 0) for u in found if u not in mem))
        for v in mem:
            preds[v] = edge

    for e in events:
        i, v = e.index, e.vehicle
        if e.kind == "move":
            found = {last_move[v]} if v in last_move else set()
            for b in stop_batches.get(v, []):
                found.update(members[b])
            link(found, i)
            last_move[v] = i
            stop_batches[v] = []
            continue
        b = bid[i]
        if members[b][0] == i:  # first member: gather the whole batch's predecessors
            found = {last_move[v]} if v in last_move else set()
            for other in stop_batches.get(v, []):
                if events[other].kind != e.kind:
                    found.update(members[other])
            for m in members[b]:
                pkg = events[m].package
                if pkg in last_of_package:
                    found.add(last_of_package[pkg])
            link(found, b)
            stop_batches.setdefault(v, []).append(b)
        last_of_package[e.package] = i  # type: ignore[index]
    # Every predecessor was gathered from earlier list entries, so each edge
    # points forward and list order is a topological order (no cycle check needed).
    return tuple(preds)


@dataclass(frozen=True)
class Schedule:
    """Start and end minute of every event; ``busy_end`` is when the package of a
    load/unload stops being "being loaded/unloaded" (its batch's end in
    parallel mode, its own end otherwise)."""

    start: tuple[int, ...]
    end: tuple[int, ...]
    busy_end: tuple[int, ...]

    def shifted(self, delta: int) -> Schedule:
        """The same schedule ``delta`` minutes later (used to fix the clock)."""
        return Schedule(
            tuple(s + delta for s in self.start),
            tuple(s + delta for s in self.end),
            tuple(s + delta for s in self.busy_end),
        )


def earliest_schedule(
    scenario: Scenario,
    graph: nx.DiGraph | Dependencies | None = None,
    forced: Mapping[int, int] | None = None,
    origin: int = 0,
) -> Schedule:
    """Every event as early as its dependencies allow.

    ``forced`` pins chosen events to a start minute (what-if questions); their
    own predecessors are then ignored, their successors are recomputed. Events
    with stated times are released no earlier than stated in parallel mode; in
    serial mode the first event starts at its stated time (or ``origin``) and
    the chain's gaps place the rest.
    """
    deps = dependencies(scenario, graph)
    forced = forced or {}
    events = scenario.events
    n = len(events)
    start = [0] * n
    end = [0] * n
    serial = scenario.execution == "serial"
    preds = deps.preds
    for i, e in enumerate(events):
        if forced and i in forced:
            s = forced[i]
        else:
            ps = preds[i]
            if len(ps) == 1:  # the common case (every serial event): no max() needed
                u, gap = ps[0]
                s = end[u] + gap
            elif ps:
                s = max([end[u] + gap for u, gap in ps])
            else:
                s = origin
            if e.start is not None and (not serial or i == 0) and (e.start > s or not ps):
                s = e.start  # a stated start releases the event no earlier than stated
        start[i] = s
        end[i] = s + e.duration
    busy = list(end)
    if not serial:
        groups: dict[int, list[int]] = {}
        for i, b in enumerate(deps.batch):
            groups.setdefault(b, []).append(i)
        for mem in groups.values():
            if len(mem) > 1:
                last = max(end[m] for m in mem)
                for m in mem:
                    busy[m] = last
    return Schedule(tuple(start), tuple(end), tuple(busy))


def shifted_schedule(
    scenario: Scenario,
    shifts: Mapping[int, int],
    base: Schedule | None = None,
    graph: nx.DiGraph | Dependencies | None = None,
    origin: int = 0,
) -> Schedule:
    """The schedule after delaying (positive) or expediting (negative) events.

    Serial: the named event and every later one move by the same amount.
    Parallel: only the named event's start moves; everything that depends on it
    is recomputed, so a dependent moves only if it was what held it back.
    """
    g = dependencies(scenario, graph)
    current = base or earliest_schedule(scenario, g, origin=origin)
    forced: dict[int, int] = {}
    # Several shifts compose in list order, each relative to the schedule the
    # earlier ones produced (so in serial mode they add up downstream).
    for i in sorted(shifts):
        if not 0 <= i < len(scenario.events):
            raise TsolveError(f"shift: no event with index {i}")
        forced[i] = current.start[i] + shifts[i]
        current = earliest_schedule(scenario, g, forced=forced, origin=origin)
    return current
