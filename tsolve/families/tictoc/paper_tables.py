"""TicToc's table (``tsolve report --table tictoc``): the attempt rate of
prefer-tool and prefer-no-tool samples and the normalized alignment rate, by
elapsed-time level (the paper's Figures 2-4)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tsolve.contract.family import Lazy
from tsolve.plots.ordering import ordered
from tsolve.plots.paper_tables import Grid, PaperTable, _base, _groups, cell
from tsolve.plots.run_labels import series_key, series_labels

TASK = "tsolve/tictoc"


def _tictoc(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per run and level: each preference's attempt rate with the standard
    error of its share (the matching decisions' one: with one epoch, a
    prefer-tool sample matches when it calls, a prefer-no-tool one when it
    does not, so the two shares have the same spread), and the NAR with the
    standard error of the mean of two independent shares."""
    mine = [r for r in rows if r["task"] == TASK and "level" in r]
    runs: dict[str, list[dict[str, Any]]] = {}
    for r in mine:
        runs.setdefault(f"{r['eval_id']}|{r.get('reducer')}", []).append(r)
    labels: dict[str, str] = {}
    for same_model in _groups(mine, ("model",)).values():
        labels.update(series_labels(same_model, by_style=False))
    out: list[dict[str, Any]] = []
    for run_rows in runs.values():
        label = labels[series_key(run_rows[0], by_style=False)]
        for level in ordered([r["level"] for r in run_rows]):
            at = {r["preference"]: r for r in run_rows if r["level"] == level}
            tool, no_tool = at.get("tool"), at.get("no_tool")
            row: dict[str, Any] = {**_base("tictoc", run_rows[0], label), "level": level}
            for name, pr in (("tool", tool), ("no_tool", no_tool)):
                row[f"n_{name}"] = pr["n"] if pr else 0
                row[f"attempt_{name}"] = pr["attempt_rate"] if pr else None
                row[f"attempt_{name}_stderr"] = pr["stderr"] if pr else None
            nar = at["all"].get("nar") if "all" in at else None
            errs = [pr["stderr"] for pr in (tool, no_tool) if pr is not None]
            nar_err = None
            if nar is not None and len(errs) == 2 and None not in errs:
                nar_err = 0.5 * math.sqrt(sum(e * e for e in errs if e is not None))
            row.update(nar=nar, nar_stderr=nar_err)
            out.append(row)
    return out


def _tictoc_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    out: list[Grid] = []
    for (series,), part in _groups(rows, ("series",)).items():
        name = f"{title}  {series}  ".rstrip() + "  % by elapsed-time level (±1 s.e.)"
        grid = Grid(name, ["level", "n tool", "attempt, prefer tool", "n no-tool",
                           "attempt, prefer no-tool", "NAR"])  # fmt: skip
        for r in part:
            tool = cell(r["attempt_tool"], r["attempt_tool_stderr"])
            no_tool = cell(r["attempt_no_tool"], r["attempt_no_tool_stderr"])
            grid.rows.append([str(r["level"]), str(r["n_tool"]), tool, str(r["n_no_tool"]),
                              no_tool, cell(r["nar"], r["nar_stderr"])])  # fmt: skip
        out.append(grid)
    return out


TABLES = (
    PaperTable("tictoc", TASK, _tictoc, _tictoc_grids,
               panels=Lazy("tsolve.families.tictoc.paper_figures:_tictoc_panels"),
               overview="levels", note="; NAR: normalized alignment rate (dashed: 50 %, chance)"),
)  # fmt: skip
"""The family's ``paper_tables`` part."""
