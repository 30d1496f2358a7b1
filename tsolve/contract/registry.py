"""The one registry of task families: built-in ones and other packages' ones.

Built-in families are the :data:`BUILTIN` references below. Other packages
add families through the ``tsolve.families`` entry-point group, without
editing tsolve (``docs/extending.md``)::

    [project.entry-points."tsolve.families"]
    toy = "toy_family:FAMILY"

The entry point names an object with ``name``, ``generate(seed, index,
params)`` and ``score(record, output)`` (the minimal contract, adapted by
:mod:`tsolve.contract.plugin`), or a full :class:`Family`.

Entry points are read only when a name is not a built-in one, or when every
family is listed: importing :mod:`importlib.metadata` and scanning the
installed distributions costs ~35 ms, which ``tsolve --help`` and every
built-in run would otherwise pay.

The registry's state is :data:`REGISTRY`, a named object: the families loaded
so far and the entry points that failed to load (with why). It never goes
stale within a process, because installing a package does not change a running
interpreter's entry points; a test that registers a temporary family removes
it again with :func:`unregister_family` (or uses :func:`temporary_family`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tsolve.contract.family import Family, Lazy, Record
from tsolve.errors import TsolveError

#: The built-in families, in the order ``tsolve families`` lists them and the
#: CLI registers their commands. Adding a built-in family is one line here.
BUILTIN: tuple[str, ...] = (
    "tsolve.families.time_puzzles.family:FAMILY",
    "tsolve.families.relational_puzzles.family:FAMILY",
    "tsolve.families.span.family:FAMILY",
    "tsolve.families.logistics.family:FAMILY",
    "tsolve.families.tempo.family:FAMILY",
    "tsolve.families.tictoc.family:FAMILY",
)

ENTRY_POINT_GROUP = "tsolve.families"


@dataclass
class Registry:
    """The families of this process, by name, and the entry points that failed.

    ``families`` fills in two steps: the built-ins on first use, then (once,
    when needed) the entry points. ``broken`` maps an entry point's name to the
    one-line reason it could not be loaded; such a family is listed by
    ``tsolve families`` and refused by name, and the others are unaffected."""

    families: dict[str, Family] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)
    builtins_loaded: bool = False
    entry_points_loaded: bool = False

    def load_builtins(self) -> None:
        if self.builtins_loaded:
            return
        self.builtins_loaded = True
        for ref in BUILTIN:
            family = Lazy(ref).get()
            self._add(family)

    def load_entry_points(self) -> None:
        """Read the ``tsolve.families`` entry points (once per process)."""
        if self.entry_points_loaded:
            return
        self.entry_points_loaded = True
        from importlib.metadata import entry_points

        from tsolve.contract.plugin import adapt

        for ep in entry_points(group=ENTRY_POINT_GROUP):
            dist = getattr(getattr(ep, "dist", None), "name", None) or "?"
            origin = f"{dist} (entry point {ep.name} = {ep.value})"
            try:
                family = adapt(ep.load(), origin)
                if family.name != ep.name:
                    raise TsolveError(f"its object is named {family.name!r}, not {ep.name!r}")
                if family.name in self.families:
                    raise TsolveError(
                        f"{family.name!r} is already {self.families[family.name].origin}"
                    )
            except Exception as exc:  # a broken plugin must not break tsolve
                self.broken[ep.name] = f"{origin}: {type(exc).__name__}: {exc}"
                continue
            self._add(family)

    def _add(self, family: Family) -> None:
        if family.name in self.families:
            raise TsolveError(f"family: {family.name!r} registered twice")
        self.families[family.name] = family


#: The process's family registry (see :class:`Registry`).
REGISTRY = Registry()


def _key(name: object) -> str:
    return str(name).strip().lower().replace("_", "-")


def get_family(name: str, need: str | None = None) -> Family:
    """The family called ``name`` (``time-puzzles``, ``span``, ...).

    With ``need`` (``"generate"``, ``"score"``, ``"audit"``, ...), also check
    that the family has that part and that its code is installed, so a caller
    fails with one line before any work starts."""
    REGISTRY.load_builtins()
    key = _key(name)
    family = REGISTRY.families.get(key)
    if family is None:
        REGISTRY.load_entry_points()
        family = REGISTRY.families.get(key)
    if family is None:
        if key in REGISTRY.broken:
            raise TsolveError(f"family: {name!r} could not be loaded: {REGISTRY.broken[key]}")
        known = ", ".join(REGISTRY.families) or "none"
        raise TsolveError(f"family: unknown family {name!r} (known: {known})")
    if need is not None:
        family.require(need)
    return family


def all_families(include_entry_points: bool = True) -> list[Family]:
    """Every registered family: the built-ins in :data:`BUILTIN` order, then
    the entry points' in the order they were found."""
    REGISTRY.load_builtins()
    if include_entry_points:
        REGISTRY.load_entry_points()
    return list(REGISTRY.families.values())


def builtin_families() -> list[Family]:
    """The built-in families only: no entry-point scan (see the module docstring)."""
    REGISTRY.load_builtins()
    return [f for f in REGISTRY.families.values() if f.origin == "built-in"]


def family_names(part: str | None = None) -> list[str]:
    """Names of the families that have ``part`` (all when ``None``)."""
    return [f.name for f in all_families() if part is None or getattr(f, part) is not None]


def register_family(family: Family) -> Family:
    """Add ``family`` to this process's registry (tests, notebooks). Packages
    use the entry-point group instead, so every process sees them."""
    REGISTRY.load_builtins()
    REGISTRY._add(family)
    return family


def unregister_family(name: str) -> None:
    """Remove a family added with :func:`register_family`."""
    REGISTRY.families.pop(_key(name), None)


@contextlib.contextmanager
def temporary_family(family: Family) -> Iterator[Family]:
    """``family`` registered for the duration of a ``with`` block."""
    register_family(family)
    try:
        yield family
    finally:
        unregister_family(family.name)


def family_of(record: Record) -> str:
    """The family of a task record: its ``family`` field, or, for benchmark
    items that have none (UnSeenTimeQA's), the first family whose
    ``recognise`` hook accepts it. Routes records for ``verify`` and ``audit``."""
    fam = record.get("family")
    if isinstance(fam, str):
        return fam
    for family in builtin_families():
        if family.recognise is not None and family.recognise(record):
            return family.name
    if "family" in record:  # there, but not a name: say so, not "no 'family' field"
        from tsolve.records.validation import shown

        raise TsolveError(
            f"record {record.get('id')!r}: family: expected a family name, got {shown(fam)}"
        )
    raise TsolveError(f"record {record.get('id')!r}: cannot tell its family (no 'family' field)")


def record_solver(record: object, besides: str | None = None) -> Callable[..., Any] | None:
    """The ``solve`` part of the family ``record`` belongs to (:func:`family_of`),
    or None when no family claims the record, its family declares no solver,
    or its family is ``besides`` (the caller's own, which reads the record
    itself). This is how one family's command solves another family's
    records without importing that family."""
    if not isinstance(record, dict):
        return None
    try:
        family = get_family(family_of(record))
    except TsolveError:
        return None
    if family.solve is None or family.name == besides:
        return None
    return family.require("solve")


def describe(family: Family) -> dict[str, Any]:
    """One family as JSON, for ``tsolve families --format json``."""
    try:
        version = family.version_text() if family.available() else ""
    except Exception as exc:  # a family whose version cannot even be read
        version = f"? ({type(exc).__name__})"
    return {
        "name": family.name,
        "version": version,
        "description": family.description,
        "available": family.available(),
        "capabilities": family.capabilities(),
        "options": sorted(family.options),
        "origin": family.origin,
    }
