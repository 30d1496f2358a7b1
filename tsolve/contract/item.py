"""What a scorer returns: :class:`ItemScore`, one prediction judged, and the
signatures of a family's scorer and batch diagnoser.

A module of types only, importing nothing of tsolve, so that the family
registry (:mod:`tsolve.families`, which adapts third-party scorers into
``ItemScore``) and every scorer can import it without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ItemScore:
    """One prediction, judged.

    ``metrics`` holds numbers in [0, 1] that are macro-averaged in reports
    (``em``/``f1``/``jaccard`` for puzzles, ``accuracy`` for single-answer tasks).
    ``groups`` holds the labels reports break down by (e.g. ``{"solutions": "3"}``);
    a list of labels (``{"fact_kind": ["month", "weekday"]}``) counts the item
    under each.
    ``parsed`` is the JSON-serialisable parse of the model output, or ``None``
    with ``parse_failed`` set when nothing could be read: such items score 0.
    """

    id: Any  # the record's own id value (the batch driver puts it back: JSON type kept)
    family: str
    metrics: dict[str, float]
    parsed: Any
    parse_failed: bool
    diagnosis: dict[str, Any] = field(default_factory=dict)
    groups: dict[str, str | list[str]] = field(default_factory=dict)
    # What the scorer read from the record (e.g. the puzzle), handed to the
    # family's batch diagnoser so it need not read the record again. Never
    # serialised; the batch driver drops it once the item is diagnosed.
    context: Any = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "family": self.family,
            **self.metrics,
            "parsed": self.parsed,
            "parse_failed": self.parse_failed,
            "diagnosis": self.diagnosis,
            "groups": self.groups,
        }


Scorer = Callable[..., ItemScore]
"""``scorer(record, raw_output, *, diagnose=True) -> ItemScore``; with
``diagnose=False`` a scorer may skip its (costlier) symbolic diagnosis."""

BatchDiagnoser = Callable[[Sequence[tuple[dict[str, Any], ItemScore]]], list[str | None]]
"""``diagnoser(pairs) -> errors``: fill in the symbolic diagnosis of many items
scored with ``diagnose=False``, each next to its record, in one pass; return
per item ``None``, or the error that makes its record unusable (the item is
then dropped and reported, as if its scorer had raised it). Diagnosing a
batch lets a family check each distinct fact once over all the dates that
need it, instead of once per item. A family declares one as
``Family.diagnose_batch``; its scorer must give the same diagnosis for a
single item with ``diagnose=True`` (the tests check it), typically by calling
the diagnoser on a batch of one."""
