"""Bench cases of the span group: generation, verification and the
table-free polar baseline."""

from __future__ import annotations

from typing import Any

from tsolve.bench.measure import Measurement, Size, rate_measure

# ---------------------------------------------------------------- span


def bench_span(size: Size) -> list[Measurement]:
    from tsolve.families.span.generate import SpanConfig, generate_question

    group = "span"
    cfg = SpanConfig()
    for i in range(40):
        generate_question(9, i, cfg)
    work, reps = size(400, 3000), size.reps(3, 3)
    out = [
        rate_measure(
            "span.generate",
            group,
            "generate",
            "questions/s",
            work,
            reps,
            lambda r: sum(1 for i in range(work) if generate_question(1, r * work + i, cfg)),
            {"dates": cfg.window_text()},
        )
    ]
    try:
        from tsolve.verifiers.verify_batch import verify
    except ImportError as exc:
        out.append(
            Measurement(
                "span.verify", group, "verify", "predictions/s", status="skipped", note=str(exc)
            )
        )
        return out
    recs = [generate_question(2, i, cfg) for i in range(size(400, 2000))]
    out.append(span_polar_baseline_measurement(recs))
    preds = []
    for k, r in enumerate(recs):
        ans = r["answer"]
        if r["format"] == "polar":
            text = f"MY ANSWER: {ans if k % 3 else ('No' if ans == 'Yes' else 'Yes')}"
        else:
            text = f"MY ANSWER: {ans}" if k % 3 else "MY ANSWER: 1 Farvardin 1300"
        preds.append({"id": r["id"], "output": text})
    out.append(
        rate_measure(
            "span.verify",
            group,
            "verify",
            "predictions/s",
            len(preds),
            3,
            lambda r: verify(recs, preds).scored,
            {"mix": "2/3 correct, 1/3 wrong"},
            "after one uncounted repetition",
            warmup=True,
        )
    )
    return out


def span_polar_baseline_measurement(records: list[dict[str, Any]]) -> Measurement:
    """Accuracy of the table-free estimator on the polar items (lower is
    better: near 50 % means the "No" candidates need the real calendar), with
    the label balance in ``params``. See :mod:`tsolve.families.span.polar_baseline`."""
    from tsolve.families.span.polar_baseline import span_polar_baseline

    rep = span_polar_baseline(records).to_json()
    if rep["polar_items"] < 40:
        return Measurement("span.polar_baseline", "span", "table-free estimator accuracy", "%",
                           status="skipped", note="fewer than 40 polar items")  # fmt: skip
    return Measurement(
        "span.polar_baseline", "span", "table-free estimator accuracy", "%",
        value=100.0 * rep["estimator_accuracy"], work=rep["polar_items"], repetitions=1,
        params={"labels": rep["labels"], "tolerance_days": 14},
        note="epochs and mean month/year lengths, no tables; aim near 50 %",
    )  # fmt: skip
