"""Each paper's own table, computed from ``tsolve report``'s rows.

``tsolve report --table NAME`` prints one of these, and ``--plot OUT
--figure NAME`` draws it (:mod:`tsolve.plots.paper_figures`); both read the
same table rows, so a figure and its table never disagree. The choices:

* ``time-puzzles``: exact match (and F1 where the logs have it) by answer-set
  size M, per condition and style (the Time Puzzles paper's Figure 2/4 and
  Table 1: implicit against explicit constraints), and, for records that
  carry a published gold (the imported release), exact match against it;
* ``span-year``: accuracy by reference year, in bins when there are many
  years (SPAN's Figure 2, Future-Date Degradation);
* ``span-direction``: accuracy converting from the Gregorian calendar against
  converting to it, per other calendar and pooled (SPAN's Figure 5, Calendar
  Asymmetry Bias);
* ``span-type-format``: accuracy by question type x answer format, with both
  margins (SPAN's Figures 3 and 4);
* ``unseentimeqa``: accuracy by difficulty x question type, with both margins
  (UnSeenTimeQA's Tables 2 and 3), difficulties in the paper's order;
* ``tictoc``: attempt rate of prefer-tool and prefer-no-tool samples and the
  normalized alignment rate, by elapsed-time level (TicToc's Figures 2-4).

A margin (a type over every format, a group of directions, a bin of years)
pools the report's rows of disjoint samples. The pooled mean and standard
error are exact, not an average of averages: a row's ``n``, mean and standard
error give back its samples' sum of squares, and the pooled figures are those
of all the samples together (:func:`pool`). Nothing here imports matplotlib.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.errors import TsolveError
from tsolve.plots.ordering import natural_key, ordered
from tsolve.plots.run_labels import series_key, series_labels

#: The paper tables and figures, by name, in the order ``all`` draws them.
CHOICES = (
    "time-puzzles", "span-year", "span-direction", "span-type-format", "unseentimeqa", "tictoc",
)  # fmt: skip

#: The task each choice reads.
TASK_OF = {
    "time-puzzles": "tsolve/time_puzzles", "span-year": "tsolve/span",
    "span-direction": "tsolve/span", "span-type-format": "tsolve/span",
    "unseentimeqa": "tsolve/logistics", "tictoc": "tsolve/tictoc",
}  # fmt: skip

#: UnSeenTimeQA's difficulties and question types in the paper's order
#: (others, as a file may have, after them in alphabetical order).
DIFFICULTY_ORDER = ("easy", "medium", "hard", "hard_serial", "hard_parallel")
QUESTION_TYPE_ORDER = ("static_time", "relative_time", "hypothetical_time")

#: The SPAN paper's types and formats, in its order.
TYPE_ORDER = ("date", "festival")
FORMAT_ORDER = ("polar", "content")

#: At most this many reference years are shown one by one (the SPAN paper's 19
#: evaluation dates, 1960 to 2050 every five years, are); more are binned.
MAX_YEARS = 20

#: The widths a bin of reference years may have, narrowest first.
BIN_WIDTHS = (5, 10, 20, 25, 50, 100, 200, 500, 1000)

GREGORIAN = "gregorian"

#: The run's settings each table row carries (as the report's rows do).
RUN_SETTINGS = ("tags", "solver", "solver_args", "task_args", "epochs", "generate_config", "log")


@dataclass(frozen=True)
class Pooled:
    """The samples of one or more disjoint rows: count, mean, standard error."""

    n: int
    mean: float | None
    stderr: float | None


def pool(parts: Sequence[tuple[int, float | None, float | None]]) -> Pooled:
    """The mean and standard error of the samples behind ``parts``, each
    ``(n, mean, stderr)`` of disjoint samples (a part with no mean is left
    out). Exact: a part's sum of squared deviations is ``stderr² n (n-1)``."""
    kept = [(n, m, s) for n, m, s in parts if n > 0 and m is not None]
    total = sum(n for n, _, _ in kept)
    if total == 0:
        return Pooled(0, None, None)
    grand = sum(n * m for n, m, _ in kept) / total
    squares = sum((s or 0.0) ** 2 * n * (n - 1) + n * (m - grand) ** 2 for n, m, s in kept)
    err = math.sqrt(squares / (total - 1) / total) if total > 1 else None
    return Pooled(total, grand, err)


def _pool_rows(rows: Sequence[dict[str, Any]], metric: str | None = None) -> Pooled:
    if metric is None:
        return pool([(r["n"], r["accuracy"], r["stderr"]) for r in rows])
    return pool([
        (r["n"], r.get("metrics", {}).get(metric), (r.get("metric_stderr") or {}).get(metric))
        for r in rows
    ])  # fmt: skip


# ------------------------------------------------------------ the rows


def _family_rows(rows: Sequence[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    return [r for r in rows if r["task"] == task and "level" not in r]


def _base(choice: str, row: dict[str, Any], label: str) -> dict[str, Any]:
    return {"table": choice, "task": row["task"], "model": row["model"], "series": label,
            "condition": row["condition"], "style": row.get("style", "-"),
            "eval_id": row["eval_id"], "reducer": row.get("reducer"),
            **{k: row.get(k) for k in RUN_SETTINGS}}  # fmt: skip


def _stats(p: Pooled) -> dict[str, Any]:
    return {"n": p.n, "accuracy": p.mean, "stderr": p.stderr}


def _by_series(rows: Sequence[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Per task and model, each run's (and style's) rows with its label."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["task"], r["model"]), []).append(r)
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for group in groups.values():
        labels = series_labels(group)
        mine: dict[str, list[dict[str, Any]]] = {}
        for r in group:
            mine.setdefault(series_key(r), []).append(r)
        out.extend((labels[k], v) for k, v in mine.items())
    return out


def _time_puzzles(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    mine = [r for r in _family_rows(rows, TASK_OF["time-puzzles"])
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


def year_bins(years: Sequence[int]) -> list[tuple[int, int]]:
    """The bins of reference years: each year its own bin when there are at
    most :data:`MAX_YEARS`, else aligned bins of the narrowest width in
    :data:`BIN_WIDTHS` that gives at most that many non-empty bins."""
    distinct = sorted(set(years))
    if len(distinct) <= MAX_YEARS:
        return [(y, y) for y in distinct]
    for width in BIN_WIDTHS:
        starts = sorted({y - y % width for y in distinct})
        if len(starts) <= MAX_YEARS:
            break
    # the first and last bins end where the data do (not a decade nobody asked about)
    return [(max(s, distinct[0]), min(s + width - 1, distinct[-1])) for s in starts]


def bin_label(lo: int, hi: int) -> str:
    """``2024``, ``1960s`` (a whole decade), ``1960-64``, or ``1900-2099``."""
    if lo == hi:
        return str(lo)
    if lo % 10 == 0 and hi == lo + 9:
        return f"{lo}s"
    if lo // 100 == hi // 100:
        return f"{lo}-{hi % 100:02d}"
    return f"{lo}-{hi}"


def _span_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in _family_rows(rows, TASK_OF["span-year"]) if r["n"] > 0]


def _is(row: dict[str, Any], **want: Any) -> bool:
    """The row is the breakdown ``want`` asks for, "all" in every other field."""
    fields = ("reference_year", "direction", "type", "format", "difficulty", "question_type")
    return all(row.get(f, "all") == want.get(f, "all") or (want.get(f) == "*" and
               row.get(f, "all") != "all") for f in fields)  # fmt: skip


def _span_year(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    mine = [r for r in _span_rows(rows) if _is(r, reference_year="*")]
    bins = {key: year_bins([r["reference_year"] for r in group])  # one set of bins a model
            for key, group in _groups(mine, ("task", "model")).items()}  # fmt: skip
    for label, series in _by_series(mine):
        for lo, hi in bins[(series[0]["task"], series[0]["model"])]:
            inside = [r for r in series if lo <= r["reference_year"] <= hi]
            if not inside:
                continue
            out.append({**_base("span-year", series[0], label), "years": bin_label(lo, hi),
                        "year_from": lo, "year_to": hi, **_stats(_pool_rows(inside))})  # fmt: skip
    return out


def direction_parts(direction: str) -> tuple[str, str]:
    """``(other calendar, group)`` of a direction ``a->b``: the group is
    ``gregorian->others``, ``others->gregorian``, or the direction itself
    when neither side is Gregorian."""
    source, _, target = direction.partition("->")
    if source == GREGORIAN:
        return target, "gregorian->others"
    if target == GREGORIAN:
        return source, "others->gregorian"
    return direction, direction


def _span_direction(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for label, series in _by_series([r for r in _span_rows(rows) if _is(r, direction="*")]):
        by: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in series:
            calendar, group = direction_parts(str(r["direction"]))
            by.setdefault((calendar, group), []).append(r)
            by.setdefault(("all", group), []).append(r)
        for calendar in ordered([c for c, _ in by]):
            for group in ordered([g for c, g in by if c == calendar],
                                 ("gregorian->others", "others->gregorian")):  # fmt: skip
                part = by[(calendar, group)]
                direction = part[0]["direction"] if calendar != "all" else "all"
                out.append({**_base("span-direction", series[0], label), "calendar": calendar,
                            "group": group, "direction": direction,
                            **_stats(_pool_rows(part))})  # fmt: skip
    return out


def _cross(
    choice: str, rows: Sequence[dict[str, Any]], fields: tuple[str, str],
    orders: tuple[Sequence[str], Sequence[str]],
) -> list[dict[str, Any]]:  # fmt: skip
    """A two-way table with both margins, pooled from the report's cells."""
    a, b = fields
    out: list[dict[str, Any]] = []
    cells = [r for r in rows if r.get(a, "all") != "all" and r.get(b, "all") != "all"]
    for label, series in _by_series(cells):
        va = ordered([r[a] for r in series], orders[0])
        vb = ordered([r[b] for r in series], orders[1])
        for x in [*va, "all"]:
            for y in [*vb, "all"]:
                part = [r for r in series if x in ("all", r[a]) and y in ("all", r[b])]
                out.append({**_base(choice, series[0], label), a: x, b: y,
                            **_stats(_pool_rows(part))})  # fmt: skip
    return out


def _span_type_format(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return _cross("span-type-format", _span_rows(rows), ("type", "format"),
                  (TYPE_ORDER, FORMAT_ORDER))  # fmt: skip


def _unseentimeqa(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    mine = [r for r in _family_rows(rows, TASK_OF["unseentimeqa"]) if r["n"] > 0]
    return _cross("unseentimeqa", mine, ("difficulty", "question_type"),
                  (DIFFICULTY_ORDER, QUESTION_TYPE_ORDER))  # fmt: skip


def _tictoc(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per run and level: each preference's attempt rate with the standard
    error of its share (the matching decisions' one: with one epoch, a
    prefer-tool sample matches when it calls, a prefer-no-tool one when it
    does not, so the two shares have the same spread), and the NAR with the
    standard error of the mean of two independent shares."""
    mine = [r for r in rows if r["task"] == TASK_OF["tictoc"] and "level" in r]
    runs: dict[str, list[dict[str, Any]]] = {}
    for r in mine:
        runs.setdefault(f"{r['eval_id']}|{r.get('reducer')}", []).append(r)
    labels: dict[str, str] = {}
    for same_model in _groups(mine, ("model",)).values():
        labels.update(series_labels(same_model, by_style=False))
    out: list[dict[str, Any]] = []
    for run_rows in runs.values():
        label = labels[series_key(run_rows[0], by_style=False)]
        for level in ordered([r["level"] for r in run_rows]):
            at = {r["preference"]: r for r in run_rows if r["level"] == level}
            tool, no_tool = at.get("tool"), at.get("no_tool")
            row: dict[str, Any] = {**_base("tictoc", run_rows[0], label), "level": level}
            for name, pr in (("tool", tool), ("no_tool", no_tool)):
                row[f"n_{name}"] = pr["n"] if pr else 0
                row[f"attempt_{name}"] = pr["attempt_rate"] if pr else None
                row[f"attempt_{name}_stderr"] = pr["stderr"] if pr else None
            nar = at["all"].get("nar") if "all" in at else None
            errs = [pr["stderr"] for pr in (tool, no_tool) if pr is not None]
            nar_err = None
            if nar is not None and len(errs) == 2 and None not in errs:
                nar_err = 0.5 * math.sqrt(sum(e * e for e in errs if e is not None))
            row.update(nar=nar, nar_stderr=nar_err)
            out.append(row)
    return out


BUILDERS: dict[str, Callable[[Sequence[dict[str, Any]]], list[dict[str, Any]]]] = {
    "time-puzzles": _time_puzzles, "span-year": _span_year, "span-direction": _span_direction,
    "span-type-format": _span_type_format, "unseentimeqa": _unseentimeqa, "tictoc": _tictoc,
}  # fmt: skip


def paper_table(rows: Sequence[dict[str, Any]], choice: str) -> list[dict[str, Any]]:
    """The rows of paper table ``choice`` (one of :data:`CHOICES`, or
    ``all``: every table the logs have data for, one after the other), each
    naming its ``table``, ``task``, ``model`` and ``series`` (the run: its
    condition, style, and what tells it apart); a one-line error when the
    report has no rows for it."""
    if choice == "all":
        found = [t for c in CHOICES for t in BUILDERS[c](rows)]
        if not found:
            raise TsolveError("table: no rows of a tsolve task to tabulate")
        return found
    if choice not in BUILDERS:
        raise TsolveError(f"table: unknown choice {choice!r} ({', '.join(CHOICES)}, all)")
    found = BUILDERS[choice](rows)
    if not found:
        raise TsolveError(
            f"table {choice}: no rows to tabulate (it needs scored {TASK_OF[choice]} logs)"
        )
    return found


# ------------------------------------------------------------ text grids


@dataclass
class Grid:
    """A table for people: a title, the header and rows of cell texts."""

    title: str
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)


def cell(mean: float | None, err: float | None) -> str:
    """A percentage with its standard error: ``62.5 ±8.1`` (``-`` if none)."""
    if mean is None:
        return "-"
    return f"{100 * mean:.1f}" + (f" ±{100 * err:.1f}" if err is not None else "")


def grids(table: Sequence[dict[str, Any]]) -> list[Grid]:
    """The text tables of paper table rows: per task and model (and per run
    for the two-way tables and TicToc), a grid laid out as the paper's."""
    out: list[Grid] = []
    for choice in CHOICES:
        mine = [r for r in table if r["table"] == choice]
        for (task, model), rows in _groups(mine, ("task", "model")).items():
            out.extend(_GRIDS[choice](f"{choice}: {task}  {model}", rows))
    return out


def _groups(rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> dict[Any, list[dict[str, Any]]]:
    out: dict[Any, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def _pivot(
    title: str, rows: Sequence[dict[str, Any]], down: str, across: str,
    value: Callable[[dict[str, Any]], str], corner: str,
) -> Grid:  # fmt: skip
    downs = list(dict.fromkeys(r[down] for r in rows))
    acrosses = list(dict.fromkeys(r[across] for r in rows))
    at = {(r[down], r[across]): r for r in rows}
    grid = Grid(title, [corner, *(str(a) for a in acrosses)])
    for d in downs:
        grid.rows.append([str(d), *(value(at[(d, a)]) if (d, a) in at else "" for a in acrosses)])
    return grid


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


def _acc(r: dict[str, Any]) -> str:
    return f"{cell(r['accuracy'], r['stderr'])} (n={r['n']})"


def _year_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return [_pivot(f"{title}  accuracy % by reference year (±1 s.e.)", rows, "years", "series",
                   _acc, "reference year")]  # fmt: skip


def _per_series(
    title: str, rows: list[dict[str, Any]], down: str, across: str, what: str
) -> list[Grid]:
    return [_pivot(f"{title}  {series}  {what}", part, down, across, _acc, down)
            for (series,), part in _groups(rows, ("series",)).items()]  # fmt: skip


def _direction_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return _per_series(title, rows, "calendar", "group", "accuracy % by direction (±1 s.e.)")


def _type_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return _per_series(title, rows, "type", "format", "accuracy % by type x format (±1 s.e.)")


def _uqa_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return _per_series(title, rows, "difficulty", "question_type",
                       "accuracy % by difficulty x question type (±1 s.e.)")  # fmt: skip


def _tictoc_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    out: list[Grid] = []
    for (series,), part in _groups(rows, ("series",)).items():
        name = f"{title}  {series}  ".rstrip() + "  % by elapsed-time level (±1 s.e.)"
        grid = Grid(name, ["level", "n tool", "attempt, prefer tool", "n no-tool",
                           "attempt, prefer no-tool", "NAR"])  # fmt: skip
        for r in part:
            tool = cell(r["attempt_tool"], r["attempt_tool_stderr"])
            no_tool = cell(r["attempt_no_tool"], r["attempt_no_tool_stderr"])
            grid.rows.append([str(r["level"]), str(r["n_tool"]), tool, str(r["n_no_tool"]),
                              no_tool, cell(r["nar"], r["nar_stderr"])])  # fmt: skip
        out.append(grid)
    return out


_GRIDS: dict[str, Callable[[str, list[dict[str, Any]]], list[Grid]]] = {
    "time-puzzles": _tp_grids, "span-year": _year_grids, "span-direction": _direction_grids,
    "span-type-format": _type_grids, "unseentimeqa": _uqa_grids, "tictoc": _tictoc_grids,
}  # fmt: skip
