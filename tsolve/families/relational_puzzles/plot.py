"""A relational puzzle's dependency graph: events as nodes, relations as
labelled edges.

Drawn from the record's ``graph`` field (edges point from the reference event
to the subject, so "B is 36 days after A" is an arrow A -> B labelled
"+36 days"); each node also says how many one-event facts constrain it and,
when the puzzle has exactly one answer, the event's date in it.
Nodes are laid out in layers by their longest distance from a root, left to
right, and ordered within each layer to cross as few edges as possible (for
the generator's trees of 2-4 events, none). Each edge label is then placed
where it covers no node and no other label: along its edge first, then
beside it; a graph too dense for that gets short keys on its edges and a
table of what they mean.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tsolve.errors import TsolveError
from tsolve.plots.output import check_out, new_figure, save

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Text
    from matplotlib.transforms import Bbox

#: where along an edge (0 tail, 1 head) a label may sit, most wanted first
_ALONG = (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78)
#: how far off the edge, in pixels, a label may be moved, nearest first
_ASIDE = (0.0, 14.0, -14.0, 28.0, -28.0)
#: brute-force node orders within layers up to this many arrangements
_MAX_ORDERS = 5040


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
    """(layer, slot) per node: layer = longest distance from a root; slots
    ordered within each layer to cross as few edges as possible."""
    preds: dict[str, list[str]] = {n: [] for n in nodes}
    for u, v, _ in edges:
        preds[v].append(u)
    layer: dict[str, int] = {}

    def depth(n: str, seen: frozenset[str] = frozenset()) -> int:
        if n not in layer:
            layer[n] = 1 + max((depth(u, seen | {n}) for u in preds[n] if u not in seen),
                               default=-1)  # fmt: skip
        return layer[n]

    by_layer: dict[int, list[str]] = {}
    for n in nodes:
        by_layer.setdefault(depth(n), []).append(n)
    order = _uncrossed([by_layer[k] for k in sorted(by_layer)], [(u, v) for u, v, _ in edges])
    return {n: (k, slot) for k, names in enumerate(order) for slot, n in enumerate(names)}


def crossings(order: list[list[str]], edges: list[tuple[str, str]]) -> int:
    """How many pairs of edges cross when each layer of ``order`` is a column
    and its nodes sit top to bottom in that order (an edge is a straight line)."""
    where = {n: (k, slot) for k, names in enumerate(order) for slot, n in enumerate(names)}
    segs = [(where[u], where[v]) for u, v in edges if where[u][0] != where[v][0]]
    segs = [(a, b) if a[0] < b[0] else (b, a) for a, b in segs]
    count = 0
    for (a0, a1), (b0, b1) in itertools.combinations(segs, 2):
        lo, hi = max(a0[0], b0[0]), min(a1[0], b1[0])
        if lo >= hi:
            continue
        # compare the two lines' heights where both are drawn
        da = [_height(a0, a1, x) - _height(b0, b1, x) for x in (lo, hi)]
        if da[0] * da[1] < 0:
            count += 1
    return count


def _height(p: tuple[int, int], q: tuple[int, int], x: int) -> float:
    return p[1] + (q[1] - p[1]) * (x - p[0]) / (q[0] - p[0])


def _uncrossed(layers: list[list[str]], edges: list[tuple[str, str]]) -> list[list[str]]:
    """The node order within layers with the fewest crossings: every order
    for small graphs, else a few barycentre sweeps (the usual heuristic)."""
    total = 1
    for names in layers:
        for k in range(2, len(names) + 1):
            total *= k
    if total <= _MAX_ORDERS:
        options = itertools.product(*(itertools.permutations(n) for n in layers))
        best = min(options, key=lambda o: crossings([list(x) for x in o], edges))
        return [list(x) for x in best]
    order = [list(n) for n in layers]
    for _ in range(4):
        for k in range(1, len(order)):
            slot = {n: i for i, n in enumerate(order[k - 1])}
            here = {n: i for i, n in enumerate(order[k])}
            centre = {n: _barycentre(n, slot, here, edges) for n in order[k]}
            order[k].sort(key=centre.__getitem__)
    return order


def _barycentre(
    n: str, slot: dict[str, int], here: dict[str, int], edges: list[tuple[str, str]]
) -> float:
    """The mean slot of ``n``'s neighbours in the layer before (its own slot if none)."""
    near = [slot[u] for u, v in edges if v == n and u in slot]
    near += [slot[v] for u, v in edges if u == n and v in slot]
    return sum(near) / len(near) if near else float(here[n])


def draw_relation_graph(graph: RelationGraph, out: str | Path) -> Path:
    """Render ``graph`` to ``out`` (.png or .svg)."""
    path = check_out(out)
    return save(relation_graph_figure(graph), path)


def relation_graph_figure(graph: RelationGraph) -> Figure:
    """The graph as a matplotlib figure, its edge labels clear of each other
    and of the nodes. A label with no free place becomes a short key (or,
    with no room even for that, nothing on the edge), and a table below the
    graph says what each such edge is; the figure is redrawn until the table
    holds every edge that needed it."""
    tabled: frozenset[int] = frozenset()
    while True:
        fig, needed = _figure(graph, tabled)
        if needed <= tabled:
            return fig
        tabled |= needed


def _figure(graph: RelationGraph, tabled: frozenset[int]) -> tuple[Figure, frozenset[int]]:
    """The figure with room for a table of the ``tabled`` edges, and the
    edges whose full label found no free place (the table lists those)."""
    tallest = 1 + max((p[1] for p in graph.position.values()), default=0)
    xy = {n: (3.0 * layer, -1.6 * slot + 0.8 * (tallest - 1) * 1.0)
          for n, (layer, slot) in graph.position.items()}  # fmt: skip
    bend = _bends(graph)
    # the drawing's extent: the nodes, and how far the bowed edges swing out
    xs = [p[0] for p in xy.values()]
    ys = [p[1] for p in xy.values()]
    for (u, v, _label), rad in zip(graph.edges, bend, strict=True):
        (x0, y0), (x1, y1) = xy[u], xy[v]
        # the arc's apex (arc3's control point is halfway out, the scales about equal)
        xs.append((x0 + x1) / 2 + rad * (y1 - y0) / 2)
        ys.append((y0 + y1) / 2 - rad * (x1 - x0) / 2)
    x_lim = (min(xs) - 1.5, max(xs) + 1.5)
    y_lim = (min(ys) - 1.0, max(ys) + 1.0)
    inch = 1.13  # data units are drawn about this many inches long, both ways
    height = max(3.0, inch * (y_lim[1] - y_lim[0]) + 0.6)
    table_h = 0.2 * len(tabled) + 0.3 if tabled else 0.0
    fig = new_figure(max(6.0, inch * (x_lim[1] - x_lim[0])), height + table_h)
    if tabled:
        grid = fig.add_gridspec(2, 1, height_ratios=[height, table_h])
        ax, legend = fig.add_subplot(grid[0]), fig.add_subplot(grid[1])
        legend.set_axis_off()
    else:
        ax, legend = fig.add_subplot(), None
    box = {"boxstyle": "round,pad=0.5", "facecolor": "#dbe7f3", "edgecolor": "#4c78a8"}
    nodes = {}
    for n, label in graph.nodes:
        nodes[n] = ax.text(*xy[n], label, ha="center", va="center", fontsize=10, bbox=box,
                           zorder=3)  # fmt: skip
    for (u, v, _label), rad in zip(graph.edges, bend, strict=True):
        (x0, y0), (x1, y1) = xy[u], xy[v]
        # patchA/patchB clip the arrow at the node boxes, so its head stays visible
        ax.annotate("", (x1, y1), (x0, y0), zorder=2, arrowprops={
            "arrowstyle": "-|>", "color": "#555555", "linewidth": 1.4,
            "patchA": nodes[u].get_bbox_patch(), "patchB": nodes[v].get_bbox_patch(),
            "shrinkA": 3, "shrinkB": 3, "mutation_scale": 18,
            "connectionstyle": f"arc3,rad={rad}"})  # fmt: skip
    ax.set_xlim(*x_lim)
    ax.set_ylim(*y_lim)
    ax.set_axis_off()
    ax.set_title(graph.title, fontsize=11, loc="left")
    import numpy as np

    fig.canvas.draw()  # settle the layout, then freeze it: placement is in pixels
    fig.set_layout_engine("none")
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    taken = [_extent(t, renderer) for t in nodes.values()]
    frame = ax.get_window_extent(renderer)
    curves = [_curve(ax, (xy[u], xy[v], rad))
              for (u, v, _label), rad in zip(graph.edges, bend, strict=True)]  # fmt: skip
    needed = set()
    for k, (_u, _v, label) in enumerate(graph.edges):
        rest = [c[0] for j, c in enumerate(curves) if j != k]
        others = np.concatenate(rest) if rest else np.empty((0, 2))
        for shown in (label, _key(k)):
            text = ax.text(0, 0, shown, ha="center", va="center", fontsize=9, color="#333333",
                           zorder=4, gid="edge-label",
                           bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})  # fmt: skip
            spot = _free_spot(ax, text, curves[k], others, taken, frame, renderer)
            if spot is not None:
                taken.append(spot)
                break
            text.remove()
        if shown != label or spot is None:
            needed.add(k)
    if legend is not None:
        lines = [_table_line(graph, k) for k in sorted(tabled)]
        legend.text(0.0, 1.0, "\n".join(lines), transform=legend.transAxes, ha="left",
                    va="top", fontsize=9, color="#333333")  # fmt: skip
    return fig, frozenset(needed)


def _bends(graph: RelationGraph) -> list[float]:
    """Per edge, how much its arrow bows (matplotlib's ``arc3`` ``rad``): an
    edge between neighbouring layers is straight; one that skips a layer or
    stays in one bows, alternately up and down, so it passes beside the nodes
    and edges it would otherwise run over."""
    out = []
    for k, (u, v, _label) in enumerate(graph.edges):
        step = graph.position[v][0] - graph.position[u][0]
        out.append(0.0 if abs(step) == 1 else (0.35 if k % 2 == 0 else -0.35))
    return out


def _curve(ax: Axes, edge: tuple[tuple[float, float], tuple[float, float], float]) -> Any:
    """The edge as drawn, in pixels: ``(points, chord normal)``, the points
    along arc3's quadratic curve (straight when ``rad`` is 0)."""
    import numpy as np

    tail, head, rad = edge
    p0 = ax.transData.transform(tail)
    p1 = ax.transData.transform(head)
    d = p1 - p0
    control = (p0 + p1) / 2 + rad * np.array([d[1], -d[0]])  # as matplotlib computes it
    t = np.linspace(0.0, 1.0, 121)[:, None]
    points = (1 - t) ** 2 * p0 + 2 * (1 - t) * t * control + t**2 * p1
    return points, np.array([-d[1], d[0]]) / (float(np.hypot(*d)) or 1.0)


def _free_spot(
    ax: Axes,
    text: Text,
    curve: Any,
    others: Any,
    taken: list[Bbox],
    frame: Bbox,
    renderer: Any,
) -> Bbox | None:
    """Move ``text`` to the first spot along (or beside) its edge's ``curve``
    where its box meets none of ``taken`` and stays inside ``frame``, sitting
    on no other edge (the points ``others``) if such a spot exists; its box,
    or None."""
    points, normal = curve
    to_data = ax.transData.inverted()
    fallback = None
    for aside in _ASIDE:
        for t in _ALONG:
            at = points[round(t * (len(points) - 1))] + aside * normal
            text.set_position(tuple(to_data.transform(at)))
            extent = _extent(text, renderer)
            inside = frame.x0 <= extent.x0 and extent.x1 <= frame.x1 and (
                frame.y0 <= extent.y0 and extent.y1 <= frame.y1)  # fmt: skip
            if not inside or any(extent.overlaps(b) for b in taken):
                continue
            if not extent.count_contains(others):
                return extent
            if fallback is None:
                fallback = (tuple(at), extent)
    if fallback is None:
        return None
    text.set_position(tuple(to_data.transform(fallback[0])))
    return fallback[1]


def _extent(text: Text, renderer: Any) -> Bbox:
    """The text's box in pixels, its background patch included."""
    patch = text.get_bbox_patch()
    if patch is None:
        return text.get_window_extent(renderer)
    text.update_bbox_position_size(renderer)
    return patch.get_window_extent(renderer)


def _key(k: int) -> str:
    """Edge keys a, b, ..., z, aa, ab, ...: short enough to fit on a dense graph."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[k] if k < 26 else letters[k // 26 - 1] + letters[k % 26]


def _table_line(graph: RelationGraph, k: int) -> str:
    """The table's line for edge ``k``: its key, its ends and its label."""
    name = {n: label.split("\n", 1)[0] for n, label in graph.nodes}
    u, v, label = graph.edges[k]
    return f"{_key(k)}: {name[u]} → {name[v]}: {label}"
