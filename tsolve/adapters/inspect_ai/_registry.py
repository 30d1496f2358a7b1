"""The ``inspect_ai`` entry point: importing this module registers tsolve's tasks.

Inspect loads it when a task name starts with ``tsolve/`` (``inspect eval
tsolve/time_puzzles``), through the entry point in pyproject.toml::

    [project.entry-points.inspect_ai]
    tsolve = "tsolve.adapters.inspect_ai._registry"

The tasks come from the family registry (:func:`tsolve.adapters.inspect_ai.tasks.task_functions`),
one per generating family, and are also attributes of this module.
"""

from __future__ import annotations

from tsolve.adapters.inspect_ai.tasks import task_functions

TASKS = task_functions()
globals().update(TASKS)
