"""Scoring throughput: how many TicToc samples per second ``score`` handles.

The data are synthetic (stamped by :mod:`tsolve.families.tictoc.timestamp`, so nothing
needs ``../shared``) and the predictions cycle through the output formats the
detector knows, so the figure covers reading predictions, detection, the
per-trajectory sensitivity model and the breakdowns. ``benchmarks/bench_tictoc.py``
prints it.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from tsolve.bench.measure import Measurement, Size, paired_measure
from tsolve.families.tictoc.data import PREFERENCES, Sample, parse_sample
from tsolve.families.tictoc.detect import detect_tool_call
from tsolve.families.tictoc.scoring import Prediction, score
from tsolve.families.tictoc.sensitivity import SENSITIVITIES
from tsolve.families.tictoc.timestamp import stamp

_CALL = {"id": "c", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
OUTPUTS: tuple[Any, ...] = (
    {"role": "assistant", "content": None, "tool_calls": [_CALL]},
    '<tool_call>{"name": "lookup", "arguments": {"id": 7}}</tool_call>',
    '{"name": "lookup", "parameters": {"id": 7}}',
    "The order is still open, nothing changed since the last check.",
    {"role": "assistant", "content": "It is open."},
)


def synthetic_samples(trajectories: int, seed: int = 0) -> list[Sample]:
    """``trajectories`` stamped conversations, each at all three levels."""
    import datetime as dt

    start = dt.datetime(2025, 1, 1, 9, tzinfo=dt.timezone.utc)
    out: list[Sample] = []
    for i in range(trajectories):
        rng = np.random.default_rng([seed, i])
        turns = 1 + i % 6
        msgs: list[dict[str, Any]] = [{"role": "system", "content": "You help with orders."}]
        for t in range(turns):
            msgs.append({"role": "user", "content": f"what about order {t}?"})
            msgs.append({"role": "assistant", "content": None, "tool_calls": [_CALL]})
            msgs.append({"role": "tool", "tool_call_id": "c", "content": '{"status": "open"}'})
            msgs.append({"role": "assistant", "content": "It is open."})
        msgs.append({"role": "user", "content": "and now?"})
        level = SENSITIVITIES[i % 3]
        history, _, _ = stamp(msgs, level, rng, start)
        for k in range(3):
            pref = PREFERENCES[(i + k) % 2]
            out.append(parse_sample({"id": f"traj-{i}", "history": history}, pref, k, "bench"))
    return out


def bench_predictions(samples: list[Sample]) -> list[Prediction]:
    """One prediction per sample, cycling through :data:`OUTPUTS`."""
    return [
        Prediction(s.id, s.level, OUTPUTS[n % len(OUTPUTS)], "bench") for n, s in enumerate(samples)
    ]


def score_throughput(
    trajectories: int = 2000, seed: int = 0, backend: str = "enumerator"
) -> dict[str, Any]:
    """Time one :func:`score` call over ``3 * trajectories`` samples, and
    tool-call detection alone over the same predictions."""
    samples = synthetic_samples(trajectories, seed)
    preds = bench_predictions(samples)
    t0 = time.perf_counter()
    report = score(samples, preds, backend=backend)
    seconds = time.perf_counter() - t0
    n = report.summary["n"]
    t1 = time.perf_counter()
    detect_all(preds)
    detect_seconds = time.perf_counter() - t1
    return {
        "items": n,
        "trajectories": trajectories,
        "backend": backend,
        "seconds": round(seconds, 4),
        "items_per_second": round(n / seconds, 1) if seconds > 0 else None,
        "detection_items_per_second": round(len(preds) / detect_seconds, 1)
        if detect_seconds > 0
        else None,
        "nar": report.summary["nar"],
    }


def detect_all(preds: list[Prediction]) -> int:
    """Tool-call detection alone over ``preds`` (the peer of scoring)."""
    for p in preds:
        detect_tool_call(p.output)
    return len(preds)


# ---------------------------------------------------------------- tsolve bench


def bench_cases(size: Size) -> list[Measurement]:
    """TicToc scoring throughput (detection, the sensitivity model per
    trajectory on the enumerator, breakdowns), with tool-call detection alone
    over the same predictions as the peer, timed in alternation."""
    trajectories, rounds = size(300, 2000), size.reps(3, 3)
    samples = synthetic_samples(trajectories)
    preds = bench_predictions(samples)
    score(samples[:30], preds[:30])  # warm: imports, the enumerator's first model
    return [
        paired_measure(
            "tictoc.score",
            "tictoc",
            "score",
            "samples/s",
            len(samples),
            lambda r: int(score(samples, preds).summary["n"]),
            ("tool-call detection alone", len(preds), lambda r: detect_all(preds)),
            rounds,
            {"backend": "enumerator", "trajectories": trajectories},
            min_seconds=size.round_seconds,
        )
    ]
