"""UnSeenTimeQA's figure (``tsolve report --plot OUT --figure
unseentimeqa``): accuracy by difficulty x question type, from its table."""

from __future__ import annotations

from typing import Any

from tsolve.plots.paper_figures import Panel, _cross_panels


def _uqa_panels(table: list[dict[str, Any]]) -> list[Panel]:
    return _cross_panels(table, "difficulty", "question_type",
                         "accuracy by difficulty x question type",
                         "difficulty (bars: question type)")  # fmt: skip
