"""Reward functions in each trainer's own signature, all over one scorer.

* TRL: :func:`trl_reward` (and :func:`trl_reward_async`) return
  ``f(completions, **kwargs) -> list[float]``; ``kwargs`` carry the dataset's
  columns, of which ``label`` (or verl's ``reward_model``) holds each row's
  ground truth. A completion is text or a list of chat messages (the last
  assistant message is the answer).
* verl: :func:`compute_score` ``(data_source, solution_str, ground_truth,
  extra_info=None) -> {"score": float, <metric>: float, ...}``.
* OpenRLHF: :func:`reward_func` ``(queries, prompts, labels)``, a query
  being the prompt followed by the response.

Every value is the family's metric as ``tsolve verify`` reports it for the
same text (:func:`tsolve.rl.gold.gold_metrics`). ``em`` and ``accuracy`` both
name exact correctness; a family reports one of them, so either picks it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records.validation import shown
from tsolve.rl.gold import gold_metrics, read_ground_truth
from tsolve.verifiers.rewards import MAIN_METRICS, reward_value

TrlReward = Callable[..., list[float]]


def completion_text(completion: object) -> object:
    """The answer text of one completion: the text itself, or the content of
    the last assistant message of a chat list (the last message when none
    names a role). Anything else is returned as is (and scores 0)."""
    if isinstance(completion, list):
        messages = [m for m in completion if isinstance(m, Mapping)]
        said = [m for m in messages if m.get("role") == "assistant"] or messages
        return said[-1].get("content") if said else None
    if isinstance(completion, Mapping):
        return completion.get("content")
    return completion


def metric_value(metrics: Mapping[str, float], family: str, metric: str | None) -> float:
    """``metric`` of ``metrics`` as a reward; ``em``/``accuracy`` stand for
    whichever of the two the family reports."""
    if metric in MAIN_METRICS and metric not in metrics:
        metric = next((m for m in MAIN_METRICS if m in metrics), metric)
    return reward_value(metrics, family, metric)


def score_one(ground_truth: object, output: object, metric: str | None = None) -> float:
    """The reward for one output against one ground truth."""
    family, metrics = gold_metrics(ground_truth, completion_text(output))
    return metric_value(metrics, family.name, metric)


def _labels(kwargs: Mapping[str, Any], count: int) -> list[Any]:
    labels = kwargs.get("label")
    if labels is None and kwargs.get("reward_model") is not None:
        labels = [r.get("ground_truth") if isinstance(r, Mapping) else r
                  for r in kwargs["reward_model"]]  # fmt: skip
    if labels is None:
        raise TsolveError(
            "reward: the dataset has no 'label' column (the ground truth tsolve export writes)"
        )
    if not isinstance(labels, Sequence) or isinstance(labels, str) or len(labels) != count:
        raise TsolveError(
            f"reward: expected {count} labels, one per completion, got {shown(labels)}"
        )
    return list(labels)


def _check_metric(metric: object) -> str | None:
    if metric is not None and not isinstance(metric, str):
        raise TsolveError(f"metric: expected a metric name or None, got {shown(metric)}")
    return metric


def trl_reward(metric: str | None = "em") -> TrlReward:
    """A TRL reward function paying ``metric`` (see the module docstring);
    its ``__name__`` (``tsolve_em``) is the name TRL logs it under."""
    name = _check_metric(metric)

    def reward(completions: Sequence[object], **kwargs: Any) -> list[float]:
        labels = _labels(kwargs, len(completions))
        return [score_one(g, c, name) for g, c in zip(labels, completions, strict=True)]

    reward.__name__ = reward.__qualname__ = f"tsolve_{name or 'reward'}"
    return reward


def trl_reward_async(metric: str | None = "em") -> Callable[..., Coroutine[Any, Any, list[float]]]:
    """:func:`trl_reward` as a coroutine function that scores in a worker
    thread, so a trainer's event loop (TRL's async rewards) does not wait."""
    sync = trl_reward(metric)

    async def reward(completions: Sequence[object], **kwargs: Any) -> list[float]:
        return await asyncio.to_thread(sync, completions, **kwargs)

    reward.__name__ = reward.__qualname__ = sync.__name__
    return reward


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: object,
    extra_info: Mapping[str, Any] | None = None,
) -> dict[str, float]:
    """verl's ``compute_score``: ``{"score": the family's main metric, and
    every metric of its scorer}``. ``data_source`` must name the ground
    truth's family (a row paired with another family's gold is an error)."""
    family, kind, fields = read_ground_truth(ground_truth)
    if data_source != family.name:
        raise TsolveError(
            f"data_source: {shown(data_source)} is not the ground truth's family ({family.name})"
        )
    family, metrics = gold_metrics({"family": family.name, kind: fields}, solution_str)
    return {"score": metric_value(metrics, family.name, None), **metrics}


def response_of(query: str, prompt: str) -> str:
    """The response in an OpenRLHF query (the prompt followed by the response):
    what follows the prompt; else what follows its last occurrence; else what
    follows it read with whitespace ignored (OpenRLHF decodes the query from
    tokens, and a tokenizer's decoding may space the prompt otherwise than the
    text it was given); else the whole query (the final-answer rule reads the
    last answer line anyway)."""
    if prompt and query.startswith(prompt):
        return query[len(prompt) :]
    at = query.rfind(prompt) if prompt else -1
    if at >= 0:
        return query[at + len(prompt) :]
    end = _past_spaced(query, prompt)
    return query[end:] if end is not None else query


def _past_spaced(query: str, prompt: str) -> int | None:
    """Where ``prompt`` ends in ``query`` if ``query`` starts with it once
    whitespace is ignored in both, else None."""
    wanted = [c for c in prompt if not c.isspace()]
    if not wanted:
        return None
    k = 0
    for i, c in enumerate(query):
        if c.isspace():
            continue
        if c != wanted[k]:
            return None
        k += 1
        if k == len(wanted):
            return i + 1
    return None


def openrlhf_rewards(
    queries: Sequence[object], prompts: Sequence[object], labels: Sequence[object]
) -> list[float]:
    """The main-metric reward per query (one list each, equally long)."""
    if not (len(queries) == len(prompts) == len(labels)):
        raise TsolveError(
            f"reward: queries, prompts and labels differ in length "
            f"({len(queries)}, {len(prompts)}, {len(labels)})"
        )
    out = []
    for q, p, g in zip(queries, prompts, labels, strict=True):
        text = response_of(q, p) if isinstance(q, str) and isinstance(p, str) else q
        out.append(score_one(g, text, None))
    return out


def reward_func(
    queries: Sequence[object], prompts: Sequence[object], labels: Sequence[object]
) -> Any:
    """OpenRLHF's ``--reward.remote_url reward.py`` hook: ``{"rewards",
    "scores", "extra_logs"}`` as its example has it, as torch tensors when
    torch is importable (OpenRLHF runs with it), else as lists."""
    rewards = openrlhf_rewards(queries, prompts, labels)
    try:
        import torch
    except ImportError:
        return {"rewards": rewards, "scores": rewards, "extra_logs": {}}
    tensor = torch.tensor(rewards, dtype=torch.float32)
    return {"rewards": tensor, "scores": tensor, "extra_logs": {}}
