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

Within a cell, run ``seed`` is what ``tsolve dataset make`` writes with the
cell's options (and the adversarial suite's defaults for the family beneath
them): record ``i`` is the generator's record ``i``, and in a family whose
runs are distinct a record that repeats an earlier one's answer is drawn
again (:mod:`tsolve.datasets.distinct`), so the probes read the records a
user gets.

**Training records never share an answer with the evaluated ones.** A
probe is fitted on another seed's run of the cell made as ``dataset make
--exclude EVAL`` makes it (:meth:`Cell.run` with ``exclude``): a training
record whose answer an evaluated record has is drawn again. Without that, a
family whose answers come from a finite table (a festival's date in a given
year: a SPAN direction has a few hundred) lets a classifier answer the
shared items from memory, which is contamination of one file by the other,
not a shortcut a policy could take on a puzzle it has not seen. It has its
own measure (``tsolve dataset overlap``, ``answer_overlap``) and its own
remedy (``--exclude``); the report says, per cell, how many training records
had to be drawn again (``train_shared``), which is what a train file made
without ``--exclude`` would have shared.

**A family may fit its probes on other options** (its
``shortcut_train_options``, :meth:`Cell.training`). Where every answer is an
entry of a finite table, a learner fitted on enough records of the same
table learns the entries, which is the knowledge the task tests, not a way
around it. SPAN's answers in 1960-2060 lie in about 1,250 months of each
calendar: fitted on 4,500 polar/date items per direction of that window,
gradient boosting on the rough distance alone scored 0.54-0.59 and on the
calendar features up to 0.67; fitted where no month repeats, 0.40-0.49
(``benchmarks/results/2026-12-02-span-polar-table-learning.md``). A policy
that skips the conversion would pay in any years, so SPAN's probes are
fitted on a window of other years, and what they find is a shortcut, not
the table.

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
from tsolve.datasets.chunks import run_records
from tsolve.datasets.distinct import key_of
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
class CellRun:
    """A cell's records of one run, and how many of them were drawn again
    because they repeated an answer of the records the run had to exclude."""

    records: list[Record]
    shared: int = 0


@dataclass(frozen=True)
class Cell:
    """One configuration of one family: a name and the generator options."""

    family: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def training(self) -> Cell:
        """The cell the probes of this one are fitted on: the same cell with
        the family's ``shortcut_train_options`` (itself when the family
        declares none)."""
        declared = get_family(self.family).shortcut_train_options
        if declared is None:
            return self
        make = resolve(declared)
        options = make({**default_options(self.family), **self.options})
        if not isinstance(options, Mapping):
            raise TsolveError(
                f"family: {self.family!r} shortcut_train_options did not return a mapping"
            )
        return Cell(self.family, self.name, dict(options))

    def records(self, n: int, seed: int) -> list[Record]:
        """Records ``0..n-1`` of run ``seed`` in this cell (:meth:`run`)."""
        return self.run(n, seed).records

    def run(self, n: int, seed: int, exclude: Sequence[Record] = ()) -> CellRun:
        """Records ``0..n-1`` of run ``seed`` in this cell, as ``tsolve
        dataset make`` writes them given ``--exclude`` a file of ``exclude``:
        in a distinct family a record repeating an earlier one's answer, or
        one of ``exclude``'s, is drawn again; one that cannot be made (or
        repeats in every draw) is left out, as a run reports and skips it."""
        if self.name == DEFAULT_CELL and not self.options:
            plain = generate_records(self.family, n, seed)
            return drop_shared(self.family, plain, exclude) if exclude else CellRun(plain)
        options = {**default_options(self.family), **self.options}
        known = [(answer, None, None) for answer in answers_of(self.family, exclude)]
        records, distinct = run_records(self.family, options, seed, n, known)
        return CellRun(records, distinct.excluded if distinct is not None else 0)


def answers_of(family: str, records: Sequence[Record]) -> set[bytes]:
    """The answer digests of ``records`` (those the family can fingerprint),
    as the acceptance pass compares them."""
    fam = get_family(family)
    return {a for r in records if (a := key_of(fam, r)[0]) is not None}


def drop_shared(family: str, records: Sequence[Record], exclude: Sequence[Record]) -> CellRun:
    """``records`` without those whose answer one of ``exclude`` has (given
    records cannot be drawn again), and how many were left out."""
    fam = get_family(family)
    known = answers_of(family, exclude)
    kept = [r for r in records if key_of(fam, r)[0] not in known]
    return CellRun(kept, len(records) - len(kept))


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
    "CellRun",
    "cells_for",
    "cells_of",
    "drop_shared",
    "margin_for",
    "pool",
    "select_cells",
]
