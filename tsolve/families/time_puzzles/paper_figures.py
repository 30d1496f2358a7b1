"""The Time Puzzles paper's figure (``tsolve report --plot OUT --figure
time-puzzles``), drawn from its table: per model, EM and F1 by answer-set
size M, the explicit twin hatched beside its implicit run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tsolve.plots.layout import LABEL_FONT
from tsolve.plots.ordering import ordered
from tsolve.plots.paper_figures import (
    HALF_PAGE_BARS,
    PALETTE,
    Panel,
    _bars,
    _n_text,
    _split,
    _who,
)
from tsolve.plots.run_labels import twin_key


def columns(table: list[dict[str, Any]]) -> int:
    """The figure's columns: a model's EM and F1 panels side by side, a row
    a model; stacked when a panel has more bars than half a page holds
    (:data:`~tsolve.plots.paper_figures.HALF_PAGE_BARS`)."""
    return 1 if max(map(len, _split(table, ("task", "model")).values())) > HALF_PAGE_BARS else 2


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
