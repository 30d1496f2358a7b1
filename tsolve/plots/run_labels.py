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


def run_label(row: dict[str, Any], among: Sequence[dict[str, Any]]) -> str:
    """What tells ``row``'s run apart from the other runs in ``among``: the
    settings that differ between them (``tags refuse``, ``answer=refuse``,
    ``temperature=0.7``, ...; of a dict of settings, only the keys that
    differ), or the eval id when two runs' settings are the same; "" when
    ``among`` holds one run."""
    runs = list({r["eval_id"]: r for r in among}.values())
    if len(runs) < 2:
        return ""
    parts: list[str] = []
    for name in ("tags", "solver", "epochs", "reducer"):
        if len({json.dumps(r.get(name), sort_keys=True) for r in runs}) > 1:
            parts.append(f"{name} {_compact(row.get(name))}")
    for name in ("solver_args", "task_args", "generate_config"):
        settings = [r.get(name) or {} for r in runs]
        mine = row.get(name) or {}
        for key in sorted({k for c in settings for k in c}):
            if len({json.dumps(c.get(key), sort_keys=True) for c in settings}) > 1:
                parts.append(f"{key}={_compact(mine.get(key))}")
    if not parts:
        parts.append(f"run {str(row['eval_id'])[:8]}")
    return ", ".join(parts)


def _compact(value: Any) -> str:
    if isinstance(value, list):
        return "+".join(str(v) for v in value) or "-"
    return "-" if value is None else str(value)
