"""The package's layout as numbers: rooms, floors, arrows, and every room's floor.

docs/architecture.md quotes these; run this after moving modules and update it::

    python benchmarks/layout.py

A room is a top-level folder under ``tsolve/`` (or a root module), except that
each family folder is a room of its own; an arrow is one room importing
another (imports inside functions count, as in ``tests/test_layers.py``, whose
reading of the source this reuses so the two cannot disagree). A room's floor
is one more than the highest floor it imports, so floor 1 imports no other room.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]


def _layers_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "_tsolve_layers", ROOT / "tests" / "test_layers.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def room_graph() -> nx.DiGraph:
    """Rooms and the arrows between them, from the source's imports."""
    layers = _layers_module()
    known = layers._modules()
    rooms = nx.DiGraph()
    for module in known:
        rooms.add_node(layers._room(module, known))
    for a, b in layers._graph().edges:
        ra, rb = layers._room(a, known), layers._room(b, known)
        if ra != rb:
            rooms.add_edge(ra, rb)
    return rooms


def floors(rooms: nx.DiGraph) -> dict[str, int]:
    """Each room's floor (the graph has no circle: tests/test_layers.py)."""
    floor: dict[str, int] = {}
    for room in reversed(list(nx.topological_sort(rooms))):
        floor[room] = 1 + max((floor[t] for t in rooms.successors(room)), default=0)
    return floor


def main() -> int:
    rooms = room_graph()
    floor = floors(rooms)
    top = max(floor.values())
    print(f"{rooms.number_of_nodes()} rooms on {top} floors with {rooms.number_of_edges()} arrows")
    for level in range(top, 0, -1):
        names = sorted(r.removesuffix(".py") for r, f in floor.items() if f == level)
        print(f"{level:3d}  {'  '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
