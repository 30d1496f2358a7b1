"""An Inspect scorer that judges each output with tsolve's own verifier.

The sample's record (``metadata["record"]`` with ``metadata["gold"]`` joined
back, :func:`tsolve.records.gold_fields.record_in`) goes to its family's scorer, the
same function ``tsolve verify`` calls (:func:`tsolve.verifiers.registry.scorer_for`),
with the symbolic diagnosis on. The :class:`~inspect_ai.scorer.Score` carries:

* ``value``: every family metric, as a dict (:func:`score_value`): what the
  family's scorer reports (``em``, ``f1``, ``jaccard`` for a set answer,
  ``accuracy`` for a single one), and each of the family's diagnostic
  metrics (``Family.diagnostic_metrics``), 0 where an item does not report
  it. A dict because
  Inspect's epoch reducers (``--epochs``, ``--epochs-reducer``) reduce a
  dict value key by key but carry over only the first epoch's metadata: the
  family metrics must be in ``value`` to be reduced across epochs as the
  main score is. The main metric (:func:`main_metric`, shared with the
  facade's reward: :mod:`tsolve.verifiers.rewards`) is ``em`` for a family
  whose answers are sets, and ``accuracy`` for a single-answer family;
  never a gameable metric. :func:`main_value`
  reads it from a value;
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

**Two golds, side by side.** A record that carries ``published_answers`` (one
imported from the Time Puzzles release: ``answers`` is what tsolve's solver
proves, ``published_answers`` the release's own) is judged against both: the
score's value also holds each family metric against the published gold, with
:data:`PUBLISHED` after its name (``em_published``, ``f1_published``,
``jaccard_published``: :func:`published_metrics`, by the same family scorer
and rules), and its metadata ``published`` holds that gold and those metrics.
The main metric stays the one against tsolve's gold. So a run reports how
much of a published figure the release's wrong answers move.

The task's metrics are the mean and standard error of the main metric, plus
:func:`family_metrics`, the mean of every family metric (``em``, ``f1``,
``jaccard``, ``accuracy``, the diagnostic ones, ...), so an Inspect
run reports what ``tsolve verify`` reports. All three read the
epoch-reduced values: with ``--epochs N`` each sample's epochs are reduced
first (key by key), then averaged over samples, and the standard error is
over samples, not sample-epochs. A record the family's scorer
rejects raises its one-line :class:`~tsolve.errors.TsolveError`, which Inspect
records as that sample's error: a bad record is never scored 0 silently.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    mean,
    metric,
    scorer,
    stderr,
    value_to_float,
)
from inspect_ai.solver import TaskState

from tsolve.adapters.inspect_ai.conditions import run_stats
from tsolve.contract import family_of
from tsolve.contract.item import ItemScore
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import record_in
from tsolve.records.validation import expect_iso_dates
from tsolve.verifiers.registry import scorer_for
from tsolve.verifiers.rewards import (
    DIAGNOSTIC,
    MAIN_METRICS,
    diagnostic,
    gameable,
    main_metric,
    reward_value,
)

__all__ = [
    "MAIN_METRICS",
    "family_metrics",
    "judge",
    "main_metric",
    "main_value",
    "published_metrics",
    "score_value",
    "to_score",
    "tsolve_scorer",
]


def judge(record: dict[str, Any], output: str) -> ItemScore:
    """``output`` judged by ``record``'s family scorer, diagnosis included."""
    return scorer_for(family_of(record))(record, output, diagnose=True)


def score_value(metrics: Mapping[str, float], family: str) -> dict[str, float]:
    """The :class:`~inspect_ai.scorer.Score` value for ``metrics``: the main
    metric first (as a reward: :func:`~tsolve.verifiers.rewards.reward_value`),
    then every other metric, then each of the family's diagnostic metrics
    (``Family.diagnostic_metrics``) an item did not report, as 0
    (``tsolve verify``'s summary counts a missing one as 0 too).
    The keys must be the same in every epoch of a sample, or Inspect's
    reducers refuse the dict."""
    main = main_metric(metrics)
    value = {main: reward_value(metrics, family, main)}
    value.update((k, float(v)) for k, v in metrics.items() if k != main)
    for name in diagnostic(family):
        value.setdefault(name, 0.0)
    return value


#: What follows a metric's name when it is judged against a record's
#: ``published_answers`` rather than its ``answers`` (``em_published``).
PUBLISHED = "_published"


def published_metrics(record: dict[str, Any], output: str) -> dict[str, float]:
    """``output``'s family metrics against ``record``'s ``published_answers``
    (the same scorer and rules as against ``answers``, diagnostic metrics
    left out), each named with :data:`PUBLISHED` after it; ``{}`` for a record
    without published answers. Published answers are dates (the release's
    ``solutions``): anything but a list of real ISO dates is the record's
    one-line :class:`TsolveError`."""
    if "published_answers" not in record:
        return {}
    rid = record.get("id")
    published = record["published_answers"]
    if not isinstance(published, list):
        raise TsolveError(f"record {rid!r}: 'published_answers' must be a list of ISO dates")
    expect_iso_dates(published, f"record {rid!r}: published_answers")
    as_published = {**record, "answers": published}
    item = scorer_for(family_of(record))(as_published, output, diagnose=False)
    return {name + PUBLISHED: float(v) for name, v in item.metrics.items()
            if name not in DIAGNOSTIC}  # fmt: skip


def main_value(value: Value) -> float:
    """The main metric of a score's value: the :func:`main_metric` of a dict
    value (as :func:`score_value` writes), or a scalar value as Inspect reads
    it (a log scored before values were dicts)."""
    if isinstance(value, Mapping):
        numbers = {k: v for k, v in value.items() if isinstance(v, int | float)}
        if not numbers:
            return 0.0
        return float(numbers[main_metric(numbers)])
    return value_to_float()(value)


def to_score(item: ItemScore) -> Score:
    """tsolve's judgement as an Inspect score (see the module docstring)."""
    main = main_metric(item.metrics)
    value = score_value(item.metrics, item.family)
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
    average ``tsolve verify`` reports), one Inspect metric per name. It reads
    the score's value, which Inspect has reduced across epochs key by key;
    a log scored before values were dicts has them in ``metadata["metrics"]``
    (that of the first epoch only)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        sums: dict[str, float] = {}
        counts: dict[str, int] = {}
        for sample in scores:
            value = sample.score.value
            if isinstance(value, Mapping):
                found: Mapping[str, Any] = value
            else:
                found = (sample.score.metadata or {}).get("metrics", {})
            for name, v in found.items():
                sums[name] = sums.get(name, 0.0) + float(v)
                counts[name] = counts.get(name, 0) + 1
        return {name: sums[name] / counts[name] for name in sums}

    return compute


#: The name the scorer is logged under: Inspect logs a registered name without
#: its first part (the package), so the registered name is ``tsolve/`` + this,
#: and :mod:`tsolve.adapters.inspect_ai._registry` also registers it under this name, the
#: one ``inspect score`` looks up (which loads tsolve's entry point first).
SCORER_NAME = "tsolve/tsolve_scorer"


@scorer(
    name=SCORER_NAME,
    metrics=[mean(to_float=main_value), stderr(to_float=main_value), family_metrics()],
)
def tsolve_scorer() -> Scorer:
    """Score each output with tsolve's verifier (see the module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        record = record_in(state.metadata)
        if not isinstance(record, dict):
            raise TsolveError(
                f"sample {state.sample_id!r}: no tsolve record in its metadata "
                "(build samples with tsolve.adapters.inspect_ai.record_sample)"
            )
        output = state.output.completion
        result = to_score(judge(record, output))
        assert result.metadata is not None
        published = published_metrics(record, output)
        if published:
            assert isinstance(result.value, dict)
            result.value.update(published)
            result.metadata["published"] = {
                "answers": record["published_answers"], "metrics": published,
            }  # fmt: skip
            shown = " ".join(f"{k.removesuffix(PUBLISHED)}={v:g}" for k, v in published.items())
            result.explanation = f"{result.explanation}; against the published gold: {shown}"
        result.metadata["condition"] = state.metadata.get("condition")
        result.metadata["run"] = run_stats(state.messages)
        return result

    return score
