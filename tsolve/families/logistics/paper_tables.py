"""UnSeenTimeQA's table (``tsolve report --table unseentimeqa``): accuracy by
difficulty x question type, with both margins (the paper's Tables 2 and 3),
difficulties in the paper's order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tsolve.contract.family import Lazy
from tsolve.plots.paper_tables import Grid, PaperTable, _cross, _family_rows, _per_series

TASK = "tsolve/logistics"

#: UnSeenTimeQA's difficulties and question types in the paper's order
#: (others, as a file may have, after them in alphabetical order).
DIFFICULTY_ORDER = ("easy", "medium", "hard", "hard_serial", "hard_parallel")
QUESTION_TYPE_ORDER = ("static_time", "relative_time", "hypothetical_time")


def _unseentimeqa(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    mine = [r for r in _family_rows(rows, TASK) if r["n"] > 0]
    return _cross("unseentimeqa", mine, ("difficulty", "question_type"),
                  (DIFFICULTY_ORDER, QUESTION_TYPE_ORDER))  # fmt: skip


def _uqa_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return _per_series(title, rows, "difficulty", "question_type",
                       "accuracy % by difficulty x question type (±1 s.e.)")  # fmt: skip


TABLES = (
    PaperTable("unseentimeqa", TASK, _unseentimeqa, _uqa_grids,
               panels=Lazy("tsolve.families.logistics.paper_figures:_uqa_panels"), wide=True,
               overview="cross", note="; 'all' pools over the other field"),
)  # fmt: skip
"""The family's ``paper_tables`` part."""
