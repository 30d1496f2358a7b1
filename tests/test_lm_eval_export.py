"""``tsolve export lm-eval``: the folder it writes runs in
the real lm-evaluation-harness, and its scores are tsolve's.

The lm-eval runs are skipped, with the reason, when lm-eval is not installed
(it is not in CI's ``test`` extra: docs/rl.md); the folder's own checks run
everywhere."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main

import tsolve
from tsolve.adapters.lm_eval import export_lm_eval
from tsolve.errors import TsolveError


def _utils(folder: Path) -> Any:
    spec = importlib.util.spec_from_file_location("tsolve_lm_eval_utils", folder / "utils.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_writes_a_named_task_whose_hooks_score_with_tsolve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("datasets", reason="the folder's load_docs builds a datasets table")
    out = tmp_path / "task"
    code, stdout, _ = run_main(
        capsys, "export", "lm-eval", str(out), "--family", "span", "--count", "4", "--seed", "3",
        "--set", "date=2024-03-01", "--format", "json",
    )  # fmt: skip
    assert code == 0, stdout
    report = json.loads(stdout)
    assert report["task"] == "tsolve_span"  # stable: the run is in the metadata
    assert report["run"].startswith("HF_HUB_OFFLINE=1 lm_eval ")
    text = (out / "tsolve_span.yaml").read_text()
    assert "task: tsolve_span\n" in text and "  seed: 3\n" in text and "  count: 4\n" in text
    docs = _utils(out).load_docs()["test"]
    expected = tsolve.create_dataset("span", seed=3, size=4, date="2024-03-01")
    assert [d["answer"] for d in docs] == [e["answer"] for e in expected]
    utils = _utils(out)
    for doc in docs:
        right = {"score": 1.0, "accuracy": 1.0}  # SPAN's one metric, and the main one
        assert utils.process_results(doc, ["Thinking.\nMY ANSWER: " + doc["answer"]]) == right
        wrong = {"score": 0.0, "accuracy": 0.0}
        assert utils.process_results(doc, ["no clue"]) == wrong
        assert utils.process_results(doc, []) == wrong


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "other.txt").write_text("x")
    for args in (
        [str(tmp_path / "busy"), "--family", "span", "--count", "1"],
        [str(tmp_path / "a"), "--count", "0"],
        [str(tmp_path / "b"), "--family", "nosuch"],
        [str(tmp_path / "c"), "--family", "span", "--set", "nosuch=1"],
        [str(tmp_path / "d"), "--family", "span", "--task", "no spaces"],
    ):
        code, _, stderr = run_main(capsys, "export", "lm-eval", *args)
        assert code != 0 and "Traceback" not in stderr, args
        assert len(stderr.strip().splitlines()) == 1, (args, stderr)
    with pytest.raises(TsolveError, match="not empty"):
        export_lm_eval(tmp_path / "busy", "span", 1)


def test_the_real_lm_eval_runs_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lm-eval's own task loader and evaluator: a model that answers the gold
    scores 1.0, lm-eval's dummy model ("lol") 0.0."""
    pytest.importorskip("lm_eval", reason="lm-eval not installed (pip install lm-eval)")
    # lm-eval's dummy model asks the Hub for a tokenizer; offline, at once.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hub_constants = pytest.importorskip("huggingface_hub.constants")
    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", True)
    from lm_eval import simple_evaluate
    from lm_eval.models.dummy import DummyLM
    from lm_eval.tasks import TaskManager

    class GoldLM(DummyLM):  # type: ignore[misc]
        def generate_until(self, requests: Any, disable_tqdm: bool = False) -> list[str]:
            return [f"Reasoning...\nMY ANSWER: {r.doc['answer']}" for r in requests]

    result = export_lm_eval(tmp_path / "tp", "time-puzzles", 3, seed=2)
    # Only the exported folder: indexing lm-eval's thousands of built-in tasks
    # costs a minute and tests nothing of ours.
    manager = TaskManager(include_path=str(result.directory), include_defaults=False)
    scores = {}
    for name, model in (("gold", GoldLM()), ("dummy", DummyLM())):
        out = simple_evaluate(model=model, tasks=[result.task], task_manager=manager)
        assert out is not None
        scores[name] = out["results"][result.task]["score,none"]
    assert scores == {"gold": 1.0, "dummy": 0.0}


def test_the_real_lm_eval_reports_every_metric_by_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each family metric, for the whole run and for each group (M, style,
    difficulty) and its subtasks: 1.0 for the gold model, 0.0 for "lol"; the
    subtasks partition the run, so a group's document count is the run's."""
    pytest.importorskip("lm_eval", reason="lm-eval not installed (pip install lm-eval)")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hub_constants = pytest.importorskip("huggingface_hub.constants")
    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", True)
    from lm_eval import simple_evaluate
    from lm_eval.models.dummy import DummyLM
    from lm_eval.tasks import TaskManager

    class GoldLM(DummyLM):  # type: ignore[misc]
        def generate_until(self, requests: Any, disable_tqdm: bool = False) -> list[str]:
            return [f"Reasoning...\nMY ANSWER: {r.doc['answer']}" for r in requests]

    result = export_lm_eval(
        tmp_path / "tp", "time-puzzles", 4, seed=2, options={"solutions": "1-2"}, fewshot=1
    )
    assert set(result.metrics) == {"em", "f1", "jaccard"}
    assert {"tsolve_time_puzzles_by_m", "tsolve_time_puzzles_by_style"} <= set(result.groups)
    manager = TaskManager(include_path=str(result.directory), include_defaults=False)
    for model, want in ((GoldLM(), 1.0), (DummyLM(), 0.0)):
        out = simple_evaluate(
            model=model, tasks=[result.task, *result.groups], task_manager=manager
        )
        assert out is not None
        for name in (result.task, *result.groups):
            row = out["results"][name]
            for metric in ("score", *result.metrics):
                assert row[f"{metric},none"] == want, (name, metric)
        subtasks = [t for t in out["results"] if t.startswith("tsolve_time_puzzles_m_")]
        assert len(subtasks) == 2  # M = 1 and M = 2
        assert sum(out["n-samples"][t]["effective"] for t in subtasks) == 4


def test_every_lm_eval_command_in_the_docs_names_a_model() -> None:
    """Without ``--model`` lm-eval loads its default ``hf`` model, which needs
    torch and a download: a hint without it ends in a traceback inside lm-eval.
    Each ``lm_eval`` command in the README and docs/ names one (a command goes
    on over a trailing backslash)."""
    import re

    root = Path(__file__).resolve().parents[1]
    commands = []
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8").replace("\\\n", " ")
        for line in text.splitlines():
            if re.search(r"(^|[\s`=])lm_eval\s+--", line):
                commands.append((doc.name, line))
    assert commands, "no lm_eval command found in the docs"
    for name, line in commands:
        assert re.search(r"lm_eval\s.*--model\s+\S", line), f"{name}: {line.strip()}"
