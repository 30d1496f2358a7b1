"""Score the logistics answerer's answers against the items' own labels.

``tsolve logistics answer --score`` solves benchmark items and compares each
answer set with the item's ``answers`` (exact set match, as
:mod:`tsolve.families.logistics.score` grades a model). Each answered item
becomes the verifiers' :class:`ItemScore` and the report is summed up by
:mod:`tsolve.verifiers.aggregate`, the code behind ``tsolve verify``'s
summaries; only the report's shape (counts as well as rates, and a
``split`` group) is this module's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tsolve.contract.item import ItemScore
from tsolve.families.logistics.answer_items import ItemResult
from tsolve.verifiers.aggregate import aggregate, group_items

GROUP_KEYS = ("split", "difficulty", "execution", "question_type")
"""The report's groups, in its order; ``split`` is ``difficulty-execution``
(the benchmark's data splits) and a group an item does not state is ``?``."""


def answer_score(result: ItemResult) -> ItemScore | None:
    """``result`` judged against its label: ``accuracy`` 1 for an exact set
    match, else 0; an item that could not be answered scores 0 with
    ``parse_failed`` set. None when there is nothing to judge (no label, no
    error) or nothing to judge against (an ``unscored`` item: a bad row, which
    the command reports)."""
    ok = result.correct
    if (ok is None and result.error is None) or result.unscored:
        return None
    groups = {key: result.groups.get(key, "?") for key in GROUP_KEYS[1:]}
    return ItemScore(
        id=str(result.id),
        family="logistics",
        metrics={"accuracy": float(bool(ok))},
        parsed=result.answers,
        parse_failed=result.error is not None,
        groups={"split": f"{groups['difficulty']}-{groups['execution']}", **groups},
    )


@dataclass
class Tally:
    """Exact-set-match counts of answered items, overall and per group value."""

    scores: list[ItemScore] = field(default_factory=list)
    unscored: int = 0

    def add(self, result: ItemResult) -> None:
        """Count ``result`` (an unlabelled, answered item counts for nothing;
        an ``unscored`` one only in :attr:`unscored`)."""
        self.unscored += result.unscored
        score = answer_score(result)
        if score is not None:
            self.scores.append(score)

    def to_json(self) -> dict[str, Any]:
        """``{"accuracy", "correct", "scored", "failed", "unscored", "by":
        {group: {value: {"correct", "total", "accuracy"}}}}``; values sorted,
        groups in :data:`GROUP_KEYS` order; ``unscored``: items without a
        usable label, left out of every count but this one."""
        overall = aggregate(self.scores)
        return {
            "accuracy": overall.get("accuracy", 0.0),
            "correct": _matches(overall),
            "scored": overall["n"],
            "failed": overall["parse_failures"],
            "unscored": self.unscored,
            "by": {
                key: {value: _cell(aggregate(items)) for value, items in sorted(values.items())}
                for key, values in group_items(self.scores).items()
            },
        }


def _cell(agg: dict[str, Any]) -> dict[str, Any]:
    return {"correct": _matches(agg), "total": agg["n"], "accuracy": agg["accuracy"]}


def _matches(agg: dict[str, Any]) -> int:
    """The number of exact matches behind an aggregate: ``accuracy`` is the
    mean of a 0/1 metric over ``n`` items, so the product is a whole number
    (up to rounding)."""
    return round(agg.get("accuracy", 0.0) * agg["n"])
