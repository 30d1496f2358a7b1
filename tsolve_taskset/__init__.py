"""The ``tsolve_taskset`` verifiers taskset: ``verifiers.v1.load_taskset(
verifiers.v1.TasksetConfig(id="tsolve_taskset"))``.

verifiers finds a taskset by importing the module named by its id and taking
the one ``Taskset`` subclass in ``__all__``; this shim gives it that name.
The taskset itself is :mod:`tsolve.adapters.verifiers_taskset` (docs/rl.md).
"""

from tsolve.adapters.verifiers_taskset import (
    TsolveTask,
    TsolveTaskData,
    TsolveTaskset,
    TsolveTasksetConfig,
)

__all__ = ["TsolveTask", "TsolveTaskData", "TsolveTaskset", "TsolveTasksetConfig"]
