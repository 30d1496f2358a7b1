"""An Inspect scorer that judges each output with tsolve's own verifier.

The sample's record (``metadata["record"]``) goes to its family's scorer, the
same function ``tsolve verify`` calls (:func:`tsolve.verifiers.registry.scorer_for`),
with the symbolic diagnosis on. The :class:`~inspect_ai.scorer.Score` carries:

* ``value``: the family's main metric (:func:`main_metric`, shared with the
  facade's reward: :mod:`tsolve.verifiers.rewards`): exact match (``em``) for
  the puzzle families, whose answers are sets, and ``accuracy`` for the
  single-answer families (SPAN, logistics); never a gameable metric;
* ``answer``: what tsolve read from the output (``parsed``, as JSON text);
* ``explanation``: the metrics and, when the answer is wrong, the diagnosis;
* ``metadata``: ``metrics`` (every metric the family reports), ``main_metric``,
  ``diagnosis``, ``parsed``, ``parse_failed`` and ``groups`` (the labels
  ``tsolve verify`` breaks scores down by), and the run: the sample's
  ``condition`` and ``run`` (turns and tool calls,
  :func:`tsolve.adapters.inspect_ai.conditions.run_stats`), for ``tsolve report``.

The scorer is registered as ``tsolve/tsolve_scorer`` and logged under that
name, so ``inspect score LOG`` finds it again through tsolve's entry point
(Inspect logs a scorer's name without its package's prefix, and looks a name
without ``/`` up in Inspect's own registry only: see :data:`SCORER_NAME`).

The task's metrics are the mean and standard error of the main metric, plus
:func:`family_metrics`, the mean of every family metric (``em``, ``f1``,
``jaccard``, ``accuracy``, ``partial``, ``alt_reading``, ...), so an Inspect
run reports what ``tsolve verify`` reports. A record the family's scorer
rejects raises its one-line :class:`~tsolve.errors.TsolveError`, which Inspect
records as that sample's error: a bad record is never scored 0 silently.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    mean,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from tsolve.adapters.inspect_ai.conditions import run_stats
from tsolve.contract import family_of
from tsolve.contract.item import ItemScore
from tsolve.errors import TsolveError
from tsolve.verifiers.registry import scorer_for
from tsolve.verifiers.rewards import MAIN_METRICS, gameable, main_metric, reward_value

__all__ = ["MAIN_METRICS", "family_metrics", "judge", "main_metric", "to_score", "tsolve_scorer"]


def judge(record: dict[str, Any], output: str) -> ItemScore:
    """``output`` judged by ``record``'s family scorer, diagnosis included."""
    return scorer_for(family_of(record))(record, output, diagnose=True)


def to_score(item: ItemScore) -> Score:
    """tsolve's judgement as an Inspect score (see the module docstring)."""
    main = main_metric(item.metrics)
    value = reward_value(item.metrics, item.family, main)
    shown = " ".join(f"{k}={v:g}" for k, v in item.metrics.items())
    if item.diagnosis and item.metrics[main] < 1:
        shown += "; diagnosis: " + json.dumps(item.diagnosis, ensure_ascii=False, default=str)
    return Score(
        value=value,
        answer=None if item.parsed is None else json.dumps(item.parsed, ensure_ascii=False),
        explanation=shown,
        metadata={
            "main_metric": main,
            "metrics": dict(item.metrics),
            "diagnosis": item.diagnosis,
            "parsed": item.parsed,
            "parse_failed": item.parse_failed,
            "groups": dict(item.groups),
            "gameable": list(gameable(item.family)),
        },
    )


@metric
def family_metrics() -> Metric:
    """The mean of each family metric over the scored samples (the macro
    average ``tsolve verify`` reports), one Inspect metric per name."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        sums: dict[str, float] = {}
        counts: dict[str, int] = {}
        for sample in scores:
            for name, value in (sample.score.metadata or {}).get("metrics", {}).items():
                sums[name] = sums.get(name, 0.0) + float(value)
                counts[name] = counts.get(name, 0) + 1
        return {name: sums[name] / counts[name] for name in sums}

    return compute


#: The name the scorer is logged under: Inspect logs a registered name without
#: its first part (the package), so the registered name is ``tsolve/`` + this,
#: and :mod:`tsolve.adapters.inspect_ai._registry` also registers it under this name, the
#: one ``inspect score`` looks up (which loads tsolve's entry point first).
SCORER_NAME = "tsolve/tsolve_scorer"


@scorer(name=SCORER_NAME, metrics=[mean(), stderr(), family_metrics()])
def tsolve_scorer() -> Scorer:
    """Score each output with tsolve's verifier (see the module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        record = state.metadata.get("record")
        if not isinstance(record, dict):
            raise TsolveError(
                f"sample {state.sample_id!r}: no tsolve record in its metadata "
                "(build samples with tsolve.adapters.inspect_ai.record_sample)"
            )
        result = to_score(judge(record, state.output.completion))
        assert result.metadata is not None
        result.metadata["condition"] = state.metadata.get("condition")
        result.metadata["run"] = run_stats(state.messages)
        return result

    return score
