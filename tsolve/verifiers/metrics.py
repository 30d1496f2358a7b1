"""Set metrics exactly as Time Puzzles Appendix B defines them, and the one
rule against over-answering that every scorer applies on top of them.

Conventions: both sets empty -> EM = F1 = Jaccard = 1; exactly one empty ->
all three 0. Scores are macro-averaged over items by the reports.

Appendix B's F1 and Jaccard give partial credit to an answer that lists
more dates than there are: half a point of F1 for "the gold and one more"
on a one-date question, a little for a whole year of dates. As rewards that
pays for hedging, so the scorers use :func:`answer_set_metrics`: an answer
naming more candidates than the gold holds gets nothing in any metric
(docs/scoring.md).
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


ZERO = {"em": 0.0, "f1": 0.0, "jaccard": 0.0}


def over_answers(gold: Collection[str], pred: Collection[str]) -> bool:
    """Does ``pred`` name more distinct answers than ``gold`` holds?"""
    return len(set(pred)) > len(set(gold))


def answer_set_metrics(gold: Collection[str], pred: Collection[str]) -> dict[str, float]:
    """:func:`set_metrics`, except that an over-answer (:func:`over_answers`)
    scores 0 in all three: precision is judged only among answers that do
    not outnumber the gold."""
    if over_answers(gold, pred):
        return dict(ZERO)
    return set_metrics(gold, pred)
