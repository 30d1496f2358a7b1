"""Each paper's own figure, drawn from its table (:mod:`tsolve.plots.paper_tables`).

``tsolve report --plot OUT --figure NAME``. One figure per choice, a panel
per model (Time Puzzles: and per metric, EM and F1) or per run (the two-way
breakdowns and TicToc), laid out as a small-multiples grid of at most two
columns with no empty cell, at the size a paper prints it (one column, or
the page's width: :mod:`tsolve.plots.layout`); bars of one panel share one
legend, drawn once above the grid when every panel has the same. Every bar
carries its value, and every bar and point ±1 standard error of the mean
over samples, which the caption under the figure says. The numbers are the
table's rows, so ``--table NAME`` prints exactly what is drawn.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.layout import (
    DPI,
    LABEL_FONT,
    LEGEND_CHARS,
    LEGEND_FONT,
    NARROW,
    TITLE_FONT,
    WIDE,
    annotate_bars,
    declutter,
    wrap_label,
)
from tsolve.plots.output import new_figure, save
from tsolve.plots.paper_tables import paper_table, paper_tables

#: One colour per series (condition and run), in the table's order.
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
           "#8c8c8c", "#ccb974", "#64b5cd")  # fmt: skip

#: The caption under every figure.
CAPTION = "error bars: ±1 s.e. of the mean over samples"


#: Most years named under a narrow (overview) panel's axis.
OVERVIEW_TICKS = 8

#: Most columns of a small-multiples grid (each at least a column wide).
MAX_COLUMNS = 2

#: A panel's height, inches.
PANEL_HEIGHT = 2.5

#: Most bars a half-page panel holds with each bar's value legible.
HALF_PAGE_BARS = 20

#: A panel: its title, and what draws it on an axes (returning its legend
#: entries' labels, so the figure can tell whether one legend serves all).
Panel = tuple[str, Callable[[Any], list[str]]]


def paper_figure(rows: Sequence[dict[str, Any]], choice: str, path: str | Path) -> Path:
    """Draw paper figure ``choice`` (one of :data:`CHOICES`) of the report's
    ``rows`` to ``path`` (PNG or SVG); a one-line error when the logs have no
    rows for it."""
    tables = paper_tables()
    if choice not in tables or tables[choice].panels is None:
        choices = [k for k, t in tables.items() if t.panels is not None]
        raise TsolveError(f"figure: unknown choice {choice!r} ({', '.join(choices)}, all, auto)")
    paper = tables[choice]
    table = paper_table(rows, choice)
    drawn = _panels_of(paper)(table)
    columns = paper.columns if isinstance(paper.columns, int) else paper.columns(table)
    return _draw(drawn, path, f"{CAPTION}{paper.note}", paper.wide, columns)


def figures_with_data(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The choices the report's rows have data for, in the tables' order."""
    out = []
    for choice, paper in paper_tables().items():
        if paper.panels is None:
            continue
        try:
            paper_table(rows, choice)
        except TsolveError:
            continue
        out.append(choice)
    return out


def _draw(panels: list[Panel], path: str | Path, caption: str, wide: bool, columns: int) -> Path:
    """The panels as a grid of at most ``columns`` columns, a page wide (one
    column wide for a single panel, unless ``wide``)."""
    ncols = min(len(panels), columns)
    nrows = -(-len(panels) // ncols)
    width = WIDE if len(panels) > 1 or wide else NARROW
    fig = new_figure(width, PANEL_HEIGHT * nrows + 0.9)
    grid = fig.subplots(nrows, ncols, squeeze=False)
    axes = [ax for line in grid for ax in line]
    for ax in axes[len(panels) :]:
        ax.remove()  # no empty panels
    legends = []
    for ax, (title, draw) in zip(axes, panels, strict=False):
        legends.append(draw(ax))
        ax.set_title(title, fontsize=TITLE_FONT)
        ax.grid(axis="y", alpha=0.3)
        ax.tick_params(labelsize=LABEL_FONT)
    shared = all(lg == legends[0] for lg in legends) and legends[0]
    if shared:
        handles, labels = axes[0].get_legend_handles_labels()
        # a long entry on two lines, never wider than a narrow figure
        labels = [wrap_label(lb, 2 * LEGEND_CHARS) for lb in labels]
        fig.legend(handles, labels, loc="outside upper center", fontsize=LEGEND_FONT,
                   ncols=_legend_columns(labels, width), frameon=False)  # fmt: skip
    else:
        for ax, lg in zip(axes, legends, strict=False):
            if lg:
                handles, labels = ax.get_legend_handles_labels()
                ax.legend(handles, [wrap_label(lb) for lb in labels], fontsize=LEGEND_FONT,
                          loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)  # fmt: skip
    # wrapped to the figure's width (about 4 points a character at size 7)
    fig.supxlabel(textwrap.fill(caption, int(width * 72 * 0.95) // 4), fontsize=LABEL_FONT)
    declutter(fig)
    return save(fig, path, dpi=DPI)


def _legend_columns(labels: Sequence[str], width_inches: float) -> int:
    """As many legend entries a line as fit the figure's width (an entry is
    about 4.2 points a character at font size 7, and its key 30)."""
    entry = 4.2 * max(len(line) for lb in labels for line in lb.split("\n")) + 30
    return max(1, min(len(labels), int(width_inches * 72 * 0.95 // entry)))


def _bars(
    ax: Any, groups: Sequence[Any], series: Sequence[tuple[str, dict[Any, tuple[Any, Any]]]],
    *, hatches: Sequence[str | None] | None = None, colors: Sequence[str] | None = None,
) -> list[str]:  # fmt: skip
    """One bar group per ``groups`` entry, one bar per series (label, values
    by group: (mean, stderr), fractions), with error bars; the y axis in %."""
    width = min(0.8 / max(len(series), 1), 0.28)
    for i, (label, values) in enumerate(series):
        xs, ys, errs = [], [], []
        for g, group in enumerate(groups):
            mean, err = values.get(group, (None, None))
            if mean is None:
                continue
            xs.append(g + width * (i - (len(series) - 1) / 2))
            ys.append(100 * mean)
            errs.append(100 * (err or 0.0))
        color = colors[i] if colors else PALETTE[i % len(PALETTE)]
        hatch = hatches[i] if hatches else None
        bars = ax.bar(xs, ys, width, yerr=errs, capsize=2, label=label, color=color,
                      hatch=hatch, edgecolor="white", error_kw={"elinewidth": 0.8})  # fmt: skip
        # the mean on the bar, as the papers print it
        annotate_bars(ax, bars, ys, [y + e for y, e in zip(ys, errs, strict=True)])
    ax.set_xlim(-0.6, len(groups) - 0.4)
    _percent_axis(ax)
    ax.set_ylabel("accuracy (%)", fontsize=LABEL_FONT)
    return [label for label, _ in series]


def _percent_axis(ax: Any) -> None:
    """0 to 100 %, with room above 100 for a bar's error bar and value."""
    ax.set_ylim(0, 122)
    ax.set_yticks(range(0, 101, 20))


def _n_text(rows: Sequence[dict[str, Any]], key: str = "n") -> str:
    ns = sorted({r[key] for r in rows})
    return f"n={ns[0]}" if len(ns) == 1 else f"n={ns[0]}-{ns[-1]}"


def _values(
    rows: Sequence[dict[str, Any]], group: str, field: str, value: Any
) -> dict[Any, tuple[Any, Any]]:
    """(mean, stderr) by ``group`` of the rows whose ``field`` is ``value``."""
    return {r[group]: (r["accuracy"], r["stderr"]) for r in rows if r[field] == value}


def _margin(rows: Sequence[dict[str, Any]], down: str, across: str, g: Any) -> list[dict[str, Any]]:
    """The row of group ``g`` pooled over every ``across`` value."""
    return [r for r in rows if r[down] == g and r[across] == "all"]


def _two_lines(name: str, rows: Sequence[dict[str, Any]]) -> str:
    """A tick label: the name broken at its hyphens, then the rows' n."""
    return name.replace("-", "-\n") + "\n" + _n_text(rows)


def _words(name: Any) -> str:
    """A field's value as a label: ``hard_parallel`` as ``hard\nparallel``,
    ``static_time`` as ``static`` (every question type is about time)."""
    return str(name).removesuffix("_time").replace("_", "\n")


def _split(table: Sequence[dict[str, Any]], keys: Sequence[str]) -> dict[Any, list[dict[str, Any]]]:
    out: dict[Any, list[dict[str, Any]]] = {}
    for r in table:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def _who(model: str, series: str = "") -> str:
    return f"{model}: {series}" if series else model


def _cross_panels(
    table: list[dict[str, Any]], down: str, across: str, what: str, xlabel: str
) -> list[Panel]:
    """Per run: a bar group per ``down`` value (and all), a bar per
    ``across`` value (and all, in grey)."""
    out: list[Panel] = []
    for (task, model, series), rows in _split(table, ("task", "model", "series")).items():

        def draw(ax: Any, rows: list[dict[str, Any]] = rows) -> list[str]:
            groups = list(dict.fromkeys(r[down] for r in rows))
            kinds = list(dict.fromkeys(r[across] for r in rows))
            bars = [(_words(k).replace("\n", " "), _values(rows, down, across, k)) for k in kinds]
            colors = [PALETTE[i % len(PALETTE)] if k != "all" else "#8c8c8c"
                      for i, k in enumerate(kinds)]  # fmt: skip
            labels = _bars(ax, groups, bars, colors=colors)
            # a long name ("hard_parallel") on two lines, not into its neighbour's
            ax.set_xticks(range(len(groups)),
                          [f"{_words(g)}\n{_n_text(_margin(rows, down, across, g))}"
                           for g in groups])  # fmt: skip
            if "all" in groups and len(groups) > 1:
                ax.axvline(len(groups) - 1.5, color="grey", linewidth=0.6, linestyle=":")
            ax.set_xlabel(xlabel, fontsize=LABEL_FONT)
            return labels

        out.append((f"{task}  {_who(model, series)}\n{what}", draw))
    return out


def _overview_table(rows: Sequence[dict[str, Any]], role: str) -> tuple[Any, list[dict[str, Any]]]:
    """The first paper table declared for overview ``role`` that the rows
    make (its declaration and rows); a one-line error when none does."""
    for table in paper_tables().values():
        if table.overview == role:
            try:
                return table, paper_table(rows, table.name)
            except TsolveError:
                continue
    raise TsolveError(f"figure: no paper table for the overview's {role!r} panel")


def _panels_of(table: Any) -> Callable[..., list[Panel]]:
    from tsolve.contract.family import resolve

    panels: Callable[..., list[Panel]] = resolve(table.panels)
    return panels


def draw_years(ax: Any, rows: Sequence[dict[str, Any]]) -> None:
    """One model's accuracy against reference year (the report's rows of it)
    on ``ax``, binned as the paper figure of overview role ``years`` bins
    them: the overview figure's year panel is this one."""
    table, found = _overview_table(rows, "years")
    ((_, draw),) = _panels_of(table)(found, max_ticks=OVERVIEW_TICKS)
    draw(ax)


def breakdown_panels(rows: Sequence[dict[str, Any]], kind: str) -> list[Panel]:
    """The panels the paper figure of overview role ``kind`` ("direction",
    or "cross": a two-way table) draws of one task and model's report rows,
    a panel per run: the overview figure's panels of those breakdowns are
    these ones (of the first such figure the rows make). [] when the rows
    make no such table."""
    try:
        table, found = _overview_table(rows, kind)
    except TsolveError:
        return []
    return _panels_of(table)(found)


def draw_levels_run(ax: Any, run_rows: Sequence[dict[str, Any]]) -> None:
    """One run's panel by level (from the report's rows of that run) on
    ``ax``, its legend beside it: the overview figure's panel of a run
    reported by level is this one (the paper figure of overview role ``levels``)."""
    table, found = _overview_table(run_rows, "levels")
    ((_, draw),) = _panels_of(table)(found)
    draw(ax)
    ax.legend(fontsize=LEGEND_FONT, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)


def __getattr__(name: str) -> Any:
    """Names that moved or were renamed (:data:`tsolve.compat.moved_names.MOVED_NAMES`)."""
    from tsolve.compat.moved_names import moved

    return moved(__name__, name)
