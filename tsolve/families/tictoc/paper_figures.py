"""TicToc's figure (``tsolve report --plot OUT --figure tictoc``): by
elapsed-time level, the attempt rates and the NAR, from its table."""

from __future__ import annotations

from typing import Any

from tsolve.plots.layout import LABEL_FONT
from tsolve.plots.paper_figures import Panel, _bars, _split, _who

#: The paper's names of its elapsed-time levels.
LEVEL_NAMES = {0: "small", 1: "medium", 2: "large"}


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
