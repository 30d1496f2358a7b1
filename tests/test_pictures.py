"""Pictures (tsolve.plots, the ``plot`` extra): what they show, and the files.

What a picture shows is tested on its data (bars, rows, edges) against
independent recomputations; the files are checked for being valid PNG/SVG,
deterministic (SVG) and carrying the expected labels.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_main import run_cli
from schedule_oracle import independent_starts
from typer.testing import CliRunner

from tsolve.calendars.domain import to_ordinal
from tsolve.cli.app import app
from tsolve.encodings.facts.base import DayView, fact_from_json
from tsolve.errors import TsolveError
from tsolve.families.logistics.generate import GenerateParams, generate_record
from tsolve.families.logistics.plot import gantt_chart, show_item
from tsolve.families.relational_puzzles.generate import generate_relational_puzzle
from tsolve.families.relational_puzzles.plot import relation_graph
from tsolve.families.time_puzzles.generate import generate_puzzle
from tsolve.families.time_puzzles.plot import calendar_strip

runner = CliRunner()
FIXTURES = Path(__file__).parent / "fixtures"
SAMPLE = FIXTURES / "unseentimeqa_sample.jsonl"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _vehicle_bars(chart: Any) -> dict[int, tuple[int, int, str]]:
    vehicles = {name for name, _rows in chart.lanes[: chart.vehicles]}
    return {b.event: (b.start, b.end, b.lane) for b in chart.bars if b.lane in vehicles}


@pytest.mark.parametrize("execution", ["serial", "parallel"])
@pytest.mark.parametrize("seed", [0, 7])
def test_gantt_bars_are_the_solvers_schedule(execution: str, seed: int) -> None:
    rec = generate_record(seed, 0, GenerateParams("hard", execution, "static", None))  # type: ignore[arg-type]
    chart = gantt_chart(rec)
    starts = independent_starts(rec)
    events = rec["scenario"]["events"]
    expected = {
        k: (starts[k], starts[k] + e["duration"], e["vehicle"]) for k, e in enumerate(events)
    }
    assert _vehicle_bars(chart) == expected
    assert chart.asked_minute == rec["solution"]["minute"]
    assert list(chart.answers) == rec["answers"]
    # bars in one row of a lane never overlap (parallel batches get rows of their own)
    rows: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for b in chart.bars:
        rows.setdefault((b.lane, b.row), []).append((b.start, b.end))
    for spans in rows.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


def _hard_serial_items() -> list[dict[str, Any]]:
    items = [json.loads(line) for line in SAMPLE.read_text().splitlines()]
    return [i for i in items if i["data_split"] == "hard" and i["execution"] == "serial"][:5]


@pytest.mark.parametrize("item", _hard_serial_items(), ids=lambda i: str(i["id"]))
def test_gantt_of_a_benchmark_item_read_from_english(item: dict[str, Any]) -> None:
    """Hard serial items state durations only: the bars must last what the
    English says and follow one another without gaps."""
    sentences = [s for s in item["events"][1:]]
    durations = [int(re.findall(r"(\d+)\s*minutes", s)[-1]) for s in sentences]
    bars = _vehicle_bars(gantt_chart(item))
    got = [bars[k] for k in range(len(durations))]
    assert [b - a for a, b, _v in got] == durations
    assert all(got[k][1] == got[k + 1][0] for k in range(len(got) - 1))


def test_gantt_files_are_valid_and_svg_is_deterministic(tmp_path: Path) -> None:
    rec = generate_record(1, 0, GenerateParams("hard", "parallel", "hypothetical", None))
    src = tmp_path / "rec.jsonl"
    src.write_text(json.dumps(rec) + "\n")
    png = show_item(src, tmp_path / "g.png")
    assert png.read_bytes()[:8] == PNG_MAGIC
    a = show_item(src, tmp_path / "a.svg").read_bytes()
    b = show_item(src, tmp_path / "b.svg").read_bytes()
    assert a == b
    root = ET.fromstring(a)
    assert root.tag.endswith("svg")
    text = "".join(root.itertext())
    assert rec["id"] in text and "asked:" in text
    assert "moved by the what-if" in text  # the hypothetical's legend entry


def test_show_command_on_the_benchmark_sample(tmp_path: Path) -> None:
    out = tmp_path / "gantt.png"
    res = runner.invoke(app, ["logistics", "show", str(SAMPLE), "--id", "3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:8] == PNG_MAGIC


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "x.jpg"], "unknown picture extension '.jpg'"),
        (["--out", "x"], "unknown picture extension 'none'"),
        (["--id", "no-such-id", "--out", "x.png"], "no item with id 'no-such-id'"),
    ],
)
def test_show_errors_are_one_line(
    tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a if not a.startswith("x") else str(tmp_path / a) for a in args]
    res = run_cli(capsys, "logistics", "show", str(SAMPLE), *args, columns=200)
    assert res.returncode != 0
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], res.stderr
    assert not list(tmp_path.iterdir())


def test_calendar_strip_rows_are_the_facts_and_their_intersection_the_answers() -> None:
    rec = generate_puzzle(4, 0, solutions=3)
    strip = calendar_strip(rec)
    answers = [to_ordinal(a) for a in rec["answers"]]
    assert strip.first <= min(answers) and max(answers) <= strip.last
    window = np.arange(strip.first, strip.last + 1, dtype=np.int64)
    view = DayView(window)  # the facts' fast path, not the IR the strip uses
    both = np.ones(window.size, dtype=bool)
    for (_label, days), fj in zip(strip.rows, rec["facts"], strict=True):
        mask = np.asarray(fact_from_json(fj).holds(view), dtype=bool)
        assert list(days) == [int(d) for d in window[mask]]
        both &= mask
    assert [int(d) for d in window[both]] == answers == list(strip.answers)
    assert [label.split(". ", 1)[1] for label, _ in strip.rows] == [f["text"] for f in rec["facts"]]


def test_relation_graph_edges_agree_with_the_answer_dates() -> None:
    checked = 0
    for index in range(8):  # not every puzzle relates two events by a count of days
        rec = generate_relational_puzzle(2, index, events=4, solutions=1)
        graph = relation_graph(rec)
        assert {n for n, _ in graph.nodes} == {e["var"] for e in rec["events"]}
        date = {
            e["var"]: dt.date.fromisoformat(d)
            for e, d in zip(rec["events"], rec["answers"][0], strict=True)
        }
        for u, v, label in graph.edges:
            m = re.fullmatch(r"([+-]\d+) (days|weeks)", label)
            if m:
                n = int(m[1]) * (7 if m[2] == "weeks" else 1)
                assert (date[v] - date[u]).days == n, (u, v, label)
                checked += 1
    assert checked


def test_puzzle_plot_and_plot_dir(tmp_path: Path) -> None:
    first = tmp_path / "first.svg"
    folder = tmp_path / "all"
    res = runner.invoke(app, ["puzzle", "--count", "2", "--format", "jsonl", "--plot", str(first),
                              "--plot-dir", str(folder)])  # fmt: skip
    assert res.exit_code == 0, res.output
    ids = [json.loads(line)["id"] for line in res.stdout.splitlines()]
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{i}.png" for i in ids)
    assert ET.fromstring(first.read_bytes()).tag.endswith("svg")
    assert ids[0] in "".join(ET.fromstring(first.read_bytes()).itertext())
    rel = tmp_path / "graph.png"
    res = runner.invoke(app, ["puzzle", "--events", "3", "--plot", str(rel), "--format", "jsonl"])
    assert res.exit_code == 0, res.output
    assert rel.read_bytes()[:8] == PNG_MAGIC


def test_puzzle_plot_bad_extension_fails_before_generating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    res = run_cli(capsys, "puzzle", "--plot", str(tmp_path / "p.gif"), "--format", "jsonl")
    assert res.returncode != 0
    assert res.stdout == ""  # no puzzle was printed
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "unknown picture extension '.gif'" in lines[0], res.stderr


def test_relation_graph_needs_a_relational_record() -> None:
    with pytest.raises(TsolveError, match="not a relational puzzle"):
        relation_graph({"id": "x", "facts": []})
