"""Names that moved out of a module that stays, kept importable from it.

:data:`tsolve.compat.OLD_PATHS` moves whole modules; a module that lost
only some of its names (family knowledge that went to the family's own
folder) keeps each one importable through its own ``__getattr__``, which
calls :func:`moved` with the table below (old ``module:name`` -> new
``module:name``). The old and the new name are the same object.
"""

from __future__ import annotations

import importlib
from typing import Any

MOVED_NAMES: dict[str, str] = {
    "tsolve.adapters.inspect_ai.prompts:UNSEENTIMEQA_FIELDS":
        "tsolve.families.logistics.generate.prompt:UNSEENTIMEQA_FIELDS",
    "tsolve.adapters.inspect_ai.prompts:is_unseentimeqa_item":
        "tsolve.families.logistics.generate.prompt:is_unseentimeqa_item",
    "tsolve.adapters.inspect_ai.report:paper_difficulty":
        "tsolve.families.logistics.facets:paper_difficulty",
    # What the report once hard-wired; each family declares its own now
    # (Family.report_columns / report_breakdowns).
    "tsolve.adapters.inspect_ai.report:PUZZLE_FAMILIES":
        "tsolve.compat.moved_names:PUZZLE_FAMILIES",
    "tsolve.adapters.inspect_ai.report:SPAN_FAMILY": "tsolve.compat.moved_names:SPAN_FAMILY",
    "tsolve.adapters.inspect_ai.report:CROSS_BREAKDOWNS":
        "tsolve.compat.moved_names:CROSS_BREAKDOWNS",
}  # fmt: skip

PUZZLE_FAMILIES = ("time-puzzles", "relational-puzzles")
SPAN_FAMILY = "span"
CROSS_BREAKDOWNS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "span": (("type", "type"), ("format", "format")),
    "logistics": (("difficulty", "data_split|difficulty"), ("question_type", "question_type")),
}


def moved(module: str, name: str) -> Any:
    """``module.name`` from where it lives now, or ``AttributeError`` as a
    module without it would raise."""
    new = MOVED_NAMES.get(f"{module}:{name}")
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    new_module, _, attr = new.partition(":")
    return getattr(importlib.import_module(new_module), attr)
