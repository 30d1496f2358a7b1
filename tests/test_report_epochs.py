"""Epochs count once, in Inspect's results and in ``tsolve report``.

A real ``inspect_ai.eval`` with mockllm runs each sample for 4 epochs, with
a different answer in different epochs (the first one right). The expected
figures are computed here from the script alone: each answer kind's metrics
by the definitions (exact match, F1 and Jaccard of the answer set), each
sample's epochs reduced by the mean (and by the max), then the mean and the
standard error over samples. Inspect's family metrics used to be the first
epoch's (em 1.0 for all), and ``tsolve report`` used to count the 12
sample-epochs as 12 samples. (The issue's runs had 12 epochs; 4 keep the
test cheap and show the same thing.)
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Epochs
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.report import build_report
from tsolve.contract import get_family
from tsolve.records.gold_fields import record_in
from tsolve.verifiers.gold_answers import gold_output

EPOCHS = 4
#: Per time-puzzle sample (each has two gold dates), its answers in call
#: order: "gold" both dates, "half" one of them, "wrong" a date not in the gold.
PUZZLE_SCRIPT = (
    ["gold", "wrong", "wrong", "wrong"],
    ["gold", "half", "half", "half"],
    ["gold", "gold", "wrong", "half"],
)
#: em, f1, jaccard of each kind against a two-date gold, by the definitions:
#: "half" has precision 1 and recall 1/2, so F1 = 2/3 and Jaccard = 1/2.
KIND_METRICS = {"gold": (1.0, 1.0, 1.0), "half": (0.0, 2 / 3, 1 / 2), "wrong": (0.0, 0.0, 0.0)}
#: Per SPAN sample, how many of its 4 answers are right (the first ones).
SPAN_RIGHT = (1, 2, 4)


def _usage(text: str) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out


def _stats(per_sample: list[float]) -> tuple[float, float]:
    """Mean and standard error (sample deviation over sqrt(n)) over samples."""
    n = len(per_sample)
    mean = sum(per_sample) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in per_sample) / (n - 1) / n)


def _run(task: Any, script: Any, folder: Path) -> EvalLog:
    """Run ``task`` for :data:`EPOCHS` epochs with the mean and max reducers; ``script``
    maps (record, call number) to the output text."""
    by_prompt = {s.input: record_in(s.metadata) for s in task.dataset}
    calls: dict[str, int] = {}

    def outputs(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        record = by_prompt[messages[-1].text]
        calls[record["id"]] = calls.get(record["id"], 0) + 1
        return _usage(script(record, calls[record["id"]] - 1))

    (log,) = inspect_eval(
        task, model=get_model("mockllm/model", custom_outputs=outputs),
        epochs=Epochs(EPOCHS, ["mean", "max"]), log_dir=str(folder), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    assert sorted(calls.values()) == [EPOCHS] * len(task.dataset)
    return log


def _inspect_metrics(log: EvalLog, reducer: str) -> dict[str, float]:
    assert log.results is not None
    (score,) = [s for s in log.results.scores if s.reducer == reducer]
    return {name: m.value for name, m in score.metrics.items()}


@pytest.fixture(scope="module")
def puzzle_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalLog, list[str]]:
    task = family_task("time-puzzles", seed=4, count=3, solutions="2")
    ids = [record_in(s.metadata)["id"] for s in task.dataset]
    order = {rid: i for i, rid in enumerate(ids)}

    def script(record: dict[str, Any], call: int) -> str:
        gold = record["answers"]
        assert len(gold) == 2
        kind = PUZZLE_SCRIPT[order[record["id"]]][call]
        shown = {"gold": gold, "half": gold[:1], "wrong": ["1901-01-01"]}[kind]
        assert kind != "wrong" or "1901-01-01" not in gold
        return "MY ANSWER: " + ", ".join(shown)

    return _run(task, script, tmp_path_factory.mktemp("puzzles")), ids


@pytest.fixture(scope="module")
def span_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalLog, list[str]]:
    task = family_task("span", seed=6, count=3)
    ids = [record_in(s.metadata)["id"] for s in task.dataset]
    order = {rid: i for i, rid in enumerate(ids)}
    family = get_family("span")

    def script(record: dict[str, Any], call: int) -> str:
        right = call < SPAN_RIGHT[order[record["id"]]]
        return gold_output(record, family) if right else "I would rather not say."

    return _run(task, script, tmp_path_factory.mktemp("span")), ids


def test_inspect_reduces_every_family_metric_across_epochs(
    puzzle_log: tuple[EvalLog, list[str]],
) -> None:
    log, _ = puzzle_log
    per_sample = {
        name: [sum(KIND_METRICS[k][i] for k in kinds) / EPOCHS for kinds in PUZZLE_SCRIPT]
        for i, name in enumerate(("em", "f1", "jaccard"))
    }
    got = _inspect_metrics(log, "mean")
    for name, values in per_sample.items():
        assert got[name] == pytest.approx(sum(values) / len(values)), name
    mean, err = _stats(per_sample["em"])
    assert got["mean"] == pytest.approx(mean) and got["stderr"] == pytest.approx(err)
    # the max reducer reduces them too: every sample was right in some epoch
    best = _inspect_metrics(log, "max")
    assert (best["mean"], best["em"], best["f1"], best["jaccard"]) == (1.0, 1.0, 1.0, 1.0)


def test_inspect_reduces_span_accuracy_across_epochs(span_log: tuple[EvalLog, list[str]]) -> None:
    log, _ = span_log
    mean, err = _stats([right / EPOCHS for right in SPAN_RIGHT])
    got = _inspect_metrics(log, "mean")
    assert got["accuracy"] == pytest.approx(mean) and got["mean"] == pytest.approx(mean)
    assert got["stderr"] == pytest.approx(err)


@pytest.mark.parametrize("which", ["puzzle_log", "span_log"])
def test_report_matches_inspect_and_counts_samples_once(
    which: str, request: pytest.FixtureRequest
) -> None:
    log, ids = request.getfixturevalue(which)
    report = build_report([log.location])
    assert report.exit_code == 0 and report.bad_samples == []
    for reducer in ("mean", "max"):
        (row,) = [
            r for r in report.rows
            if r["M"] == "all" and r.get("reference_year", "all") == "all"
            and r.get("direction", "all") == "all" == r.get("type", "all")
            and r["reducer"] == reducer
        ]  # fmt: skip
        inspect = _inspect_metrics(log, reducer)
        assert row["n"] == len(ids) and row["epochs"] == EPOCHS
        assert row["sample_epochs"] == EPOCHS * len(ids)
        assert row["accuracy"] == pytest.approx(inspect["mean"])
        assert row["stderr"] == pytest.approx(inspect["stderr"])
        for name, value in row["metrics"].items():
            assert value == pytest.approx(inspect[name]), name


def test_report_json_rows_name_the_epochs(
    puzzle_log: tuple[EvalLog, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_main import run_main

    log, _ = puzzle_log
    code, out, err = run_main(capsys, "report", log.location, "--format", "json")
    assert code == 0, err
    rows = json.loads(out)
    for row in rows:
        assert {"task", "model", "condition", "n", "accuracy", "stderr", "metrics"} <= set(row)
        assert row["epochs"] == EPOCHS and row["reducer"] in ("mean", "max")
    code, out, err = run_main(capsys, "report", log.location)
    assert code == 0 and "epochs" in out
