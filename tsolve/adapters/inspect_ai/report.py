"""The papers' tables from Inspect logs: ``tsolve report LOG_DIR...``.

:func:`build_report` reads every log under the folders given (or the log
files given) through :mod:`inspect_ai.log` and groups its scored samples into
rows:

* tsolve's family tasks (``tsolve/time_puzzles``, ``tsolve/span``, ...): one
  row per task, model, condition (``none``, ``calendar``, ``knowledge``,
  ``code``, ``all``, ``context-knowledge``: the sample's ``condition``
  metadata) and style (``implicit`` / ``explicit``, the record's), with
  ``M = "all"``, and for the puzzle families one more row per answer-set
  size M (the record's ``solution_count``: the Time Puzzles paper's
  breakdown). A row holds ``n`` (scored samples), ``accuracy`` (the mean of
  the score's value, the family's main metric: exact match for puzzles) with
  its standard error, the mean of every family metric (``metrics``), and the
  mean tool calls, turns and output tokens per sample;
* ``tsolve/tictoc``: one row per model, elapsed-time level and preference,
  ``accuracy`` being the share of decisions that match the preference, with
  ``attempt_rate`` (share of tool calls), and the level's NAR.

A sample that ended in an error has no score: it is counted in the row's
``errors``, not in ``n``. A log that cannot be read is reported in
``bad_logs`` and the others go on. Logs of other tasks are skipped and listed
in ``skipped``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError

PUZZLE_FAMILIES = ("time-puzzles", "relational-puzzles")
TICTOC_TASK = "tsolve/tictoc"


@dataclass
class _Cell:
    """Running sums for one row."""

    values: list[float] = field(default_factory=list)
    metrics: dict[str, list[float]] = field(default_factory=dict)
    tool_calls: int = 0
    turns: int = 0
    output_tokens: int = 0
    errors: int = 0
    called: int = 0

    def add(
        self, value: float, metrics: dict[str, float], run: dict[str, Any], tokens: int
    ) -> None:
        self.values.append(value)
        for name, v in metrics.items():
            self.metrics.setdefault(name, []).append(float(v))
        self.tool_calls += int(run.get("n_tool_calls", 0))
        self.turns += int(run.get("turns", 0))
        self.output_tokens += tokens

    def row(self) -> dict[str, Any]:
        n = len(self.values)
        mean = sum(self.values) / n if n else None
        if n > 1 and mean is not None:
            var = sum((v - mean) ** 2 for v in self.values) / (n - 1)
            err: float | None = math.sqrt(var / n)
        else:
            err = None
        per = (lambda total: total / n) if n else (lambda total: None)
        return {
            "n": n,
            "errors": self.errors,
            "accuracy": mean,
            "stderr": err,
            "metrics": {k: sum(v) / len(v) for k, v in sorted(self.metrics.items())},
            "mean_tool_calls": per(self.tool_calls),
            "mean_turns": per(self.turns),
            "mean_output_tokens": per(self.output_tokens),
        }


@dataclass
class Report:
    """What :func:`build_report` found: the rows, and the logs it could not use."""

    rows: list[dict[str, Any]]
    logs: list[str]
    bad_logs: list[dict[str, str]]
    skipped: list[str]

    @property
    def exit_code(self) -> int:
        """1 when a log could not be read (the rows are still printed)."""
        return 1 if self.bad_logs else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "logs": self.logs,
            "bad_logs": self.bad_logs,
            "skipped": self.skipped,
        }


def log_files(paths: Sequence[str | Path]) -> list[str]:
    """Every Inspect log under the folders given, and the log files given."""
    from inspect_ai.log import list_eval_logs

    found: list[str] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            found.extend(sorted(info.name for info in list_eval_logs(str(p), recursive=True)))
        elif p.is_file():
            found.append(str(p))
        else:
            raise TsolveError(f"LOG_DIR: {str(p)!r} is neither a folder nor a log file")
    if not found:
        shown = ", ".join(repr(str(p)) for p in paths)
        raise TsolveError(f"LOG_DIR: no Inspect logs in {shown}")
    return found


def build_report(paths: Sequence[str | Path]) -> Report:
    """The report over the logs in ``paths`` (see the module docstring)."""
    from inspect_ai.log import read_eval_log

    files = log_files(paths)
    cells: dict[tuple[Any, ...], _Cell] = {}
    bad: list[dict[str, str]] = []
    skipped: list[str] = []
    for name in files:
        try:
            log = read_eval_log(name)
        except Exception as exc:  # any unreadable file: report it, go on
            bad.append(
                {"log": _short(name), "error": " ".join(f"{type(exc).__name__}: {exc}".split())}
            )
            continue
        task = log.eval.task
        if not task.startswith("tsolve/"):
            skipped.append(_short(name))
            continue
        model = log.eval.model
        for sample in log.samples or []:
            key, value, metrics, run = _sample_row(task, model, sample)
            tokens = sum(u.output_tokens for u in (sample.model_usage or {}).values())
            for k in key:
                cell = cells.setdefault(k, _Cell())
                if value is None:
                    cell.errors += 1
                else:
                    cell.add(value, metrics, run, tokens)
                    if task == TICTOC_TASK and run.get("called"):
                        cell.called += 1
    rows = [_row(k, cell) for k, cell in sorted(cells.items(), key=lambda kv: _order(kv[0]))]
    _tictoc_nar(rows)
    return Report(rows, [_short(f) for f in files], bad, skipped)


def _tictoc_nar(rows: list[dict[str, Any]]) -> None:
    """Each TicToc level's NAR on its ``preference = "all"`` row: the mean of
    the prefer-tool and prefer-no-tool accuracies (None when a class is empty,
    as in :mod:`tsolve.families.tictoc.metrics`)."""
    acc = {
        (r["model"], r["level"], r["preference"]): r["accuracy"]
        for r in rows
        if r["task"] == TICTOC_TASK
    }
    for r in rows:
        if r["task"] == TICTOC_TASK:
            if r["preference"] == "all":
                tool = acc.get((r["model"], r["level"], "tool"))
                no_tool = acc.get((r["model"], r["level"], "no_tool"))
                r["nar"] = None if tool is None or no_tool is None else (tool + no_tool) / 2
            else:
                r["nar"] = None


def _short(name: str) -> str:
    return name.removeprefix("file://")


def _sample_row(
    task: str, model: str, sample: Any
) -> tuple[list[tuple[Any, ...]], float | None, dict[str, float], dict[str, Any]]:
    """The row keys a sample counts in, its value (None if unscored), metrics, run."""
    scores = sample.scores or {}
    score = next(iter(scores.values()), None)
    meta = dict(score.metadata or {}) if score is not None else {}
    value = None
    if score is not None and sample.error is None:
        try:
            value = float(score.value)
        except (TypeError, ValueError):
            value = {"C": 1.0, "I": 0.0}.get(str(score.value))
    if task == TICTOC_TASK:
        level = meta.get("level", (sample.metadata or {}).get("level"))
        pref = meta.get("preference", (sample.metadata or {}).get("preference"))
        called: dict[str, Any] = {
            "called": bool(meta.get("called")),
            "turns": 1,
            "n_tool_calls": int(bool(meta.get("called"))),
        }
        both: list[tuple[Any, ...]] = [
            ("tictoc", task, model, level, pref),
            ("tictoc", task, model, level, "all"),
        ]
        return both, value, {}, called
    sm = sample.metadata or {}
    record = sm.get("record") or {}
    condition = (meta.get("condition") or sm.get("condition") or {}).get("name", "none")
    style = record.get("style") or "-"
    run: dict[str, Any] | None = meta.get("run")
    if run is None:  # a log scored before the run was recorded
        from tsolve.adapters.inspect_ai.conditions import run_stats

        run = run_stats(sample.messages or [])
    metrics = {k: float(v) for k, v in (meta.get("metrics") or {}).items()}
    keys: list[tuple[Any, ...]] = [("family", task, model, condition, style, "all")]
    if _family(sm, record) in PUZZLE_FAMILIES:
        m = record.get("solution_count")
        if m is None and isinstance(record.get("answers"), list):
            m = len(record["answers"])
        keys.append(("family", task, model, condition, style, m))
    return keys, value, metrics, run


def _family(sample_meta: dict[str, Any], record: dict[str, Any]) -> str:
    return str(sample_meta.get("family") or record.get("family") or "")


#: The order conditions are listed in, as in the papers' tables.
CONDITIONS = ("none", "context-knowledge", "calendar", "knowledge", "code", "all")


def _order(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """Rows in a stable order: task, model, condition (as :data:`CONDITIONS`),
    style, then M with "all" first (TicToc: level, then preference)."""

    def part(k: Any) -> tuple[int, str]:
        if k == "all" or k is None:
            return (0, "")
        return (1, f"{k:09d}" if isinstance(k, int) else str(k))

    kind, task, model, *rest = key
    if kind == "family":
        condition, style, m = rest
        rank = CONDITIONS.index(condition) if condition in CONDITIONS else len(CONDITIONS)
        return (kind, task, model, (rank, condition), part(style), part(m))
    return (kind, task, model, *(part(k) for k in rest))


def _row(key: tuple[Any, ...], cell: _Cell) -> dict[str, Any]:
    figures = cell.row()
    if key[0] == "tictoc":
        _, task, model, level, pref = key
        n = figures["n"]
        return {
            "task": task, "model": model, "condition": "none", "level": level,
            "preference": pref, "n": n, "errors": cell.errors,
            "accuracy": figures["accuracy"], "stderr": figures["stderr"],
            "attempt_rate": cell.called / n if n else None,
        }  # fmt: skip
    _, task, model, condition, style, m = key
    return {"task": task, "model": model, "condition": condition, "style": style, "M": m, **figures}


def rows_by_task(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows grouped by task, in order (for the text tables)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["task"], []).append(row)
    return out
