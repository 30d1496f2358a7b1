"""End-to-end: the `tsolve` command, as a user runs it.

Two tests start the real process (the main job, and the same bytes from a
fresh interpreter with its own hash seed); the rest run the same entry point
in-process (``cli_main.run_cli``), which checks the same exit codes and
one-line errors without paying the start-up each time (docs/testing.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_main import run_cli

TSOLVE = [sys.executable, "-m", "tsolve"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run(
        [*TSOLVE, *args], capture_output=True, text=True, input=stdin, timeout=300, env=env
    )


def test_main_job_prints_a_puzzle_with_three_answers() -> None:
    r = run("puzzle", "--solutions", "3")
    assert r.returncode == 0, r.stderr
    assert "MY ANSWER" in r.stdout and "Answers:" in r.stdout
    answers = r.stdout.split("Answers:")[1].splitlines()[0].split(",")
    assert len(answers) == 3


def test_json_record_then_solve_check_and_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = run_cli(capsys, "puzzle", "--solutions", "1-3", "--count", "3", "--seed", "11",
                "--format", "jsonl")  # fmt: skip
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [len(x["answers"]) for x in recs] == [1, 2, 3]
    pz = tmp_path / "p.jsonl"
    pz.write_text(r.stdout)
    s = run_cli(capsys, "solve", str(pz), "--check", "--backend", "z3", "--format", "jsonl")
    assert s.returncode == 0, s.stderr
    assert all(json.loads(line)["matches"] for line in s.stdout.splitlines())
    # A tampered record is caught by --check.
    bad = dict(recs[0], answers=["1999-01-01"])
    pz2 = tmp_path / "bad.jsonl"
    pz2.write_text(json.dumps(bad) + "\n")
    assert run_cli(capsys, "solve", str(pz2), "--check").returncode == 1
    preds = tmp_path / "pred.jsonl"
    preds.write_text(
        "\n".join(
            json.dumps({"id": x["id"], "output": "MY ANSWER: " + ", ".join(x["answers"])})
            for x in recs
        )
        + "\n"
    )
    v = run_cli(capsys, "verify", str(pz), str(preds), "--format", "json")
    assert v.returncode == 0, v.stderr
    out = json.loads(v.stdout)
    assert out["summary"]["families"]["time-puzzles"]["overall"]["em"] == 1.0
    assert len(out["items"]) == 3
    t = run_cli(capsys, "verify", str(pz), str(preds))
    assert t.returncode == 0 and "overall" in t.stdout


def test_same_seed_same_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    """A fresh process (its own hash seed) and this one print the same bytes."""
    args = ("puzzle", "--solutions", "2", "--count", "2", "--seed", "5", "--format", "jsonl")
    a = run(*args)
    b = run_cli(capsys, *args)
    assert a.returncode == 0 and b.returncode == 0 and a.stdout == b.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("puzzle", "--domain-start", "2020-02-30"), "not a valid date"),
        (("puzzle", "--domain-start", "2020-01-01", "--domain-end", "1990-01-01"), "before start"),
        (("puzzle", "--solutions", "many"), "solutions"),
        (("puzzle", "--backend", "gurobi"), "backend"),
        (("puzzle", "--format", "xml"), "format"),
        (("solve", "/no/such/file.jsonl"), "does not exist"),
        # usage errors found by the CLI parser itself get the same one-line form
        (("puzzle", "--count", "-1"), "--count"),
        (("puzzle", "--count", "abc"), "--count"),
        (("puzzle", "--bogus"), "--bogus"),
        (("nosuchcmd",), "nosuchcmd"),
        (("verify", "only-one-file.jsonl"), "Missing argument"),
        (("logistics", "answer", "x.jsonl", "--workers", "0"), "--workers"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: tuple[str, ...], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    r = run_cli(capsys, *args)
    assert r.returncode == 2
    assert needle in r.stderr
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_malformed_rows_are_reported_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = run_cli(capsys, "puzzle", "--solutions", "1", "--format", "jsonl").stdout
    f = tmp_path / "mixed.jsonl"
    f.write_text("{broken\n" + good + '{"id": "x", "facts": [{"kind": "nope", "params": {}}]}\n')
    r = run_cli(capsys, "solve", str(f), "--format", "jsonl")
    assert r.returncode == 1  # the batch went on, but its input had bad rows
    assert len(r.stdout.splitlines()) == 1
    assert "malformed JSON" in r.stderr and "unknown kind" in r.stderr


def test_verify_scores_the_good_rows_and_exits_1_on_bad_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = run_cli(capsys, "puzzle", "--solutions", "1", "--count", "2", "--format", "jsonl").stdout
    pz = tmp_path / "p.jsonl"
    pz.write_text(recs)
    ids = [json.loads(line)["id"] for line in recs.splitlines()]
    preds = tmp_path / "pred.jsonl"
    preds.write_text(
        json.dumps({"id": ids[0], "output": "no answer line at all"})  # scored 0, not bad input
        + "\n{truncated\n"
        + json.dumps({"id": "nobody", "output": "MY ANSWER: None"})
        + "\n"
    )
    v = run_cli(capsys, "verify", str(pz), str(preds), "--format", "json")
    assert v.returncode == 1
    out = json.loads(v.stdout)
    assert out["summary"]["scored"] == 1 and out["summary"]["parse_failures"] == 1
    assert out["summary"]["errors"] == 2 and out["summary"]["missing_predictions"] == 1
    only_garbage = tmp_path / "ok.jsonl"
    only_garbage.write_text(json.dumps({"id": ids[0], "output": "no idea"}) + "\n")
    assert run_cli(capsys, "verify", str(pz), str(only_garbage)).returncode == 0
