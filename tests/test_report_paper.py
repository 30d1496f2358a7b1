"""``tsolve report --table NAME`` and ``--plot OUT --figure NAME``: each paper's
table and figure from real Inspect logs.

The logs are written offline by mock models whose right and wrong answers
are chosen here; every expected number is counted from the records and
those choices (which samples were answered right, how many answers a
partial answer gives), never read back from the report. The SPAN and TicToc
logs are test_report.py's ``more_logs``; the Time Puzzles (implicit and explicit
twins) and UnSeenTimeQA logs are this module's.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from cli_main import run_main
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from test_report import TICTOC, more_logs  # noqa: F401  (a fixture)

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.report import build_report
from tsolve.plots.paper_tables import MAX_YEARS, grids, paper_table, pool, year_bins
from tsolve.plots.run_labels import DEFAULTS, run_label
from tsolve.records.gold_fields import record_in

PNG = b"\x89PNG\r\n\x1a\n"


def _out(text: str) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out


def _se01(right: int, n: int) -> float:
    """The standard error of the mean of ``right`` ones and ``n - right`` zeros."""
    p = right / n
    return math.sqrt(p * (1 - p) / (n - 1))


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Time puzzles with two answers each, implicit and explicit: the model
    gives the first answer only on implicit puzzles (EM 0, precision 1,
    recall 1/2, F1 2/3) and every answer on explicit ones (EM 1, F1 1)."""
    folder = tmp_path_factory.mktemp("twins")
    rows: list[dict[str, Any]] = []
    for style in ("implicit", "explicit"):  # one run of both: the report splits by style
        task = family_task("time-puzzles", seed=4, count=3, solutions="2", style=style)
        rows.extend(record_in(s.metadata) for s in task.dataset)
    path = tmp_path_factory.mktemp("tp") / "twins.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    task = family_task("time-puzzles", file=str(path))
    by_prompt = {s.input: record_in(s.metadata) for s in task.dataset}

    def model(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        rec = by_prompt[messages[-1].text]
        given = rec["answers"] if rec["style"] == "explicit" else rec["answers"][:1]
        return _out("MY ANSWER: " + ", ".join(given))

    inspect_eval(task, model=get_model("mockllm/model", custom_outputs=model),
                 log_dir=str(folder), display="none")  # fmt: skip
    return {"folder": folder, "n": 3}


def test_time_puzzles_table_has_em_and_f1_by_m_for_both_styles(
    twins: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = paper_table(build_report([twins["folder"]]).rows, "time-puzzles")
    n = twins["n"]
    by = {(r["style"], r["M"]): r for r in table}
    assert set(by) == {(s, m) for s in ("implicit", "explicit") for m in (2, "all")}
    for m in (2, "all"):
        implicit, explicit = by[("implicit", m)], by[("explicit", m)]
        assert (implicit["n"], implicit["em"], implicit["f1"]) == (n, 0.0, pytest.approx(2 / 3))
        assert (explicit["n"], explicit["em"], explicit["f1"]) == (n, 1.0, 1.0)
        assert implicit["f1_stderr"] == pytest.approx(0.0, abs=1e-12)
    # the two styles are two lines of one table, named by their style
    assert {r["series"] for r in table} == {"no tools, implicit", "no tools, explicit"}

    png = tmp_path / "tp.png"
    code, out, err = run_main(capsys, "report", str(twins["folder"]), "--table", "time-puzzles",
                              "--plot", str(png), "--figure", "time-puzzles")  # fmt: skip
    assert code == 0, err
    assert png.read_bytes()[:8] == PNG
    assert "exact match %" in out and "F1 %" in out and "66.7" in out and "M=2" in out


def test_the_figure_choice_draws_only_its_figure(
    twins: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "tp.svg"
    code, _, err = run_main(capsys, "report", str(twins["folder"]), "--plot", str(svg),
                            "--figure", "time-puzzles", "--format", "json")  # fmt: skip
    assert code == 0, err
    text = svg.read_text(encoding="utf-8")
    assert "exact match by answer-set size M" in text and "F1 by answer-set size M" in text
    assert "±1 s.e." in text and "answer-set size M (dates that" in text
    # a figure the logs have no data for is a one-line error, nothing written
    other = tmp_path / "span.png"
    code, _, err = run_main(capsys, "report", str(twins["folder"]), "--plot", str(other),
                            "--figure", "span-year")  # fmt: skip
    assert code == 2 and "span-year" in err and "tsolve/span" in err and "Traceback" not in err
    assert not other.exists()
    # all: one file per figure the logs have
    code, _, err = run_main(capsys, "report", str(twins["folder"]), "--plot",
                            str(tmp_path / "f.png"), "--figure", "all")  # fmt: skip
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.glob("f-*.png")) == ["f-time-puzzles.png"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--figure", "nope", "--plot", "x.png"), "figure: unknown choice 'nope'"),
        (("--table", "nope"), "table: unknown choice 'nope'"),
        (("--figure", "tictoc"), "add --plot OUT.png"),
    ],
)
def test_bad_choices_are_one_line_errors(
    twins: dict[str, Any], args: tuple[str, ...], message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    code, _, err = run_main(capsys, "report", str(twins["folder"]), *args)
    assert code == 2 and message in err and "Traceback" not in err


def _year(rec: dict[str, Any]) -> int:
    return int(rec["params"]["reference_date"]["gregorian"][:4])


def test_span_tables_by_year_direction_and_type_format(
    more_logs: dict[str, Any],  # noqa: F811
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The model of ``more_logs`` is right on the records dated before 2030."""
    records = more_logs["records"]
    rows = [r for r in build_report([more_logs["folder"]]).rows
            if r["task"] != "tsolve/span" or r["solver"] != "tsolve/scripted"]  # fmt: skip

    years = paper_table(rows, "span-year")
    assert [r["years"] for r in years] == ["2001", "2024", "2050"]
    for r in years:
        mine = [x for x in records if _year(x) == r["year_from"]]
        assert r["n"] == len(mine) and r["accuracy"] == (1.0 if r["year_from"] < 2030 else 0.0)

    def check(row: dict[str, Any], mine: list[dict[str, Any]]) -> None:
        right = sum(_year(x) < 2030 for x in mine)
        assert row["n"] == len(mine)
        assert row["accuracy"] == pytest.approx(right / len(mine))
        assert row["stderr"] == pytest.approx(_se01(right, len(mine)))

    directions = paper_table(rows, "span-direction")
    for r in directions:
        if r["calendar"] == "all":  # pooled over every other calendar
            from_gregorian = r["group"] == "gregorian->others"
            mine = [x for x in records
                    if x["direction"].startswith("gregorian->") == from_gregorian]  # fmt: skip
        else:
            mine = [x for x in records if x["direction"] == r["direction"]]
        check(r, mine)
    assert sum(r["n"] for r in directions if r["calendar"] != "all") == len(records)

    cells = paper_table(rows, "span-type-format")
    types = {x["type"] for x in records} | {"all"}
    formats = {x["format"] for x in records} | {"all"}
    assert {(r["type"], r["format"]) for r in cells} == {(t, f) for t in types for f in formats}
    for r in cells:
        mine = [x for x in records if r["type"] in ("all", x["type"])
                and r["format"] in ("all", x["format"])]  # fmt: skip
        check(r, mine)

    for choice in ("span-year", "span-direction", "span-type-format"):
        png = tmp_path / f"{choice}.png"
        code, out, err = run_main(capsys, "report", str(more_logs["folder"]), "--plot", str(png),
                                  "--figure", choice, "--table", choice)  # fmt: skip
        assert code == 0, err
        assert png.read_bytes()[:8] == PNG and choice in out


def test_the_tictoc_table_attempt_rates_and_nar_by_level(
    more_logs: dict[str, Any],  # noqa: F811
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The two TicToc runs of ``more_logs`` always call a tool: attempt rate
    1 for both preferences, so NAR 1/2 at every level, in each run."""
    raw = json.loads(TICTOC.read_text(encoding="utf-8"))
    count: dict[tuple[int, str], int] = {}
    for key, items in raw.items():
        word, level = key.removesuffix(".json").split("_elapse_")
        count[(int(level), "tool" if word == "preferTool" else "no_tool")] = len(items)
    table = paper_table(build_report([more_logs["folder"]]).rows, "tictoc")
    levels = sorted({lv for lv, _ in count})
    assert [r["level"] for r in table] == levels + levels  # two runs
    assert {r["series"] for r in table} == {"default settings", "temperature 0.5"}
    for r in table:
        assert (r["n_tool"], r["n_no_tool"]) == (count[(r["level"], "tool")],
                                                 count[(r["level"], "no_tool")])  # fmt: skip
        assert (r["attempt_tool"], r["attempt_no_tool"], r["nar"]) == (1.0, 1.0, 0.5)
    png = tmp_path / "t.png"
    args = ["--plot", str(png), "--figure", "tictoc", "--table", "tictoc", "--format", "json"]
    code, out, err = run_main(capsys, "report", str(more_logs["folder"]), *args)
    assert code == 0, err
    assert json.loads(out) == table and png.read_bytes()[:8] == PNG


@pytest.fixture(scope="module")
def logistics_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """UnSeenTimeQA-style records of the paper's four difficulty levels (hard
    serial and hard parallel being ``hard`` records of either execution) and
    two question types;
    the model answers the gold on easy questions and on relative ones."""
    from tsolve.contract import get_family
    from tsolve.verifiers.gold_answers import gold_output

    folder = tmp_path_factory.mktemp("logistics")
    records: list[dict[str, Any]] = []
    levels = (("hard", "parallel"), ("hard", "serial"), ("easy", "serial"), ("medium", "serial"))
    for difficulty, execution in levels:  # not the paper's order
        for question in ("static", "relative"):
            task = family_task("logistics", seed=3, count=1, difficulty=difficulty,
                               execution=execution, question=question)  # fmt: skip
            records.extend(record_in(s.metadata) for s in task.dataset)
    path = tmp_path_factory.mktemp("records") / "logistics.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    task = family_task("logistics", file=str(path))
    by_prompt = {s.input: record_in(s.metadata) for s in task.dataset}
    fam = get_family("logistics")

    def model(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        rec = by_prompt[messages[-1].text]
        right = rec["data_split"] == "easy" or rec["question_type"] == "relative_time"
        return _out(gold_output(rec, fam) if right else "Answer: never")

    inspect_eval(task, model=get_model("mockllm/model", custom_outputs=model),
                 log_dir=str(folder), display="none")  # fmt: skip
    return {"folder": folder, "records": records}


def test_the_unseentimeqa_table_by_difficulty_in_the_papers_order(
    logistics_logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = logistics_logs["records"]
    assert {x["execution"] for x in records if x["data_split"] == "hard"} == {"serial", "parallel"}

    def level(rec: dict[str, Any]) -> str:
        split = rec["data_split"]
        return f"hard_{rec['execution']}" if split == "hard" else split

    table = paper_table(build_report([logistics_logs["folder"]]).rows, "unseentimeqa")
    # the paper's order, its hard questions named by their execution
    assert list(dict.fromkeys(r["difficulty"] for r in table)) == [
        "easy", "medium", "hard_serial", "hard_parallel", "all"
    ]  # fmt: skip
    assert list(dict.fromkeys(r["question_type"] for r in table)) == [
        "static_time", "relative_time", "all"
    ]  # fmt: skip
    for r in table:
        mine = [x for x in records if r["difficulty"] in ("all", level(x))
                and r["question_type"] in ("all", x["question_type"])]  # fmt: skip
        right = [x for x in mine if x["data_split"] == "easy"
                 or x["question_type"] == "relative_time"]  # fmt: skip
        assert r["n"] == len(mine) and r["accuracy"] == pytest.approx(len(right) / len(mine))
    png = tmp_path / "u.png"
    code, out, err = run_main(capsys, "report", str(logistics_logs["folder"]), "--plot", str(png),
                              "--figure", "unseentimeqa", "--table", "unseentimeqa")  # fmt: skip
    assert code == 0, err
    assert png.read_bytes()[:8] == PNG
    lines = out.splitlines()
    firsts = [ln.split()[0] for ln in lines if ln.split() and ln.split()[0] in
              ("easy", "medium", "hard_serial", "hard_parallel")]  # fmt: skip
    assert firsts == ["easy", "medium", "hard_serial", "hard_parallel"]


# ------------------------------------------------------------ the pieces


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.lists(st.floats(0, 1), min_size=1, max_size=6), min_size=1, max_size=5))
def test_pooling_rows_equals_the_figures_of_all_their_samples(parts: list[list[float]]) -> None:
    def stats(values: list[float]) -> tuple[int, float, float | None]:
        n, mean = len(values), sum(values) / len(values)
        if n < 2:
            return n, mean, None
        return n, mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)

    pooled = pool([stats(p) for p in parts])
    n, mean, err = stats([v for p in parts for v in p])
    assert pooled.n == n and pooled.mean == pytest.approx(mean)
    assert (pooled.stderr is None) == (err is None)
    if err is not None:
        assert pooled.stderr == pytest.approx(err, abs=1e-9)


def test_many_reference_years_are_binned_and_few_are_not() -> None:
    assert year_bins([2024, 2001, 2050]) == [(2001, 2001), (2024, 2024), (2050, 2050)]
    years = list(range(1960, 2051))
    bins = year_bins(years)
    assert len(bins) <= MAX_YEARS and bins[0][0] == 1960 and bins[-1][1] == 2050
    # the SPAN paper's 19 evaluation dates are drawn one by one
    assert len(year_bins(list(range(1960, 2051, 5)))) == 19
    assert all(any(lo <= y <= hi for lo, hi in bins) for y in years)
    assert all(b[0] > a[1] for a, b in itertools.pairwise(bins))  # disjoint


def test_a_run_with_none_of_the_settings_is_not_a_row_of_dashes() -> None:
    def run(eval_id: str, **settings: Any) -> dict[str, Any]:
        return {"eval_id": eval_id, "tags": settings.pop("tags", []), "solver": None,
                "solver_args": settings, "task_args": {}, "generate_config": {}}  # fmt: skip

    refuse, plain = run("a", tags=["refuse"], answer="refuse"), run("b")
    assert run_label(refuse, [refuse, plain]) == "refuse"
    assert run_label(plain, [refuse, plain]) == DEFAULTS
    # two runs with the same settings are told apart by their eval id
    again = run("c")
    assert run_label(plain, [plain, again]).startswith("run b")


def test_every_grid_row_has_its_header_s_width() -> None:
    rows = [{"task": "tsolve/span", "model": "m", "condition": "none", "style": "-",
             "eval_id": "e", "reducer": "mean", "M": "all", "reference_year": y,
             "direction": "all", "type": "all", "format": "all", "n": 2, "accuracy": a,
             "stderr": 0.5} for y, a in ((2001, 0.5), (2002, 1.0))]  # fmt: skip
    for grid in grids(paper_table(rows, "all")):
        assert all(len(line) == len(grid.header) for line in grid.rows)
