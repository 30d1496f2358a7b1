"""The offline model provider, ``--model tsolve/gold`` (and refuse, random, perturbed).

Each task is evaluated in process by the real ``inspect_ai.eval`` with the
model given by name, as the command line gives it, so Inspect's own model
registry finds the provider. Gold must score 1 and a refusal 0 under every
family's real scorer; usage is the whitespace-token count of what was shown
and written, counted here from the log's messages; under a tool condition the
model calls one tool once and still answers. Expected scores come from the
contract (gold is full marks, a refusal is no answer), not from the model.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "inspect_ai", reason="the offline model is an Inspect provider (pip install '.[inspect]')"
)

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, get_model
from inspect_ai.scorer import Score

from tsolve.adapters.inspect_ai import family_task, task_functions
from tsolve.adapters.inspect_ai.scorer import main_value
from tsolve.errors import TsolveError
from tsolve.families.tictoc.inspect_task import tictoc_task
from tsolve.records.gold_fields import record_in
from tsolve.verifiers.baselines import redraw

FAMILIES = sorted(task_functions())  # every generating family: time_puzzles, span, ...
TICTOC = Path(__file__).resolve().parent / "fixtures" / "tictoc_invented.json"


def _eval(tasks: Any, model: str, log_dir: Path) -> list[EvalLog]:
    logs = inspect_eval(tasks, model=model, log_dir=str(log_dir), display="none")
    for log in logs:
        assert log.status == "success", log.error
        assert log.samples
    return list(logs)


def _score(sample: EvalSample) -> Score:
    (score,) = (sample.scores or {}).values()
    return score


def _scores(log: EvalLog) -> list[float]:
    assert log.samples is not None
    return [main_value(_score(s).value) for s in log.samples]


@pytest.mark.parametrize(("model", "expected"), [("tsolve/gold", 1.0), ("tsolve/refuse", 0.0)])
def test_gold_scores_one_and_refusal_zero_on_every_family(
    model: str, expected: float, tmp_path: Path
) -> None:
    tasks = [family_task(name.replace("_", "-"), seed=1, count=2) for name in FAMILIES]
    logs = _eval(tasks, model, tmp_path)
    assert {log.eval.task.removeprefix("tsolve/") for log in logs} == set(FAMILIES)
    for log in logs:
        scores = _scores(log)
        assert len(scores) == 2, log.eval.task
        assert scores == [expected, expected], log.eval.task


def test_usage_is_whitespace_tokens_of_what_was_read_and_written(tmp_path: Path) -> None:
    (log,) = _eval(family_task("time-puzzles", seed=1, count=3), "tsolve/gold", tmp_path)
    assert log.samples is not None
    shown = sum(len(s.input.split()) for s in log.samples if isinstance(s.input, str))
    written = sum(len(s.output.completion.split()) for s in log.samples)
    usage = log.stats.model_usage["tsolve/gold"]
    assert (usage.input_tokens, usage.output_tokens) == (shown, written)
    assert usage.total_tokens == shown + written > 0
    for sample in log.samples:  # gold in the prompt's form: MY ANSWER: followed by the dates
        answers = record_in(sample.metadata)["answers"]
        assert sample.output.completion == "MY ANSWER: " + (", ".join(answers) or "None")


def test_a_tool_condition_makes_one_tool_call_then_answers(tmp_path: Path) -> None:
    task = family_task("time-puzzles", seed=1, count=2, tools="calendar")
    (log,) = _eval(task, "tsolve/gold", tmp_path)
    assert _scores(log) == [1.0, 1.0]
    assert log.samples is not None
    for sample in log.samples:
        calls = [
            call.function
            for m in sample.messages
            if isinstance(m, ChatMessageAssistant)
            for call in m.tool_calls or []
        ]
        results = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
        assert calls == ["search_calendar"]
        assert len(results) == 1 and results[0].error is None
        assert sample.metadata["run"]["n_tool_calls"] == 1


def test_perturbed_and_random_answers_keep_the_form_and_miss(tmp_path: Path) -> None:
    task = family_task("time-puzzles", seed=1, count=3, solutions=1)
    for model in ("tsolve/perturbed", "tsolve/random"):
        (log,) = _eval(task, model, tmp_path / model.replace("/", "-"))
        assert log.samples is not None
        for sample in log.samples:
            score = _score(sample)
            assert score.metadata is not None
            assert not score.metadata["parse_failed"], sample.output.completion
            assert main_value(score.value) == 0.0, (model, sample.output.completion)


def test_tictoc_gold_makes_the_preferred_move_and_perturbed_the_other(tmp_path: Path) -> None:
    gold, perturbed = (
        _eval(tictoc_task(TICTOC), model, tmp_path / model.replace("/", "-"))[0]
        for model in ("tsolve/gold", "tsolve/perturbed")
    )
    assert gold.results is not None and perturbed.results is not None
    assert gold.results.scores[0].metrics["mean"].value == 1.0
    assert perturbed.results.scores[0].metrics["mean"].value == 0.0


def test_a_bad_model_name_or_option_is_a_one_line_error() -> None:
    with pytest.raises(Exception, match="expected tsolve/gold, tsolve/refuse") as bad_name:
        get_model("tsolve/oracle")
    assert "\n" not in str(bad_name.value)
    with pytest.raises(Exception, match="temperature: not an option"):
        get_model("tsolve/gold", temperature=2)
    with pytest.raises(Exception, match="seed: expected an integer"):
        get_model("tsolve/random", seed="x")


def test_outside_an_eval_the_model_says_what_it_answers() -> None:
    import asyncio

    with pytest.raises(TsolveError, match="answer tsolve samples only"):
        asyncio.run(get_model("tsolve/gold").generate("What day is it?"))


def test_the_entry_point_module_registers_the_provider() -> None:
    """``--model tsolve/gold`` works because the module pyproject.toml names as
    the ``inspect_ai`` entry point registers a model API named ``tsolve``
    (Inspect loads the entry points when a name is not yet registered)."""
    import importlib

    import tomllib
    from inspect_ai._util.registry import registry_find, registry_unqualified_name

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    importlib.import_module(project["project"]["entry-points"]["inspect_ai"]["tsolve"])
    found = registry_find(
        lambda info: info.type == "modelapi" and registry_unqualified_name(info) == "tsolve"
    )
    assert len(found) == 1


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("MY ANSWER: 2024-02-29, 1999-12-31", r"MY ANSWER: 2024-\d\d-\d\d, 1999-\d\d-\d\d"),
        ("MY ANSWER: Yes", r"MY ANSWER: (Yes|No)"),
        ("Answer: l2_0, a0", r"Answer: l\d_\d, a\d"),
        ("MY ANSWER: day 21 of Month 12, 2058", r"MY ANSWER: day \d\d of Month \d\d, \d{4}"),
        ("MY ANSWER: None", r"MY ANSWER: None"),
    ],
)
def test_redraw_keeps_the_form_of_each_value(text: str, form: str) -> None:
    import re
    from datetime import date

    drawn = {redraw(text, random.Random(i)) for i in range(40)}
    for out in drawn:
        assert re.fullmatch(form, out), out
        for iso in re.findall(r"\d{4}-\d\d-\d\d", out):
            date.fromisoformat(iso)  # a real date
    assert len(drawn) > 1 or "None" in text  # values really drawn
    assert redraw(text, random.Random(5)) == redraw(text, random.Random(5))
