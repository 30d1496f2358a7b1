"""``tsolve bench``: the JSON schema is stable; every group runs (at a tiny scale)."""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest
from typer.testing import CliRunner

from tsolve.bench import SCHEMA, Size, bench_groups, run_bench, runner
from tsolve.cli.app import app
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.bench import algorithm3_solve, synthesise_predictions
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
from tsolve.families.time_puzzles.solve import puzzle_from_record, solve_puzzle

MEASUREMENT_KEYS: dict[str, Any] = {
    "id": str, "group": str, "metric": str, "unit": str, "work": int, "repetitions": int,
    "seconds": (int, float), "params": dict, "stats": dict, "status": str, "note": str,
}  # fmt: skip


def _check_schema(data: dict[str, Any]) -> None:
    assert data["schema"] == SCHEMA
    for key, typ in (("tsolve_version", str), ("created", str), ("quick", bool),
                     ("seconds", (int, float)), ("machine", dict), ("results", list)):  # fmt: skip
        assert isinstance(data[key], typ), key
    assert {"python", "platform", "cpus", "libraries", "calibration"} <= set(data["machine"])
    cal = data["machine"]["calibration"]
    assert set(cal) == {"python_loop_Mops_start", "python_loop_Mops_end"}
    assert all(isinstance(v, float) and v > 0 for v in cal.values())
    ids = [r["id"] for r in data["results"]]
    assert len(ids) == len(set(ids)), "ids are unique keys"
    for r in data["results"]:
        for key, typ in MEASUREMENT_KEYS.items():
            assert isinstance(r[key], typ), (r["id"], key)
        assert r["status"] in ("ok", "skipped", "error")
        if r["status"] == "ok":
            assert isinstance(r["value"], (int, float)) and r["value"] > 0, r["id"]
            assert r["work"] >= 1 and r["repetitions"] >= 1
        for extra in ("peer", "reference"):
            if r[extra] is not None:
                assert {"name", "value", "unit", "ratio"} <= set(r[extra])
        if r["peer"] is not None:
            _check_peer_rounds(r)


def _check_peer_rounds(r: dict[str, Any]) -> None:
    """Every peer is timed in the figure's rounds: one peer figure per round,
    a ratio per round, and the ratio is their median, inside their range."""
    peer = r["peer"]
    assert {"ratio_min", "ratio_max", "ratios", "values"} <= set(peer), r["id"]
    assert len(peer["values"]) == r["repetitions"] >= 1, r["id"]
    ratios = peer["ratios"]
    assert 1 <= len(ratios) <= r["repetitions"], r["id"]
    assert peer["ratio_min"] == min(ratios) and peer["ratio_max"] == max(ratios)
    assert peer["ratio_min"] <= peer["ratio"] <= peer["ratio_max"], r["id"]
    assert peer["ratio"] == pytest.approx(statistics.median(ratios), rel=1e-3), r["id"]


#: What a bench case asked its :class:`Size` for: ("work" or "reps", quick value, full value).
Asked = list[tuple[str, int, int]]


@pytest.fixture(scope="module")
def tiny_run() -> tuple[dict[str, Any], Asked]:
    """Every group in quick mode at a tiny scale, with every work size and
    round count the cases asked for (quick and full value), recorded."""
    asked: Asked = []

    class RecordingSize(Size):
        def __call__(self, quick_value: int, full_value: int) -> int:
            asked.append(("work", quick_value, full_value))
            return super().__call__(quick_value, full_value)

        def reps(self, quick_value: int, full_value: int) -> int:
            asked.append(("reps", quick_value, full_value))
            return super().reps(quick_value, full_value)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "Size", RecordingSize)
        # The paper's release is looked for here (never ../shared): its row is skipped.
        mp.setenv("TSOLVE_PAPER_RELEASE", "/nonexistent/time-puzzles-release")
        data = run_bench(quick=True, scale=0.02).to_json()
    return data, asked


@pytest.fixture(scope="module")
def tiny(tiny_run: tuple[dict[str, Any], Asked]) -> dict[str, Any]:
    return tiny_run[0]


def test_quick_mode_does_less_work_than_full_mode(tiny_run: tuple[dict[str, Any], Asked]) -> None:
    """``--quick`` keeps its time budget by smaller work units and fewer
    rounds, never by more of either: no case asks for more work or more
    rounds in quick mode than in a full run, and most ask for less. (Sizes,
    not seconds: speed is never asserted in tests.)"""
    data, asked = tiny_run
    assert data["quick"] is True
    assert len(asked) >= 30, asked  # every group sizes its work through Size
    more = [a for a in asked if a[1] > a[2]]
    assert not more, f"quick asks for more than full: {more}"
    work = [(q, f) for kind, q, f in asked if kind == "work"]
    rounds = [(q, f) for kind, q, f in asked if kind == "reps"]
    assert sum(q < f for q, f in work) >= 0.8 * len(work), work
    assert sum(q for q, _ in rounds) < sum(f for _, f in rounds), rounds


def test_every_group_runs_and_matches_the_schema(tiny: dict[str, Any]) -> None:
    _check_schema(tiny)
    assert tiny["scale"] == 0.02
    assert {r["group"] for r in tiny["results"]} == set(bench_groups())
    bad = [r for r in tiny["results"] if r["status"] == "error"]
    assert not bad, bad
    json.dumps(tiny)  # serialisable


def test_expected_figures_are_present(tiny: dict[str, Any]) -> None:
    by_id = {r["id"]: r for r in tiny["results"] if r["status"] == "ok"}
    for m in range(1, 7):
        assert f"time-puzzles.generate.cpsat.M={m}" in by_id
        assert f"time-puzzles.generate.z3.M={m}" in by_id
    for b in ("cpsat", "z3"):
        s = by_id[f"time-puzzles.solve.{b}"]
        assert {"median_ms", "p95_ms"} <= set(s["stats"]) and s["peer"]["ratio"] > 0
        assert len(s["stats"]["round_medians_ms"]) == s["repetitions"]
    peered = {r["id"] for r in by_id.values() if r["peer"] is not None}
    assert {
        "time-puzzles.generate.kind=minimal",
        "time-puzzles.generate.relational.events=2",
        "time-puzzles.generate.cpsat.M=1-6.vs-certifying",
        "time-puzzles.generate.cpsat.M=1-6.minimal.vs-certifying",
        "tictoc.score",
        "logistics.answer",
    } <= peered
    rel = by_id["time-puzzles.generate.relational.events=2"]
    assert rel["stats"]["ratio_to_single_date"] == rel["peer"]["ratio"]
    assert "time-puzzles.verify" in by_id
    release = next(r for r in tiny["results"] if r["id"].endswith("paper-preset.vs-release"))
    assert release["status"] == "skipped" and release["value"] is None
    assert "/nonexistent/time-puzzles-release" in release["note"]
    assert by_id["calendars.convert.persian"]["peer"]["name"].startswith("convertdate")
    if "logistics.answer" in by_id:
        assert by_id["logistics.answer"]["peer"] is not None


def test_unknown_group_is_an_error() -> None:
    with pytest.raises(TsolveError, match="bench group"):
        run_bench(["nope"])


def test_algorithm3_peer_equals_the_solver() -> None:
    cfg = PuzzleConfig(solutions=(0, 2, 5))
    for i in range(6):
        p = puzzle_from_record(generate_puzzle(4, i, cfg))
        assert tuple(algorithm3_solve(p.facts, p.domain)) == solve_puzzle(p, "cpsat").solutions


def test_synthesised_predictions_cover_the_perturbations() -> None:
    recs = [generate_puzzle(6, i, PuzzleConfig(solutions=3)) for i in range(2)]
    out_recs, preds = synthesise_predictions(recs, 4)
    assert len(out_recs) == len(preds) == 8
    assert len({r["id"] for r in out_recs}) == 8
    assert [p["id"] for p in preds] == [r["id"] for r in out_recs]
    assert preds[0]["output"] == "MY ANSWER: " + ", ".join(recs[0]["answers"])
    assert any("None" in p["output"] for p in preds)


def test_cli_bench_json_and_text() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["bench", "--quick", "--family", "span", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    _check_schema(data)
    assert {r["group"] for r in data["results"]} == {"span"}
    txt = runner.invoke(app, ["bench", "--quick", "--family", "span"])
    assert txt.exit_code == 0 and "span.generate" in txt.stdout
    assert "quick mode" in txt.stdout  # the table says its figures are the quick ones
    bad = runner.invoke(app, ["bench", "--family", "nope"])
    assert bad.exit_code != 0 and isinstance(bad.exception, TsolveError)


def test_logistics_workers_figure_answers_every_copy() -> None:
    from tsolve.families.logistics.bench import bench_logistics_workers, logistics_items

    items = logistics_items(1)[:6]
    m = bench_logistics_workers(items, rounds=1)
    assert m.status == "ok" and m.params["workers"] == 2
    assert m.work == 8 * len(items) and m.value is not None and m.value > 0
    assert m.value * m.seconds == pytest.approx(m.work)  # every copy was answered
    one = m.stats["one_process_rates"][0]
    assert m.stats["speedup_over_one_process"] == pytest.approx(m.value / one, rel=1e-2)
