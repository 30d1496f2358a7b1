"""The temporal dependency graph of a plan and its earliest-start schedules.

Nodes are event indices; an edge ``u -> v`` means "u must finish before v
starts" (``start(v) >= end(u) + gap``). Because every edge points forward in
the list, list order is a topological order and the earliest-start schedule is
one forward pass (a longest-path computation), which is what makes answering
thousands of questions a second cheap. :mod:`tsolve.families.logistics.schedule_cpsat`
solves the same graph as a CP-SAT model so the tests can hold the two equal.

Serial execution is a chain in list order. With stated times (easy, medium) the
chain edges carry the stated gaps, so a delay or expedite moves the named event
and every later one by the same amount, as the serial domain description says.

Parallel execution follows the rules stated in the benchmark's parallel domain
description, made precise as follows:

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

The text states that several packages can be loaded or unloaded at once, not
how the members of such a group are timed. Three *timings* read it
(:data:`TIMINGS`; ``docs/logistics.md`` gives the split-1 label counts that
made ``together`` the default):

* ``together`` (rule 3 above): members start together, each package's next
  step follows the end of its own step, each member is busy until the group ends;
* ``own-step``: each member starts as soon as its own package, the vehicle and
  the stop allow, is busy until its own step ends, and its next step follows
  that end: the group is only "several steps at once";
* ``group-end``: members start together, are busy until the group ends, and
  each package's next step follows the end of the whole group.

What every timing shares (the rules a proof may cite) is ``own-step``'s
predecessor set: a package's own previous step, the vehicle's arrival, the
vehicle's earlier steps of the other kind at the stop (unloading before
loading, never both at once), and a move after every step at its stop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from operator import itemgetter

import networkx as nx

from tsolve.errors import TsolveError
from tsolve.families.logistics.model import (
    DEFAULT_TIMING,
    TIMINGS,
    Dependencies,
    Event,
    Scenario,
    Timing,
)

_DURATION = itemgetter(4)  # Event.duration, read in bulk (the schedule's hot loop)
_STATED_START = itemgetter(9)  # Event.start


def batches(events: tuple[Event, ...]) -> tuple[int, ...]:
    """Batch id of every event (rule 3): consecutive loads (or unloads) on the
    same vehicle share an id; every other event is a batch of its own."""
    out: list[int] = []
    prev: tuple[str, str, str | None] | None = None  # (kind, vehicle, location) before
    for i, (_i, kind, vehicle, _vt, _dur, _pkg, location, _o, _d, _s) in enumerate(events):
        here = (kind, vehicle, location)
        out.append(out[-1] if kind != "move" and here == prev else i)
        prev = here
    return tuple(out)


def dependencies_of(scenario: Scenario, timing: Timing = DEFAULT_TIMING) -> Dependencies:
    """The dependencies under ``timing`` (a serial plan has one timing:
    its steps never run together, so every timing gives the same chain)."""
    if timing not in TIMINGS:
        raise TsolveError(f"timing: expected one of {', '.join(TIMINGS)}, got {timing!r}")
    events = scenario.events
    if scenario.execution == "serial":
        preds: list[tuple[tuple[int, int], ...]] = [()]
        preds += [((a.index, _stated_gap(a, b)),) for a, b in pairwise(events)]
        return Dependencies(tuple(preds), tuple(range(len(events))), "serial", timing)
    return Dependencies(*_parallel_preds(events, timing), "parallel", timing)


def dependencies_from_graph(g: nx.DiGraph, execution: str) -> Dependencies:
    n = g.number_of_nodes()
    preds = tuple(tuple(sorted((u, d["gap"]) for u, d in g.pred[i].items())) for i in range(n))
    groups = tuple(g.nodes[i]["busy_group"] for i in range(n))
    return Dependencies(preds, groups, execution, g.graph.get("timing", DEFAULT_TIMING))


def dependencies(
    scenario: Scenario,
    graph: nx.DiGraph | Dependencies | None = None,
    timing: Timing | None = None,
) -> Dependencies:
    """The dependencies of ``scenario``, reusing ``graph`` when given, else the
    ones the scenario carries (:attr:`Scenario.dependencies`, built under the
    default timing), else built now; ``timing`` asks for that timing's (a
    ``graph`` of another timing is then not reused).

    Callers that walk them several times (a what-if question) ask once and
    pass the result down as ``graph``.
    """
    if isinstance(graph, Dependencies) and (timing is None or graph.timing == timing):
        return graph
    if graph is not None and not isinstance(graph, Dependencies):
        return dependencies_from_graph(graph, scenario.execution)
    want = timing or DEFAULT_TIMING
    cached = scenario.dependencies
    if cached is not None and cached.timing == want:
        return cached
    return dependencies_of(scenario, want)


def build_graph(scenario: Scenario, timing: Timing = DEFAULT_TIMING) -> nx.DiGraph:
    """The dependency DAG of ``scenario`` under its execution mode, as a
    networkx DiGraph.

    Node attributes: ``duration``, ``batch`` (the run of consecutive loads or
    unloads it belongs to), ``busy_group`` (the events it stays busy with:
    its batch, or itself under ``own-step``). Edge attribute ``gap``: extra
    minutes required between the end of ``u`` and the start of ``v``
    (stated-time serial lists keep their stated gaps; everything else is 0).
    """
    deps = dependencies_of(scenario, timing)
    runs = batches(scenario.events) if scenario.execution == "parallel" else deps.batch
    g = nx.DiGraph(timing=timing)
    g.add_nodes_from(
        (i, {"duration": e.duration, "batch": runs[i], "busy_group": deps.batch[i]})
        for i, e in enumerate(scenario.events)
    )
    g.add_edges_from((u, v, {"gap": gap}) for u, v, gap in deps.edges())
    return g


def _stated_gap(a: Event, b: Event) -> int:
    if a.start is not None and b.start is not None:
        return b.start - (a.start + a.duration)
    return 0


def _parallel_preds(
    events: tuple[Event, ...], timing: Timing = DEFAULT_TIMING
) -> tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]]:
    """Rule 3's predecessors and the busy groups (the batch ids :func:`batches`
    defines; each event its own group under ``own-step``), in one pass over
    the list: a batch is a run of consecutive entries, so it is read whole at
    its first member. ``timing`` is read as the module docstring says."""
    together = timing != "own-step"
    after_group = timing == "group-end"
    n = len(events)
    zero_gap = [(u, 0) for u in range(n)].__getitem__  # u -> the edge (u, gap 0)
    preds: list[tuple[tuple[int, int], ...]] = [()] * n
    bid = list(range(n))
    last_move: dict[str, int] = {}  # vehicle -> index of its latest move so far
    # vehicle -> its loads / unloads at its current stop (members of its batches there)
    at_stop: dict[str, tuple[list[int], list[int]]] = {}
    # package -> the steps its next step waits for: its latest step so far
    # (with that step's whole batch under group-end)
    last_of_package: dict[str | None, tuple[int, ...]] = {}
    i = 0
    while i < n:
        _i, kind, v, _vt, _dur, _pkg, loc, _o, _d, _s = events[i]
        lm = last_move.get(v)
        found = set() if lm is None else {lm}
        if kind == "move":
            loads, unloads = at_stop.pop(v, ((), ()))
            found.update(loads, unloads)
            preds[i] = tuple(map(zero_gap, sorted(found)))
            last_move[v] = i
            i += 1
            continue
        j = i + 1
        while j < n and (e := events[j])[1] == kind and e[2] == v and e[6] == loc:
            bid[j] = i
            j += 1
        loads, unloads = at_stop.setdefault(v, ([], []))
        own, other = (loads, unloads) if kind == "load" else (unloads, loads)
        found.update(other)  # every earlier batch of the other kind at this stop
        batch = events[i:j]
        if together:
            for e in batch:  # each member package's previous event
                found.update(last_of_package.get(e[5], ()))
            # Everything found comes before i, so no member is its own predecessor.
            edge = tuple(map(zero_gap, sorted(found)))
            for e in batch:
                preds[e[0]] = edge
        else:
            for e in batch:
                mine = found.union(last_of_package.get(e[5], ()))
                preds[e[0]] = tuple(map(zero_gap, sorted(mine)))
        group = tuple(range(i, j))
        for e in batch:
            last_of_package[e[5]] = group if after_group else (e[0],)
        own.extend(range(i, j))
        i = j
    # Every predecessor was gathered from earlier list entries, so each edge
    # points forward and list order is a topological order (no cycle check needed).
    return tuple(preds), tuple(range(n)) if not together else tuple(bid)


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
    events = scenario.events
    n = len(events)
    start = [0] * n
    end = [0] * n
    serial = scenario.execution == "serial"
    preds = deps.preds
    duration = list(map(_DURATION, events))
    stated = list(map(_STATED_START, events))
    for i in range(n):
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
            st = stated[i]
            if st is not None and (st > s or not ps) and (not serial or i == 0):
                s = st  # a stated start releases the event no earlier than stated
        start[i] = s
        end[i] = s + duration[i]
    if serial:
        busy = end
    else:  # each member of a batch is busy until the batch's longest member ends
        last: dict[int, int] = {}
        for b, t in zip(deps.batch, end, strict=True):
            if last.get(b, t) <= t:
                last[b] = t
        busy = [last[b] for b in deps.batch]
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
