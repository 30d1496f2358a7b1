"""The extending guide's family, installed as its own package, through every
command and adapter tsolve has for a family.

The package is :mod:`tests.plugin_family` (``weekday``: the weekday some days
after a date), written into a temporary folder with its ``*.dist-info`` and
found by ``importlib.metadata`` as any installed package is. It declares the
minimal contract and a few optional parts (a curriculum knob, its difficulty,
an auditor); everything else it gets from the contract's defaults. A fresh
process (``tsolve families``, ``inspect eval``) sees it through
``PYTHONPATH``; the other commands run in-process with it on ``sys.path``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main
from plugin_family import NAME, SOURCE, installed, subprocess_env

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "extending.md"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with installed(tmp_path_factory.mktemp("weekday")) as folder:
        yield folder


#: What the guide's ``prompt`` adds to a record's question.
ASK = ' End with a line "Answer: <weekday>".'


def _prompt(record: dict[str, Any]) -> str:
    return str(record["question"]) + ASK


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_the_guide_holds_the_family_and_its_registration() -> None:
    """The test runs the family a user builds from the guide alone."""
    guide = GUIDE.read_text(encoding="utf-8")
    assert SOURCE in guide
    assert f'{NAME} = "weekday_family:FAMILY"' in guide


def test_a_fresh_process_lists_it_with_what_it_can_do(site: Path, tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "tsolve", "families", "--format", "json"],
        capture_output=True, text=True, env=subprocess_env(site), cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    weekday = next(f for f in data["families"] if f["name"] == NAME)
    assert weekday["capabilities"] == ["dataset", "verify", "audit"]
    assert "tsolve-weekday-family" in weekday["origin"]


def test_dataset_predict_verify_and_audit(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "w.jsonl"
    code, _, err = run_main(capsys, "dataset", NAME, "--count", "6", "--seed", "3",
                            "--set", "max_offset=10", "--out", str(data))  # fmt: skip
    assert code == 0, err
    records = _records(data)
    assert [r["generator"]["index"] for r in records] == list(range(6))
    assert all(r["family"] == NAME and 1 <= r["offset"] <= 10 for r in records)

    accuracy = {}
    for baseline in ("gold", "random", "perturbed"):
        preds = tmp_path / f"{baseline}.jsonl"
        code, _, err = run_main(capsys, "predict", str(data), "--baseline", baseline,
                                "--out", str(preds))  # fmt: skip
        assert code == 0, err
        outputs = {p["id"]: p["output"] for p in _records(preds)}
        if baseline == "perturbed":  # never the gold itself (its gold has no value to move)
            assert all(outputs[r["id"]] != r["answer"] for r in records)
        code, out, err = run_main(capsys, "verify", str(data), str(preds), "--format", "json")
        assert code == 0, err
        overall = json.loads(out)["summary"]["families"][NAME]["overall"]
        assert overall["n"] == 6
        accuracy[baseline] = overall["accuracy"]
    assert accuracy["gold"] == 1.0 and accuracy["perturbed"] == 0.0
    assert 0.0 <= accuracy["random"] <= 1.0

    code, out, err = run_main(capsys, "audit", str(data), "--format", "jsonl")
    assert code == 0, err
    verdicts = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    items = [v for v in verdicts if "verdict" in v]
    assert len(items) == 6 and {v["verdict"] for v in items} == {"ok"}


def test_the_adversarial_and_shortcut_suites_pass_the_guides_scorer(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The guide's scorer reads the answer by tsolve's rule and takes a bare
    answer only alone: no policy that skips the task scores, every honest
    style does (a "last weekday named" scorer gave an echo of the question
    0.10-0.15 here), and no shortcut probe beats chance."""
    code, out, err = run_main(capsys, "stress", NAME, "--adversarial", "--n", "30", "-q",
                              "--format", "json")  # fmt: skip
    assert code == 0, out + err
    report = json.loads(out)
    assert report["ok"] and report["failures"] == []
    code, out, err = run_main(capsys, "stress", NAME, "--shortcuts", "-n", "40", "-q",
                              "--format", "json")  # fmt: skip
    assert code == 0, out + err


def test_inspect_eval_and_report(site: Path, tmp_path: Path) -> None:
    """Real Inspect with the offline models, on the task ``inspect eval
    tsolve/weekday`` runs (the registered task function the entry point
    builds from the registry, called as Inspect calls it): its prompt (the
    record's ``question``), the scorer's metrics (the family's own, no other
    family's diagnostic ones), then ``tsolve report`` over the logs."""
    pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (tsolve[inspect])")
    from inspect_ai import eval as inspect_eval

    from tsolve.adapters.inspect_ai.report import build_report
    from tsolve.adapters.inspect_ai.tasks import task_functions

    task = task_functions()[NAME](count=3, max_offset=10)
    assert [s.input for s in task.dataset] == [_prompt(r) for r in _generated(3, 10)]
    logs = inspect_eval(task, model=["tsolve/gold", "tsolve/perturbed"],
                        log_dir=str(tmp_path), display="none")  # fmt: skip
    assert [log.status for log in logs] == ["success", "success"]
    report = build_report([tmp_path])
    assert report.exit_code == 0 and not report.bad_samples
    rows = {r["model"]: r for r in report.rows}
    assert set(rows) == {"tsolve/gold", "tsolve/perturbed"}
    assert rows["tsolve/gold"]["task"] == f"tsolve/{NAME}" and rows["tsolve/gold"]["n"] == 3
    assert rows["tsolve/gold"]["accuracy"] == 1.0 and rows["tsolve/perturbed"]["accuracy"] == 0.0
    assert set(rows["tsolve/gold"]["metrics"]) == {"accuracy"}


def _generated(count: int, max_offset: int) -> list[dict[str, Any]]:
    from tsolve.contract import get_family

    family = get_family(NAME)
    config = family.make_options({"max_offset": max_offset})
    return [family.make_record(0, i, config) for i in range(count)]


def test_reasoning_gym_takes_its_options_and_has_its_curriculum(site: Path) -> None:
    rg = pytest.importorskip("reasoning_gym", reason="reasoning-gym not installed (tsolve[rg])")
    import pickle

    import tsolve

    assert f"tsolve_{NAME}" in tsolve.register_reasoning_gym()
    ds = rg.create_dataset(f"tsolve_{NAME}", size=4, seed=2, max_offset=10)
    for entry in ds:
        offset = entry["metadata"]["difficulty"]["offset"]
        assert entry["metadata"]["difficulty"] == {"offset": offset} and 1 <= offset <= 10
        assert entry["question"].endswith(f"it {offset} days later?{ASK}")
        assert ds.score_answer(entry["answer"], entry) == 1.0
        assert ds.score_answer("no idea", entry) == 0.0
    assert pickle.loads(pickle.dumps(ds))[3] == ds[3]
    assert ds[1] == tsolve.create_dataset(NAME, seed=2, size=4, max_offset=10)[1] | {
        "metadata": ds[1]["metadata"]
    }

    curriculum = rg.create_curriculum(f"tsolve_{NAME}")
    assert set(curriculum.attributes) == {"max_offset"}
    curriculum.increment_attr_level("max_offset")
    config = curriculum.generate_configuration({"size": 3, "seed": 1})
    assert config.max_offset == 30
    hardest = rg.create_dataset(f"tsolve_{NAME}", size=3, seed=1, max_offset=config.max_offset)
    assert all(e["metadata"]["difficulty"]["offset"] <= 30 for e in hardest)


def _module(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"lm_eval_utils_{os.getpid()}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lm_eval_and_trainer_exports_score_its_gold(site: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow not installed (tsolve[hf])")
    import pyarrow.parquet as pq

    from tsolve.adapters.lm_eval import export_lm_eval
    from tsolve.rl.export import export_rl
    from tsolve.rl.rewards import compute_score, openrlhf_rewards, trl_reward

    export_lm_eval(tmp_path / "lm", NAME, 4, 0, {"max_offset": 10})
    docs = _records(tmp_path / "lm" / "data" / "test.jsonl")
    if importlib.util.find_spec("datasets") is not None:
        utils = _module(tmp_path / "lm" / "utils.py")
        assert [utils.process_results(d, [d["answer"]])["score"] for d in docs] == [1.0] * 4
        assert [utils.process_results(d, ["no idea"])["score"] for d in docs] == [0.0] * 4

    for trainer in ("trl", "verl", "openrlhf"):
        export_rl(trainer, tmp_path / trainer, NAME, 10, 0, 0.2, {"max_offset": 10})
        rows = pq.read_table(tmp_path / trainer / "train.parquet").to_pylist()
        assert rows
        for row in rows:
            if trainer == "verl":
                prompt, gold = row["prompt"][0]["content"], row["reward_model"]["ground_truth"]
            else:
                prompt, gold = row["prompt"], row["label"]
            assert "days later?" in prompt
            answer = _answer(gold)
            if trainer == "trl":
                assert trl_reward("accuracy")([answer, "no idea"], label=[gold, gold]) == [1, 0]
            elif trainer == "verl":
                assert compute_score(NAME, answer, gold)["score"] == 1.0
                assert compute_score(NAME, "no idea", gold)["score"] == 0.0
            else:
                assert openrlhf_rewards([prompt + answer], [prompt], [gold]) == [1.0]


def _answer(gold: Any) -> str:
    """The gold answer a row's ground truth holds (a plug-in ships its record)."""
    from tsolve.rl.gold import read_ground_truth

    _family, _kind, fields = read_ground_truth(gold)
    answer = fields["answer"]
    assert isinstance(answer, str)
    return answer


def test_the_agent_tools_show_its_prompt_and_gold(site: Path) -> None:
    """``tsolve mcp``'s task_prompt / family_instructions: the record's
    question (it writes no ``prompt``) and its gold as the scorer reads it."""
    from tsolve.adapters.agent_tools import family_instructions

    made = family_instructions(NAME, 3, 1)
    record = _generated_seed(3, 1)
    assert made["example"]["prompt"] == _prompt(record)
    assert made["example"]["gold_reply"] == f"Answer: {record['answer']}"  # its marker


def _generated_seed(seed: int, index: int) -> dict[str, Any]:
    from tsolve.contract import get_family

    family = get_family(NAME)
    return family.make_record(seed, index, family.make_options({}))
