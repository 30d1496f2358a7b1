"""A wrong file gets one line saying what it is and what
was expected, not one warning per row; the exit code is 2 for a wrong file
and 1 for a batch with a bad row."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.verifiers.row_shapes import PredictionShape, missing_id, refuse_other_families

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return list(generate_puzzles(3, 1, PuzzleConfig(solutions=(1, 2))))


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


class Ran:
    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.exit_code, self.stdout, self.stderr = code, stdout, stderr


@pytest.fixture
def tsolve(capsys: pytest.CaptureFixture[str]) -> Any:
    """Run ``tsolve ARGS`` in-process through ``main`` (which maps errors to exit codes)."""

    def run(*args: str) -> Ran:
        return Ran(*run_main(capsys, *args))

    return run


def test_a_prediction_keyed_qid_names_the_field_once(
    records: Any, tmp_path: Path, tsolve: Any
) -> None:
    recs = _jsonl(tmp_path / "r.jsonl", records)
    preds = _jsonl(tmp_path / "p.jsonl", [{"qid": r["id"], "output": "x"} for r in records])
    r = tsolve("verify", recs, preds)
    assert r.exit_code == 2
    (line,) = _errors(r.stderr)
    assert "no 'id' field; found 'qid'" in line and "None" not in line


def test_swapped_files_say_this_is_a_records_file_once(
    records: Any, tmp_path: Path, tsolve: Any
) -> None:
    recs = _jsonl(tmp_path / "r.jsonl", records * 200)  # 600 rows: one line, not 600
    r = tsolve("verify", recs, recs)
    assert r.exit_code == 2
    (line,) = _errors(r.stderr)
    assert "this is a records file" in line


def test_a_later_row_without_id_is_one_bad_row(records: Any, tmp_path: Path) -> None:
    recs = _jsonl(tmp_path / "r.jsonl", records)
    rows = [{"id": records[0]["id"], "output": "x"}, {"qid": records[1]["id"], "output": "x"},
            {"id": records[2]["id"], "output": "x"}]  # fmt: skip
    r = runner.invoke(app, ["verify", recs, _jsonl(tmp_path / "p.jsonl", rows), "--format",
                            "json"])  # fmt: skip
    assert r.exit_code == 1  # the bad row; the other two were scored
    doc = json.loads(r.stdout)
    assert doc["summary"]["scored"] == 2
    assert "predictions: no 'id' field; found 'qid' (rename it to 'id')" in doc["errors"]


@pytest.mark.parametrize(
    ("make", "needle"),
    [("logistics", "use tsolve logistics answer"), ("span", "SPAN questions")],
)
def test_solve_on_another_family_is_one_line(
    make: str, needle: str, tmp_path: Path, tsolve: Any
) -> None:
    if make == "logistics":
        path = str(ROOT / "tests/fixtures/unseentimeqa_sample.jsonl")
    else:
        out = runner.invoke(app, ["span", "--date", "2024-03-01", "--count", "5"]).stdout
        path = str(tmp_path / "span.jsonl")
        Path(path).write_text(out)
    r = tsolve("solve", path)
    assert r.exit_code == 2
    (line,) = _errors(r.stderr)
    assert needle in line


def test_row_shapes_alone() -> None:
    assert missing_id({"id": 1}) is None
    assert (
        missing_id({"question_id": 1}) == "no 'id' field; found 'question_id' (rename it to 'id')"
    )
    assert missing_id({"output": "x"}) == "no 'id' field"
    shape = PredictionShape()
    shape.check({"id": "a", "output": "x"})
    shape.check({"facts": [], "answers": []})  # a later row: the verifier's per-row checks
    with pytest.raises(TsolveError, match="this is a records file"):
        PredictionShape().check({"id": "a", "facts": [], "answers": []})
    rows = [{"family": "logistics"}, {"family": "time-puzzles"}]
    with pytest.raises(TsolveError, match="logistics answer"):
        list(refuse_other_families(rows, ("time-puzzles",), "f", "tsolve solve"))
    assert list(refuse_other_families(rows[::-1], ("time-puzzles",), "f", "x")) == rows[::-1]


def test_format_hf_without_its_extra_names_the_hf_extra(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['datasets'] = None; sys.modules['pyarrow'] = None\n"
        f"sys.argv = ['tsolve', 'dataset', 'span', '--count', '2', '--format', 'hf', "
        f"'--out', {str(tmp_path / 'hf')!r}]\n"
        "from tsolve.cli.app import main\nmain()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300)  # fmt: skip
    assert run.returncode == 2
    (line,) = _errors(run.stderr)
    assert "tsolve[hf]" in line and "parquet" not in line
