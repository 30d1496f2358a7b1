"""``tsolve logistics generate`` and ``tsolve logistics answer`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_main import run_cli
from typer.testing import CliRunner

from tsolve.cli.app import app

runner = CliRunner()
GEN = ["logistics", "generate", "--difficulty", "hard", "--execution", "parallel",
       "--question", "hypothetical", "--depth", "7", "--count", "5", "--seed", "42"]  # fmt: skip


def test_generate_jsonl_is_byte_identical_and_answers_read_back(tmp_path: Path) -> None:
    a = runner.invoke(app, GEN)
    b = runner.invoke(app, GEN)
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout
    lines = a.stdout.splitlines()
    assert len(lines) == 5
    recs = [json.loads(line) for line in lines]
    assert all(r["depth"] == 7 and r["question_type"] == "hypothetical_time" for r in recs)
    path = tmp_path / "gen.jsonl"
    path.write_text(a.stdout)
    out = runner.invoke(app, ["logistics", "answer", str(path), "--format", "jsonl", "--score"])
    assert out.exit_code == 0, out.output
    answered = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["answers"] for r in answered] == [r["answers"] for r in recs]
    assert all(r["correct"] for r in answered)


def test_generate_shards_concatenate() -> None:
    whole = runner.invoke(app, [*GEN[:-4], "--count", "4", "--seed", "1"]).stdout.splitlines()
    first = runner.invoke(app, [*GEN[:-4], "--count", "2", "--seed", "1"]).stdout.splitlines()
    rest = runner.invoke(
        app, [*GEN[:-4], "--count", "2", "--seed", "1", "--start", "2"]
    ).stdout.splitlines()
    assert first + rest == whole


def test_generate_text_and_cpsat_check() -> None:
    out = runner.invoke(
        app, ["logistics", "generate", "--count", "2", "--format", "text", "--cpsat-check"]
    )
    assert out.exit_code == 0, out.output
    assert "logistics-0-0" in out.stdout and "Q:" in out.stdout and "A:" in out.stdout


def test_answer_json_array_from_stdin_and_bad_items(tmp_path: Path) -> None:
    good = json.loads(runner.invoke(app, [*GEN[:-4], "--count", "1"]).stdout)
    bad = {
        "id": "broken-7",
        "events": ["nothing happens here."],
        "question": "Where is the package p1 at 01:00 PM?",
    }
    again = {**good, "id": "again"}
    payload = json.dumps([good, bad, again])
    out = runner.invoke(app, ["logistics", "answer", "-", "--format", "jsonl"], input=payload)
    assert out.exit_code == 1  # one item failed; the batch went on
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["id"] for r in rows] == [good["id"], "broken-7", "again"]
    assert rows[0]["answers"] == good["answers"] == rows[2]["answers"]
    assert rows[1]["error"].startswith("events")
    assert "broken-7" in out.stderr


def test_malformed_jsonl_line_is_reported_and_skipped(tmp_path: Path) -> None:
    good = runner.invoke(app, [*GEN[:-4], "--count", "1"]).stdout.strip()
    path = tmp_path / "mixed.jsonl"
    again = json.dumps({**json.loads(good), "id": "again"})
    path.write_text(good + "\n{not json\n" + again + "\n")
    out = runner.invoke(app, ["logistics", "answer", str(path), "--score"])
    assert out.exit_code == 1
    assert "malformed JSON" in out.stderr
    assert "2/3" in out.stdout  # the bad line counts as wrong in the score


def test_user_errors_are_one_line_with_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through ``main``, the entry point that turns errors into one line."""
    r = run_cli(capsys, "logistics", "generate", "--depth", "0")
    assert r.returncode == 2
    assert r.stderr.strip().startswith("error: depth") and len(r.stderr.strip().splitlines()) == 1
    r = run_cli(capsys, "logistics", "answer", str(tmp_path / "missing.jsonl"))
    assert r.returncode == 2 and "missing.jsonl" in r.stderr and "Traceback" not in r.stderr


def test_answer_cli_on_the_shipped_sample_is_120_of_120() -> None:
    """Through the command a user runs (its reader included): the sample's ids
    repeat across its source files, and every item is still answered."""
    from pathlib import Path

    sample = Path(__file__).resolve().parent / "fixtures" / "unseentimeqa_sample.jsonl"
    out = runner.invoke(app, ["logistics", "answer", str(sample), "--score"])
    assert out.exit_code == 0, out.output
    assert "exact set match: 120/120" in out.stdout
