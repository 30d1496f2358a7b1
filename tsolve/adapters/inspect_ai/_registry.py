"""The ``inspect_ai`` entry point: importing this module registers tsolve's tasks.

Inspect loads it when a task name starts with ``tsolve/`` (``inspect eval
tsolve/<family>``), through the entry point in pyproject.toml::

    [project.entry-points.inspect_ai]
    tsolve = "tsolve.adapters.inspect_ai._registry"

The tasks come from the family registry: one per generating family
(:func:`tsolve.adapters.inspect_ai.tasks.task_functions`), plug-in families
included, and each family's own tasks (``Family.inspect_tasks``: a family
whose items are not generated brings its task), all attributes of this
module too; with them the offline solver ``tsolve/scripted``
(:mod:`tsolve.adapters.inspect_ai.scripted`), the offline model provider
``--model tsolve/gold`` (and ``refuse``, ``random``, ``perturbed``:
:mod:`tsolve.adapters.inspect_ai.offline_model`) and the scorers under the
names their logs hold (a family task's module lists its own as ``SCORERS``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tsolve.adapters.inspect_ai.offline_model import offline_model  # noqa: F401  (tsolve/gold, ...)
from tsolve.adapters.inspect_ai.scorer import SCORER_NAME, tsolve_scorer
from tsolve.adapters.inspect_ai.scripted import scripted  # noqa: F401  (registers tsolve/scripted)
from tsolve.adapters.inspect_ai.tasks import task_functions
from tsolve.contract import all_families


def _family_tasks() -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
    """Every family's own Inspect tasks (``Family.inspect_tasks``; importing
    one registers it), and the scorers their modules list as ``SCORERS``.
    A task whose module is not installed is left out."""
    tasks: dict[str, Callable[..., Any]] = {}
    scorers: dict[str, Any] = {}
    for family in all_families():
        for name, ref in family.inspect_tasks.items():
            if not ref.importable():
                continue
            tasks[name] = ref.get()
            scorers.update(getattr(importlib.import_module(ref.module), "SCORERS", {}))
    return tasks, scorers


FAMILY_TASKS, FAMILY_SCORERS = _family_tasks()
TASKS = task_functions()
globals().update(TASKS)
globals().update(FAMILY_TASKS)


def _register_scorer_by_logged_name() -> None:
    """Make ``inspect score LOG`` find the scorer by the name the log holds.

    Inspect logs ``tsolve/tsolve/tsolve_scorer`` (the decorator's name under
    the package's prefix) without its first part, ``tsolve/tsolve_scorer``, and
    looks that name up after loading this entry point. Registered under that
    key (Inspect's public ``registry_add`` would also rename the factory, and
    the re-scored log would then record a name nothing finds)."""
    try:
        from inspect_ai._util.registry import _registry, registry_key
    except ImportError:  # pragma: no cover - an Inspect that moved it
        return
    for name, factory in {SCORER_NAME: tsolve_scorer, **FAMILY_SCORERS}.items():
        _registry.setdefault(registry_key("scorer", name), factory)


_register_scorer_by_logged_name()


def _register_under_the_package_prefix() -> None:
    """Keep ``tsolve/<task>`` and ``tsolve/scripted`` findable when Inspect
    does not see tsolve as an installed package.

    Inspect prefixes a registered name with its package only when it finds the
    package installed; run from the root of a source checkout after ``pip
    install -e .``, ``importlib.metadata`` finds the checkout's own
    ``tsolve.egg-info`` first, which carries no editable marker, and the tasks
    are registered bare (``<family>``), so ``inspect eval tsolve/<family>``
    would find nothing. Registering the prefixed key too
    (the same objects) makes the name work from any directory."""
    try:
        from inspect_ai._util.registry import _registry, registry_key
    except ImportError:  # pragma: no cover - an Inspect that moved it
        return
    for kind, bare in [("task", name) for name in (*TASKS, *FAMILY_TASKS)] + [
        ("solver", "scripted")
    ]:
        found = _registry.get(registry_key(kind, bare))  # type: ignore[arg-type]
        if found is not None:
            _registry.setdefault(registry_key(kind, f"tsolve/{bare}"), found)  # type: ignore[arg-type]


_register_under_the_package_prefix()
