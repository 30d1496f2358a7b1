"""What tells one run of an experiment apart from the others, as a short label.

``tsolve report`` keeps every run in its own row (never pooled); its text
table and its figures both name a run by the settings that differ from the
other runs of the same condition. One home for that label, below both the
report (adapters) and the figures (plots), so neither imports the other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

#: The label of a run that sets none of the settings the others differ by.
DEFAULTS = "default settings"


def run_label(row: dict[str, Any], among: Sequence[dict[str, Any]]) -> str:
    """What tells ``row``'s run apart from the other runs in ``among``: the
    settings that differ between them and that this run sets (``tags
    refuse``, ``answer=refuse``, ``temperature=0.7``, ...; of a dict of
    settings, only the keys that differ), "default settings" when it sets
    none of them (a list of unset values, ``tags -, answer=-``, says
    nothing), or the eval id when two runs would read the same; "" when
    ``among`` holds one run."""
    runs = list({r["eval_id"]: r for r in among}.values())
    if len(runs) < 2:
        return ""
    mine = _settings_label(row, runs)
    same = [r for r in runs if _settings_label(r, runs) == mine]
    if len(same) > 1:
        short = f"run {str(row['eval_id'])[:8]}"
        return short if mine == DEFAULTS else f"{mine}, {short}"
    return mine


def _settings_label(row: dict[str, Any], runs: Sequence[dict[str, Any]]) -> str:
    parts: list[str] = []
    for name in ("tags", "solver", "epochs", "reducer"):
        if len({json.dumps(r.get(name), sort_keys=True) for r in runs}) > 1 and _set(row.get(name)):
            parts.append(f"{name} {_compact(row.get(name))}")
    for name in ("solver_args", "task_args", "generate_config"):
        settings = [r.get(name) or {} for r in runs]
        mine = row.get(name) or {}
        for key in sorted({k for c in settings for k in c}):
            differs = len({json.dumps(c.get(key), sort_keys=True) for c in settings}) > 1
            if differs and _set(mine.get(key)):
                parts.append(f"{key}={_compact(mine.get(key))}")
    return ", ".join(parts) or DEFAULTS


def _set(value: Any) -> bool:
    return value is not None and value != [] and value != {}


def _compact(value: Any) -> str:
    if isinstance(value, list):
        return "+".join(str(v) for v in value) or "-"
    return "-" if value is None else str(value)


def series_key(row: dict[str, Any], *, by_style: bool = True) -> str:
    """Which series (a bar colour, a table line) ``row`` belongs to: its run
    and reducer, and its style unless ``by_style`` is false."""
    key = f"{row['eval_id']}|{row.get('reducer')}"
    return f"{key}|{row.get('style')}" if by_style else key


def series_labels(rows: Sequence[dict[str, Any]], *, by_style: bool = True) -> dict[str, str]:
    """Each series' label among ``rows`` (one task and model), by
    :func:`series_key`: its condition, its style when the rows have several,
    and in brackets what tells its run apart from the other runs of that
    condition and style. Without ``by_style`` (TicToc, one condition): only
    what tells the run apart ("" for a single run)."""
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
        label = str(row.get("condition", "none"))
        if len(styles) > 1:
            label = f"{label}, {row.get('style')}"
        labels[key] = f"{label} ({apart})" if apart else label
    return labels


def twin_key(row: dict[str, Any]) -> str:
    """What an implicit run and its explicit twin share: every setting of the
    run but the style (a twin is the same experiment on the rewritten
    records), so the two are drawn in one colour, side by side."""
    args = {k: v for k, v in (row.get("task_args") or {}).items() if k != "style"}
    same = [row["condition"], row.get("tags"), row.get("solver"), row.get("solver_args"), args,
            row.get("generate_config"), row.get("reducer")]  # fmt: skip
    return json.dumps(same, sort_keys=True, default=str)
