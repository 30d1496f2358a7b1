"""A relational puzzle's dependency graph: events as nodes, relations as
labelled edges.

Drawn from the record's ``graph`` field (edges point from the reference event
to the subject, so "B is 36 days after A" is an arrow A -> B labelled
"+36 days"); each node also says how many one-event facts constrain it and,
when the puzzle has exactly one answer, the event's date in it.
The graph is a tree, so nodes are laid out in layers by their distance from
a root, left to right, which never crosses edges for the 2-4 events the
generator makes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.output import check_out, new_figure, save


@dataclass(frozen=True)
class RelationGraph:
    """Nodes (id, label) with their (layer, slot) positions, and labelled edges."""

    title: str
    nodes: tuple[tuple[str, str], ...]
    position: Mapping[str, tuple[int, int]]
    edges: tuple[tuple[str, str, str], ...]


def relation_label(kind: str, params: Mapping[str, Any]) -> str:
    """A short edge label for a relation, saying what the arrow's head is
    relative to its tail ("+36 days", "earlier", "same week")."""
    if kind == "days_after":
        return f"{params['days']:+d} days"
    if kind == "weeks_after":
        return f"{params['weeks']:+d} weeks"
    if kind == "days_after_within":
        return f"{params['lo']}-{params['hi']} days {params.get('direction', 'after')}"
    if kind == "earlier":
        return "earlier"
    if kind == "same_period":
        return f"same {params.get('unit', 'period')}"
    words = [kind.replace("_", " ")] + [str(v) for v in params.values()]
    return " ".join(words)


def relation_graph(record: Mapping[str, Any]) -> RelationGraph:
    """The graph of a relational-puzzle record (its ``graph`` and ``facts``)."""
    graph = record.get("graph")
    facts = record.get("facts")
    if not isinstance(graph, dict) or not isinstance(facts, list):
        raise TsolveError(f"record {record.get('id', '?')}: no 'graph' (not a relational puzzle?)")
    unary: dict[str, int] = {}
    for f in facts:
        if isinstance(f, dict) and isinstance(f.get("event"), str):
            unary[f["event"]] = unary.get(f["event"], 0) + 1
    answers = record.get("answers", [])
    only = answers[0] if len(answers) == 1 and isinstance(answers[0], list) else None
    nodes = []
    for k, n in enumerate(graph["nodes"]):
        own = unary.get(n["id"], 0)
        label = f"{n['name']}\n{own} own fact{'s' if own != 1 else ''}"
        if only is not None and k < len(only):
            label += f"\n= {only[k]}"  # the one answer tuple, in event order
        nodes.append((n["id"], label))
    edges = []
    for e in graph["edges"]:
        fact = facts[e["fact"]] if 0 <= e["fact"] < len(facts) else {}  # 0-based
        edges.append((e["source"], e["target"], relation_label(e["kind"], fact.get("params", {}))))
    n_answers = len(record.get("answers", []))
    title = f"{record.get('id', 'puzzle')}: {len(nodes)} events, {n_answers} answer" + (
        "s" if n_answers != 1 else ""
    )
    return RelationGraph(title, tuple(nodes), _layers([n for n, _ in nodes], edges), tuple(edges))


def _layers(nodes: list[str], edges: list[tuple[str, str, str]]) -> dict[str, tuple[int, int]]:
    """(layer, slot) per node: layer = longest distance from a root."""
    preds: dict[str, list[str]] = {n: [] for n in nodes}
    for u, v, _ in edges:
        preds[v].append(u)
    layer: dict[str, int] = {}

    def depth(n: str, seen: frozenset[str] = frozenset()) -> int:
        if n not in layer:
            layer[n] = 1 + max((depth(u, seen | {n}) for u in preds[n] if u not in seen),
                               default=-1)  # fmt: skip
        return layer[n]

    slots: dict[int, int] = {}
    out: dict[str, tuple[int, int]] = {}
    for n in nodes:
        d = depth(n)
        out[n] = (d, slots.get(d, 0))
        slots[d] = slots.get(d, 0) + 1
    return out


def draw_relation_graph(graph: RelationGraph, out: str | Path) -> Path:
    """Render ``graph`` to ``out`` (.png or .svg)."""
    path = check_out(out)
    layers = 1 + max((p[0] for p in graph.position.values()), default=0)
    tallest = 1 + max((p[1] for p in graph.position.values()), default=0)
    fig = new_figure(max(6.0, 3.4 * layers), max(3.0, 1.8 * tallest + 1))
    ax = fig.add_subplot()
    xy = {n: (3.0 * layer, -1.6 * slot + 0.8 * (tallest - 1) * 1.0)
          for n, (layer, slot) in graph.position.items()}  # fmt: skip
    box = {"boxstyle": "round,pad=0.5", "facecolor": "#dbe7f3", "edgecolor": "#4c78a8"}
    patch = {}
    for n, label in graph.nodes:
        text = ax.text(*xy[n], label, ha="center", va="center", fontsize=10, bbox=box, zorder=3)
        patch[n] = text.get_bbox_patch()
    for u, v, label in graph.edges:
        (x0, y0), (x1, y1) = xy[u], xy[v]
        # patchA/patchB clip the arrow at the node boxes, so its head stays visible
        ax.annotate("", (x1, y1), (x0, y0), zorder=2, arrowprops={
            "arrowstyle": "-|>", "color": "#555555", "linewidth": 1.4, "patchA": patch[u],
            "patchB": patch[v], "shrinkA": 3, "shrinkB": 3, "mutation_scale": 18})  # fmt: skip
        ax.text((x0 + x1) / 2, (y0 + y1) / 2 + 0.18, label, ha="center", va="bottom",
                fontsize=9, color="#333333", zorder=4,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})  # fmt: skip
    xs = [p[0] for p in xy.values()]
    ys = [p[1] for p in xy.values()]
    ax.set_xlim(min(xs) - 1.5, max(xs) + 1.5)
    ax.set_ylim(min(ys) - 1.0, max(ys) + 1.0)
    ax.set_axis_off()
    ax.set_title(graph.title, fontsize=11, loc="left")
    return save(fig, path)
