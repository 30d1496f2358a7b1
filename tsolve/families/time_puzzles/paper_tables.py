"""The Time Puzzles paper's table (``tsolve report --table time-puzzles``):
exact match (and F1 where the logs have it) by answer-set size M, per
condition and style (the paper's Figure 2/4 and Table 1: implicit against
explicit constraints), and, for records that carry a published gold (the
imported release), exact match against it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tsolve.contract.family import Lazy
from tsolve.plots.ordering import natural_key
from tsolve.plots.paper_tables import (
    Grid,
    PaperTable,
    _base,
    _by_series,
    _family_rows,
    _pivot,
    cell,
)

TASK = "tsolve/time_puzzles"


def _time_puzzles(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    mine = [r for r in _family_rows(rows, TASK)
            if all(r.get(f, "all") == "all" for f in ("reference_year", "direction"))]  # fmt: skip
    for label, series in _by_series(mine):
        for r in sorted(series, key=lambda r: natural_key(r["M"])):
            if r["n"] == 0:
                continue
            f1 = r.get("metrics", {}).get("f1")
            out.append({**_base("time-puzzles", r, label), "M": r["M"], "n": r["n"],
                        "accuracy": r["accuracy"], "stderr": r["stderr"],
                        "em": r.get("metrics", {}).get("em", r["accuracy"]),
                        "f1": f1,
                        "f1_stderr": (r.get("metric_stderr") or {}).get("f1"),
                        **_published(r)})  # fmt: skip
    return out


def _published(r: dict[str, Any]) -> dict[str, Any]:
    """A row's exact match against the published gold, where its records
    carry one (an imported release: ``accuracy_published`` of ``tsolve
    report``), and None elsewhere."""
    if not r.get("n_published"):
        return {"em_published": None, "em_published_stderr": None}
    return {"em_published": r.get("accuracy_published"),
            "em_published_stderr": r.get("stderr_published")}  # fmt: skip


def _tp_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    shown = [{**r, "M": f"M={r['M']}" if r["M"] != "all" else "all"} for r in rows]
    out = [_pivot(f"{title}  exact match % (±1 s.e.)", shown, "series", "M",
                  lambda r: cell(r["em"], r["stderr"]), "condition")]  # fmt: skip
    if any(r["f1"] is not None for r in rows):
        out.append(_pivot(f"{title}  F1 % (±1 s.e.)", shown, "series", "M",
                          lambda r: cell(r["f1"], r["f1_stderr"]), "condition"))  # fmt: skip
    if any(r.get("em_published") is not None for r in rows):
        out.append(_pivot(f"{title}  exact match against the published gold % (±1 s.e.)",
                          shown, "series", "M",
                          lambda r: cell(r["em_published"], r["em_published_stderr"]),
                          "condition"))  # fmt: skip
    n = _pivot(f"{title}  samples (n)", shown, "series", "M", lambda r: str(r["n"]), "condition")
    return [*out, n]


_FIGURES = "tsolve.families.time_puzzles.paper_figures"

TABLES = (
    PaperTable("time-puzzles", TASK, _time_puzzles, _tp_grids,
               panels=Lazy(f"{_FIGURES}:_time_puzzles_panels"),
               note="; explicit constraints hatched beside their implicit twin",
               columns=Lazy(f"{_FIGURES}:columns")),
)  # fmt: skip
"""The family's ``paper_tables`` part."""
