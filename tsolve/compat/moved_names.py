"""Names that moved out of a module that stays, kept importable from it.

:data:`tsolve.compat.OLD_PATHS` moves whole modules; a module that lost
only some of its names (family knowledge that went to the family's own
folder) keeps each one importable through its own ``__getattr__``, which
calls :func:`moved` with the table below (old ``module:name`` -> new
``module:name``). The old and the new name are the same object.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

MOVED_NAMES: dict[str, str] = {
    "tsolve.adapters.inspect_ai.prompts:UNSEENTIMEQA_FIELDS":
        "tsolve.families.logistics.generate.prompt:UNSEENTIMEQA_FIELDS",
    "tsolve.adapters.inspect_ai.prompts:is_unseentimeqa_item":
        "tsolve.families.logistics.generate.prompt:is_unseentimeqa_item",
    "tsolve.adapters.inspect_ai.report:paper_difficulty":
        "tsolve.families.logistics.facets:paper_difficulty",
    # The time puzzles' agent tools (Family.agent_tools).
    **{f"tsolve.adapters.agent_tools:{name}": f"tsolve.families.time_puzzles.agent_tools:{name}"
       for name in ("solve_facts", "list_fact_kinds", "MAX_LIMIT", "MAX_TIME_LIMIT")},
    # ... and their MCP forms.
    "tsolve.adapters.mcp_server:solve_facts": "tsolve.families.time_puzzles.mcp_tools:solve_facts",
    "tsolve.adapters.mcp_server:list_fact_kinds":
        "tsolve.families.time_puzzles.mcp_tools:list_fact_kinds",
    # TicToc's task-file surface (its fuzz_surfaces part).
    "tsolve.stress.fuzz_adapters:tictoc_args": "tsolve.families.tictoc.fuzz:arguments_case",
    "tsolve.stress.fuzz_adapters:check_tictoc_arguments":
        "tsolve.families.tictoc.fuzz:check_arguments",
    # The overview figure's panel kind for rows by level, once named after TicToc.
    "tsolve.plots.conditions:tictoc_series": "tsolve.plots.conditions:levels_series",
    "tsolve.plots.paper_figures:draw_tictoc_run": "tsolve.plots.paper_figures:draw_levels_run",
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


#: Keyword arguments renamed where a family's name was part of them, kept
#: working with a ``DeprecationWarning`` until 0.2: ``module.function`` ->
#: {old keyword: new keyword}.
RENAMED_KEYWORDS: dict[str, dict[str, str]] = {
    "tsolve.calendars.festivals.festivals_of": {"span_only": "appendix_only"},
}

_F = TypeVar("_F", bound=Callable[..., Any])


def renamed_keywords(fn: _F) -> _F:
    """``fn``, also taking the old names of its keywords in
    :data:`RENAMED_KEYWORDS` (each passed on under its new name)."""
    renamed = RENAMED_KEYWORDS.get(f"{fn.__module__}.{fn.__qualname__}")
    if not renamed:
        return fn

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        for old, new in renamed.items():
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{fn.__name__}() got both {old!r} and its new name {new!r}")
                warnings.warn(
                    f"{fn.__name__}({old}=...) is now {fn.__name__}({new}=...); "
                    "the old keyword goes in tsolve 0.2",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs[new] = kwargs.pop(old)
        return fn(*args, **kwargs)

    return call  # type: ignore[return-value]
