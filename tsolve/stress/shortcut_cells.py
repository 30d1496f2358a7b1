"""The configurations ``tsolve stress --shortcuts`` probes: one *cell* per
setting of the generator a user can ask for.

A shortcut that pays only in some configurations is still a shortcut: a
logistics policy that reads the event in progress scores nothing on hard
serial static items and most of the time on easy ones. The probes therefore
run cell by cell, each cell being a set of generator options. A family
declares its cells through the family contract
(:attr:`tsolve.contract.family.Family.shortcut_cells`: cell name -> options);
a family that declares none has one cell, ``default``, made with the
adversarial suite's options (:func:`tsolve.stress.adversarial.generate_records`).
The engine never names a family's options itself.

Within a cell, record ``i`` of run ``seed`` is the generator's record ``i``
with the cell's options (and the adversarial suite's defaults for the family
beneath them), so a cell's records are a function of ``(seed, i, options)``
like any other run's.

Per-cell bounds are noisy when cells are many and small, so a report also
pools each probe over its family's cells (:func:`pool`): the mean score and
the mean chance, weighted by records, over every cell's records. The bound a
mean of ``n`` records is held to grows as ``1 / sqrt(n)``
(:func:`margin_for`): the same number of standard errors at any size.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.contract import get_family
from tsolve.contract.family import Family, Record, resolve
from tsolve.errors import TsolveError
from tsolve.stress.adversarial import default_options, generate_records

DEFAULT_CELL = "default"
"""The one cell of a family that declares none."""

POOLED = "pooled"
"""The ``cell`` of a probe's result pooled over its family's cells."""

REFERENCE_N = 500
"""The number of records :data:`REFERENCE_MARGIN` is stated for."""

REFERENCE_MARGIN = 0.03
"""How far above chance a probe may score on a mean of :data:`REFERENCE_N`
records: 1.5 standard errors (the sampling noise of such a mean is about 0.02)."""


def margin_for(n: int) -> float:
    """The bound for a mean over ``n`` records: :data:`REFERENCE_MARGIN` at
    :data:`REFERENCE_N`, as many standard errors at any other size."""
    return REFERENCE_MARGIN * math.sqrt(REFERENCE_N / max(n, 1))


@dataclass(frozen=True)
class Cell:
    """One configuration of one family: a name and the generator options."""

    family: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def records(self, n: int, seed: int) -> list[Record]:
        """Records ``0..n-1`` of run ``seed`` in this cell."""
        if self.name == DEFAULT_CELL and not self.options:
            return generate_records(self.family, n, seed)
        fam = get_family(self.family, need="generate")
        config = fam.make_options({**default_options(self.family), **self.options})
        return [fam.make_record(seed, i, config) for i in range(n)]


def cells_for(family: str) -> list[Cell]:
    """Every cell the family called ``family`` declares (:func:`cells_of`)."""
    return cells_of(get_family(family))


def cells_of(fam: Family) -> list[Cell]:
    """Every cell ``fam`` declares (one ``default`` cell when it declares
    none). A declaration that is not a mapping of names to option mappings is
    a one-line error."""
    family = fam.name
    declared = fam.shortcut_cells
    if declared is None:
        return [Cell(family, DEFAULT_CELL)]
    table = resolve(declared)
    table = table() if callable(table) else table
    if not isinstance(table, Mapping) or not table:
        raise TsolveError(f"family: {family!r} declares shortcut cells that are not a mapping")
    cells = []
    for name, options in table.items():
        if not isinstance(name, str) or not isinstance(options, Mapping):
            raise TsolveError(f"family: {family!r} shortcut cell {name!r} is not name -> options")
        cells.append(Cell(family, name, dict(options)))
    return cells


def select_cells(cells: Sequence[Cell], wanted: Sequence[str] | None) -> list[Cell]:
    """``cells`` whose name is in ``wanted`` (all of them when None); an
    unknown name is a one-line error listing the known ones."""
    if wanted is None:
        return list(cells)
    known = {c.name for c in cells}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise TsolveError(
            f"cell: unknown {', '.join(map(repr, unknown))} (cells: {', '.join(sorted(known))})"
        )
    return [c for c in cells if c.name in wanted]


def pool(rows: Sequence[tuple[int, Mapping[str, float]]]) -> dict[str, float]:
    """The record-weighted mean of per-cell means ``(n, {metric: mean})``."""
    total = sum(n for n, _m in rows)
    keys = dict.fromkeys(k for _n, m in rows for k in m)
    return {k: sum(n * m.get(k, 0.0) for n, m in rows) / total if total else 0.0 for k in keys}


__all__ = [
    "DEFAULT_CELL",
    "POOLED",
    "Cell",
    "cells_for",
    "cells_of",
    "margin_for",
    "pool",
    "select_cells",
]
