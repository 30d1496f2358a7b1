"""Bar groups and table rows in natural order: numbers by value (however
stored), other labels piece by piece (digits by value, text without regard to
case), ``all`` last. The expected orders are written by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")


def _row(group: str, value: Any, acc: float = 0.5) -> dict[str, Any]:
    """A report row of one run (the fields the overview figure reads)."""
    return {"task": "tsolve/span", "model": "m", "condition": "none", "style": "implicit",
            "M": "all", "reference_year": "all", group: value, "n": 2, "accuracy": acc,
            "stderr": 0.0, "eval_id": "e", "reducer": "mean", "tags": [], "solver": None,
            "solver_args": {}, "task_args": {}, "epochs": 1, "generate_config": {},
            "log": "l"}  # fmt: skip


def _tick_labels(rows: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The x tick labels of the overview figure's one panel, in order."""
    import tsolve.plots.conditions as conditions

    drawn: list[Any] = []
    monkeypatch.setattr(conditions, "save", lambda fig, path, **kw: drawn.append(fig) or Path(path))
    conditions.condition_figure(rows, "overview.png")
    (fig,) = drawn
    (ax,) = [a for a in fig.axes if a.get_visible()]
    return [t.get_text().split("\n")[0] for t in ax.get_xticklabels()]  # the name, not its n


def test_direction_groups_of_different_lengths_sort_alphabetically(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    directions = ["west", "southeast", "north", "East", "all"]
    labels = _tick_labels([_row("direction", d) for d in directions], monkeypatch)
    # the panel is --figure span-direction's: its pooled group, "all", comes last
    assert labels == ["East", "north", "southeast", "west", "all"]


def test_m_groups_sort_by_value_also_when_stored_as_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = [{**_row("direction", "all"), "task": "tsolve/time_puzzles", "M": m}
            for m in ["10", 2, "all", "1", 100, "-1"]]  # fmt: skip
    labels = _tick_labels(rows, monkeypatch)
    assert labels == ["M=-1", "M=1", "M=2", "M=10", "M=100"]  # the "all" rows: no group


def test_natural_key_rule() -> None:
    from tsolve.plots.ordering import natural_key, ordered

    values = ["t10", "all", "t2", "T3", 10, "2", 1.5, "hard x static", "hard x relative",
              "level 12", "level 3", "-1", "b", "B", "a1b10", "a1b9"]  # fmt: skip
    assert sorted(values, key=natural_key) == [
        "-1", 1.5, "2", 10, "a1b9", "a1b10", "B", "b", "hard x relative", "hard x static",
        "level 3", "level 12", "t2", "T3", "t10", "all",
    ]  # fmt: skip
    assert ordered(["x", "all", "g2", "g10", "x"], first=["x"]) == ["x", "g2", "g10", "all"]


def test_the_time_puzzles_table_lists_m_by_value() -> None:
    from tsolve.plots.paper_tables import _time_puzzles

    rows = [{**_row("direction", "all"), "task": "tsolve/time_puzzles", "M": m}
            for m in ["10", "9", "all", 2]]  # fmt: skip
    assert [r["M"] for r in _time_puzzles(rows)] == [2, "9", "10", "all"]
