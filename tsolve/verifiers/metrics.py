"""Set metrics exactly as Time Puzzles Appendix B defines them.

Conventions: both sets empty -> EM = F1 = Jaccard = 1; exactly one empty ->
all three 0. Scores are macro-averaged over items by the reports.
"""

from __future__ import annotations

from collections.abc import Collection


def set_metrics(gold: Collection[str], pred: Collection[str]) -> dict[str, float]:
    g, p = set(gold), set(pred)
    if not g and not p:
        return {"em": 1.0, "f1": 1.0, "jaccard": 1.0}
    if not g or not p:
        return {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
    inter = len(g & p)
    precision = inter / len(p)
    recall = inter / len(g)
    f1 = 0.0 if inter == 0 else 2 * precision * recall / (precision + recall)
    return {"em": float(g == p), "f1": f1, "jaccard": inter / len(g | p)}
