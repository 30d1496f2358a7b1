"""Which metric is a score's value, and which metrics must never be one.

One home for the choice that ``tsolve verify`` (its summaries flag gameable
metrics), the reasoning-gym facade (:func:`tsolve.facade.score_answer`) and
the Inspect scorer (:mod:`tsolve.adapters.inspect_ai.scorer`) all make, so that the
number a trainer is rewarded with is the number a benchmark reports.

A metric is **gameable** when a policy that does not reason can farm it:
logistics' ``partial`` (the UnSeenTimeQA paper's lenient rule, "any gold
name counts") pays for naming a location and a vehicle whenever either is
right. It is still reported, under the paper's name, for comparison with
published figures; it is never a reward, and ``tsolve verify`` lists it under
``gameable`` (docs/scoring.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from tsolve.errors import TsolveError

MAIN_METRICS = ("em", "accuracy")
"""The metric a score's value is, in order of preference: a set answer is
right when it is exactly right (``em``); a single answer has ``accuracy``."""

GAMEABLE: dict[str, tuple[str, ...]] = {"logistics": ("partial",)}
"""Per family, the metrics kept under a paper's name although a trivial
policy can farm them: reported, never a reward."""

DIAGNOSTIC = ("alt_reading",)
"""Metrics that count wrong answers of a kind (right under another reading),
not how right an answer is: never a reward either."""


def gameable(family: str) -> tuple[str, ...]:
    """The gameable metrics of ``family`` (empty for most)."""
    return GAMEABLE.get(family, ())


def main_metric(metrics: Mapping[str, float]) -> str:
    """The name of the metric that is an item's score (see :data:`MAIN_METRICS`);
    the first one reported for a family that has neither."""
    for name in MAIN_METRICS:
        if name in metrics:
            return name
    if not metrics:
        raise TsolveError("score: the family's scorer reported no metrics")
    return next(iter(metrics))


def reward_value(metrics: Mapping[str, float], family: str, name: str | None = None) -> float:
    """``metrics[name]`` (by default :func:`main_metric`) clipped to [0, 1],
    for use as a reward. A gameable or diagnostic metric, or one the family
    does not report, is a one-line :class:`TsolveError`: asking for it is the
    caller's bug, never a silent zero."""
    if not metrics:
        return 0.0
    if name is None:
        name = main_metric(metrics)
    if name in gameable(family) or name in DIAGNOSTIC:
        raise TsolveError(
            f"reward_metric: {name!r} of {family} can be farmed without reasoning "
            "(docs/scoring.md), so it is never a reward"
        )
    if name not in metrics:
        raise TsolveError(
            f"reward_metric: {name!r} is not a metric of this family ({', '.join(metrics)})"
        )
    return min(1.0, max(0.0, float(metrics[name])))
