"""``tsolve report``: the papers' tables from Inspect logs.

Real logs are written by scripted, offline runs (mockllm outputs with
``usage``, and the ``tsolve/scripted`` solver) across the conditions; the
expected rows are computed here from the records and the scripts (which
samples got the gold, how many tool calls each condition's script makes), not
from the report's code. A corrupt log is reported and the others go on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main
from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolCall, ToolInfo

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.report import build_report
from tsolve.adapters.inspect_ai.scripted import scripted
from tsolve.families.tictoc.inspect_task import tictoc_task
from tsolve.records.gold_fields import record_in

TICTOC = Path(__file__).resolve().parent / "fixtures" / "tictoc_invented.json"
TOOLS_PER_CONDITION = {"none": 0, "context-knowledge": 0, "calendar": 3, "knowledge": 1, "all": 5}


def _usage(out: ModelOutput, tokens: int) -> ModelOutput:
    out.usage = ModelUsage(input_tokens=1, output_tokens=tokens, total_tokens=1 + tokens)
    return out


def always_call(messages: list[ChatMessage], tools: list[ToolInfo], *rest: Any) -> ModelOutput:
    """A TicToc model that always calls a tool."""
    call = ToolCall(id="c", function=tools[0].name, arguments={})
    message = ChatMessageAssistant(content="", tool_calls=[call])
    out = ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(message=message)])
    return _usage(out, 3)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One folder of logs: time puzzles with M in {1, 2} under five conditions,
    and TicToc under "always call a tool"; plus what the rows must say."""
    folder = tmp_path_factory.mktemp("logs")
    records = tmp_path_factory.mktemp("records") / "tp.jsonl"
    task = family_task("time-puzzles", seed=2, count=4, solutions="1,2", anchors="person_alive")
    rows = [record_in(s.metadata) for s in task.dataset]
    records.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    m_of = {r["id"]: len(r["answers"]) for r in rows}
    by_prompt = {s.input: record_in(s.metadata) for s in task.dataset}

    # none: a model that answers the gold when M = 1 and garbage otherwise, 7 tokens
    def m1_only(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        rec = by_prompt[messages[-1].text]
        text = "MY ANSWER: " + ", ".join(rec["answers"]) if len(rec["answers"]) == 1 else "no idea"
        return _usage(ModelOutput.from_content("mockllm/model", text), 7)

    plain = family_task("time-puzzles", file=str(records))
    inspect_eval(plain, model=get_model("mockllm/model", custom_outputs=m1_only),
                 log_dir=str(folder), display="none")  # fmt: skip
    for tools, context in (("calendar", None), ("knowledge", None), ("all", None),
                           (None, "knowledge")):  # fmt: skip
        sandbox = "local" if tools == "all" else None
        t = family_task("time-puzzles", file=str(records), tools=tools, context=context,
                        sandbox=sandbox)  # fmt: skip
        inspect_eval(t, model="mockllm/model", solver=scripted(), log_dir=str(folder),
                     display="none")  # fmt: skip

    inspect_eval(tictoc_task(TICTOC), model=get_model("mockllm/model", custom_outputs=always_call),
                 log_dir=str(folder), display="none")  # fmt: skip
    return {"folder": folder, "m_of": m_of}


def _find(rows: list[dict[str, Any]], **want: Any) -> dict[str, Any]:
    (row,) = [r for r in rows if all(r.get(k) == v for k, v in want.items())]
    return row


def test_rows_by_condition_and_m(logs: dict[str, Any]) -> None:
    report = build_report([logs["folder"]])
    assert report.bad_logs == [] and report.exit_code == 0
    m_of: dict[str, int] = logs["m_of"]
    n = len(m_of)
    by_m = {m: sum(1 for v in m_of.values() if v == m) for m in set(m_of.values())}
    assert set(by_m) == {1, 2}  # both sizes, so the per-M rows differ
    rows = [r for r in report.rows if r["task"] == "tsolve/time_puzzles"]
    assert {r["condition"] for r in rows} == set(TOOLS_PER_CONDITION)

    none = _find(rows, condition="none", M="all")
    assert none["n"] == n and none["style"] == "implicit"
    assert none["accuracy"] == pytest.approx(by_m.get(1, 0) / n)
    assert none["metrics"]["em"] == pytest.approx(by_m.get(1, 0) / n)
    assert none["mean_output_tokens"] == 7 and none["mean_turns"] == 1
    assert none["mean_tool_calls"] == 0
    for m, count in by_m.items():
        row = _find(rows, condition="none", M=m)
        assert row["n"] == count and row["accuracy"] == (1.0 if m == 1 else 0.0)

    for condition, n_tools in TOOLS_PER_CONDITION.items():
        if condition == "none":
            continue
        row = _find(rows, condition=condition, M="all")
        assert (row["n"], row["accuracy"], row["errors"]) == (n, 1.0, 0)
        assert row["mean_tool_calls"] == 2 * n_tools  # one good, one bad call per tool
        assert row["mean_turns"] == (2 if n_tools else 1)


def test_tictoc_rows_by_level_and_preference(logs: dict[str, Any]) -> None:
    raw = json.loads(TICTOC.read_text(encoding="utf-8"))
    rows = [r for r in build_report([logs["folder"]]).rows if r["task"] == "tsolve/tictoc"]
    for key, items in raw.items():
        pref_word, level = key.removesuffix(".json").split("_elapse_")
        pref = "tool" if pref_word == "preferTool" else "no_tool"
        row = _find(rows, level=int(level), preference=pref)
        assert row["n"] == len(items)
        assert row["accuracy"] == (1.0 if pref == "tool" else 0.0)
        assert row["attempt_rate"] == 1.0
    for level in (0, 1, 2):
        assert _find(rows, level=level, preference="all")["nar"] == 0.5


def test_cli_json_rows_a_bad_log_and_the_plot(
    logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(capsys, "report", str(logs["folder"]), "--format", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows == build_report([logs["folder"]]).rows
    for row in rows:
        assert {"task", "condition", "n", "accuracy"} <= set(row)

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "2026-01-01T00-00-00-00-00_broken_abc.json").write_text("{not json", encoding="utf-8")
    png = tmp_path / "fig.png"
    code, out, err = run_main(
        capsys, "report", str(logs["folder"]), str(bad), "--format", "json", "--plot", str(png)
    )
    assert code == 1
    assert json.loads(out) == rows  # the good logs are still reported
    assert "bad log" in err and "broken_abc" in err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    code, out, err = run_main(capsys, "report", str(tmp_path / "nowhere"))
    assert code == 2 and "is neither a folder nor a log file" in err
    assert "Traceback" not in err


# ------------------------------------------------------------ runs kept apart


@pytest.fixture(scope="module")
def more_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A second folder: a gold and a refuse run of one SPAN file whose records
    have three reference dates, with a model right before 2030 only; and two
    TicToc runs of one model, one at temperature 0.5."""
    folder = tmp_path_factory.mktemp("more")
    records: list[dict[str, Any]] = []
    for date in ("2001-03-01", "2024-07-01", "2050-01-01"):
        task = family_task("span", seed=1, count=2, date=date)
        records.extend(record_in(s.metadata) for s in task.dataset)
    path = tmp_path_factory.mktemp("span") / "span.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    span = family_task("span", file=str(path))
    inspect_eval(span, model="mockllm/model", solver=scripted(), log_dir=str(folder),
                 display="none")  # fmt: skip
    inspect_eval(span, model="mockllm/model", solver=scripted(answer="refuse"), tags=["refuse"],
                 log_dir=str(folder), display="none")  # fmt: skip
    from tsolve.contract import get_family
    from tsolve.verifiers.gold_answers import gold_output

    by_prompt = {s.input: record_in(s.metadata) for s in span.dataset}

    def before_2030(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        rec = by_prompt[messages[-1].text]
        year = int(rec["params"]["reference_date"]["gregorian"][:4])
        text = gold_output(rec, get_family("span")) if year < 2030 else "no idea"
        return _usage(ModelOutput.from_content("mockllm/model", text), 2)

    inspect_eval(span, model=get_model("mockllm/model", custom_outputs=before_2030),
                 log_dir=str(folder), display="none")  # fmt: skip
    for temperature in (None, 0.5):
        model = get_model("mockllm/model", custom_outputs=always_call)
        inspect_eval(tictoc_task(TICTOC), model=model, temperature=temperature,
                     log_dir=str(folder), display="none")  # fmt: skip
    return {"folder": folder, "records": records}


def test_a_refuse_run_and_a_gold_run_are_two_rows(more_logs: dict[str, Any]) -> None:
    rows = [
        r for r in build_report([more_logs["folder"]]).rows
        if r["task"] == "tsolve/span" and r["direction"] == "all" and r["reference_year"] == "all"
        and r["type"] == "all"
        and r["solver"] == "tsolve/scripted"
    ]  # fmt: skip
    assert len(rows) == 2
    gold, refuse = sorted(rows, key=lambda r: r["tags"])
    n = len(more_logs["records"])
    assert (gold["tags"], gold["n"], gold["accuracy"]) == ([], n, 1.0)
    assert (refuse["tags"], refuse["n"], refuse["accuracy"]) == (["refuse"], n, 0.0)
    assert refuse["solver_args"] == {"answer": "refuse"}
    assert gold["condition"] == refuse["condition"] == "none"


def test_two_tictoc_runs_of_one_model_are_two_rows(more_logs: dict[str, Any]) -> None:
    rows = [r for r in build_report([more_logs["folder"]]).rows if r["task"] == "tsolve/tictoc"]
    raw = json.loads(TICTOC.read_text(encoding="utf-8"))
    runs = {r["eval_id"] for r in rows}
    assert len(runs) == 2
    temperatures = sorted(str(r["generate_config"].get("temperature")) for r in rows
                          if r["level"] == 0 and r["preference"] == "all")  # fmt: skip
    assert temperatures == ["0.5", "None"]
    for key, items in raw.items():
        pref_word, level = key.removesuffix(".json").split("_elapse_")
        pref = "tool" if pref_word == "preferTool" else "no_tool"
        same = [r for r in rows if r["level"] == int(level) and r["preference"] == pref]
        assert [r["n"] for r in same] == [len(items), len(items)]


def test_span_rows_by_reference_year_and_direction(
    more_logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model is right before 2030 only: each year's row says so, and each
    direction's accuracy is the share of its records dated before 2030."""
    records = more_logs["records"]
    rows = [r for r in build_report([more_logs["folder"]]).rows
            if r["task"] == "tsolve/span" and r["solver"] != "tsolve/scripted"]  # fmt: skip
    years = {r["reference_year"]: r for r in rows if r["reference_year"] != "all"}
    assert sorted(years) == [2001, 2024, 2050]
    for year, row in years.items():
        assert row["n"] == 2 and row["accuracy"] == (1.0 if year < 2030 else 0.0)
    directions = {r["direction"]: r for r in rows if r["direction"] != "all"}
    for direction, row in directions.items():
        mine = [r for r in records if r["direction"] == direction]
        early = [r for r in mine if int(r["params"]["reference_date"]["gregorian"][:4]) < 2030]
        assert row["n"] == len(mine) and row["accuracy"] == pytest.approx(len(early) / len(mine))
    assert sum(r["n"] for r in directions.values()) == len(records)

    svg = tmp_path / "span.svg"
    code, out, err = run_main(capsys, "report", str(more_logs["folder"]), "--plot", str(svg))
    assert code == 0, err
    text = svg.read_text(encoding="utf-8")
    assert "by reference year" in text and "by direction" in text and "2050" in text
    assert "ref_year" in out and "direction" in out


# ------------------------------------------------------------ a log read once


def test_a_log_reached_twice_or_copied_is_read_once(
    more_logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai import score as inspect_score
    from inspect_ai.log import list_eval_logs, read_eval_log, write_eval_log

    from tsolve.adapters.inspect_ai.scorer import tsolve_scorer

    folder = more_logs["folder"]
    once = build_report([folder]).rows
    files = sorted(info.name.removeprefix("file://") for info in list_eval_logs(str(folder)))
    twice = build_report([folder, files[0], folder.parent / folder.name])
    assert twice.rows == once
    assert [d["reason"] for d in twice.duplicates] == ["reached twice"] * (len(files) + 1)
    first = files[0]

    # a copy written by re-scoring (as `inspect score` does) is the same run
    copies = tmp_path / "copies"
    copies.mkdir()
    log = read_eval_log(first)
    write_eval_log(log, str(copies / Path(first).name))
    rescored = inspect_score(log, [tsolve_scorer()], action="overwrite")
    write_eval_log(rescored, str(copies / ("rescored-" + Path(first).name)))
    report = build_report([copies])
    assert len(report.logs) == 1 and "rescored-" in report.logs[0]
    (dup,) = report.duplicates
    assert "same run" in dup["reason"]
    code, out, err = run_main(capsys, "report", str(copies), "--format", "json")
    assert code == 0 and "read once" in err
    n = {
        r["n"]
        for r in json.loads(out)
        if r.get("reference_year") == "all" == r.get("direction") == r.get("type", "all")
    }
    assert n == {len(log.samples or [])}


# ------------------------------------------------------------ bad samples


def _set(path: str, value: Any) -> Any:
    """A mutation of one sample: ``path`` is "score.FIELD[.KEY]" (the score's
    metadata), "value" / "value.KEY" (the score's value) or "record.KEY"."""

    def mutate(sample: Any) -> None:
        (score,) = sample.scores.values()
        where, *keys = path.split(".")
        if where == "value":
            if keys:
                score.value[keys[0]] = value
            else:
                score.value = value
            return
        target = score.metadata if where == "score" else sample.metadata["record"]
        if where == "record" and not keys:
            sample.metadata["record"] = value
            return
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return mutate


#: The fuzz campaign's metadata of unexpected types, and values that are not
#: finite numbers: each makes its sample unreadable.
BAD_FAMILY_SAMPLES = {
    "condition a string": _set("score.condition", "calendar"),
    "condition a list": _set("score.condition", ["none"]),
    "condition name a number": _set("score.condition.name", 3),
    "a metric high": _set("score.metrics.em", "high"),
    "a metric null": _set("score.metrics.em", None),
    "metrics a list": _set("score.metrics", [1.0]),
    "record a string": _set("record", "a record"),
    "run value many": _set("score.run.n_tool_calls", "many"),
    "run value NaN": _set("score.run.turns", float("nan")),
    "style a dict": _set("record.style", {"implicit": True}),
    "solution_count a list": _set("record.solution_count", [1]),
    "value NaN": _set("value", float("nan")),
    "value inf": _set("value.em", float("inf")),
    "value Infinity": _set("value", "Infinity"),
    "value high": _set("value.f1", "high"),
}


def _log_of(folder: Path, task: str, solver: str | None) -> Any:
    from inspect_ai.log import list_eval_logs, read_eval_log

    for info in list_eval_logs(str(folder)):
        log = read_eval_log(info.name)
        if log.eval.task == task and log.eval.solver == solver:
            return log
    raise AssertionError(f"no {task} log")


@pytest.mark.parametrize("variant", sorted(BAD_FAMILY_SAMPLES))
def test_an_unreadable_sample_is_named_and_the_rest_reported(
    variant: str, logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import write_eval_log

    log = _log_of(logs["folder"], "tsolve/time_puzzles", None)
    assert log.samples is not None
    n = len(log.samples)
    BAD_FAMILY_SAMPLES[variant](log.samples[0])
    bad_id = str(log.samples[0].id)
    path = tmp_path / "mutated.eval"
    write_eval_log(log, str(path))
    # a good log beside it is reported whole
    good = _log_of(logs["folder"], "tsolve/time_puzzles", "tsolve/scripted").location
    good = good.removeprefix("file://")

    code, out, err = run_main(capsys, "report", str(path), good, "--format", "json")
    assert code == 1 and "Traceback" not in err, err
    assert "bad sample" in err and bad_id in err and "1 left out" in err
    rows = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    left = [r for r in rows if r["M"] == "all" and r["log"] == str(path)]
    assert [r["n"] for r in left] == [n - 1]
    assert [r["n"] for r in rows if r["M"] == "all" and r["log"] == good] == [n]
    code, out, err = run_main(capsys, "report", str(path))
    assert code == 1 and "nan" not in out.lower() and "inf" not in out.lower()


def test_a_tictoc_sample_of_unexpected_type_is_named(logs: dict[str, Any], tmp_path: Path) -> None:
    from inspect_ai.log import write_eval_log

    log = _log_of(logs["folder"], "tsolve/tictoc", None)
    assert log.samples is not None
    _set("score.level", [1])(log.samples[0])
    path = tmp_path / "tictoc.eval"
    write_eval_log(log, str(path))
    report = build_report([path])
    ((bad),) = report.bad_samples
    assert bad["sample"] == str(log.samples[0].id) and "level" in bad["error"]
    assert sum(r["n"] for r in report.rows if r["preference"] == "all") == len(log.samples) - 1


def test_tex_in_a_model_or_style_name_is_drawn_as_text(
    logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import write_eval_log

    log = _log_of(logs["folder"], "tsolve/time_puzzles", None)
    assert log.samples is not None
    log.eval.model = "mockllm/$\\frac{1$"
    for sample in log.samples:
        sample.metadata["record"]["style"] = "$x^$ and $\\undefined{$"
    path = tmp_path / "tex.eval"
    write_eval_log(log, str(path))
    svg = tmp_path / "tex.svg"
    code, _, err = run_main(capsys, "report", str(path), "--plot", str(svg), "--format", "json")
    assert code == 0, err
    text = svg.read_text(encoding="utf-8")
    assert "$\\frac{1$" in text and "$x^$" in text


def test_a_log_scored_before_values_were_dicts_reads_the_same(
    logs: dict[str, Any], tmp_path: Path
) -> None:
    """Older logs have the main metric as a number in ``value`` and the
    family metrics in ``metadata["metrics"]``: the same rows."""
    from inspect_ai.log import write_eval_log

    log = _log_of(logs["folder"], "tsolve/time_puzzles", None)
    new = build_report([log.location.removeprefix("file://")]).rows
    assert log.samples is not None
    for sample in log.samples:
        (score,) = sample.scores.values()
        score.value = score.value[score.metadata["main_metric"]]
    path = tmp_path / "old.eval"
    write_eval_log(log, str(path))
    old = build_report([path]).rows
    figures = ("n", "accuracy", "stderr", "M", "metrics")
    assert [{k: r[k] for k in figures} for r in old] == [{k: r[k] for k in figures} for r in new]


def test_the_tictoc_figure_draws_accuracy_attempt_rate_and_nar_by_level(
    logs: dict[str, Any], tmp_path: Path
) -> None:
    from tsolve.plots.conditions import condition_figure, panels, tictoc_series

    raw = json.loads(TICTOC.read_text(encoding="utf-8"))
    levels = {int(k.removesuffix(".json").split("_elapse_")[1]) for k in raw}
    rows = [r for r in build_report([logs["folder"]]).rows if r["task"] == "tsolve/tictoc"]
    (key,) = [k for k in panels(rows) if k[3] == "tictoc"]
    series = tictoc_series(panels(rows)[key])
    # the model always calls a tool: prefer-tool decisions all match, prefer-no-tool none
    assert series == {
        "NAR": dict.fromkeys(levels, 0.5),
        "accuracy, prefer no-tool": dict.fromkeys(levels, 0.0),
        "accuracy, prefer tool": dict.fromkeys(levels, 1.0),
        "attempt rate, prefer no-tool": dict.fromkeys(levels, 1.0),
        "attempt rate, prefer tool": dict.fromkeys(levels, 1.0),
    }
    assert condition_figure(rows, tmp_path / "tictoc.png").stat().st_size > 0


def test_implicit_and_explicit_share_one_panel_told_apart_by_label() -> None:
    from tsolve.plots.conditions import bar_labels, panels

    def row(style: str, m: Any, acc: float) -> dict[str, Any]:
        return {"task": "tsolve/time_puzzles", "model": "m", "condition": "none", "style": style,
                "M": m, "n": 2, "accuracy": acc, "stderr": 0.0, "eval_id": style,
                "reducer": "mean", "tags": [], "solver": None, "solver_args": {},
                "task_args": {}, "epochs": 1, "generate_config": {}, "log": style}  # fmt: skip

    rows = [row(s, m, a) for s, a in (("implicit", 0.5), ("explicit", 1.0)) for m in (1, 2, "all")]
    drawn = panels(rows)
    assert list(drawn) == [("tsolve/time_puzzles", "m", "", "M")]
    assert sorted((r["style"], r["M"]) for r in drawn[next(iter(drawn))]) == [
        ("explicit", 1), ("explicit", 2), ("implicit", 1), ("implicit", 2)
    ]  # fmt: skip
    labels = sorted(bar_labels(drawn[next(iter(drawn))]).values())
    assert labels == ["no tools, explicit", "no tools, implicit"]


def test_span_type_by_format_rows_and_their_panel(more_logs: dict[str, Any]) -> None:
    from tsolve.plots.conditions import cross_label, panels

    records = more_logs["records"]
    rows = [r for r in build_report([more_logs["folder"]]).rows
            if r["task"] == "tsolve/span" and r["solver"] != "tsolve/scripted"]  # fmt: skip
    cross = [r for r in rows if r["type"] != "all"]
    pairs = {(r["type"], r["format"]) for r in records}
    assert {(r["type"], r["format"]) for r in cross} == pairs
    for r in cross:
        mine = [x for x in records if (x["type"], x["format"]) == (r["type"], r["format"])]
        right = [x for x in mine if int(x["params"]["reference_date"]["gregorian"][:4]) < 2030]
        assert r["n"] == len(mine) and r["accuracy"] == pytest.approx(len(right) / len(mine))
    # the other rows say "all" there, and the panel draws one group per pair
    assert all(r["format"] == "all" for r in rows if r["type"] == "all")
    (key,) = [k for k in panels(rows) if k[3] == "cross"]
    assert {cross_label(r) for r in panels(rows)[key]} == {f"{t} x {f}" for t, f in pairs}
