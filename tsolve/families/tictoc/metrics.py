"""The Normalized Alignment Rate (NAR) and Attempt Rate of §3, with breakdowns.

Positives are *prefer-Tool* samples (§3): TP = prefer-Tool and the model
attempted a tool call, FN = prefer-Tool and it did not, TN = prefer-noTool and
it did not, FP = prefer-noTool and it did. Then

    NAR = ½ (TP / (TP + FN) + TN / (TN + FP))

and the Attempt Rate is (TP + FP) / n. When a class is empty one of the two
rates is 0/0 and the paper's NAR is undefined: tsolve reports ``nar: null``
(never a guessed 0, 0.5 or one-class value) together with ``tpr`` and
``tnr`` so the defined half is still visible. This happens in breakdown cells
that hold only one class (the sample's level-2 samples are all prefer-Tool).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

LENGTH_BUCKETS = ("short", "medium", "long")


def length_bucket(turns: int) -> str:
    """§3.2: short ≤ 7 turns, medium 8–12, long ≥ 13."""
    return "short" if turns <= 7 else ("medium" if turns <= 12 else "long")


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def nar(tp: int, fn: int, tn: int, fp: int) -> float | None:
    """§3's NAR; None when either class is empty (the formula is 0/0 there)."""
    tpr, tnr = _ratio(tp, tp + fn), _ratio(tn, tn + fp)
    if tpr is None or tnr is None:
        return None
    return 0.5 * (tpr + tnr)


@dataclass
class Confusion:
    """Counts of (preference, attempted) over a set of samples."""

    tp: int = 0
    fn: int = 0
    tn: int = 0
    fp: int = 0

    def add(self, prefer_tool: bool, attempted: bool) -> None:
        if prefer_tool:
            if attempted:
                self.tp += 1
            else:
                self.fn += 1
        elif attempted:
            self.fp += 1
        else:
            self.tn += 1

    @property
    def n(self) -> int:
        return self.tp + self.fn + self.tn + self.fp

    @property
    def nar(self) -> float | None:
        return nar(self.tp, self.fn, self.tn, self.fp)

    @property
    def attempt_rate(self) -> float | None:
        return _ratio(self.tp + self.fp, self.n)

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "nar": self.nar,
            "attempt_rate": self.attempt_rate,
            "tpr": _ratio(self.tp, self.tp + self.fn),
            "tnr": _ratio(self.tn, self.tn + self.fp),
            "attempt_rate_prefer_tool": _ratio(self.tp, self.tp + self.fn),
            "attempt_rate_prefer_no_tool": _ratio(self.fp, self.tn + self.fp),
            "confusion": {"tp": self.tp, "fn": self.fn, "tn": self.tn, "fp": self.fp},
        }


@dataclass(frozen=True)
class Decision:
    """One scored sample: its label, the decision, and the keys it is broken down by."""

    prefer_tool: bool
    attempted: bool
    level: int
    sensitivity: str | None
    turns: int


def summarise(decisions: Iterable[Decision]) -> dict[str, Any]:
    """Overall NAR / attempt rate and the three breakdowns of the issue."""
    total = Confusion()
    groups: dict[str, dict[str, Confusion]] = {
        "by_level": {str(k): Confusion() for k in (0, 1, 2)},
        "by_sensitivity": {k: Confusion() for k in ("low", "medium", "high")},
        "by_length": {k: Confusion() for k in LENGTH_BUCKETS},
    }
    keys: Mapping[str, Callable[[Decision], str]] = {
        "by_level": lambda d: str(d.level),
        "by_sensitivity": lambda d: d.sensitivity or "unknown",
        "by_length": lambda d: length_bucket(d.turns),
    }
    for d in decisions:
        total.add(d.prefer_tool, d.attempted)
        for g, key in keys.items():
            groups[g].setdefault(key(d), Confusion()).add(d.prefer_tool, d.attempted)
    out = total.to_json()
    for g, cells in groups.items():
        out[g] = {k: c.to_json() for k, c in cells.items()}
    return out
