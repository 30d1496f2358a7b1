"""A tsolve Inspect log can be re-scored and retried.

* ``inspect score LOG --action overwrite`` must find tsolve's scorer by the
  name the log holds (run as the real command, in a fresh interpreter that
  sees tsolve's ``inspect_ai`` entry point);
* the logged ``task_args`` keep dates as ``YYYY-MM-DD`` text, so
  ``inspect eval-retry`` rebuilds the same task;
* the runs here use the offline ``tsolve/scripted`` solver or a mockllm
  model whose outputs carry ``usage``, so nothing is downloaded.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.log import read_eval_log
from inspect_ai.solver import Generate, Solver, TaskState, solver

from tsolve.adapters.inspect_ai.scorer import SCORER_NAME, main_value
from tsolve.adapters.inspect_ai.scripted import scripted
from tsolve.records.gold_fields import record_in


def test_inspect_score_rescores_a_tsolve_log(entry_point_site: Path, tmp_path: Path) -> None:
    (log,) = inspect_eval(
        "tsolve/span", task_args={"seed": 4, "count": 2}, model="mockllm/model",
        solver=scripted(), log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    assert [s.name for s in log.eval.scorers or []] == [SCORER_NAME]

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(entry_point_site), *filter(None, [env.get("PYTHONPATH")])]
    )
    inspect_cli = Path(sys.executable).with_name("inspect")
    # As the issue runs it. Inspect then asks whether to overwrite the file or
    # create a new one, and the new one's name: the default answers (create,
    # LOG-scored.eval). The re-scored log names the scorer as the first did, so
    # it is re-scorable in turn.
    before = set((tmp_path / "logs").iterdir())
    done = subprocess.run(
        [str(inspect_cli), "score", log.location, "--action", "overwrite"],
        input="\n\n", capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    (new_log,) = set((tmp_path / "logs").iterdir()) - before
    rescored = read_eval_log(str(new_log))
    assert [s.name for s in rescored.eval.scorers or []] == [SCORER_NAME]
    assert rescored.samples is not None and len(rescored.samples) == 2
    for sample in rescored.samples:
        (score,) = (sample.scores or {}).values()
        assert main_value(score.value) == 1.0
        assert score.metadata["run"]["turns"] == 1


#: Whether :func:`flaky` fails (a module-level switch: the retry must rebuild
#: the solver from its registered name, so it cannot carry state of its own).
FAILING = {"on": True}


@solver
def flaky() -> Solver:
    """The offline scripted solver, failing every sample while FAILING is on
    (a provider outage, without a model that would need a tokenizer)."""
    inner = scripted()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if FAILING["on"]:
            raise RuntimeError("the provider is down")
        return await inner(state, generate)

    return solve


@pytest.mark.parametrize(
    ("task", "args", "text"),
    [
        ("tsolve/time_puzzles",
         {"count": 1, "domain_start": dt.date(2000, 1, 1), "domain_end": dt.date(2010, 12, 31)},
         {"domain_start": "2000-01-01", "domain_end": "2010-12-31"}),
        ("tsolve/span", {"count": 1, "date": dt.date(2024, 7, 1)}, {"date": "2024-07-01"}),
    ],
)  # fmt: skip
def test_dates_are_logged_as_text_and_eval_retry_rebuilds_the_task(
    task: str, args: dict[str, Any], text: dict[str, str], tmp_path: Path
) -> None:
    """``-T domain_start=2000-01-01`` reaches the task as a date (YAML); the log
    must hold the text. A run whose model fails is then retried from its log."""

    FAILING["on"] = True
    (failed,) = inspect_eval(
        task, task_args=args, model="mockllm/model", solver=flaky(),
        log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert failed.status == "error"
    for name, value in text.items():
        assert failed.eval.task_args[name] == value
        assert failed.eval.task_args_passed[name] == value

    FAILING["on"] = False
    (retried,) = eval_retry(failed, log_dir=str(tmp_path), display="none")
    assert retried.status == "success", retried.error
    for name, value in text.items():
        assert retried.eval.task_args[name] == value
    assert retried.samples is not None and len(retried.samples) == 1
    (score,) = (retried.samples[0].scores or {}).values()
    assert main_value(score.value) == 1.0
    record = record_in(retried.samples[0].metadata)
    if "domain" in record:  # the retried task was built from the logged text
        assert record["domain"] == {"start": "2000-01-01", "end": "2010-12-31"}

    # the failed log and its retry are one run: tsolve report reads the retry only
    from tsolve.adapters.inspect_ai.report import build_report

    report = build_report([tmp_path])
    assert report.logs == [retried.location.removeprefix("file://")]
    (dup,) = report.duplicates
    assert dup["log"] == failed.location.removeprefix("file://") and "same run" in dup["reason"]
    overall = [
        r
        for r in report.rows
        if r["M"] == "all"
        and all(r.get(k, "all") == "all" for k in ("direction", "reference_year", "type", "format"))
    ]
    assert [r["n"] for r in overall] == [1]
