"""``tsolve stress --shortcuts``: can a policy that skips the reasoning score?

The adversarial suite (:mod:`tsolve.stress.adversarial`) asks whether an
answer's *form* can farm a score. This module asks the same of the *data*:
whether a policy that reads each prompt but never does the reasoning the
family claims to test (it assumes "today", it names the package's final
place, it looks up another seed's answer to the same question) scores above
chance. A trainer's model would learn such a policy, and a benchmark figure
would then measure the shortcut.

Each probe (:data:`tsolve.stress.shortcut_probes.PROBES`) is fitted on the
records of another seed, made to share no answer with the evaluated ones (as
``dataset make --exclude`` makes a train file: what one file teaches about
the other's very puzzles is contamination, counted apart as ``train_shared``;
see :mod:`tsolve.stress.shortcut_cells`), and scored through the one shared scorer
(:func:`tsolve.stress.adversarial.shared_score`) on the evaluated seed's
records, which it sees only through
:func:`~tsolve.stress.shortcut_probes.visible` (no gold field). Its score is
compared with the **chance baseline** of the adversarial suite on the same
records: the best one constant answer per visible stratum can reach. A probe
that beats chance by more than :data:`MARGIN` in any metric that is a reward
is a finding.

A family's probes run in every configuration it declares
(:mod:`tsolve.stress.shortcut_cells`): each cell is fitted on its own
training records and scored on its own evaluated records, with its own
chance, and each probe is also pooled over the family's cells. A cell's
bound is :func:`~tsolve.stress.shortcut_cells.margin_for` its number of
records unless a margin is given; the pooled bound is that of all the
family's records together.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.contract import get_family
from tsolve.contract.family import Record
from tsolve.stress.adversarial import (
    _lines,
    chance_baseline,
    generate_records,
    make_item,
    shared_score,
    suite_families,
)
from tsolve.stress.shortcut_cells import (
    DEFAULT_CELL,
    POOLED,
    REFERENCE_MARGIN,
    Cell,
    cells_for,
    drop_shared,
    margin_for,
    pool,
    select_cells,
)
from tsolve.stress.shortcut_probes import ProbeSkipped, probes_for, visible
from tsolve.verifiers.rewards import DIAGNOSTIC, gameable, main_metric

FAMILIES: tuple[str, ...] = suite_families()
"""The built-in families whose data is generated (those that score given
data have no records to probe), from their declarations."""

MARGIN = REFERENCE_MARGIN
"""How far above chance a probe may score on 500 records before it is a
finding: the sampling noise of a mean over 500 records is about 0.02 (on
``n`` records the bound is :func:`~tsolve.stress.shortcut_cells.margin_for`
``n``)."""

DEFAULT_N = 300
"""Records evaluated per cell (and as many trained on)."""


@dataclass
class ProbeResult:
    """One probe's mean metrics on one family's records, beside chance."""

    family: str
    probe: str
    kind: str
    description: str
    n: int
    metric: str = ""
    score: float = 0.0
    stderr: float = 0.0
    chance: float = 0.0
    metrics: dict[str, float] = field(default_factory=dict)
    chance_metrics: dict[str, float] = field(default_factory=dict)
    answered: int = 0
    skipped: str | None = None
    cell: str = DEFAULT_CELL
    margin: float | None = None
    confirmation: ProbeResult | None = None

    def excess(self) -> dict[str, float]:
        """Per rewarded metric, how far the probe scores above chance."""
        exclude = {"parse_failed", *DIAGNOSTIC, *gameable(self.family)}
        return {k: v - self.chance_metrics.get(k, 0.0)
                for k, v in self.metrics.items() if k not in exclude}  # fmt: skip

    def bound(self) -> float:
        """The margin this result is held to (its own, else that for its n)."""
        return self.margin if self.margin is not None else margin_for(self.n)

    def failures(self, margin: float | None = None) -> list[str]:
        """One line per rewarded metric above chance + ``margin`` (default:
        :meth:`bound`)."""
        margin = self.bound() if margin is None else margin
        lines = [
            f"{self.family} [{self.cell}]: probe {self.probe!r} scores {k} "
            f"{self.metrics[k]:.3f} > chance {self.chance_metrics.get(k, 0.0):.3f} "
            f"+ {margin:.3f} (n = {self.n})"
            for k, over in self.excess().items()
            if over > margin + 1e-9
        ]
        if not lines or self.confirmation is None:
            return lines
        # Over the bound on fresh seeds too (the confirmation has none of its own).
        again = self.confirmation.failures()
        return [*lines, *(f"{a} (confirmation)" for a in again)] if again else []

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "probe": self.probe, "cell": self.cell,
                "kind": self.kind, "margin": self.bound(),
                "description": self.description, "metric": self.metric,
                "score": self.score, "stderr": self.stderr, "chance": self.chance,
                "n": self.n, "answered": self.answered, "metrics": self.metrics,
                "chance_metrics": self.chance_metrics, "skipped": self.skipped,
                "confirmation": None if self.confirmation is None
                else self.confirmation.to_json()}  # fmt: skip


@dataclass
class ShortcutReport:
    """``tsolve stress --shortcuts``: every probe of every family asked."""

    seed: int
    train_seed: int
    margin: float | None = None
    results: list[ProbeResult] = field(default_factory=list)
    pooled: list[ProbeResult] = field(default_factory=list)
    cells: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    file_level: list[dict[str, Any]] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        """Every cell's and every pooled result's lines above its bound."""
        rows = [*self.results, *self.pooled]
        lines = [line for r in rows if r.skipped is None for line in r.failures()]
        return lines + [
            f"{r['family']} [{r['cell']}]: file-position {r['probe']} ({r['rule']}) scores "
            f"{r['score']:.3f} > chance {r['chance']:.3f} + {r['margin']:.3f} (n = {r['n']})"
            for r in self.file_level
            if r["score"] > r["chance"] + r["margin"] + 1e-9
        ]

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "train_seed": self.train_seed, "margin": self.margin,
                "ok": self.ok, "failures": self.failures, "cells": self.cells,
                "probes": [r.to_json() for r in self.results],
                "pooled": [r.to_json() for r in self.pooled],
                "file_level": self.file_level}  # fmt: skip


def _stderr(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def run_family(
    family: str,
    records: Sequence[Record],
    train: Sequence[Record],
    cell: str = DEFAULT_CELL,
    margin: float | None = None,
) -> list[ProbeResult]:
    """Every probe of ``family`` fitted on ``train`` and scored on ``records``
    (the records of one cell)."""
    items = [make_item(family, r) for r in records]
    chance = chance_baseline(items)
    fam_golds = [make_item(family, r).gold for r in train]
    out = []
    for probe in probes_for(family):
        result = ProbeResult(family, probe.name, probe.kind, probe.description, len(items),
                             cell=cell, margin=margin)  # fmt: skip
        try:
            answer = probe.fit(list(train), fam_golds)
        except ProbeSkipped as exc:
            result.skipped = str(exc)
            out.append(result)
            continue
        rows = []
        for it in items:
            body = answer(visible(it.record))
            result.answered += body is not None
            rows.append(shared_score(it.record, _lines(it, body) if body else ""))
        keys = dict.fromkeys(k for r in rows for k in r if k not in ("parse_failed", "reward"))
        result.metrics = {k: sum(r.get(k, 0.0) for r in rows) / len(rows) for k in keys}
        result.chance_metrics = {k: chance.get(k, 0.0) for k in keys}
        if keys:
            result.metric = main_metric(result.metrics)
            result.score = result.metrics[result.metric]
            result.chance = result.chance_metrics[result.metric]
            result.stderr = _stderr([r.get(result.metric, 0.0) for r in rows])
        out.append(result)
    return out


def pool_results(results: Sequence[ProbeResult], margin: float | None = None) -> list[ProbeResult]:
    """Each probe of one family pooled over its cells' ``results``: metrics
    and chance are record-weighted means (:func:`~tsolve.stress.shortcut_cells.pool`),
    held to ``margin`` (default: the bound for all the records together)."""
    by_probe: dict[str, list[ProbeResult]] = {}
    for r in results:
        if r.skipped is None and r.cell != POOLED:
            by_probe.setdefault(r.probe, []).append(r)
    out = []
    for rows in by_probe.values():
        first = rows[0]
        total = sum(r.n for r in rows)
        pooled = ProbeResult(first.family, first.probe, first.kind, first.description, total,
                             cell=POOLED, margin=margin)  # fmt: skip
        pooled.metrics = pool([(r.n, r.metrics) for r in rows])
        pooled.chance_metrics = pool([(r.n, r.chance_metrics) for r in rows])
        pooled.answered = sum(r.answered for r in rows)
        if pooled.metrics:
            pooled.metric = main_metric(pooled.metrics)
            pooled.score = pooled.metrics[pooled.metric]
            pooled.chance = pooled.chance_metrics.get(pooled.metric, 0.0)
            # Cells are independent samples: the pooled mean's variance is
            # the weighted sum of theirs.
            pooled.stderr = math.sqrt(sum((r.n / total) ** 2 * r.stderr**2 for r in rows))
        out.append(pooled)
    return out


def run_shortcuts(
    families: Sequence[str],
    n: int = DEFAULT_N,
    seed: int = 0,
    train_seed: int | None = None,
    records: Mapping[str, Sequence[Record]] | None = None,
    train_records: Mapping[str, Sequence[Record]] | None = None,
    margin: float | None = None,
    cells: Mapping[str, Sequence[str]] | None = None,
    pooled_margin: float | None = None,
    on_cell: Callable[[str, str], None] | None = None,
) -> ShortcutReport:
    """Every shortcut probe of ``families`` in every cell each declares
    (``cells``: per family, the cell names to run, default all): fitted on
    ``n`` records of the cell from run ``train_seed`` (default ``seed + 1``),
    scored on ``n`` records of the cell from run ``seed``. A training record
    with an evaluated record's answer is drawn again (given training records
    are dropped instead); ``report.cells`` says how many per cell
    (``train_shared``). Records given per family (``records`` /
    ``train_records``) stand for that family's one ``default`` cell instead.
    The report fails when a probe beats chance, in a metric that is a
    reward, by more than ``margin`` in a cell (default: the bound for the
    cell's n) or by more than ``pooled_margin`` pooled over the family's
    cells (default: the bound for all its records). ``on_cell(family,
    cell)`` is called as each cell begins (progress bars: a cell of a slow
    family takes minutes)."""
    train_seed = seed + 1 if train_seed is None else train_seed
    report = ShortcutReport(seed, train_seed, margin)
    for family in families:
        evald = (records or {}).get(family)
        trained = (train_records or {}).get(family)
        given_records = evald is not None or trained is not None
        if given_records:
            evald = list(evald) if evald is not None else generate_records(family, n, seed)
            if trained is None:
                trained = generate_records(family, n, train_seed)
            given = drop_shared(family, trained, evald)
            family_cells = [Cell(family, DEFAULT_CELL)]
        else:
            family_cells = select_cells(cells_for(family), (cells or {}).get(family))
        report.cells[family] = []
        mine = []
        for c in family_cells:
            if on_cell is not None:
                on_cell(family, c.name)
            if given_records:
                assert evald is not None
                evald_cell, trained_cell = evald, given
            else:
                evald_cell = c.records(n, seed)
                trained_cell = c.training().run(n, train_seed, exclude=evald_cell)
            report.cells[family].append(
                {"cell": c.name, "options": dict(c.options), "n": len(evald_cell),
                 "train_n": len(trained_cell.records), "train_shared": trained_cell.shared,
                 "train_options": dict(c.training().options)}
            )  # fmt: skip
            mine.extend(run_family(family, evald_cell, trained_cell.records, c.name, margin))
        report.results.extend(mine)
        pooled = pool_results(mine, pooled_margin) if len(family_cells) > 1 else []
        report.pooled.extend(pooled)
        if not given_records:
            _confirm(family, family_cells, mine, pooled, n, max(seed, train_seed) + 1, margin,
                     pooled_margin)  # fmt: skip
        if get_family(family).shortcut_file_probes is not None:
            evald_file = list(evald) if evald is not None else generate_records(family, 2 * n, seed)
            trained_file = (list(trained) if trained is not None
                            else generate_records(family, 2 * n, train_seed))  # fmt: skip
            report.file_level.extend(file_probes(family, evald_file, trained_file))
    return report


CONFIRM_FACTOR = 4
"""A row over its bound is measured again on this many times its records,
from fresh seeds, and is a finding only if it is over the bound there too
(``docs/scoring.md``, "How often the bound fails by chance")."""


def _confirm(
    family: str,
    cells: Sequence[Cell],
    results: Sequence[ProbeResult],
    pooled: Sequence[ProbeResult],
    n: int,
    seed: int,
    margin: float | None,
    pooled_margin: float | None,
) -> None:
    """Attach to each of ``results`` and ``pooled`` that is over its bound a
    confirmation: the same probe in the same cell (pooled: in every cell)
    fitted on :data:`CONFIRM_FACTOR` x ``n`` records of run ``seed + 1`` and
    scored on as many of run ``seed``, seeds no other row of the report
    read. Each cell is run once, and only if some row needs it."""
    by_name = {c.name: c for c in cells}
    runs: dict[str, list[ProbeResult]] = {}

    def again(cell: str) -> list[ProbeResult]:
        if cell not in runs:
            c, big = by_name[cell], CONFIRM_FACTOR * n
            evald = c.records(big, seed)
            trained = c.training().run(big, seed + 1, exclude=evald).records
            runs[cell] = run_family(family, evald, trained, cell, margin)
        return runs[cell]

    for r in results:
        if r.skipped is None and r.failures():
            r.confirmation = next(x for x in again(r.cell) if x.probe == r.probe)
    for p in pooled:
        if p.skipped is None and p.failures():
            rows = [x for c in by_name for x in again(c) if x.probe == p.probe]
            p.confirmation = next(iter(pool_results(rows, pooled_margin)), None)


# A family's file-level probes are its ``shortcut_file_probes`` part
# (``function(records, train)`` -> results with ``score``, ``chance``, ``n``):
# rules that read a whole file in order (a label from a neighbour's, a stratum
# from the position), reported apart from the record-level probes, on a
# default file of ``2 x n`` records.


def file_probes(
    family: str, records: Sequence[Record], train: Sequence[Record]
) -> list[dict[str, Any]]:
    """``family``'s file-level probes on ``records`` (rules chosen on
    ``train``), each with the bound it is held to: three standard errors of a
    mean of its ``n`` at chance, or :func:`margin_for` ``n`` if larger (a
    rule is the best of many tried on the training file)."""
    out = []
    for r in get_family(family).require("shortcut_file_probes")(records, train):
        row = r.to_json()
        c = row["chance"]
        se = math.sqrt(max(c * (1 - c), 1e-9) / max(row["n"], 1))
        row["margin"] = round(max(margin_for(row["n"]), 3 * se), 4)
        out.append(row)
    return out


__all__ = [
    "CONFIRM_FACTOR",
    "DEFAULT_N",
    "FAMILIES",
    "MARGIN",
    "ProbeResult",
    "ShortcutReport",
    "pool_results",
    "run_family",
    "run_shortcuts",
]
