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
import re
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


def test_every_moved_name_is_still_importable_from_its_old_module() -> None:
    """Each ``module:name`` of the renamed-names table resolves, from the old
    module, to the very object the new place holds (a module that lost a
    name needs a ``__getattr__`` that asks the table)."""
    import importlib
    import warnings

    from tsolve.compat.moved_names import MOVED_NAMES

    for old, new in MOVED_NAMES.items():
        old_module, old_name = old.split(":")
        new_module, new_name = new.split(":")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = getattr(importlib.import_module(old_module), old_name)
        assert got is getattr(importlib.import_module(new_module), new_name), old


# ------------------------------------------------------------------ family names


def _builtin_family_names() -> list[str]:
    """The built-in families, as the registry's list names their folders
    (``time_puzzles`` -> ``time-puzzles``)."""
    from tsolve.contract.registry import BUILTIN

    return [ref.split(":")[0].split(".")[2].replace("_", "-") for ref in BUILTIN]


#: Families whose name is also an ordinary English word: in prose only the
#: upper-case name counts (``SPAN``), in an identifier only as its first part
#: (``span_probes``, ``SPAN_FAMILY``; a variable ``span`` is a span).
_ORDINARY_WORDS = ("span",)

_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:[-_.:/][A-Za-z0-9]+)+")
_WORD = re.compile(r"[A-Za-z0-9]+")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _contains(parts: list[str], name: list[str]) -> bool:
    return any(parts[i : i + len(name)] == name for i in range(len(parts) - len(name) + 1))


def _names_in_string(text: str, families: list[str]) -> set[str]:
    found = set()
    for family in families:
        name = family.split("-")
        whole = text.strip().lower().replace("_", "-")
        if whole == family:
            found.add(family)
            continue
        for token in _COMPOUND.findall(text):  # paths, ids, hyphenated words
            if _contains(re.split(r"[-_.:/]", token.lower()), name):
                found.add(family)
        if len(name) == 1:  # a single word in prose
            for word in _WORD.findall(text):
                ordinary = family in _ORDINARY_WORDS
                if (word == family.upper()) if ordinary else (word.lower() == family):
                    found.add(family)
    return found


def _names_in_identifier(ident: str, families: list[str]) -> set[str]:
    parts = [p for p in ident.lower().split("_") if p]
    found = set()
    for family in families:
        name = family.split("-")
        if family in _ORDINARY_WORDS:
            if (len(parts) > 1 and parts[0] == family) or ident.strip("_") == family.upper():
                found.add(family)
        elif _contains(parts, name):
            found.add(family)
    return found


def family_names_in(path: Path, families: list[str]) -> list[tuple[int, str, str]]:
    """Where ``path`` names a family: ``(line, family, what)`` for each string
    constant that is not a docstring (a docstring may give an example), name,
    attribute, argument, definition and import path that does."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        strings: list[str] = []
        idents: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs:
                strings.append(node.value)
        elif isinstance(node, ast.Name):
            idents.append(node.id)
        elif isinstance(node, ast.Attribute):
            idents.append(node.attr)
        elif isinstance(node, ast.arg):
            idents.append(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            idents.append(node.name)
        elif isinstance(node, ast.keyword) and node.arg:
            idents.append(node.arg)
        elif isinstance(node, ast.alias):
            strings.append(node.name)
            idents.extend([node.asname] if node.asname else [])
        elif isinstance(node, ast.ImportFrom) and node.module:
            strings.append(node.module)
        line = getattr(node, "lineno", 0)
        for text in strings:
            out.extend((line, f, repr(text)[:60]) for f in sorted(_names_in_string(text, families)))
        for ident in idents:
            out.extend((line, f, ident) for f in sorted(_names_in_identifier(ident, families)))
    return out


#: Modules that name families by design: the registry's list of built-ins and
#: the deprecation table (old module paths -> their homes in the family folders).
#: ``datasets/citation.py``: tsolve's own abstract, which names what it
#: generates and is held equal to ``CITATION.cff``.
NAMES_FAMILIES_BY_DESIGN = ("contract/registry.py", "compat/__init__.py", "compat/moved_names.py",
                            "datasets/citation.py")  # fmt: skip

#: Modules outside ``tsolve/families/`` that may still name a built-in family.
#: Empty, and it must stay so: a cross-family module asks its families
#: through the contract (the test fails for a listed module that no longer
#: names one, so the list cannot go stale).
STILL_NAMING_A_FAMILY: tuple[str, ...] = ()


def _modules_naming_families() -> dict[str, list[tuple[int, str, str]]]:
    families = _builtin_family_names()
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("families/") and rel != "families/__init__.py":
            continue
        if rel in NAMES_FAMILIES_BY_DESIGN:
            continue
        found = family_names_in(path, families)
        if found:
            out[rel] = found
    return out


def test_no_module_outside_the_families_names_one() -> None:
    """Every cross-family command asks the family through the contract: no
    module outside ``tsolve/families/`` (and the registry's list) names a
    built-in family, except the ones still listed in
    :data:`STILL_NAMING_A_FAMILY`, and a listed one that no longer does comes
    off the list."""
    found = _modules_naming_families()
    new = {m: hits[:5] for m, hits in found.items() if m not in STILL_NAMING_A_FAMILY}
    assert not new, "modules name a family:\n" + "\n".join(f"{m}: {h}" for m, h in new.items())
    stale = [m for m in STILL_NAMING_A_FAMILY if m not in found]
    assert not stale, f"no longer name a family, take them off the list: {stale}"


def test_the_family_name_check_finds_each_way_of_naming_one(tmp_path: Path) -> None:
    families = ["time-puzzles", "span", "logistics"]
    source = tmp_path / "m.py"
    source.write_text(
        '"""A docstring may say time-puzzles or SPAN."""\n'
        "from tsolve.families.logistics.score import x\n"
        "import tsolve.families.time_puzzles.cli\n"
        'LOOKUP = {"span": 1}\n'
        "SPAN_FAMILY = 2\n"
        "def _time_puzzles_rows(span): return span\n"
        'HELP = "these are SPAN questions; the time span of a logistics plan"\n',
        encoding="utf-8",
    )
    hits = {(line, family) for line, family, _what in family_names_in(source, families)}
    assert hits == {(2, "logistics"), (3, "time-puzzles"), (4, "span"), (5, "span"),
                    (6, "time-puzzles"), (7, "span"), (7, "logistics")}  # fmt: skip
