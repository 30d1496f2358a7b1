"""SPAN's figures (``tsolve report --plot OUT --figure span-year /
span-direction / span-type-format``), drawn from their tables."""

from __future__ import annotations

from typing import Any

from tsolve.plots.layout import LABEL_FONT, thin_ticks
from tsolve.plots.ordering import ordered
from tsolve.plots.paper_figures import (
    PALETTE,
    Panel,
    _bars,
    _cross_panels,
    _n_text,
    _percent_axis,
    _split,
    _two_lines,
    _values,
    _who,
)


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


def _type_format_panels(table: list[dict[str, Any]]) -> list[Panel]:
    return _cross_panels(table, "type", "format", "accuracy by type x format",
                         "question type (bars: answer format)")  # fmt: skip
