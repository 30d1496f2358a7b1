"""Each paper's own table, computed from ``tsolve report``'s rows.

``tsolve report --table NAME`` prints one of these, and ``--plot OUT
--figure NAME`` draws it (:mod:`tsolve.plots.paper_figures`); both read the
same table rows, so a figure and its table never disagree. Each table is a
family's (its ``paper_tables`` part: :class:`PaperTable`); the built-in ones:

* ``time-puzzles``: exact match (and F1) by answer-set size M, per condition
  and style (the Time Puzzles paper's Figure 2/4 and Table 1);
* ``span-year``, ``span-direction``, ``span-type-format``: SPAN's Figures 2-5;
* ``unseentimeqa``: UnSeenTimeQA's Tables 2 and 3;
* ``tictoc``: TicToc's Figures 2-4 (attempt rates and NAR by level).

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
from tsolve.plots.ordering import ordered
from tsolve.plots.run_labels import series_key, series_labels

#: At most this many reference years are shown one by one (the SPAN paper's 19
#: evaluation dates, 1960 to 2050 every five years, are); more are binned.
MAX_YEARS = 20

#: The widths a bin of reference years may have, narrowest first.
BIN_WIDTHS = (5, 10, 20, 25, 50, 100, 200, 500, 1000)

#: The run's settings each table row carries (as the report's rows do).
RUN_SETTINGS = ("tags", "solver", "solver_args", "task_args", "epochs", "generate_config", "log")


@dataclass(frozen=True)
class PaperTable:
    """One paper's table, as a family declares it (its ``paper_tables``
    part, a tuple of these): its name (``--table NAME``), the Inspect task
    whose rows it reads, ``build(report rows) -> table rows`` and
    ``grids(title, table rows) -> [Grid, ...]``, the text laid out as the
    paper's. The figure of the same name draws the same rows
    (:mod:`tsolve.plots.paper_figures`): ``panels(table rows) -> [(title,
    draw(ax)), ...]`` (usually a :class:`~tsolve.contract.Lazy` reference, so
    that nothing here imports matplotlib; no figure without it), the
    caption's ``note``, ``wide`` (one panel drawn a page wide), ``columns``
    (at most, or a function of the table rows), and ``overview``: the role
    of its panels in the overview figure of ``--plot`` (``years``,
    ``direction``, ``cross`` or ``levels``; none by default)."""

    name: str
    task: str
    build: Callable[[Sequence[dict[str, Any]]], list[dict[str, Any]]]
    grids: Callable[[str, list[dict[str, Any]]], list[Grid]]
    panels: Any = None
    note: str = ""
    wide: bool = False
    columns: Any = 2
    overview: str = ""


def paper_tables() -> dict[str, PaperTable]:
    """Every built-in family's paper tables by name, in registry order (the
    order ``all`` draws them)."""
    from tsolve.contract import builtin_families
    from tsolve.contract.family import resolve

    out: dict[str, PaperTable] = {}
    for fam in builtin_families():
        if fam.paper_tables is not None:
            for table in resolve(fam.paper_tables):
                out[table.name] = table
    return out


def __getattr__(name: str) -> Any:
    # The tables' names (``CHOICES``), tasks (``TASK_OF``) and builders
    # (``BUILDERS``) are views of the families' declarations; any other name
    # of a family's table module (its builders) is found there.
    tables = paper_tables()
    if name == "CHOICES":
        return tuple(tables)
    if name == "TASK_OF":
        return {k: t.task for k, t in tables.items()}
    if name == "BUILDERS":
        return {k: t.build for k, t in tables.items()}
    import sys

    for table in tables.values():
        module = sys.modules.get(table.build.__module__)
        if module is not None and hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def _is(row: dict[str, Any], **want: Any) -> bool:
    """The row is the breakdown ``want`` asks for, "all" in every other field."""
    fields = ("reference_year", "direction", "type", "format", "difficulty", "question_type")
    return all(row.get(f, "all") == want.get(f, "all") or (want.get(f) == "*" and
               row.get(f, "all") != "all") for f in fields)  # fmt: skip


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


def paper_table(rows: Sequence[dict[str, Any]], choice: str) -> list[dict[str, Any]]:
    """The rows of paper table ``choice`` (one of :data:`CHOICES`, or
    ``all``: every table the logs have data for, one after the other), each
    naming its ``table``, ``task``, ``model`` and ``series`` (the run: its
    condition, style, and what tells it apart); a one-line error when the
    report has no rows for it."""
    tables = paper_tables()
    if choice == "all":
        found = [t for table in tables.values() for t in table.build(rows)]
        if not found:
            raise TsolveError("table: no rows of a tsolve task to tabulate")
        return found
    if choice not in tables:
        raise TsolveError(f"table: unknown choice {choice!r} ({', '.join(tables)}, all)")
    found = tables[choice].build(rows)
    if not found:
        raise TsolveError(
            f"table {choice}: no rows to tabulate (it needs scored {tables[choice].task} logs)"
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
    for choice, paper in paper_tables().items():
        mine = [r for r in table if r["table"] == choice]
        for (task, model), rows in _groups(mine, ("task", "model")).items():
            out.extend(paper.grids(f"{choice}: {task}  {model}", rows))
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


def _acc(r: dict[str, Any]) -> str:
    return f"{cell(r['accuracy'], r['stderr'])} (n={r['n']})"


def _per_series(
    title: str, rows: list[dict[str, Any]], down: str, across: str, what: str
) -> list[Grid]:
    return [_pivot(f"{title}  {series}  {what}", part, down, across, _acc, down)
            for (series,), part in _groups(rows, ("series",)).items()]  # fmt: skip
