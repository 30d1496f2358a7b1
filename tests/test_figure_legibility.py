"""The report's figures read at the size a paper prints them: legends name
conditions in words, legends stay inside the figure, no text runs into
another, every bar carries its value, fonts stay legible at 7 inches.

The rows are written by hand in the shape ``tsolve report`` gives them, from
runs a real session makes (a model run, a refusing scripted run, its explicit
twin, a calendar-tools run, and one with another temperature), with settings
spelt the way Inspect logs them; the checks read the drawn figure's boxes
(matplotlib's window extents after a draw on the Agg canvas)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from tsolve.plots.layout import MIN_FONT, VALUE_GID, WIDE
from tsolve.plots.paper_tables import CHOICES, paper_table
from tsolve.plots.run_labels import condition_name, run_label, solver_name

#: Spellings of the log's bookkeeping that a legend must never show.
INTERNAL = ("+", "generate", "tsolve/", "=", "_", "record run", "none")

MODEL = "generate+tsolve/record_run"


def _acc(*key: Any) -> float:
    """A fixed accuracy for ``key``, 0..1 in steps of 1/12 (some 0, some 1)."""
    return (int(hashlib.sha1(repr(key).encode()).hexdigest(), 16) % 13) / 12


def _run(eval_id: str, task: str, condition: str, style: str, **settings: Any) -> dict[str, Any]:
    return {"task": task, "model": "mockllm/model", "condition": condition, "style": style,
            "eval_id": eval_id, "reducer": "mean", "tags": settings.get("tags", []),
            "solver": settings.get("solver", MODEL),
            "solver_args": settings.get("solver_args", {}),
            "task_args": settings.get("task_args", {}), "epochs": 1,
            "generate_config": settings.get("generate_config", {}),
            "log": f"{eval_id}.eval"}  # fmt: skip


def _row(run: dict[str, Any], n: int = 6, **fields: Any) -> dict[str, Any]:
    acc = _acc(run["eval_id"], sorted(fields.items()))
    return {**run, "M": "all", **fields, "n": n, "accuracy": acc, "stderr": 0.1 * (0 < acc < 1),
            "metrics": {"em": acc, "f1": min(1.0, acc + 0.1)},
            "metric_stderr": {"em": 0.1, "f1": 0.1}}  # fmt: skip


def _rows() -> list[dict[str, Any]]:
    tp = "tsolve/time_puzzles"
    args = {"count": 6, "seed": 1, "solutions": "1-3", "tools": "none"}
    runs = [
        _run("tp-model", tp, "none", "implicit", task_args=args),
        _run("tp-refuse", tp, "none", "implicit", tags=["refuse"], solver="tsolve/scripted",
             solver_args={"answer": "refuse"}, task_args=args),
        _run("tp-warm", tp, "none", "implicit", generate_config={"temperature": 0.7},
             task_args=args),
        _run("tp-explicit", tp, "none", "explicit", task_args={**args, "style": "explicit"}),
        _run("tp-calendar", tp, "calendar", "implicit", solver="tsolve/scripted",
             solver_args={"answer": "gold"}, task_args={**args, "tools": "calendar"}),
        _run("tp-file", tp, "none", "implicit"),  # records from a file: no task options
    ]  # fmt: skip
    rows = [_row(r, M=m) for r in runs for m in (1, 2, 3, "all")]  # 24 bars a panel
    span = "tsolve/span"
    years = [*range(1960, 2051, 5), 1972]  # 20 years, one a bin: 1970, 1972, 1975 side by side
    calendars = ("chinese", "hebrew", "islamic", "islamic-umalqura", "persian", "shaka")
    directions = [f"gregorian->{c}" for c in calendars] + [f"{c}->gregorian" for c in calendars]
    for run in (_run("span-model", span, "none", "-"),
                _run("span-tools", span, "calendar", "-", solver="tsolve/scripted")):  # fmt: skip
        base = {"reference_year": "all", "direction": "all", "type": "all", "format": "all"}
        rows.append(_row(run, 240, **base))
        rows += [_row(run, 12, **{**base, "reference_year": y}) for y in years]
        rows += [_row(run, 20, **{**base, "direction": d}) for d in directions]
        rows += [_row(run, 60, **{**base, "type": t, "format": f})
                 for t in ("date", "festival") for f in ("polar", "content")]  # fmt: skip
    lg = _run("lg-model", "tsolve/logistics", "none", "-")
    rows += [_row(lg, 3, difficulty=d, question_type=q)
             for d in ("easy", "medium", "hard_serial", "hard_parallel")
             for q in ("static_time", "relative_time", "hypothetical_time")]  # fmt: skip
    for run in (_run("tt-a", "tsolve/tictoc", "none", "-", solver="tsolve/next_move"),
                _run("tt-b", "tsolve/tictoc", "none", "-", solver="tsolve/next_move",
                     generate_config={"temperature": 0.5})):  # fmt: skip
        for level in (0, 1, 2):
            for pref in ("tool", "no_tool", "all"):
                row = _row(run, 4, level=level, preference=pref)
                row.update(attempt_rate=row["accuracy"], nar=0.5 if pref == "all" else None)
                del row["M"]
                rows.append(row)
    return rows


ROWS = _rows()


@pytest.fixture(scope="module")
def figures() -> Iterator[dict[str, Any]]:
    """Every report figure of :data:`ROWS`, drawn (not written)."""
    import tsolve.plots.conditions as conditions
    import tsolve.plots.paper_figures as paper_figures

    drawn: list[Any] = []

    def keep(fig: Any, path: str | Path, **kw: Any) -> Path:
        fig.draw_without_rendering()  # laid out as savefig lays it out
        drawn.append(fig)
        return Path(path)

    out: dict[str, Any] = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(conditions, "save", keep)
        mp.setattr(paper_figures, "save", keep)
        # the overview's own panels (M, years) and two of the paper panels it
        # stacks; the rest are the paper figures' below
        few = [r for r in ROWS if r["task"] in ("tsolve/time_puzzles", "tsolve/span")
               and r.get("direction", "all") == "all"]  # fmt: skip
        conditions.condition_figure(few, "overview.png")
        out["overview"] = drawn.pop()
        for choice in CHOICES:
            paper_figures.paper_figure(ROWS, choice, f"{choice}.png")
            out[choice] = drawn.pop()
    yield out


def _texts(fig: Any) -> list[Any]:
    from matplotlib.text import Text

    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def _legends(fig: Any) -> list[Any]:
    return [lg for lg in [*fig.legends, *(ax.get_legend() for ax in fig.axes)] if lg is not None]


def _overlaps(a: Any, b: Any) -> bool:
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5 and min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5


def test_legends_name_conditions_in_words(figures: dict[str, Any]) -> None:
    for name, fig in figures.items():
        assert _legends(fig), name
        for legend in _legends(fig):
            for text in legend.get_texts():
                shown = text.get_text()
                bad = [tok for tok in INTERNAL if tok in shown]
                assert not bad, f"{name}: legend entry {shown!r} shows {bad}"


def test_series_follow_one_naming_rule() -> None:
    table = paper_table(ROWS, "time-puzzles")
    labels = {r["series"] for r in table}
    rule = re.compile(r"(no tools|calendar tools), (implicit|explicit)( \([a-z0-9 .,-]+\))?")
    assert all(rule.fullmatch(lb) for lb in labels), labels
    # the run from a file sets none of the options the others differ by: it
    # is the condition itself; the refusing run is named by its tag
    assert {
        "no tools, implicit",
        "no tools, implicit (count 6, seed 1, solutions 1-3)",
        "no tools, implicit (count 6, seed 1, solutions 1-3, temperature 0.7)",
        "no tools, implicit (refuse)",
        "no tools, explicit",
        "calendar tools, implicit",
    } == labels


def test_run_labels_read_as_words() -> None:
    def run(eval_id: str, **kw: Any) -> dict[str, Any]:
        return _run(eval_id, "t", "none", "implicit", **kw)

    a = run("a", task_args={"count": 6, "seed": 1, "tools": "none"})
    b = run("b", task_args={"count": 6, "seed": 2}, solver="tsolve/scripted",
            solver_args={"max_turns": 3})  # fmt: skip
    # tools=none is the condition, which the label names already
    assert run_label(a, [a, b]) == "seed 1"
    assert run_label(b, [a, b]) == "scripted solver, max turns 3, seed 2"
    assert solver_name(MODEL) == "" and solver_name("tsolve/next_move") == "next move"
    assert condition_name("none") == "no tools" and condition_name("calendar") == "calendar tools"


def test_legends_stay_inside_the_figure_and_off_the_panels(figures: dict[str, Any]) -> None:
    for name, fig in figures.items():
        renderer = fig.canvas.get_renderer()
        page = fig.bbox
        for legend in _legends(fig):
            box = legend.get_window_extent(renderer)
            inside = (box.x0 >= page.x0 - 1 and box.x1 <= page.x1 + 1 and box.y0 >= page.y0 - 1
                      and box.y1 <= page.y1 + 1)  # fmt: skip
            assert inside, f"{name}: legend {box} outside the figure {page}"
            for ax in fig.axes:
                assert not _overlaps(box, ax.get_window_extent(renderer)), f"{name}: over a panel"
        for ax in fig.axes:  # a panel's own legend stays in the panel's grid cell
            legend = ax.get_legend()
            if legend is None:
                continue
            spec = ax.get_subplotspec()
            columns, width = spec.get_gridspec().ncols, fig.bbox.width
            left, right = (
                spec.colspan.start / columns * width,
                spec.colspan.stop / columns * width,
            )
            box = legend.get_window_extent(renderer)
            inside = left - 2 <= box.x0 and box.x1 <= right + 2
            assert inside, f"{name}: legend {box} out of its column {left}..{right}"


def test_no_text_runs_into_another(figures: dict[str, Any]) -> None:
    for name, fig in figures.items():
        renderer = fig.canvas.get_renderer()
        for ax in fig.axes:
            ticks = [t for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
            values = [t for t in ax.texts if t.get_gid() == VALUE_GID]
            for group in (ticks, values):
                boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in group]
                for i, (ta, a) in enumerate(boxes):
                    for tb, b in boxes[i + 1 :]:
                        assert not _overlaps(a, b), f"{name}: {ta!r} runs into {tb!r}"
            assert all(t.get_rotation() == 0 for t in ticks), f"{name}: slanted ticks"
            title = ax.title.get_window_extent(renderer)
            for t in values:  # a value never climbs into the title
                assert not _overlaps(t.get_window_extent(renderer), title), name


def test_every_bar_carries_its_value(figures: dict[str, Any]) -> None:
    for name, fig in figures.items():
        for ax in fig.axes:
            bars = [b for c in ax.containers if hasattr(c, "patches") for b in c.patches]
            values = [t for t in ax.texts if t.get_gid() == VALUE_GID]
            assert len(values) == len(bars), f"{name}: {len(bars)} bars, {len(values)} values"
            for bar, text in zip(bars, values, strict=True):
                assert text.get_text() == f"{bar.get_height():.0f}", name


def test_figures_are_drawn_at_print_size(figures: dict[str, Any]) -> None:
    for name, fig in figures.items():
        assert fig.get_figwidth() <= WIDE + 1e-9, f"{name}: {fig.get_figwidth()} in wide"
        small = [(t.get_text(), t.get_fontsize()) for t in _texts(fig)
                 if t.get_fontsize() < MIN_FONT]  # fmt: skip
        assert not small, f"{name}: {small[:3]}"


def test_a_long_legend_gets_a_taller_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve runs of one condition: the overview's legend, two lines an
    entry, is taller than a panel; the panel grows, and the legend stays
    inside the figure and off the caption."""
    import tsolve.plots.conditions as conditions

    tp = "tsolve/time_puzzles"
    runs = [_run(f"t{k}", tp, "none", "implicit", generate_config={"temperature": k / 10},
                 task_args={"count": 6, "seed": k, "solutions": "1-3"})
            for k in range(12)]  # fmt: skip
    rows = [_row(r, M=m) for r in runs for m in (1, "all")]
    drawn: list[Any] = []
    monkeypatch.setattr(conditions, "save", lambda fig, path, **kw: drawn.append(fig))
    conditions.condition_figure(rows, "overview.png")
    (fig,) = drawn
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    (ax,) = fig.axes
    legend = ax.get_legend().get_window_extent(renderer)
    assert len(ax.get_legend().get_texts()) == 12
    assert legend.y0 >= fig.bbox.y0 and legend.y1 <= fig.bbox.y1
    assert not _overlaps(legend, fig._supxlabel.get_window_extent(renderer))
