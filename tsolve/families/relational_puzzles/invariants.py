"""The invariants ``tsolve stress`` checks on every generated relational puzzle."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tsolve.generators.record_checks import Violations, round_trip, same_record

Record = dict[str, Any]


def relational_invariants(rec: Record, seed: int, index: int, cfg: Any) -> Violations:
    """The count is exactly the target and the status complete/unsat; a second
    backend (and the enumerator, when the domain is small enough for it) finds
    the same answers; every gold tuple satisfies every fact; the hidden seed
    tuple is among the answers; the graph is the relation tree with its depth;
    the record regenerates to the same bytes and survives a JSON round trip."""
    import networkx as nx

    from tsolve.families.relational_puzzles.generate import generate_relational_puzzle
    from tsolve.families.relational_puzzles.solve import (
        problem_of,
        relational_from_record,
        solve_relational_record,
    )
    from tsolve.solver import get_backend
    from tsolve.solver.enumerator import MAX_PRODUCT

    out: Violations = []
    same_record(generate_relational_puzzle(seed, index, cfg), rec, out)
    round_trip(rec, out)
    target = cfg.target(index)
    if rec["solution_count"] != target or len(rec["answers"]) != target:
        out.append(("count", f"{rec['solution_count']} answers, target {target}"))
    if rec["solver"]["status"] != ("complete" if target else "unsat"):
        out.append(("status", f"gold status {rec['solver']['status']!r}"))
    puzzle = relational_from_record(rec)
    others = ["z3" if cfg.backend == "cpsat" else "cpsat"]
    if puzzle.domain.size ** len(puzzle.events) <= MAX_PRODUCT:
        others.append("enumerator")
    for backend in others:
        res = solve_relational_record(rec, backend)
        if res["matches"] is not True:
            out.append(("backends", f"{backend} finds {res['answers']}, gold {rec['answers']}"))
    seeds = rec["generator"]["seed_dates"]
    if puzzle.asked is None:
        full = problem_of(puzzle)
        for t in rec["answers"]:
            env = {e.var: dt.date.fromisoformat(d).toordinal()
                   for e, d in zip(puzzle.events, t, strict=True)}  # fmt: skip
            if not all(get_backend("cpsat").check(full, env)):
                out.append(("gold-holds", f"gold tuple {t} breaks a fact"))
        if target and seeds not in rec["answers"]:
            out.append(("seed", "the hidden seed tuple is not among the answers"))
    elif target:
        k = [e.var for e in puzzle.events].index(puzzle.asked)
        if seeds[k] not in rec["answers"]:
            out.append(("seed", "the asked event's seed date is not among the answers"))
    g = nx.DiGraph()
    g.add_nodes_from(e.var for e in puzzle.events)
    for f in rec["facts"]:
        if "events" in f:
            g.add_edge(f["events"][1], f["events"][0])
    edges = {(e["source"], e["target"]) for e in rec["graph"]["edges"]}
    if (
        edges != set(g.edges)
        or not nx.is_tree(g.to_undirected())
        or rec["graph"]["depth"] != nx.dag_longest_path_length(g)
    ):
        out.append(("graph", "the graph is not the relation tree with its depth"))
    return out
