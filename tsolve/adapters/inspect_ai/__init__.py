"""Inspect AI tasks for tsolve's families (the optional ``inspect`` extra).

``inspect eval tsolve/time_puzzles --model PROVIDER/MODEL`` runs one of them;
``docs/inspect.md`` has the commands and options. The pieces, usable on their own:

* :mod:`tsolve.adapters.inspect_ai.dataset`: records (generated like ``tsolve dataset``, or
  from a file) as Inspect samples;
* :mod:`tsolve.adapters.inspect_ai.prompts`: the prompt a record is shown with;
* :mod:`tsolve.adapters.inspect_ai.scorer`: a scorer that calls tsolve's verifier;
* :mod:`tsolve.adapters.inspect_ai.tasks`: :func:`family_task` and the registered task per family;
* :mod:`tsolve.adapters.inspect_ai._registry`: the ``inspect_ai`` entry point.

This package imports ``inspect_ai``; nothing else in tsolve imports this
package, so the core never needs Inspect installed. (Its name shadows the
standard library's ``inspect`` only for relative imports, and tsolve uses
absolute imports throughout.)
"""

from __future__ import annotations

from tsolve.adapters.inspect_ai.dataset import (
    file_records,
    generated_records,
    record_sample,
    records_dataset,
)
from tsolve.adapters.inspect_ai.prompts import record_prompt
from tsolve.adapters.inspect_ai.scorer import family_metrics, main_metric, tsolve_scorer
from tsolve.adapters.inspect_ai.tasks import family_task, task_functions

__all__ = [
    "family_metrics",
    "family_task",
    "file_records",
    "generated_records",
    "main_metric",
    "record_prompt",
    "record_sample",
    "records_dataset",
    "task_functions",
    "tsolve_scorer",
]
