"""The tool conditions of tsolve's Inspect tasks, run offline with scripted models.

A scripted ``mockllm/model`` plays the model: on its first turn it calls each
offered tool once with good arguments and once with bad ones, then it answers
with the gold output (written here from the record's stored answers, in the
prompt's answer format). Checked: which tools each condition offers (names and
SPAN's parameters), that good calls return the right values (checked against
``datetime`` and the record's own facts, not tsolve's tool code), that bad calls
come back as tool errors while the sample goes on, that the gold answer after
tool use scores exactly 1, that the run's turns and tool calls are recorded,
that ``max_turns`` bounds the loop, and that ``context=knowledge`` pastes the
knowledge-base entries into the prompt and offers no tool.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolCall, ToolInfo

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.conditions import knowledge_names, parse_condition
from tsolve.adapters.inspect_ai.scorer import main_value
from tsolve.adapters.inspect_ai.scripted import scripted
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import record_in

Record = dict[str, Any]
USAGE = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)


# ------------------------------------------------------------------ records, once


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A record of each family, generated once for the module (time puzzles
    anchored on a person, so that the knowledge tool and context have a name)."""
    folder = tmp_path_factory.mktemp("records")
    out: dict[str, Path] = {}
    for family, options in (
        ("time-puzzles", {"anchors": "person_alive", "solutions": 1}),
        ("span", {}),
        ("relational-puzzles", {}),
    ):
        task = family_task(family, seed=3, count=1, **options)
        path = folder / f"{family}.jsonl"
        rows = [json.dumps(record_in(s.metadata)) for s in task.dataset]
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        out[family] = path
    return out


def _gold(rec: Record) -> str:
    """The gold answer in the prompt's format (written from the record's stored answer)."""
    if rec["family"] == "span":
        return "MY ANSWER: " + str(rec["answer"])
    if rec["family"] == "relational-puzzles":
        names = [e["name"] for e in rec["events"]]
        return (
            "\n".join(
                "MY ANSWER: " + "; ".join(f"{n} = {d}" for n, d in zip(names, combo, strict=True))
                for combo in rec["answers"]
            )
            or "MY ANSWER: None"
        )
    return "MY ANSWER: " + (", ".join(rec["answers"]) or "None")


# ------------------------------------------------------------------ scripted models


def _output(message: ChatMessageAssistant) -> ModelOutput:
    return ModelOutput(
        model="mockllm/model", choices=[ChatCompletionChoice(message=message)], usage=USAGE
    )


GOOD = {
    "search_calendar": {"calendar_name": "gregorian", "year": 2024, "month": 2, "day": 29},
    "convert_date": {"date": "2024-02-29", "to_calendars": ["hebrew"]},
    "festival_date": {"festival_name": "Chinese New Year", "year": 2024},
    "lookup_knowledge": {"name": "Albert Einstein"},
    "python": {"code": "import datetime\nprint(datetime.date(2024, 2, 29).isoformat())"},
}
BAD = {
    "search_calendar": {"calendar_name": "gregorian", "year": 2023, "month": 2, "day": 29},
    "convert_date": {"date": "not a date"},
    "festival_date": {"festival_name": "No Such Festival", "year": 2024},
    "lookup_knowledge": {"name": "Nobody In Particular"},
    "python": {"source": "print(1)"},  # no 'code' argument
}


class Scripted:
    """A mockllm script: first turn, a good and a bad call of every offered tool
    (plus ``extra`` calls); then the gold answer of the sample's record. Keeps
    the tools each sample was offered."""

    def __init__(self, task: Task, extra: list[ToolCall] | None = None) -> None:
        self.records = {s.input: record_in(s.metadata) for s in task.dataset}
        self.extra = extra or []
        self.offered: dict[str, list[ToolInfo]] = {}

    def __call__(self, messages: list[ChatMessage], tools: list[ToolInfo], *args: Any) -> Any:
        record = self.records[messages[0].text if messages[0].role == "user" else messages[1].text]
        self.offered[record["id"]] = tools
        if tools and not any(isinstance(m, ChatMessageTool) for m in messages):
            calls = [
                ToolCall(id=f"{t.name}-{which}", function=t.name, arguments=args_[t.name])
                for t in tools
                for which, args_ in (("good", GOOD), ("bad", BAD))
            ]
            return _output(ChatMessageAssistant(content="", tool_calls=calls + self.extra))
        return _output(ChatMessageAssistant(content=_gold(record)))


def _run(task: Task, script: Callable[..., Any], log_dir: Path) -> EvalLog:
    model = get_model("mockllm/model", custom_outputs=script)
    (log,) = inspect_eval(task, model=model, log_dir=str(log_dir), display="none")
    assert log.status == "success", log.error
    assert log.samples
    return log


def _tool_results(log: EvalLog) -> list[dict[str, tuple[str, str | None]]]:
    """Per sample: tool call id -> (result text, error text)."""
    assert log.samples is not None
    return [
        {
            m.tool_call_id or "": (m.text, m.error.message if m.error else None)
            for m in sample.messages
            if isinstance(m, ChatMessageTool)
        }
        for sample in log.samples
    ]


# ------------------------------------------------------------------ the conditions

OFFERED = {
    "none": set(),
    "calendar": {"search_calendar", "convert_date", "festival_date"},
    "knowledge": {"lookup_knowledge"},
    "code": {"python"},
    "all": {"search_calendar", "convert_date", "festival_date", "lookup_knowledge", "python"},
}


@pytest.mark.parametrize(
    ("family", "tools"),
    [
        ("time-puzzles", "none"),
        ("time-puzzles", "calendar"),
        ("time-puzzles", "knowledge"),
        ("time-puzzles", "all"),  # code is covered here (sandbox=local)
        ("span", "calendar"),
        ("relational-puzzles", "knowledge"),
    ],
)
def test_tools_then_gold_scores_full_marks(
    family: str, tools: str, files: dict[str, Path], tmp_path: Path
) -> None:
    sandbox = "local" if tools in ("code", "all") else None
    task = family_task(family, file=str(files[family]), tools=tools, sandbox=sandbox)
    script = Scripted(task)
    log = _run(task, script, tmp_path)

    for offered in script.offered.values():
        assert {t.name for t in offered} == OFFERED[tools]
        by_name = {t.name: t for t in offered}
        if "search_calendar" in by_name:  # SPAN's own schema
            params = set(by_name["search_calendar"].parameters.properties)
            assert {"calendar_name", "year", "month", "day", "festival_name"} <= params
    assert log.samples is not None
    n_tools = len(OFFERED[tools])
    for sample, results in zip(log.samples, _tool_results(log), strict=True):
        (score,) = (sample.scores or {}).values()
        assert main_value(score.value) == 1.0, score.explanation
        run = score.metadata["run"]
        assert run["turns"] == (2 if n_tools else 1)
        assert run["n_tool_calls"] == 2 * n_tools
        assert run["tool_errors"] == n_tools  # every bad call, and only those
        assert score.metadata["condition"]["tools"] == tools
        assert sample.metadata["condition"]["name"] == tools
        assert sample.metadata["run"] == run
        for name in OFFERED[tools]:
            _good, good_error = results[f"{name}-good"]
            assert good_error is None, (name, good_error)
            assert results[f"{name}-bad"][1], f"{name}: a bad call gave no error"
        _check_good_results(results)


def _check_good_results(results: dict[str, tuple[str, str | None]]) -> None:
    """Values of the good calls, from ``datetime`` and published dates."""
    if "search_calendar-good" in results:
        entry = json.loads(results["search_calendar-good"][0])["entries"][0]
        assert entry["date"] == "2024-02-29"
        assert entry["weekday"] == dt.date(2024, 2, 29).strftime("%A")
    if "convert_date-good" in results:
        hebrew = json.loads(results["convert_date-good"][0])["entry"]["calendars"]["hebrew"]
        assert (hebrew["year"], hebrew["day"]) == (5784, 20)  # 20 Adar I 5784
    if "festival_date-good" in results:
        (entry,) = json.loads(results["festival_date-good"][0])["dates"]
        assert entry["date"] == "2024-02-10"  # Chinese New Year 2024 (Year of the Dragon)
    if "lookup_knowledge-good" in results:
        (entry,) = json.loads(results["lookup_knowledge-good"][0])["entries"]
        assert (entry["born"], entry["died"]) == ("1879-03-14", "1955-04-18")
        assert entry["source"].startswith("https://")
    if "python-good" in results:
        assert results["python-good"][0].strip() == "2024-02-29"


def test_arguments_of_the_wrong_type_are_tool_errors(
    files: dict[str, Path], tmp_path: Path
) -> None:
    """A call Inspect's schema check refuses, or naming no tool, is an error result
    the model sees; the sample goes on to its answer."""
    extra = [
        ToolCall(id="typed", function="search_calendar",
                 arguments={"calendar_name": "gregorian", "year": "two thousand"}),
        ToolCall(id="both", function="search_calendar",
                 arguments={"calendar_name": "gregorian", "year": 2000, "month": 1, "day": 1,
                            "festival_name": "Christmas"}),
        ToolCall(id="unknown", function="solve_facts", arguments={"facts": []}),
    ]  # fmt: skip
    task = family_task("span", file=str(files["span"]), tools="calendar")
    log = _run(task, Scripted(task, extra), tmp_path)
    for results in _tool_results(log):
        for call in ("typed", "both", "unknown"):
            assert results[call][1], f"{call}: no error"
    assert log.samples is not None
    assert all(
        s.scores and main_value(next(iter(s.scores.values())).value) == 1.0 for s in log.samples
    )


def test_max_turns_bounds_the_loop(files: dict[str, Path], tmp_path: Path) -> None:
    """A model that only ever calls tools is stopped after max_turns replies
    and scores 0 (it never answered)."""
    call = ToolCall(id="c", function="lookup_knowledge", arguments={"name": "Einstein"})

    def forever(messages: list[ChatMessage], *args: Any) -> ModelOutput:
        return _output(ChatMessageAssistant(content="Let me look.", tool_calls=[call]))

    task = family_task("time-puzzles", file=str(files["time-puzzles"]), tools="knowledge",
                       max_turns=3)  # fmt: skip
    log = _run(task, forever, tmp_path)
    assert log.samples is not None
    for sample in log.samples:
        (score,) = (sample.scores or {}).values()
        assert main_value(score.value) == 0.0
        assert score.metadata["run"]["turns"] == 3
        assert score.metadata["run"]["n_tool_calls"] == 3


def test_context_knowledge_pastes_the_entries_and_offers_no_tool(
    files: dict[str, Path], tmp_path: Path
) -> None:
    task = family_task("time-puzzles", file=str(files["time-puzzles"]), context="knowledge")
    plain = family_task("time-puzzles", file=str(files["time-puzzles"]))
    for shown, bare in zip(task.dataset, plain.dataset, strict=True):
        record = record_in(shown.metadata)
        assert isinstance(shown.input, str) and isinstance(bare.input, str)
        assert shown.input.endswith(bare.input) and shown.input != bare.input
        (fact,) = [f for f in record["facts"] if f["kind"] == "person_alive"]
        # the record's own dates for the person, as the generator wrote them
        assert fact["params"]["person"] in shown.input
        assert f'"born": "{fact["params"]["born"]}"' in shown.input
        assert "https://" in shown.input
        named = {"person_alive": "person", "us_president": "president",
                 "sports_event_year": "event", "event_relation": "event"}  # fmt: skip
        want = [f["params"][named[f["kind"]]] for f in record["facts"] if f["kind"] in named]
        assert knowledge_names(record) == want
        for name in want[1:]:
            assert name in shown.input
    script = Scripted(task)
    log = _run(task, script, tmp_path)
    assert all(offered == [] for offered in script.offered.values())
    assert log.samples is not None
    for sample in log.samples:
        (score,) = (sample.scores or {}).values()
        assert main_value(score.value) == 1.0
        assert score.metadata["condition"]["name"] == "context-knowledge"
        assert score.metadata["run"] == {
            "turns": 1, "n_tool_calls": 0, "tool_errors": 0, "tool_calls": []
        }  # fmt: skip


# ------------------------------------------------------------------ the offline solver


@pytest.mark.parametrize("tools", ["none", "all"])
def test_the_scripted_solver_scores_gold_offline(
    tools: str, files: dict[str, Path], tmp_path: Path
) -> None:
    """``--solver tsolve/scripted``: no model call (plain mockllm/model, which
    would otherwise fetch a tokenizer), the condition's tools called well and
    badly, then gold: 1 everywhere; ``answer=refuse``: 0 everywhere."""
    sandbox = "local" if tools == "all" else None
    task = family_task("time-puzzles", file=str(files["time-puzzles"]), tools=tools,
                       sandbox=sandbox)  # fmt: skip
    for answer, value in (("gold", 1.0), ("refuse", 0.0)):
        (log,) = inspect_eval(task, model="mockllm/model", solver=scripted(answer=answer),
                              log_dir=str(tmp_path / answer), display="none")  # fmt: skip
        assert log.status == "success", log.error
        assert log.samples is not None
        for sample in log.samples:
            (score,) = (sample.scores or {}).values()
            assert main_value(score.value) == value
            run = score.metadata["run"]
            assert run["n_tool_calls"] == 2 * len(OFFERED[tools])
            assert run["tool_errors"] == len(OFFERED[tools])


# ------------------------------------------------------------------ bad options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tools": "web"}, "tools: expected one of none, calendar"),
        ({"context": "search"}, "context: expected one of none, knowledge"),
        ({"context": "knowledge", "tools": "calendar"}, "does not combine with tools=calendar"),
        ({"max_turns": 0}, "max_turns: expected 1..200"),
        ({"max_turns": "many"}, "max_turns: expected an integer"),
        ({"sandbox": "local"}, "sandbox: only the code condition runs code"),
        ({"tools": "code", "sandbox": "vm"}, "sandbox: expected one of docker, local"),
    ],
)
def test_bad_conditions_are_one_line_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(TsolveError, match=message):
        parse_condition(**options)


def test_code_runs_in_docker_unless_local_is_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    """The warning goes straight to stderr: Inspect's display would show a log
    record on stdout, or not at all under ``--display none``."""
    assert parse_condition(tools="code").sandbox == "docker"
    assert parse_condition(tools="all").sandbox == "docker"
    assert parse_condition(tools="calendar").sandbox is None
    assert "on this machine" not in capsys.readouterr().err
    assert parse_condition(tools="code", sandbox="local").sandbox == "local"
    assert "runs the model's Python code on this machine" in capsys.readouterr().err


@pytest.mark.parametrize("facts", [5, "a Monday", {"kind": "weekday"}])
def test_context_knowledge_refuses_a_record_whose_facts_are_not_a_list(
    facts: Any, tmp_path: Path
) -> None:
    """It was a TypeError traceback while the task was built; now one line
    naming the record, as the registered task reports it."""
    from tsolve.adapters.inspect_ai.tasks import task_functions

    path = tmp_path / "records.jsonl"
    record = {"id": "odd", "family": "time-puzzles", "facts": facts, "prompt": "When?"}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    # The only row is bad: a file with no usable row, naming it.
    with pytest.raises(
        Exception, match=r"tsolve: .* row 1: record 'odd': facts: expected a list"
    ) as info:
        task_functions()["time_puzzles"](file=str(path), context="knowledge")
    assert type(info.value).__name__ == "PrerequisiteError" and "\n" not in str(info.value)
