"""Style-named ids and pairs, verify breakdowns, `tsolve predict`,
missing predictions, unknown --out suffixes, readable flag metavars."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_main import run_cli
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.verifiers.baselines import perturb, predict
from tsolve.verifiers.verify_batch import verify

runner = CliRunner()


def _puzzles(count: int, style: str | tuple[str, ...] = "implicit") -> list[dict]:
    return list(generate_puzzles(count, 5, PuzzleConfig(solutions=(1, 2), style=style)))


def test_both_styles_have_distinct_ids_and_name_each_other() -> None:
    both = _puzzles(4, ("implicit", "explicit"))
    ids = [r["id"] for r in both]
    assert len(set(ids)) == 4
    for a, b in (both[0:2], both[2:4]):
        assert (a["style"], b["style"]) == ("implicit", "explicit")
        assert a["pair"] == b["id"] and b["pair"] == a["id"]
        # the pair is one puzzle in two wordings
        assert [f["params"] for f in a["facts"]] == [f["params"] for f in b["facts"]]
        assert a["answers"] == b["answers"] and a["prompt"] != b["prompt"]
    # the id is the same however the run was split into styles
    explicit = _puzzles(2, "explicit")
    assert [r["id"] for r in explicit] == [both[1]["id"], both[3]["id"]]
    # combining both styles no longer makes verify drop half the file
    report = verify(
        both, [{"id": r["id"], "output": "MY ANSWER: None"} for r in both], keep_items=True
    )
    assert report.errors == [] and len(report.items) == 4


def test_cli_style_list_writes_both_wordings(tmp_path: Path) -> None:
    res = runner.invoke(app, ["puzzle", "--style", "implicit,explicit", "--count", "2",
                              "--format", "jsonl", "--seed", "1"])  # fmt: skip
    assert res.exit_code == 0, res.output
    recs = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["style"] for r in recs] == ["implicit", "explicit"]
    assert recs[0]["pair"] == recs[1]["id"]
    out = tmp_path / "tp.jsonl"
    cmd = ["dataset", "time-puzzles", "-n", "2", "-o", str(out), "-q"]
    res = runner.invoke(app, [*cmd, "--set", "style=implicit,explicit", "--set", "minimal=false"])
    assert res.exit_code == 0, res.output
    styles = [json.loads(x)["style"] for x in out.read_text().splitlines()]
    assert styles == ["implicit", "explicit"]
    bad = runner.invoke(app, ["puzzle", "--style", "implicit,implicit"])
    assert bad.exit_code != 0


def test_verify_breaks_time_puzzles_down_by_style_difficulty_kind_and_level() -> None:
    recs = _puzzles(2, ("implicit", "explicit"))
    summary = verify(recs, [{"id": r["id"], "output": "x"} for r in recs]).summary()
    by = summary["families"]["time-puzzles"]["by"]
    assert set(by["style"]) == {"implicit", "explicit"}
    assert {"difficulty", "fact_kind", "fact_level", "solutions"} <= set(by)
    kinds = {f["kind"] for f in recs[0]["facts"]}
    assert set(by["fact_kind"]) == kinds  # both records are one puzzle: same kinds
    assert all(agg["n"] == 2 for agg in by["fact_kind"].values())


@pytest.mark.parametrize("family", ["time-puzzles", "relational-puzzles", "span", "logistics"])
def test_predict_gold_scores_full_marks_and_perturbed_does_not(family: str) -> None:
    from tsolve.contract import get_family

    fam = get_family(family)
    records = [fam.make_record(2, i, fam.make_options({})) for i in range(3)]
    for baseline, full in (("gold", True), ("perturbed", False)):
        preds = list(predict(records, baseline))
        report = verify(records, preds, keep_items=True)
        assert report.errors == [] and len(report.items) == 3
        first = next(iter(report.items[0].metrics))  # em or accuracy
        scores = [it.metrics[first] for it in report.items]
        assert scores == [1.0] * 3 if full else all(s == 0.0 for s in scores), (baseline, scores)
    again = list(predict(records, "random", seed=4))
    assert again == list(predict(records, "random", seed=4))


def test_perturb_moves_one_value() -> None:
    assert perturb("MY ANSWER: 2024-02-28, 2024-12-31") == "MY ANSWER: 2024-02-28, 2025-01-01"
    assert perturb("MY ANSWER: Yes") == "MY ANSWER: No"
    assert perturb("MY ANSWER: 25 Sivan 5784") == "MY ANSWER: 25 Sivan 5785"


def test_predict_cli_and_unknown_suffix(tmp_path: Path) -> None:
    recs = tmp_path / "r.jsonl"
    recs.write_text("".join(json.dumps(r) + "\n" for r in _puzzles(2)))
    out = tmp_path / "p.jsonl"
    res = runner.invoke(app, ["predict", "--baseline", "gold", str(recs), "--out", str(out)])
    assert res.exit_code == 0, res.output
    ids = [json.loads(x)["id"] for x in out.read_text().splitlines()]
    assert ids == [r["id"] for r in _puzzles(2)] and ids[0].startswith("tp-5-0-")
    csv = str(tmp_path / "x.csv")
    for cmd in (["predict", str(recs), "--out", csv],
                ["dataset", "span", "-n", "1", "-o", csv],
                ["logistics", "generate", "--count", "1", "--out", csv]):  # fmt: skip
        res = runner.invoke(app, cmd)
        # the one-line error (main() turns it into exit code 2)
        assert isinstance(res.exception, TsolveError), (cmd, res.output)
        assert ".csv" in str(res.exception)
        assert not (tmp_path / "x.csv").exists()


def test_missing_predictions_are_listed_or_scored_zero() -> None:
    recs = _puzzles(3)
    gold = list(predict(recs, "gold"))[:1]
    skip = verify(recs, gold, keep_items=True)
    assert len(skip.items) == 1 and len(skip.missing) == 2
    zero = verify(recs, gold, missing="zero", keep_items=True)
    overall = zero.summary()["families"]["time-puzzles"]["overall"]
    assert overall["n"] == 3 and overall["em"] == pytest.approx(1 / 3)


def test_misnamed_output_field_is_a_counted_error_with_exit_1(tmp_path: Path) -> None:
    recs = tmp_path / "r.jsonl"
    recs.write_text("".join(json.dumps(r) + "\n" for r in _puzzles(2)))
    preds = tmp_path / "p.jsonl"
    preds.write_text("".join(json.dumps({"id": r["id"], "response": "MY ANSWER: None"}) + "\n"
                             for r in _puzzles(2)))  # fmt: skip
    res = runner.invoke(app, ["verify", str(recs), str(preds), "--format", "json"])
    assert res.exit_code == 1
    assert json.loads(res.stdout)["summary"]["errors"] == 2


def test_solve_check_prints_a_summary_in_machine_formats(tmp_path: Path) -> None:
    recs = tmp_path / "r.jsonl"
    recs.write_text("".join(json.dumps(r) + "\n" for r in _puzzles(2)))
    res = runner.invoke(app, ["solve", str(recs), "--check", "--format", "jsonl"])
    assert res.exit_code == 0
    assert "2 records checked: 2 same, 0 differ" in res.stderr


def test_flags_show_no_bool_metavar_and_out_is_the_option_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for cmd in (["solve", "--help"], ["verify", "--help"], ["logistics", "generate", "--help"]):
        r = run_cli(capsys, *cmd)  # through main, as the installed command prints it
        assert r.returncode == 0, r.stderr
        text = r.stdout
        assert "<bool>" not in text, cmd
    assert "--out" in text and "--output" not in text


@pytest.mark.parametrize(
    "args",
    [
        ["calendar", "convert", "2024-03-20"],
        ["calendar", "convert", "2024-03-20", "1999-12-31"],
        ["calendar", "festival", "Passover", "--year", "2024"],
        ["calendar", "festivals"],
        ["families"],
        ["puzzle", "--solutions", "3"],
    ],
)
def test_tables_fit_an_80_column_terminal(args: list[str]) -> None:
    """Reports size themselves to the terminal (COLUMNS), not to a fixed width."""
    res = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
