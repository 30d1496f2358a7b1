"""How many bad rows ``tsolve verify`` lists: on a terminal the first 20 and
one line with the exact number of the others; in ``--format json`` every one,
in order (the records' bad rows first), however many there are."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from cli_main import run_cli

from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.verifiers import verify_batch as batch
from tsolve.verifiers.report_writers import JsonlReportWriter


def _files(tmp_path: Path, bad_records: int, ghosts: int) -> tuple[Path, Path, list[str]]:
    """Two good records (answered right), ``bad_records`` malformed record
    lines after them and ``ghosts`` predictions for ids no record has; the
    error messages expected, in the order a report lists them, written here."""
    good = list(generate_puzzles(2, 5, PuzzleConfig(solutions=(1,))))
    recs = tmp_path / "recs.jsonl"
    lines = [json.dumps(r) for r in good] + ["{broken"] * bad_records
    recs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    preds = tmp_path / "preds.jsonl"
    rows = [{"id": r["id"], "output": "MY ANSWER: " + r["answers"][0]} for r in good]
    rows += [{"id": f"ghost-{i}", "output": "x"} for i in range(ghosts)]
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    expected = [
        f"puzzles recs.jsonl:{n}: malformed JSON (Expecting property name enclosed in double "
        "quotes, column 2)"
        for n in range(3, 3 + bad_records)
    ] + [f"predictions: id 'ghost-{i}' matches no record" for i in range(ghosts)]
    return recs, preds, expected


def test_json_lists_every_error_beyond_the_kept_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "ERRORS_KEPT", 3)  # stands in for 10,000
    recs, preds, expected = _files(tmp_path, bad_records=2, ghosts=7)
    r = run_cli(capsys, "verify", str(recs), str(preds), "--format", "json")
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["errors"] == expected
    assert doc["summary"]["errors"] == 9 and doc["summary"]["scored"] == 2
    assert "errors_not_listed" not in doc
    assert [it["id"] for it in doc["items"]] == [json.loads(line)["id"] for line in
                                                 recs.read_text().splitlines()[:2]]  # fmt: skip


def test_the_library_report_lists_them_all_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tsolve.verifiers.verify_files import verify_files

    monkeypatch.setattr(batch, "ERRORS_KEPT", 3)
    recs, preds, expected = _files(tmp_path, bad_records=2, ghosts=7)
    report = verify_files(str(recs), str(preds), keep_items=True)
    assert report.to_json()["errors"] == expected and report.error_count == 9
    assert report.errors == expected[:3]  # what it holds in memory


def test_the_terminal_shows_twenty_and_the_exact_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs, preds, expected = _files(tmp_path, bad_records=3, ghosts=24)
    r = run_cli(capsys, "verify", str(recs), str(preds))
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[:20] == [f"warning {e}" for e in expected[:20]]
    assert lines[20:] == ["… 7 more (all of them: --format json)"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("n", "tty"), [(25, True), (25, False), (20, True)])
def test_jsonl_errors_on_a_terminal_stop_at_twenty(n: int, tty: bool) -> None:
    """``--format jsonl`` writes each bad row to stderr as it is found: every
    one into a file or pipe, the first 20 and a count onto a terminal."""
    err: Any = _Terminal() if tty else io.StringIO()
    out = io.StringIO()
    writer = JsonlReportWriter(out, err)
    for i in range(n):
        writer.error(f"predictions: id 'ghost-{i}' matches no record")
    writer.finish(SimpleNamespace(missing=[], summary=lambda: {"errors": n}))
    lines = err.getvalue().splitlines()
    shown = min(n, 20) if tty else n
    assert lines[:shown] == [f"error: predictions: id 'ghost-{i}' matches no record"
                             for i in range(shown)]  # fmt: skip
    rest = n - shown
    assert lines[shown:] == ([f"… {rest} more (all of them: --format json)"] if rest else [])
    assert json.loads(out.getvalue()) == {"summary": {"errors": n}, "missing": []}
