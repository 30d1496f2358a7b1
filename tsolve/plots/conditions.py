"""Accuracy by condition, one bar group per answer-set size M: the Time Puzzles
paper's Figure 2/3 style, drawn from ``tsolve report``'s rows.

One panel per task and style (implicit / explicit); in a panel, one group of
bars per M (the rows' ``M``; a task without an M breakdown, such as SPAN, is
one group, ``all``), one bar per condition in the report's order, with the
standard error of the mean as error bars. The data are the report's rows, so
the picture and ``--format json`` never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.output import new_figure, save

#: One colour per condition, in the report's order of conditions.
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3")


def panels(rows: Sequence[dict[str, Any]]) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    """The rows each panel draws: per (task, model, style), the per-M rows, or the
    ``M = "all"`` rows where a task has no M breakdown. TicToc rows have no
    condition bars and are left out."""
    by_panel: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if "M" not in row or row.get("accuracy") is None:
            continue
        key = (row["task"], row["model"], str(row["style"]))
        by_panel.setdefault(key, []).append(row)
    out: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for key, panel_rows in by_panel.items():
        per_m = [r for r in panel_rows if r["M"] != "all"]
        out[key] = per_m or panel_rows
    return out


def condition_figure(rows: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Draw the figure for ``rows`` to ``path`` (PNG or SVG)."""
    drawn = panels(rows)
    if not drawn:
        raise TsolveError("plot: no rows with an accuracy to draw (no tsolve family task logs?)")
    fig = new_figure(7.5, 2.8 * len(drawn))
    axes = fig.subplots(len(drawn), 1, squeeze=False)[:, 0]
    for ax, ((task, model, style), panel_rows) in zip(axes, sorted(drawn.items()), strict=True):
        conditions = list(dict.fromkeys(r["condition"] for r in panel_rows))
        groups = sorted({r["M"] for r in panel_rows}, key=lambda m: (m == "all", str(m).zfill(9)))
        width = min(0.8 / max(len(conditions), 1), 0.2)
        for i, condition in enumerate(conditions):
            xs, ys, errs, ns = [], [], [], []
            for g, m in enumerate(groups):
                row = next(
                    (r for r in panel_rows if r["condition"] == condition and r["M"] == m), None
                )
                if row is None:
                    continue
                xs.append(g + width * (i - (len(conditions) - 1) / 2))
                ys.append(100 * row["accuracy"])
                errs.append(100 * (row["stderr"] or 0.0))
                ns.append(row["n"])
            color = PALETTE[i % len(PALETTE)]
            bars = ax.bar(xs, ys, width, yerr=errs, capsize=3, label=condition, color=color)
            for bar, err, n in zip(bars, errs, ns, strict=True):
                top = bar.get_height() + err + 1
                ax.annotate(f"n={n}", (bar.get_x() + bar.get_width() / 2, top), ha="center",
                            va="bottom", fontsize=6)  # fmt: skip
        ax.set_xticks(range(len(groups)), [f"M={m}" for m in groups])
        ax.set_xlim(-0.6, len(groups) - 0.4)
        ax.set_ylim(0, 112)
        ax.set_ylabel("accuracy (%)")
        shown_style = "" if style == "-" else f" ({style})"
        ax.set_title(f"{task}{shown_style}: {model}", fontsize=9)
        ax.legend(title="condition", fontsize=7, title_fontsize=7, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0))  # fmt: skip
        ax.grid(axis="y", alpha=0.3)
    return save(fig, path)
