"""What an auditor returns: :class:`AuditVerdict`, one item's audit
(:mod:`tsolve.audit.base` gives the meanings of the three verdicts).

A module of types only, like :mod:`tsolve.contract.item`, so that the
contract (which adapts a plug-in family's auditor) and every auditor can
import it without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["ok", "ambiguous", "inconsistent"]
VERDICTS: tuple[Verdict, ...] = ("ok", "ambiguous", "inconsistent")


@dataclass
class AuditVerdict:
    """The audit of one item.

    ``readings`` lists the names of the readings that were checked (the
    default reading is ``"canonical"``), so a reader of the report can
    see what "ok" covered. ``detail`` is JSON-ready: for ``ambiguous`` it holds
    at least ``reading`` and ``answers`` (what that reading gives); for
    ``inconsistent`` it holds ``proof``.
    """

    id: Any  # the record's own id, its JSON type kept (an integer stays an integer)
    family: str
    verdict: Verdict
    detail: dict[str, Any] = field(default_factory=dict)
    readings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "family": self.family,
            "verdict": self.verdict,
            "detail": self.detail,
            "readings": self.readings,
        }
