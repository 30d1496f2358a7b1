"""A family's own Inspect tasks, and the hooks the adapters ask them for.

A family whose items are not generated records (a benchmark's own files)
brings its task as ``Family.inspect_tasks`` (task name -> ``Lazy`` task
function). The task's module may define, and the adapters then ask it:

* ``SCORERS``: logged scorer name -> scorer, registered for ``inspect score``
  (:mod:`tsolve.adapters.inspect_ai._registry`);
* ``owns_sample(metadata) -> bool``: whether a sample is one of its own
  (it carries no tsolve record);
* ``offline_move(metadata, model, rng)``: the move of the offline model
  ``tsolve/<model>`` on such a sample (:mod:`.offline_model`);
* ``scripted_move(state, answer)``: the scripted solver's (:mod:`.scripted`);
* ``report_sample``, ``report_row``, ``REPORT_FIELDS`` and ``finish_report``:
  its rows of ``tsolve report`` (:mod:`.report`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from tsolve.contract import all_families


def task_modules() -> dict[str, ModuleType]:
    """Every installed family task's module, by task name (``tsolve/`` + it
    is the name Inspect knows it by)."""
    out: dict[str, ModuleType] = {}
    for family in all_families():
        for name, ref in family.inspect_tasks.items():
            if ref.importable():
                out[name] = importlib.import_module(ref.module)
    return out


def module_for_task(task: str) -> ModuleType | None:
    """The module of the family task a log's ``task`` names (``tsolve/<name>``), if any."""
    name = task.removeprefix("tsolve/")
    return task_modules().get(name) if task.startswith("tsolve/") else None


def module_for_sample(metadata: Mapping[str, Any]) -> ModuleType | None:
    """The module of the family task that owns a sample (``owns_sample``), if any."""
    for module in task_modules().values():
        owns = getattr(module, "owns_sample", None)
        if owns is not None and owns(metadata):
            return module
    return None
