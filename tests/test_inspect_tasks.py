"""tsolve's Inspect AI tasks, run end to end offline with a scripted model.

Each family's task is evaluated in process by ``inspect_ai.eval`` against
Inspect's ``mockllm/model``, whose outputs a function writes from the gold
answer of the record behind each prompt (in the answer format the prompt
asks for) or from garbage. Gold must score 1, garbage 0, and the score's
metadata must carry tsolve's metrics and diagnosis. The task's dataset for a
seed must be the records ``tsolve dataset`` writes for that seed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from tsolve.adapters.inspect_ai import family_task, record_prompt, task_functions
from tsolve.adapters.inspect_ai.prompts import UNSEENTIMEQA_FIELDS
from tsolve.adapters.inspect_ai.scorer import main_value
from tsolve.contract import Family, temporary_family
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import record_in

Record = dict[str, Any]

# ------------------------------------------------------------------ gold outputs
# Written here from each prompt's stated answer format, not by tsolve's code.


def _time_puzzle_gold(rec: Record) -> str:
    return "MY ANSWER: " + (", ".join(rec["answers"]) or "None")


def _relational_gold(rec: Record) -> str:
    names = [event["name"] for event in rec["events"]]
    lines = [
        "MY ANSWER: " + "; ".join(f"{n} = {d}" for n, d in zip(names, combo, strict=True))
        for combo in rec["answers"]
    ]
    return "\n".join(lines) or "MY ANSWER: None"


def _span_gold(rec: Record) -> str:
    return "MY ANSWER: " + str(rec["answer"])


def _logistics_gold(rec: Record) -> str:
    return "Answer: " + ", ".join(rec["answers"])


GOLD: dict[str, Callable[[Record], str]] = {
    "time-puzzles": _time_puzzle_gold,
    "relational-puzzles": _relational_gold,
    "span": _span_gold,
    "logistics": _logistics_gold,
}

MAIN = {
    "time-puzzles": "em",
    "relational-puzzles": "em",
    "span": "accuracy",
    "logistics": "accuracy",
}


def _scripted(answer: Callable[[Record], str], task: Task) -> Any:
    """A mockllm model that answers each prompt with ``answer(record)``. A
    function rather than a list: Inspect runs samples concurrently, in any order.
    Usage is set so that mockllm does not fetch a tokenizer to count tokens."""
    by_prompt = {sample.input: record_in(sample.metadata) for sample in task.dataset}

    def reply(messages: list[ChatMessage], *args: Any) -> ModelOutput:
        out = ModelOutput.from_content("mockllm/model", answer(by_prompt[messages[-1].text]))
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=reply)


def _run(task: Task, answer: Callable[[Record], str], log_dir: Path) -> EvalLog:
    (log,) = inspect_eval(task, model=_scripted(answer, task), log_dir=str(log_dir), display="none")
    assert log.status == "success", log.error
    assert log.samples is not None
    return log


def _scores(log: EvalLog) -> list[Any]:
    assert log.samples is not None
    return [score for sample in log.samples for score in (sample.scores or {}).values()]


# ------------------------------------------------------------------ end to end


@pytest.mark.parametrize("family", sorted(GOLD))
def test_gold_scores_one_and_garbage_zero(family: str, tmp_path: Path) -> None:
    task = family_task(family, seed=5, count=3)
    assert len(task.dataset) == 3

    gold = _run(task, GOLD[family], tmp_path / "gold")
    assert gold.eval.task == "tsolve/" + family.replace("-", "_")
    for score in _scores(gold):
        assert main_value(score.value) == 1.0
        assert score.metadata["main_metric"] == MAIN[family]
        assert score.metadata["metrics"][MAIN[family]] == 1.0
        assert score.metadata["parse_failed"] is False
    assert gold.results is not None
    metrics = {m.name: m.value for s in gold.results.scores for m in s.metrics.values()}
    assert metrics["mean"] == 1.0 and metrics[MAIN[family]] == 1.0

    garbage = _run(task, lambda rec: "I would rather not say.", tmp_path / "garbage")
    for score in _scores(garbage):
        assert main_value(score.value) == 0.0
        assert score.metadata["parse_failed"] is True
        assert all(v == 0.0 for v in score.metadata["metrics"].values())
        assert score.metadata["diagnosis"], "tsolve's diagnosis is missing"


def test_wrong_answer_carries_the_symbolic_diagnosis(tmp_path: Path) -> None:
    """A parseable wrong date: the metadata names the facts it violates."""
    task = family_task("time-puzzles", seed=2, count=2, solutions=1)

    def day_after(rec: Record) -> str:
        y, m, d = (int(x) for x in rec["answers"][0].split("-"))
        import datetime as dt

        return "MY ANSWER: " + (dt.date(y, m, d) + dt.timedelta(days=1)).isoformat()

    for score in _scores(_run(task, day_after, tmp_path)):
        assert main_value(score.value) == 0.0
        diagnosis = score.metadata["diagnosis"]
        (wrong,) = diagnosis["wrong"].values()
        assert wrong["violates"], diagnosis
        assert len(diagnosis["missed"]) == 1
        assert "diagnosis" in (score.explanation or "")


def test_partial_set_answers_report_every_metric(tmp_path: Path) -> None:
    """Half of a two-date answer: EM 0 (the value), F1 2/3, Jaccard 1/2 in metadata."""
    task = family_task("time-puzzles", seed=4, count=2, solutions=2)
    log = _run(task, lambda rec: "MY ANSWER: " + rec["answers"][0], tmp_path)
    for score in _scores(log):
        assert main_value(score.value) == 0.0
        assert score.metadata["metrics"]["f1"] == pytest.approx(2 / 3)
        assert score.metadata["metrics"]["jaccard"] == pytest.approx(1 / 2)
    assert log.results is not None
    metrics = {m.name: m.value for s in log.results.scores for m in s.metrics.values()}
    assert metrics["f1"] == pytest.approx(2 / 3) and metrics["em"] == 0.0


# ------------------------------------------------------------------ the dataset


def _cli_dataset(tmp_path: Path, family: str, *args: str) -> list[Record]:
    out = tmp_path / f"{family}.jsonl"
    subprocess.run(
        [sys.executable, "-m", "tsolve", "dataset", family, "--out", str(out), "-q", *args],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n") if line]


@pytest.mark.parametrize(
    ("family", "cli_args", "options"),
    [
        ("span", ["--seed", "11", "--count", "6"], {}),
        ("time-puzzles", ["--seed", "3", "--count", "4", "--solutions", "2"], {"solutions": 2}),
        (
            "logistics",
            ["--seed", "8", "--count", "3", "--difficulty", "easy"],
            {"difficulty": "easy"},
        ),
    ],
)
def test_dataset_is_what_tsolve_dataset_writes(
    family: str, cli_args: list[str], options: dict[str, Any], tmp_path: Path
) -> None:
    expected = _cli_dataset(tmp_path, family, *cli_args)
    seed, count = int(cli_args[1]), int(cli_args[3])
    task = family_task(family, seed=seed, count=count, **options)
    samples = list(task.dataset)
    assert [s.id for s in samples] == [r["id"] for r in expected]
    for sample, rec in zip(samples, expected, strict=True):
        assert record_in(sample.metadata) == rec
        gold = rec["answers"] if "answers" in rec else rec["answer"]
        got = record_in(sample.metadata).get("answers", record_in(sample.metadata).get("answer"))
        assert got == gold


def test_file_dataset_and_its_errors(tmp_path: Path) -> None:
    records = _cli_dataset(tmp_path, "span", "--seed", "1", "--count", "3")
    path = tmp_path / "span.jsonl"
    from_file = family_task("span", file=str(path))
    assert [record_in(s.metadata) for s in from_file.dataset] == records

    with pytest.raises(TsolveError, match="not 'time-puzzles'"):
        family_task("time-puzzles", file=str(path))
    with pytest.raises(TsolveError, match="date: options for generating records"):
        family_task("span", file=str(path), date="2024-01-01")
    with pytest.raises(TsolveError, match="count: options for generating records"):
        family_task("span", file=str(path), count=2)
    # Bad rows are skipped (tests/test_inspect_bad_rows.py); only a file with
    # no usable row is an error, naming the first bad one.
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(TsolveError, match=r"bad\.jsonl: no usable row; .*row 1: malformed JSON"):
        family_task("span", file=str(bad))
    dup = tmp_path / "dup.jsonl"
    dup.write_text(json.dumps(records[0]) + "\n" + json.dumps(records[0]) + "\n", encoding="utf-8")
    assert [s.id for s in family_task("span", file=str(dup)).dataset] == [records[0]["id"]]


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(TsolveError, match="not an option of family span"):
        family_task("span", count=1, solutions=3)
    with pytest.raises(TsolveError, match="count"):
        family_task("span", count=-1)


# ------------------------------------------------------------------ prompts


def test_logistics_prompt_is_built_from_the_item_when_it_has_none() -> None:
    task = family_task("logistics", seed=0, count=1)
    rec = dict(record_in(task.dataset[0].metadata))
    rec.pop("prompt", None)
    prompt = record_prompt(rec)
    for name in UNSEENTIMEQA_FIELDS:
        value = rec[name]
        for line in value if isinstance(value, list) else [value]:
            assert line.strip() in prompt
    assert rec["question"] in prompt
    assert "Answer: <names>" in prompt.splitlines()
    # the order the benchmark gives: descriptions, events, then the question
    assert prompt.index(rec["objects_description"][0]) < prompt.index(rec["events"][1])
    assert prompt.index(rec["events"][-1]) < prompt.index(rec["question"])


def test_records_with_a_prompt_are_shown_exactly_that() -> None:
    for family in ("time-puzzles", "relational-puzzles", "span"):
        sample = family_task(family, seed=0, count=1).dataset[0]
        assert sample.input == record_in(sample.metadata)["prompt"]
    # a record no family claims is refused, not shown some field of it
    with pytest.raises(TsolveError, match="cannot tell its family"):
        record_prompt({"id": "x", "question": "When?"})


# ------------------------------------------------------------------ registration


class _Echo:
    """A minimal plug-in family: the task list follows the registry."""

    name = "echo-words"

    def generate(self, seed: int, index: int, params: dict[str, Any]) -> Record:
        word = ["alpha", "beta", "gamma"][(seed + index) % 3]
        return {"id": f"echo-{seed}-{index}", "prompt": f"Say {word}.", "answer": word}

    def score(self, record: Record, output: str) -> dict[str, float]:
        return {"accuracy": float(output.strip() == record["answer"])}


def test_one_task_per_generating_family_from_the_registry(tmp_path: Path) -> None:
    names = set(task_functions())
    assert {"time_puzzles", "relational_puzzles", "span", "logistics"} <= names
    assert not names & {"tempo", "tictoc"}  # they score data from elsewhere: nothing to generate

    from tsolve.contract.plugin import adapt

    family: Family = adapt(_Echo(), "test")
    with temporary_family(family):
        tasks = task_functions()
        assert "echo_words" in tasks
        task = tasks["echo_words"](seed=1, count=3)
        log = _run(task, lambda rec: rec["answer"], tmp_path)
    assert all(main_value(score.value) == 1.0 for score in _scores(log))


def test_the_inspect_entry_point_finds_tasks_by_name(
    entry_point_site: Path, tmp_path: Path
) -> None:
    """``inspect eval tsolve/span`` resolves the name through the entry point;
    here the same name is evaluated through the API in a fresh interpreter."""
    script = f"""
import sys
sys.path.insert(0, {str(entry_point_site)!r})
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
assert "tsolve.adapters.inspect_ai" not in sys.modules
def reply(messages, *args):
    out = ModelOutput.from_content("mockllm/model", "MY ANSWER: Yes")
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out
(log,) = inspect_eval("tsolve/span", task_args={{"seed": 2, "count": 4}},
                      model=get_model("mockllm/model", custom_outputs=reply),
                      log_dir={str(tmp_path / "logs")!r}, display="none")
assert log.status == "success", log.error
print(log.eval.task, len(log.samples))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["tsolve/span", "4"]


def test_inspect_eval_command_reports_a_bad_option_in_one_line(
    entry_point_site: Path, tmp_path: Path
) -> None:
    """The ``inspect eval`` command itself: a bad family option stops it before
    any model call, with tsolve's one-line error and no traceback."""
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(entry_point_site), *filter(None, [env.get("PYTHONPATH")])]
    )
    inspect_cli = Path(sys.executable).with_name("inspect")
    done = subprocess.run(
        [str(inspect_cli), "eval", "tsolve/span", "-T", "count=2", "-T", "solutions=3",
         "--model", "mockllm/model", "--log-dir", str(tmp_path / "logs")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode != 0
    text = done.stdout + done.stderr
    assert "tsolve: solutions: not an option of family span" in text
    assert "Traceback" not in text


def test_task_options_as_inspect_eval_delivers_them() -> None:
    """``-T`` values are YAML: dates arrive as dates, ``1,2`` as a list of text.
    The registered task reads them as ``tsolve dataset`` reads the same flags."""
    import datetime as dt

    as_text = family_task(
        "time-puzzles",
        seed=3,
        count=2,
        solutions="1,2",
        domain_start="1990-01-01",
        domain_end="2010-12-31",
    )
    as_yaml = task_functions()["time_puzzles"](
        seed=3,
        count=2,
        solutions=["1", "2"],
        domain_start=dt.date(1990, 1, 1),
        domain_end=dt.date(2010, 12, 31),
    )
    records = [record_in(s.metadata) for s in as_yaml.dataset]
    assert records == [record_in(s.metadata) for s in as_text.dataset]
    assert all(r["domain"] == {"start": "1990-01-01", "end": "2010-12-31"} for r in records)
    assert {r["solution_count"] for r in records} <= {1, 2}


def test_a_bad_option_of_a_registered_task_is_inspects_one_line_error() -> None:
    with pytest.raises(Exception, match="tsolve: solutions: not an option of family span") as info:
        task_functions()["span"](count=1, solutions=3)
    assert type(info.value).__name__ == "PrerequisiteError"


def test_sample_metadata_holds_no_gold_beside_the_prompt() -> None:
    """What a solver or viewer sees of a sample (``metadata.record``) has no
    gold field; the gold fields sit under ``metadata.gold``, and the two
    join to the record the scorer reads."""
    from tsolve.adapters.inspect_ai.dataset import record_sample
    from tsolve.families.span.generate import generate_questions
    from tsolve.records.gold_fields import GOLD_FIELDS

    for rec in generate_questions(8, 2):
        sample = record_sample(rec)
        assert sample.metadata is not None
        seen = sample.metadata["record"]
        assert not set(seen) & GOLD_FIELDS
        assert "gregorian" not in seen["params"]["reference_date"]
        assert rec["answer"] not in json.dumps(seen) or rec["format"] == "polar"
        assert record_in(sample.metadata) == rec
