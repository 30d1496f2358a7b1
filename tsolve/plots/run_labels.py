"""How a run of an experiment is named in a legend, a panel title or a table.

``tsolve report`` keeps every run in its own row (never pooled); its text
table and its figures both name a run the way a person names the condition:
the condition in words (``no tools``, ``calendar tools``), its prompt style,
and what tells it apart from the other runs of that condition, in words too
(its tags, which the user chose as its name; else the settings that differ:
``scripted solver``, ``answer refuse``, ``temperature 0.7``). The log's own
spelling of those settings (``generate+tsolve/record_run``, ``tools=none``,
``count=6``) is bookkeeping, never a name. One home for that rule, below both
the report (adapters) and the figures (plots), so neither imports the other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

#: The label of a run that sets none of the settings the others differ by.
DEFAULTS = "default settings"

#: The report's condition names (the task's ``tools``/``context`` options) as
#: a reader names them.
CONDITION_NAMES = {
    "none": "no tools", "calendar": "calendar tools", "knowledge": "knowledge tool",
    "code": "code tool", "all": "all tools", "context-knowledge": "knowledge as context",
}  # fmt: skip

#: Solver steps every run of a condition has (the model's own answer, the
#: tool loop, the step that records the run): they name no difference.
ROUTINE_STEPS = frozenset(
    {"generate", "use_tools", "tool_loop", "record_run", "tsolve/record_run", "tsolve/tool_loop"}
)

#: Task options the label names already (the condition and the style).
NAMED_OPTIONS = frozenset({"tools", "context", "style"})


def condition_name(condition: Any) -> str:
    """A report condition (``none``, ``calendar``, ...) as a reader names it."""
    text = "none" if condition is None else str(condition)
    return CONDITION_NAMES.get(text, text.replace("_", " "))


def solver_name(solver: Any) -> str:
    """What a run's solver chain says beyond the routine steps, in words
    (``tsolve/scripted`` -> ``scripted``; ``generate+tsolve/record_run``,
    every model run's chain, -> "")."""
    if not isinstance(solver, str):
        return ""
    steps = [s.strip() for s in solver.split("+")]
    named = [s.rsplit("/", 1)[-1].replace("_", " ") for s in steps if s and s not in ROUTINE_STEPS]
    return " then ".join(named)


def run_label(row: dict[str, Any], among: Sequence[dict[str, Any]]) -> str:
    """What tells ``row``'s run apart from the other runs in ``among``, in
    words: its tags when they alone tell it apart (the user named the run);
    else the settings that differ between the runs and that this run sets
    (``refuse, answer refuse``, ``scripted solver``, ``temperature 0.7``;
    of a dict of settings, only the keys that differ); "default settings"
    when it sets none of them; and the eval id besides when two runs would
    read the same; "" when ``among`` holds one run."""
    runs = list({r["eval_id"]: r for r in among}.values())
    if len(runs) < 2:
        return ""
    tags = _tags(row, runs)
    if tags and [_tags(r, runs) for r in runs].count(tags) == 1:
        return tags
    mine = _settings_label(row, runs)
    same = [r for r in runs if _settings_label(r, runs) == mine]
    if len(same) > 1:
        short = f"run {str(row['eval_id'])[:8]}"
        return short if mine == DEFAULTS else f"{mine}, {short}"
    return mine


def _tags(row: dict[str, Any], runs: Sequence[dict[str, Any]]) -> str:
    if len({json.dumps(r.get("tags"), sort_keys=True) for r in runs}) < 2:
        return ""
    return _words(row.get("tags")) if _set(row.get("tags")) else ""


def _settings_label(row: dict[str, Any], runs: Sequence[dict[str, Any]]) -> str:
    parts: list[str] = []
    tags = _tags(row, runs)
    if tags:
        parts.append(tags)
    solvers = {solver_name(r.get("solver")) for r in runs}
    if len(solvers) > 1 and solver_name(row.get("solver")):
        parts.append(f"{solver_name(row.get('solver'))} solver")
    for name, shown in (("epochs", "{} epochs"), ("reducer", "{} over epochs")):
        if len({json.dumps(r.get(name), sort_keys=True) for r in runs}) > 1 and _set(row.get(name)):
            parts.append(shown.format(_words(row.get(name))))
    for name in ("solver_args", "task_args", "generate_config"):
        settings = [r.get(name) or {} for r in runs]
        mine = row.get(name) or {}
        for key in sorted({k for c in settings for k in c}):
            if name == "task_args" and key in NAMED_OPTIONS:
                continue
            differs = len({json.dumps(c.get(key), sort_keys=True) for c in settings}) > 1
            if differs and _set(mine.get(key)):
                parts.append(f"{str(key).replace('_', ' ')} {_words(mine.get(key))}")
    return ", ".join(parts) or DEFAULTS


def _set(value: Any) -> bool:
    return value is not None and value != [] and value != {}


def _words(value: Any) -> str:
    """A setting's value as text: a list as ``a and b``, a dict as its
    ``key value`` pairs."""
    if isinstance(value, list):
        return " and ".join(_words(v) for v in value) or "-"
    if isinstance(value, dict):
        return " ".join(f"{k} {_words(v)}" for k, v in value.items()) or "-"
    return "-" if value is None else str(value)


def series_key(row: dict[str, Any], *, by_style: bool = True) -> str:
    """Which series (a bar colour, a table line) ``row`` belongs to: its run
    and reducer, and its style unless ``by_style`` is false."""
    key = f"{row['eval_id']}|{row.get('reducer')}"
    return f"{key}|{row.get('style')}" if by_style else key


def series_labels(rows: Sequence[dict[str, Any]], *, by_style: bool = True) -> dict[str, str]:
    """Each series' label among ``rows`` (one task and model), by
    :func:`series_key`: its condition in words, its style when the rows have
    several, and in brackets what tells its run apart from the other runs of
    that condition and style (nothing for the run that sets none of the
    settings they differ by: it is the condition itself). Without
    ``by_style`` (TicToc, one condition): only what tells the run apart (""
    for a single run)."""
    labels: dict[str, str] = {}
    styles = {str(r.get("style")) for r in rows}
    for row in rows:
        key = series_key(row, by_style=by_style)
        if key in labels:
            continue
        same = [
            r for r in rows
            if r.get("condition") == row.get("condition")
            and (not by_style or r.get("style") == row.get("style"))
        ]  # fmt: skip
        apart = run_label(row, same)
        if not by_style:
            labels[key] = apart
            continue
        label = condition_name(row.get("condition", "none"))
        if len(styles) > 1:
            label = f"{label}, {row.get('style')}"
        # the baseline run of a condition is the condition itself
        labels[key] = f"{label} ({apart})" if apart and apart != DEFAULTS else label
    return labels


def twin_key(row: dict[str, Any]) -> str:
    """What an implicit run and its explicit twin share: every setting of the
    run but the style (a twin is the same experiment on the rewritten
    records), so the two are drawn in one colour, side by side."""
    args = {k: v for k, v in (row.get("task_args") or {}).items() if k != "style"}
    same = [row["condition"], row.get("tags"), row.get("solver"), row.get("solver_args"), args,
            row.get("generate_config"), row.get("reducer")]  # fmt: skip
    return json.dumps(same, sort_keys=True, default=str)
