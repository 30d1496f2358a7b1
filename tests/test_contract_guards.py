"""One set of guards for every family (tsolve.contract.guards): a full
``Family`` gets the minimal contract's checks, and a family's bug is one line
naming the family, never a traceback or a wrong score."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main

from tsolve.contract import Family, get_family, temporary_family
from tsolve.errors import TsolveError


def _generate(seed: int, index: int, config: Any) -> dict[str, Any]:
    """A record without ``family`` or ``generator``: tsolve stamps them."""
    return {"id": f"g-{seed}-{index}", "question": "Say yes.", "answer": "yes"}


def _score_dict(record: dict[str, Any], output: str, *, diagnose: bool = True) -> Any:
    return {"accuracy": float(output.strip().lower().endswith(record["answer"]))}


def _family(name: str, **parts: Any) -> Family:
    return Family(**{"name": name, "version": "1", "generate": _generate, "score": _score_dict,
                     **parts})  # fmt: skip


def _dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> Path:
    out = tmp_path / f"{name}.jsonl"
    code, _, err = run_main(capsys, "dataset", name, "--count", "2", "--out", str(out))
    assert code == 0, err
    return out


def _predictions(tmp_path: Path, outputs: dict[str, str]) -> Path:
    path = tmp_path / "preds.jsonl"
    path.write_text("".join(json.dumps({"id": k, "output": v}) + "\n" for k, v in outputs.items()))
    return path


def test_a_full_family_gets_its_records_stamped_and_its_dict_scores_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its records are readable by every later command, and a score in the
    minimal contract's shape is the score verify reports (as the facade's)."""
    import tsolve

    with temporary_family(_family("g-dict")):
        data = _dataset(tmp_path, capsys, "g-dict")
        records = [json.loads(line) for line in data.read_text().splitlines()]
        assert [r["family"] for r in records] == ["g-dict", "g-dict"]
        assert records[1]["generator"] == {"name": "g-dict", "version": "1", "seed": 0, "index": 1}
        preds = _predictions(tmp_path, {"g-0-0": "yes", "g-0-1": "no"})
        code, out, err = run_main(capsys, "verify", str(data), str(preds), "--format", "json")
        assert code == 0 and "Traceback" not in err, err
        assert json.loads(out)["summary"]["families"]["g-dict"]["overall"]["accuracy"] == 0.5
        entry = tsolve.create_dataset("g-dict", size=1)[0]
        assert tsolve.score_answer("yes", entry) == 1.0


@pytest.mark.parametrize(
    ("result", "why"),
    [
        ([1.0], "score returned list, not an ItemScore or a dict"),
        ({"accuracy": 1.5}, "metric 'accuracy' = 1.5 is not a number in [0, 1]"),
        ({}, "score must return a non-empty dict of metrics"),
    ],
)
def test_a_misbehaving_score_is_one_line_naming_the_family(
    result: Any, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def score(record: dict[str, Any], output: str, *, diagnose: bool = True) -> Any:
        return result

    with temporary_family(_family("g-bad", score=score)):
        data = _dataset(tmp_path, capsys, "g-bad")
        preds = _predictions(tmp_path, {"g-0-0": "yes", "g-0-1": "yes"})
        code, _, err = run_main(capsys, "verify", str(data), str(preds))
    assert code != 0 and "Traceback" not in err
    lines = [line for line in err.splitlines() if "g-bad" in line]
    assert len(lines) == 2 and all(f"family g-bad: {why}" in line for line in lines), err


def test_a_generator_that_returns_no_record_is_one_line_per_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    family = _family("g-none", generate=lambda seed, index, config: [index])
    with temporary_family(family):
        code, _, err = run_main(capsys, "dataset", "g-none", "--count", "2",
                                "--out", str(tmp_path / "x.jsonl"))  # fmt: skip
    assert code == 1 and "Traceback" not in err
    assert err.count("family g-none: generate returned list, not a dict") == 2, err


def test_a_part_that_fails_is_one_line_naming_the_family() -> None:
    def prompt(record: dict[str, Any]) -> str:
        raise KeyError("prompt_text")

    family = _family("g-prompt", prompt=prompt)
    with pytest.raises(TsolveError, match=r"^family g-prompt: prompt failed: .*KeyError"):
        family.prompt_text({"id": "a"})


def test_the_default_prompt_is_the_prompt_else_the_question() -> None:
    family = _family("g-ask")
    assert family.prompt_text({"prompt": "P", "question": "Q"}) == "P"
    assert family.prompt_text({"question": "Q"}) == "Q"
    with pytest.raises(TsolveError, match="no 'prompt' or 'question'"):
        family.prompt_text({"id": "a"})


def test_the_perturbed_gold_is_never_the_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A gold with no value to move (a word) or no answer at all (a time
    puzzle none of whose dates fits) is still made wrong."""
    from tsolve.verifiers.baselines import never_gold

    assert never_gold("MY ANSWER: None") == "MY ANSWER: 2000-01-01"
    assert never_gold("") == "2000-01-01"
    assert never_gold("MY ANSWER: Friday") == "MY ANSWER: yadirF"
    assert never_gold("level") == "level not"

    data = tmp_path / "zero.jsonl"
    code, _, err = run_main(capsys, "dataset", "time-puzzles", "--count", "2",
                            "--set", "solutions=0", "--out", str(data))  # fmt: skip
    assert code == 0, err
    preds = tmp_path / "p.jsonl"
    code, _, err = run_main(capsys, "predict", str(data), "--baseline", "perturbed",
                            "--out", str(preds))  # fmt: skip
    assert code == 0, err
    code, out, err = run_main(capsys, "verify", str(data), str(preds), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["summary"]["families"]["time-puzzles"]["overall"]["em"] == 0.0


def test_metrics_a_family_does_not_declare_are_not_reported_for_it() -> None:
    """The Inspect value holds a family's own diagnostic metrics only, and a
    gameable metric is the declaring family's."""
    pytest.importorskip("inspect_ai")
    from tsolve.adapters.inspect_ai.scorer import score_value
    from tsolve.verifiers.rewards import diagnostic, gameable

    assert set(score_value({"accuracy": 1.0}, "logistics")) == {"accuracy"}
    assert "alt_reading" in score_value({"em": 1.0}, "time-puzzles")
    assert gameable("logistics") == ("partial",) and gameable("span") == ()
    assert diagnostic("logistics") == () and diagnostic("span") == ("alt_reading",)
    assert get_family("logistics").gameable_metrics == ("partial",)


def test_declared_reward_metrics_are_the_offered_ones() -> None:
    """A family that declares its reward metrics is taken at its word (no
    probe item is scored), and a gameable one it declares is still refused."""
    from tsolve.facade import check_reward_metric, reward_metrics

    def no_probe(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the scorer was called")

    family = _family("g-rewards", score=no_probe, reward_metrics=("accuracy",),
                     gameable_metrics=("lenient",))  # fmt: skip
    with temporary_family(family):
        assert reward_metrics(family, {}) == ("accuracy",)
        check_reward_metric(family, "accuracy", {})
        with pytest.raises(TsolveError, match="never a reward"):
            check_reward_metric(family, "lenient", {})


def test_a_minimal_plugins_config_takes_any_option() -> None:
    """A minimal plug-in declares no option table, so its reasoning-gym
    config takes any keyword as a generator option (as tsolve.create_dataset
    does), keeps it through dataclasses.replace, and hands it on."""
    import dataclasses

    from tsolve.adapters.reasoning_gym_configs import config_class
    from tsolve.contract.plugin import adapt

    class Minimal:
        name = "g-open"

        def generate(self, seed: int, index: int, params: dict[str, Any]) -> dict[str, Any]:
            return {"id": f"o-{index}", "question": "?", "answer": str(params.get("width", 1))}

        def score(self, record: dict[str, Any], output: str) -> dict[str, float]:
            return {"accuracy": float(output.strip() == record["answer"])}

    with temporary_family(adapt(Minimal(), "test")) as family:
        cls = config_class(family)
        config = cls(seed=1, size=2, width=7)
        assert config.options() == {"width": 7}
        config.validate()
        again = dataclasses.replace(config, size=3)
        assert again.options() == {"width": 7} and again.size == 3
