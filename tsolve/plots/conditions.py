"""Accuracy by condition, one bar group per answer-set size M: the Time Puzzles
paper's Figure 2/3 style, drawn from ``tsolve report``'s rows; and for SPAN,
accuracy by reference year and by conversion direction (the SPAN paper's
Future-Date Degradation and Calendar Asymmetry Bias).

One panel per task, model and style (implicit / explicit); in a panel, one
group of bars per M (the rows' ``M``; a task without an M breakdown is one
group, ``all``), one bar per condition in the report's order (and per run,
when several runs share a condition: the bar's label says what tells them
apart), with the standard error of the mean as error bars. A SPAN task adds
a panel of accuracy against reference year (one line per condition and run)
and a panel of bars by direction. The data are the report's rows, so the
picture and ``--format json`` never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.output import new_figure, save
from tsolve.plots.run_labels import run_label

#: One colour per condition, in the report's order of conditions.
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3")

#: A panel: (task, model, style, breakdown), breakdown "M", "reference_year" or "direction".
PanelKey = tuple[str, str, str, str]


def _breakdown(row: dict[str, Any]) -> str | None:
    """Which panel kind a row belongs to (None: the SPAN overall row)."""
    if row.get("reference_year", "all") != "all":
        return "reference_year"
    if row.get("direction", "all") != "all":
        return "direction"
    return "M"


def panels(rows: Sequence[dict[str, Any]]) -> dict[PanelKey, list[dict[str, Any]]]:
    """The rows each panel draws: per (task, model, style), the per-M rows, or
    the ``M = "all"`` rows where a task has no M breakdown; for SPAN also the
    per-reference-year and per-direction rows. TicToc rows have no condition
    bars and are left out."""
    by_panel: dict[PanelKey, list[dict[str, Any]]] = {}
    for row in rows:
        if "M" not in row or row.get("accuracy") is None:
            continue
        kind = _breakdown(row)
        if kind is None:
            continue
        key = (row["task"], row["model"], str(row["style"]), kind)
        by_panel.setdefault(key, []).append(row)
    out: dict[PanelKey, list[dict[str, Any]]] = {}
    for key, panel_rows in by_panel.items():
        if key[3] == "M":
            per_m = [r for r in panel_rows if r["M"] != "all"]
            out[key] = per_m or panel_rows
        else:
            out[key] = panel_rows
    return out


def bar_labels(panel_rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Each run's label in a panel, by eval id: its condition, and what tells
    it apart from the other runs of that condition."""
    labels: dict[str, str] = {}
    for row in panel_rows:
        same = [r for r in panel_rows if r["condition"] == row["condition"]]
        apart = run_label(row, same)
        label = f"{row['condition']} ({apart})" if apart else str(row["condition"])
        labels.setdefault(f"{row['eval_id']}|{row.get('reducer')}", label)
    return labels


def _series(panel_rows: Sequence[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The panel's rows by run (condition first), with each run's label."""
    labels = bar_labels(panel_rows)
    out: dict[str, list[dict[str, Any]]] = {}
    for row in panel_rows:
        out.setdefault(f"{row['eval_id']}|{row.get('reducer')}", []).append(row)
    return [(labels[k], v) for k, v in out.items()]


def condition_figure(rows: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Draw the figure for ``rows`` to ``path`` (PNG or SVG)."""
    drawn = panels(rows)
    if not drawn:
        raise TsolveError("plot: no rows with an accuracy to draw (no tsolve family task logs?)")
    fig = new_figure(7.5, 2.8 * len(drawn))
    axes = fig.subplots(len(drawn), 1, squeeze=False)[:, 0]
    for ax, ((task, model, style, kind), panel_rows) in zip(
        axes, sorted(drawn.items()), strict=True
    ):
        series = _series(panel_rows)
        if kind == "reference_year":
            _year_lines(ax, series)
        else:
            _bars(ax, series, kind)
        ax.set_ylim(0, 112)
        ax.set_ylabel("accuracy (%)")
        shown_style = "" if style == "-" else f" ({style})"
        by = {"M": "", "reference_year": " by reference year", "direction": " by direction"}
        ax.set_title(f"{task}{shown_style}: {model}{by[kind]}", fontsize=9)
        ax.legend(title="condition", fontsize=7, title_fontsize=7, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0))  # fmt: skip
        ax.grid(axis="y", alpha=0.3)
    return save(fig, path)


def _bars(ax: Any, series: list[tuple[str, list[dict[str, Any]]]], kind: str) -> None:
    """One bar group per M (or direction), one bar per run."""
    field = "M" if kind == "M" else "direction"
    groups = sorted({r[field] for _, rs in series for r in rs},
                    key=lambda m: (m == "all", str(m).zfill(9)))  # fmt: skip
    width = min(0.8 / max(len(series), 1), 0.2)
    for i, (label, run_rows) in enumerate(series):
        xs, ys, errs, ns = [], [], [], []
        for g, m in enumerate(groups):
            row = next((r for r in run_rows if r[field] == m), None)
            if row is None:
                continue
            xs.append(g + width * (i - (len(series) - 1) / 2))
            ys.append(100 * row["accuracy"])
            errs.append(100 * (row["stderr"] or 0.0))
            ns.append(row["n"])
        color = PALETTE[i % len(PALETTE)]
        bars = ax.bar(xs, ys, width, yerr=errs, capsize=3, label=label, color=color)
        for bar, err, n in zip(bars, errs, ns, strict=True):
            top = bar.get_height() + err + 1
            ax.annotate(f"n={n}", (bar.get_x() + bar.get_width() / 2, top), ha="center",
                        va="bottom", fontsize=6)  # fmt: skip
    names = [f"M={m}" for m in groups] if kind == "M" else [str(m) for m in groups]
    ax.set_xticks(range(len(groups)), names, fontsize=7 if kind == "M" else 6)
    ax.set_xlim(-0.6, len(groups) - 0.4)


def _year_lines(ax: Any, series: list[tuple[str, list[dict[str, Any]]]]) -> None:
    """Accuracy against reference year, one line (with error bars) per run."""
    for i, (label, run_rows) in enumerate(series):
        points = sorted(run_rows, key=lambda r: r["reference_year"])
        xs = [r["reference_year"] for r in points]
        ys = [100 * r["accuracy"] for r in points]
        errs = [100 * (r["stderr"] or 0.0) for r in points]
        ax.errorbar(xs, ys, yerr=errs, marker="o", markersize=3, capsize=2, label=label,
                    color=PALETTE[i % len(PALETTE)])  # fmt: skip
    ax.set_xlabel("reference year")
