"""The layout's rules, checked on the source (docs/architecture.md).

* Engine layers never import a concrete family: a family registers into the
  engine through :mod:`tsolve.contract` (the family contract, registry and
  plug-in adapter), never the other way round.
* No family imports another family: families meet only through the contract
  (the registry, or the command line), as a plug-in family would have to.
* No import circle between two modules, and none between two folders, so
  every folder sits on one floor and every import points down.
* At most four loose modules at the package root.

Imports are read with :mod:`ast`, including the ones inside functions (a lazy
import is still a dependency), but not ``TYPE_CHECKING`` blocks' absence: a
type-only import is an arrow too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tsolve"
ENGINE = ("solver", "encodings", "calendars", "verifiers", "generators", "records", "engines",
          "datasets")  # fmt: skip


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The tsolve modules ``path`` imports (a ``from package import module``
    counts as the module)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("tsolve"):
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in known else node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("tsolve"))
    return out


def _graph() -> nx.DiGraph:
    known = _modules()
    g = nx.DiGraph()
    for name, path in known.items():
        g.add_node(name)
        for target in _imports(path, known):
            if target in known and target != name:
                g.add_edge(name, target)
    return g


def _room(module: str, known: dict[str, Path]) -> str:
    """The room a module is in: its top-level folder under ``tsolve/`` (or the
    root file itself), except that each family folder is a room of its own."""
    parts = known[module].relative_to(PACKAGE).parts
    if parts[0] == "families" and len(parts) > 2:
        return f"families/{parts[1]}"
    return parts[0]


def test_engine_layers_import_no_concrete_family() -> None:
    g = _graph()
    bad = [
        f"{a} -> {b}"
        for a, b in g.edges
        if a.split(".")[1:2] and a.split(".")[1] in ENGINE
        and b.startswith("tsolve.families.")
    ]  # fmt: skip
    assert not bad, "engine layers import a family:\n" + "\n".join(bad)


def test_no_family_imports_another_family() -> None:
    known = _modules()
    bad = [
        f"{a} -> {b}"
        for a, b in _graph().edges
        if _room(a, known).startswith("families/")
        and _room(b, known).startswith("families/")
        and _room(a, known) != _room(b, known)
    ]
    assert not bad, "a family imports another family:\n" + "\n".join(bad)


def test_no_import_circle_between_modules() -> None:
    cycles = [sorted(c) for c in nx.strongly_connected_components(_graph()) if len(c) > 1]
    assert not cycles, f"import circles: {cycles}"


def test_no_import_circle_between_folders() -> None:
    """Every folder (and every family folder) on one floor: the folders'
    import graph has no circle, so no import runs back up."""
    known = _modules()
    rooms = nx.DiGraph()
    for a, b in _graph().edges:
        ra, rb = _room(a, known), _room(b, known)
        if ra != rb:
            rooms.add_edge(ra, rb)
    cycles = [sorted(c) for c in nx.strongly_connected_components(rooms) if len(c) > 1]
    assert not cycles, f"folders import each other: {cycles}"


def test_at_most_four_loose_modules_at_the_root() -> None:
    loose = sorted(
        p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert len(loose) <= 4, loose


@pytest.mark.parametrize("family", ["time_puzzles", "relational_puzzles", "span", "logistics",
                                    "tempo", "tictoc"])  # fmt: skip
def test_every_builtin_family_is_one_folder_with_its_registration(family: str) -> None:
    folder = PACKAGE / "families" / family
    assert (folder / "family.py").is_file() and (folder / "__init__.py").is_file()
    registry = (PACKAGE / "contract" / "registry.py").read_text(encoding="utf-8")
    assert f'"tsolve.families.{family}.family:FAMILY"' in registry


def test_old_module_paths_still_import_as_the_new_modules() -> None:
    import importlib
    import warnings

    from tsolve.compat import OLD_PATHS

    for old, new in OLD_PATHS.items():
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            module = importlib.import_module(old)
        assert module is importlib.import_module(new), old
        assert module.__spec__ is not None and module.__spec__.name == new, old
        del seen  # imported before in this process: no second warning is owed
