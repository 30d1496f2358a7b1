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
    thin_ticks,
    wrap_label,
)
from tsolve.plots.ordering import ordered
from tsolve.plots.output import new_figure, save
from tsolve.plots.paper_tables import CHOICES, paper_table
from tsolve.plots.run_labels import twin_key

#: One colour per series (condition and run), in the table's order.
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
           "#8c8c8c", "#ccb974", "#64b5cd")  # fmt: skip

#: The caption under every figure.
CAPTION = "error bars: ±1 s.e. of the mean over samples"

#: TicToc's elapsed-time levels, as the paper names them.
LEVEL_NAMES = {0: "small", 1: "medium", 2: "large"}

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
    if choice not in CHOICES:
        raise TsolveError(f"figure: unknown choice {choice!r} ({', '.join(CHOICES)}, all, auto)")
    table = paper_table(rows, choice)
    drawn = _PANELS[choice](table)
    note = _NOTES.get(choice, "")
    # Time Puzzles with F1: a model's EM and F1 panels side by side, a row a
    # model; stacked when a panel has more bars than half a page holds
    columns = _COLUMNS.get(choice, MAX_COLUMNS)
    if choice == "time-puzzles" and max(map(len, _split(table, ("task", "model")).values())) > (
        HALF_PAGE_BARS
    ):
        columns = 1
    return _draw(drawn, path, f"{CAPTION}{note}", choice in _WIDE_ALONE, columns)


def figures_with_data(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The choices the report's rows have data for, in :data:`CHOICES` order."""
    out = []
    for choice in CHOICES:
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


# ------------------------------------------------------------ Time Puzzles


def _time_puzzles_panels(table: list[dict[str, Any]]) -> list[Panel]:
    """Per model: EM, and F1 beside it where the logs have it; a bar group
    per M and one for all M, a bar per condition and style, the explicit twin
    hatched beside its implicit run in the same colour."""
    out: list[Panel] = []
    for (task, model), rows in _split(table, ("task", "model")).items():
        metrics = [("em", "stderr", "exact match")]
        if any(r["f1"] is not None for r in rows):
            metrics.append(("f1", "f1_stderr", "F1"))
        for key, err, name in metrics:
            out.append((f"{task}  {_who(model)}\n{name} by answer-set size M",
                        _tp_draw(rows, key, err, name)))  # fmt: skip
    return out


def _tp_draw(
    rows: list[dict[str, Any]], key: str, err: str, name: str
) -> Callable[[Any], list[str]]:
    def draw(ax: Any) -> list[str]:
        groups = ordered([r["M"] for r in rows])
        by = _split(rows, ("series",))
        # implicit and explicit of one run side by side, one colour per run
        runs = list(dict.fromkeys(twin_key(rs[0]) for rs in by.values()))
        order = sorted(by, key=lambda s: (runs.index(twin_key(by[s][0])),
                                          by[s][0]["style"] == "explicit"))  # fmt: skip
        series = [(s, {r["M"]: (r[key], r[err]) for r in by[(s,)]}) for (s,) in order]
        colors = [PALETTE[runs.index(twin_key(by[(s,)][0])) % len(PALETTE)] for (s,) in order]
        hatches = ["//" if by[(s,)][0]["style"] == "explicit" else None for (s,) in order]
        labels = _bars(ax, groups, series, hatches=hatches, colors=colors)
        names = [(f"M={m}" if m != "all" else "all M") for m in groups]
        ax.set_xticks(range(len(groups)),
                      [f"{nm}\n{_n_text([r for r in rows if r['M'] == m])}"
                       for nm, m in zip(names, groups, strict=True)])  # fmt: skip
        if "all" in groups and len(groups) > 1:
            ax.axvline(len(groups) - 1.5, color="grey", linewidth=0.6, linestyle=":")
        ax.set_xlabel("answer-set size M (dates that satisfy the puzzle)", fontsize=LABEL_FONT)
        ax.set_ylabel(f"{name} (%)", fontsize=LABEL_FONT)
        return labels

    return draw


# ------------------------------------------------------------ SPAN


def _year_panels(table: list[dict[str, Any]], max_ticks: int | None = None) -> list[Panel]:
    """Per model: accuracy against reference year, a line per run; with
    ``max_ticks``, only every k-th year is named (a narrow panel)."""
    out: list[Panel] = []
    for (task, model), rows in _split(table, ("task", "model")).items():

        def draw(ax: Any, rows: list[dict[str, Any]] = rows) -> list[str]:
            labels = []
            for i, ((series,), part) in enumerate(_split(rows, ("series",)).items()):
                xs = [r["year_from"] for r in part]
                ys = [100 * r["accuracy"] for r in part]
                errs = [100 * (r["stderr"] or 0.0) for r in part]
                ax.errorbar(xs, ys, yerr=errs, marker="o", markersize=3, capsize=2, label=series,
                            color=PALETTE[i % len(PALETTE)], linewidth=1.2)  # fmt: skip
                labels.append(series)
            # a point at a bin's first year; many bins are named by that year
            # alone, so that the labels do not run into each other
            bins = _split(rows, ("year_from",))
            short = len(bins) > 8
            ticks = sorted(y for (y,) in bins)
            names = [str(y) if short else bins[(y,)][0]["years"] for y in ticks]
            ns = [_n_text(bins[(y,)]) for y in ticks]
            labels_at = [f"{nm}\n{n}" for nm, n in zip(names, ns, strict=True)]
            if max_ticks is not None and len(ticks) > max_ticks:
                step = -(-len(ticks) // max_ticks)
                ticks, labels_at = ticks[::step], names[::step]
            ax.set_xticks(ticks, labels_at, fontsize=LABEL_FONT)
            thin_ticks(ax)  # years: a label left out still has its neighbours
            _percent_axis(ax)
            ax.set_xlabel("reference year (the question's 'today')", fontsize=LABEL_FONT)
            ax.set_ylabel("accuracy (%)", fontsize=LABEL_FONT)
            return labels

        out.append((f"{task}  {_who(model)}\naccuracy by reference year", draw))
    return out


def _direction_panels(table: list[dict[str, Any]]) -> list[Panel]:
    """Per run: for each other calendar (and all pooled), converting from
    the Gregorian calendar against converting to it."""
    out: list[Panel] = []
    for (task, model, series), rows in _split(table, ("task", "model", "series")).items():

        def draw(ax: Any, rows: list[dict[str, Any]] = rows) -> list[str]:
            groups = ordered([r["calendar"] for r in rows])
            kinds = ordered([r["group"] for r in rows], ("gregorian->others", "others->gregorian"))
            shown = {"gregorian->others": "from Gregorian (Gregorian->others)",
                     "others->gregorian": "to Gregorian (others->Gregorian)"}  # fmt: skip
            bars = [(shown.get(k, k), _values(rows, "calendar", "group", k)) for k in kinds]
            hatches = [None if k == "gregorian->others" else "//" for k in kinds]
            labels = _bars(ax, groups, bars, hatches=hatches)
            # a long name ("islamic-umalqura") on two lines, not into its neighbour's
            ax.set_xticks(range(len(groups)),
                          [_two_lines(g, [r for r in rows if r["calendar"] == g])
                           for g in groups], fontsize=LABEL_FONT)  # fmt: skip
            if "all" in groups and len(groups) > 1:
                ax.axvline(len(groups) - 1.5, color="grey", linewidth=0.6, linestyle=":")
            ax.set_xlabel("the other calendar", fontsize=LABEL_FONT)
            return labels

        out.append((f"{task}  {_who(model, series)}\naccuracy by direction", draw))
    return out


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


def _type_format_panels(table: list[dict[str, Any]]) -> list[Panel]:
    return _cross_panels(table, "type", "format", "accuracy by type x format",
                         "question type (bars: answer format)")  # fmt: skip


def _uqa_panels(table: list[dict[str, Any]]) -> list[Panel]:
    return _cross_panels(table, "difficulty", "question_type",
                         "accuracy by difficulty x question type",
                         "difficulty (bars: question type)")  # fmt: skip


# ------------------------------------------------------------ TicToc


def _tictoc_panels(table: list[dict[str, Any]]) -> list[Panel]:
    """Per run: by elapsed-time level, the attempt rate of prefer-tool and of
    prefer-no-tool samples (bars), and the NAR (a line; 50 % is chance)."""
    out: list[Panel] = []
    for (task, model, series), rows in _split(table, ("task", "model", "series")).items():

        def draw(ax: Any, rows: list[dict[str, Any]] = rows) -> list[str]:
            levels = [r["level"] for r in rows]
            bars = [
                ("attempt rate: prefer tool",
                 {r["level"]: (r["attempt_tool"], r["attempt_tool_stderr"]) for r in rows}),
                ("attempt rate: prefer no-tool",
                 {r["level"]: (r["attempt_no_tool"], r["attempt_no_tool_stderr"]) for r in rows}),
            ]  # fmt: skip
            labels = _bars(ax, levels, bars, hatches=[None, "//"])
            points = [(g, r) for g, r in enumerate(rows) if r["nar"] is not None]
            if points:
                ax.errorbar([g for g, _ in points], [100 * r["nar"] for _, r in points],
                            yerr=[100 * (r["nar_stderr"] or 0.0) for _, r in points],
                            color="black", marker="o", markersize=4, capsize=2,
                            label="NAR")  # fmt: skip
                labels.append("NAR")
            ax.axhline(50, color="grey", linewidth=0.6, linestyle="--")
            names = [f"{v} ({LEVEL_NAMES[v]})" if v in LEVEL_NAMES else str(v) for v in levels]
            ax.set_xticks(range(len(levels)),
                          [f"{nm}\nn={r['n_tool']}+{r['n_no_tool']}"
                           for nm, r in zip(names, rows, strict=True)])  # fmt: skip
            ax.set_xlabel(
                "elapsed-time level (n: prefer-tool + prefer-no-tool)", fontsize=LABEL_FONT
            )
            ax.set_ylabel("% of samples", fontsize=LABEL_FONT)
            return labels

        out.append((f"{task}  {_who(model, series)}\nattempt rate and NAR by elapsed time", draw))
    return out


def draw_years(ax: Any, rows: Sequence[dict[str, Any]]) -> None:
    """One model's accuracy against reference year (the report's rows of it)
    on ``ax``, binned as ``--figure span-year`` bins them: the overview
    figure's year panel is this one."""
    ((_, draw),) = _year_panels(paper_table(rows, "span-year"), max_ticks=OVERVIEW_TICKS)
    draw(ax)


def breakdown_panels(rows: Sequence[dict[str, Any]], kind: str) -> list[Panel]:
    """The panels ``--figure span-direction`` (``kind`` "direction") or the
    two-way figure (``kind`` "cross": SPAN's type x format, the logistics
    difficulty x question type) draws of one task and model's report rows,
    a panel per run: the overview figure's panels of those breakdowns are
    these ones. [] when the rows make no such table."""
    if kind == "direction":
        choice = "span-direction"
    else:
        choice = "span-type-format" if any("type" in r for r in rows) else "unseentimeqa"
    try:
        table = paper_table(rows, choice)
    except TsolveError:
        return []
    return _PANELS[choice](table)


def draw_tictoc_run(ax: Any, run_rows: Sequence[dict[str, Any]]) -> None:
    """One TicToc run's panel (from the report's rows of that run) on ``ax``,
    its legend beside it: the overview figure's TicToc panel is this one."""
    ((_, draw),) = _tictoc_panels(paper_table(run_rows, "tictoc"))
    draw(ax)
    ax.legend(fontsize=LEGEND_FONT, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)


_PANELS: dict[str, Callable[[list[dict[str, Any]]], list[Panel]]] = {
    "time-puzzles": _time_puzzles_panels, "span-year": _year_panels,
    "span-direction": _direction_panels, "span-type-format": _type_format_panels,
    "unseentimeqa": _uqa_panels, "tictoc": _tictoc_panels,
}  # fmt: skip

_NOTES = {
    "time-puzzles": "; explicit constraints hatched beside their implicit twin",
    "span-year": "; with many reference years a point is a bin of years, drawn at its first",
    "span-direction": "; 'all' pools every other calendar",
    "span-type-format": "; 'all' pools over the other field",
    "unseentimeqa": "; 'all' pools over the other field",
    "tictoc": "; NAR: normalized alignment rate (dashed: 50 %, chance)",
}

#: The figures whose one panel is drawn a page wide (many groups or years).
_WIDE_ALONE = frozenset({"span-year", "unseentimeqa", "span-direction"})

#: The figures whose panels are stacked a page wide: seven calendars' names
#: ("islamic-umalqura") do not fit under half a page.
_COLUMNS = {"span-direction": 1}
