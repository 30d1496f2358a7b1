"""The cells of ``tsolve stress --shortcuts``: each family's declared
configurations, probed one by one and pooled."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest

from tsolve.contract import get_family
from tsolve.errors import TsolveError
from tsolve.stress import shortcuts
from tsolve.stress.shortcut_cells import (
    DEFAULT_CELL,
    POOLED,
    Cell,
    cells_of,
    margin_for,
    pool,
    select_cells,
)


def test_a_family_without_cells_has_the_default_one() -> None:
    fam = dataclasses.replace(get_family("relational-puzzles"), shortcut_cells=None)
    assert cells_of(fam) == [Cell("relational-puzzles", DEFAULT_CELL)]


def test_declared_cells_are_read_from_a_mapping_or_a_function() -> None:
    table = {"a": {"events": 2}, "b": {"events": 3}}
    for declared in (table, lambda: table):
        fam = dataclasses.replace(get_family("relational-puzzles"), shortcut_cells=declared)
        assert [(c.name, dict(c.options)) for c in cells_of(fam)] == list(table.items())


@pytest.mark.parametrize("bad", [{}, ["a"], {"a": 3}, {1: {}}])
def test_a_malformed_declaration_is_a_one_line_error(bad: Any) -> None:
    fam = dataclasses.replace(get_family("relational-puzzles"), shortcut_cells=bad)
    with pytest.raises(TsolveError, match="shortcut cell"):
        cells_of(fam)


def test_an_unknown_cell_is_named() -> None:
    cells = [Cell("x", "a"), Cell("x", "b")]
    assert select_cells(cells, ["b"]) == [cells[1]]
    assert select_cells(cells, None) == cells
    with pytest.raises(TsolveError, match=r"'c'.*cells: a, b"):
        select_cells(cells, ["c"])


def test_pool_weights_by_records() -> None:
    assert pool([(10, {"em": 1.0}), (30, {"em": 0.0, "f1": 1.0})]) == {"em": 0.25, "f1": 0.75}


def test_margin_grows_as_one_over_root_n() -> None:
    assert margin_for(500) == pytest.approx(0.03)
    assert margin_for(125) == pytest.approx(0.06)
    assert margin_for(20) * math.sqrt(20) == pytest.approx(margin_for(80) * math.sqrt(80))


def test_cells_are_run_apart_and_pooled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each declared cell's records come from its options, each probe is
    reported per cell with its n, and pooled over the cells with the bound
    of all the records."""
    fam = dataclasses.replace(
        get_family("relational-puzzles"),
        shortcut_cells={"two": {"events": 2}, "three": {"events": 3}},
    )
    monkeypatch.setattr(shortcuts, "cells_for", lambda name: cells_of(fam))
    started: list[tuple[str, str]] = []
    report = shortcuts.run_shortcuts(
        ["relational-puzzles"], n=6, seed=0, on_cell=lambda f, c: started.append((f, c))
    )
    # each cell is announced as it begins, for a progress bar per cell
    assert started == [("relational-puzzles", "two"), ("relational-puzzles", "three")]
    assert [r.cell for r in report.results] == ["two", "three"]
    assert all(r.n == 6 for r in report.results)
    assert [(r.cell, r.n) for r in report.pooled] == [(POOLED, 12)]
    assert report.pooled[0].bound() == pytest.approx(margin_for(12))
    data = report.to_json()
    assert [c["cell"] for c in data["cells"]["relational-puzzles"]] == ["two", "three"]
    for row in data["probes"]:
        assert {"family", "probe", "cell", "score", "chance", "n"} <= set(row)
    # A cell's records are the generator's with the cell's options.
    recs = cells_of(fam)[0].records(2, 0)
    assert all(r["generator"]["params"]["events"] == 2 for r in recs)


def test_probes_are_fitted_on_the_familys_training_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family may declare the options its probes learn on
    (``shortcut_train_options``); the engine asks the contract for them, so a
    plug-in gets it as a built-in does. Without one, a cell trains on itself."""
    import tsolve.stress.shortcut_cells as sc

    base = get_family("relational-puzzles")
    fam = dataclasses.replace(base, shortcut_train_options=lambda o: {**o, "events": 3})
    monkeypatch.setattr(sc, "get_family", lambda name: fam)
    cell = Cell("relational-puzzles", "two", {"events": 2})
    trained = cell.training()
    assert trained.options["events"] == 3 and trained.name == "two"
    assert all(r["generator"]["params"]["events"] == 3 for r in trained.records(2, 1))
    monkeypatch.setattr(sc, "get_family", lambda name: base)
    assert cell.training() is cell


def test_training_options_that_are_not_a_mapping_are_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tsolve.stress.shortcut_cells as sc

    fam = dataclasses.replace(get_family("relational-puzzles"), shortcut_train_options=lambda o: 3)
    monkeypatch.setattr(sc, "get_family", lambda name: fam)
    with pytest.raises(TsolveError, match="shortcut_train_options"):
        Cell("relational-puzzles", "two", {"events": 2}).training()
