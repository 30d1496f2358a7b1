"""Accuracy by condition, one bar group per answer-set size M: the Time Puzzles
paper's Figure 2/3 style, drawn from ``tsolve report``'s rows; and for SPAN,
accuracy by reference year and by conversion direction (the SPAN paper's
Future-Date Degradation and Calendar Asymmetry Bias).

One panel per task and model; in a panel, one group of bars per M (the rows'
``M``; a task without an M breakdown is one group, ``all``), one bar per
condition and style in the report's order (implicit and explicit side by
side, explicit hatched, as the Time Puzzles paper compares them; and per
run, when several runs share a condition: the bar's label says what tells
them apart), each bar with its value and ±1 standard error of the mean as
error bars (the figure's caption says so), each group with its n. A SPAN
task adds a panel of accuracy against reference year (one line per
condition and run) and, per run, the panels of ``--figure span-direction``
and ``--figure span-type-format``; a two-way breakdown of another task (the
logistics difficulty x question type) its paper figure's panels too
(:func:`tsolve.plots.paper_figures.breakdown_panels`). The data are the
report's rows, so the picture and ``--format json`` never disagree. TicToc
gets a panel per run, the one ``--figure tictoc`` draws
(:func:`tsolve.plots.paper_figures.draw_levels_run`): per elapsed-time
level, the attempt rates of prefer-tool and prefer-no-tool samples and the
level's NAR, with error bars. The panels are stacked a page wide
(:mod:`tsolve.plots.layout`), each with its legend beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.layout import (
    DPI,
    LABEL_FONT,
    LEGEND_FONT,
    TITLE_FONT,
    WIDE,
    annotate_bars,
    declutter,
    wrap_label,
)
from tsolve.plots.ordering import ordered
from tsolve.plots.output import new_figure, plain_text, save
from tsolve.plots.run_labels import run_label, series_key, series_labels, twin_key

#: One colour per condition, in the report's order of conditions.
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3")

#: A panel: (task, model, run, breakdown), breakdown "M", "reference_year",
#: "direction", "cross" or "levels" (rows by a ``level`` field and a
#: preference, as TicToc's elapsed-time levels); run is "" but for "levels"
#: (one panel per run).
PanelKey = tuple[str, str, str, str]

#: The note under every figure: what the error bars are.
CAPTION = "error bars: ±1 s.e. of the mean over samples; n = samples behind a group's bars"

#: A panel's height, inches.
PANEL_HEIGHT = 2.4

#: A panel's height beyond its legend's: its title and tick labels, inches.
LEGEND_MARGIN = 0.9


#: The two-way breakdowns' row fields (SPAN's type x format, UnSeenTimeQA's
#: difficulty x question type), drawn as one bar group per pair.
CROSS_FIELDS = ("type", "format", "difficulty", "question_type")


def cross_label(row: dict[str, Any]) -> str:
    """A two-way row's group label, e.g. ``date x polar`` or ``hard x static_time``."""
    return " x ".join(str(row[f]) for f in CROSS_FIELDS if f in row)


def _breakdown(row: dict[str, Any]) -> str | None:
    """Which panel kind a row belongs to (None: the SPAN overall row)."""
    if any(row.get(f, "all") != "all" for f in CROSS_FIELDS):
        return "cross"
    if row.get("reference_year", "all") != "all":
        return "reference_year"
    if row.get("direction", "all") != "all":
        return "direction"
    return "M"


def panels(rows: Sequence[dict[str, Any]]) -> dict[PanelKey, list[dict[str, Any]]]:
    """The rows each panel draws: per (task, model), the per-M rows of every
    style, or the ``M = "all"`` rows where a task has no M breakdown; for SPAN
    also the per-reference-year and per-direction rows; for TicToc, per run,
    its rows by level and preference."""
    by_panel: dict[PanelKey, list[dict[str, Any]]] = {}
    for row in rows:
        if "level" in row:
            run = f"{row['eval_id']}|{row.get('reducer')}"
            by_panel.setdefault((row["task"], row["model"], run, "levels"), []).append(row)
            continue
        if "M" not in row or row.get("accuracy") is None:
            continue
        kind = _breakdown(row)
        if kind is None:
            continue
        key = (row["task"], row["model"], "", kind)
        by_panel.setdefault(key, []).append(row)
    out: dict[PanelKey, list[dict[str, Any]]] = {}
    for key, panel_rows in by_panel.items():
        if key[3] == "levels" and not any(r["accuracy"] is not None for r in panel_rows):
            continue
        if key[3] == "M":
            per_m = [r for r in panel_rows if r["M"] != "all"]
            # a task without an M breakdown: its overall bars only where it has
            # no other panel (the breakdowns say more, and a panel of one bar
            # per condition would be mostly empty)
            others = any(k[:2] == key[:2] and k[3] != "M" for k in by_panel)
            if per_m or not others:
                out[key] = per_m or panel_rows
        else:
            out[key] = panel_rows
    return out


def bar_labels(panel_rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Each run's label in a panel, by series key: its condition, and what
    tells it apart from the other runs of that condition."""
    return series_labels(panel_rows)


def _series_key(row: dict[str, Any]) -> str:
    return series_key(row)


def _series(panel_rows: Sequence[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The panel's rows by run (condition first), with each run's label."""
    labels = bar_labels(panel_rows)
    out: dict[str, list[dict[str, Any]]] = {}
    for row in panel_rows:
        out.setdefault(_series_key(row), []).append(row)
    return [(labels[k], v) for k, v in out.items()]


def condition_figure(rows: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Draw the figure for ``rows`` to ``path`` (PNG or SVG)."""
    drawn = panels(rows)
    if not drawn:
        raise TsolveError("plot: no rows with an accuracy to draw (no tsolve task logs?)")
    todo = [p for key, panel_rows in sorted(drawn.items()) for p in _drawers(key, panel_rows, rows)]
    fig = new_figure(WIDE, PANEL_HEIGHT * len(todo) + 0.4)
    axes = fig.subplots(len(todo), 1, squeeze=False)[:, 0]
    for ax, (title, draw) in zip(axes, todo, strict=True):
        labels = draw(ax)
        ax.set_title(title, fontsize=TITLE_FONT)
        ax.tick_params(labelsize=LABEL_FONT)
        ax.grid(axis="y", alpha=0.3)
        if labels:
            handles, names = ax.get_legend_handles_labels()
            ax.legend(handles, [wrap_label(n) for n in names], fontsize=LEGEND_FONT,
                      loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)  # fmt: skip
    # a caption laid out below the axes
    fig.supxlabel(CAPTION, fontsize=LABEL_FONT, x=0.01, ha="left")
    plain_text(fig)  # before the first draw: names from the data are never TeX
    _room_for_legends(fig, list(axes))
    declutter(fig)
    return save(fig, path, dpi=DPI)


def _room_for_legends(fig: Any, axes: list[Any]) -> None:
    """Make each panel at least as tall as its legend (many runs: a long
    legend), so that it never reaches into the panel below or the caption.
    A legend's height is its text's, whatever the layout, so it is measured
    before the layout is (which may give up on a legend taller than its
    panel: the warning that says so is the reason for this step)."""
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "constrained_layout not applied")
        fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    ratios = []
    for ax in axes:
        legend = ax.get_legend()
        tall = legend.get_window_extent(renderer).height / fig.dpi if legend is not None else 0.0
        ratios.append(max(1.0, (tall + LEGEND_MARGIN) / PANEL_HEIGHT))
    if max(ratios) > 1.0:
        axes[0].get_subplotspec().get_gridspec().set_height_ratios(ratios)
        fig.set_size_inches(WIDE, PANEL_HEIGHT * sum(ratios) + 0.4)


#: A panel: its title, and what draws it on an axes (returning its legend's labels).
_Drawer = tuple[str, Callable[[Any], list[str]]]


def _drawers(
    key: PanelKey, panel_rows: list[dict[str, Any]], rows: Sequence[dict[str, Any]]
) -> list[_Drawer]:
    """The panels one key of :func:`panels` is drawn as: one, or for a
    direction or two-way breakdown, its paper figure's panels (one a run)."""
    from tsolve.plots.paper_figures import breakdown_panels, draw_levels_run, draw_years

    task, model, _run, kind = key
    if kind == "levels":
        label = run_label(panel_rows[0], [r for r in rows if "level" in r])
        run = f" ({label})" if label else ""

        def levels(ax: Any) -> list[str]:
            draw_levels_run(ax, panel_rows)
            return [str(t) for t in ax.get_legend_handles_labels()[1]]

        return [(f"{task}  {model}{run}, attempt rate and NAR by elapsed time", levels)]
    if kind in ("direction", "cross"):
        paper = breakdown_panels(panel_rows, kind)
        if paper:
            return [(title.replace("\n", ", "), draw) for title, draw in paper]
    cross = " x ".join(f for f in CROSS_FIELDS if f in panel_rows[0])
    # titled as the paper figures' panels beside them are ("task  model, what")
    by = {"M": ", accuracy by answer-set size M", "reference_year": ", accuracy by reference year",
          "direction": ", accuracy by direction", "cross": f", accuracy by {cross}"}  # fmt: skip
    styles = {str(r.get("style", "-")) for r in panel_rows}
    # one style: the title names it; several: each bar's label does
    one = f" ({next(iter(styles))})" if len(styles) == 1 and styles != {"-"} else ""

    def bars(ax: Any) -> list[str]:
        if kind == "reference_year":
            draw_years(ax, panel_rows)
            labels = [str(t) for t in ax.get_legend_handles_labels()[1]]
        else:
            labels = _bars(ax, _series(panel_rows), kind)
        ax.set_ylabel("accuracy (%)", fontsize=LABEL_FONT)
        ax.set_ylim(0, 122)
        ax.set_yticks(range(0, 101, 20))
        return labels

    overall = len({r["M"] for r in panel_rows}) == 1 and kind == "M"
    return [(f"{task}{one}  {model}{', accuracy' if overall else by[kind]}", bars)]


def levels_series(panel_rows: Sequence[dict[str, Any]]) -> dict[str, dict[Any, float | None]]:
    """The numbers a "levels" panel (TicToc's) draws, by measure and level (fractions):
    accuracy and attempt rate of the prefer-tool and prefer-no-tool samples,
    and the level's NAR."""
    out: dict[str, dict[Any, float | None]] = {}
    for r in panel_rows:
        if r["preference"] == "all":
            out.setdefault("NAR", {})[r["level"]] = r.get("nar")
        else:
            pref = str(r["preference"]).replace("_", "-")
            out.setdefault(f"accuracy, prefer {pref}", {})[r["level"]] = r["accuracy"]
            out.setdefault(f"attempt rate, prefer {pref}", {})[r["level"]] = r["attempt_rate"]
    return dict(sorted(out.items()))


def _bars(ax: Any, series: list[tuple[str, list[dict[str, Any]]]], kind: str) -> list[str]:
    """One bar group per M (or direction), one bar per run, each with its
    value; each group named with its n; groups in natural order
    (:mod:`tsolve.plots.ordering`). Returns the legend's labels."""
    field = {"M": "M", "direction": "direction", "cross": "_cross"}[kind]
    if kind == "cross":
        series = [(label, [{**r, "_cross": cross_label(r)} for r in rs]) for label, rs in series]
    groups = ordered(r[field] for _, rs in series for r in rs)
    width = min(0.8 / max(len(series), 1), 0.2)
    ns: dict[Any, set[int]] = {}
    for i, (label, run_rows) in enumerate(series):
        xs, ys, errs = [], [], []
        for g, m in enumerate(groups):
            row = next((r for r in run_rows if r[field] == m), None)
            if row is None:
                continue
            xs.append(g + width * (i - (len(series) - 1) / 2))
            ys.append(100 * row["accuracy"])
            errs.append(100 * (row["stderr"] or 0.0))
            ns.setdefault(m, set()).add(row["n"])
        explicit = any(r.get("style") == "explicit" for r in run_rows)
        # one colour per run but for its style (explicit is the hatched twin)
        runs = list(dict.fromkeys(twin_key(rs[0]) for _, rs in series))
        color = PALETTE[runs.index(twin_key(run_rows[0])) % len(PALETTE)]
        drawn = ax.bar(xs, ys, width, yerr=errs, capsize=2, label=label, color=color,
                       hatch="//" if explicit else None, edgecolor="white",
                       error_kw={"elinewidth": 0.8})  # fmt: skip
        annotate_bars(ax, drawn, ys, [y + e for y, e in zip(ys, errs, strict=True)])
    names = [f"M={m}" for m in groups] if kind == "M" else [str(m) for m in groups]
    if groups == ["all"]:
        names, kind = ["all samples"], "overall"
    counts = [sorted(ns.get(m, {0})) for m in groups]
    shown = [f"n={c[0]}" if len(c) == 1 else f"n={c[0]}-{c[-1]}" for c in counts]
    # a long name on lines of its words, not into its neighbour's
    ax.set_xticks(range(len(groups)),
                  [f"{wrap_label(nm.replace('_', ' '), 14)}\n{n}"
                   for nm, n in zip(names, shown, strict=True)])  # fmt: skip
    ax.set_xlim(-0.6, len(groups) - 0.4)
    cross = " x ".join(f for f in CROSS_FIELDS if any(f in r for _, rs in series for r in rs))
    named = {"M": "answer-set size M", "direction": "conversion direction", "overall": ""}
    ax.set_xlabel(named.get(kind, cross), fontsize=LABEL_FONT)
    return [label for label, _ in series]


def __getattr__(name: str) -> Any:
    from tsolve.compat.moved_names import moved

    return moved(__name__, name)
