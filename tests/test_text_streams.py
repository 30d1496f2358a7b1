"""Stream arguments: ``-``, ``/dev/stdin``, bash's
``<(cat file)`` and a FIFO are read as text, never taken for the text of
their own name; an endless stream (``/dev/zero``) is a one-line error. Each
run is a real subprocess (the shell makes the ``/dev/fd/N`` of ``<(...)``);
the timeouts are hang guards, not speed limits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tsolve.errors import TsolveError
from tsolve.records.text_source import MAX_TEXT_BYTES, is_stream, read_text_source

ROOT = Path(__file__).resolve().parents[1]
WAIT = 300
PUZZLE = "It's a Friday. The day of the month is 13. The year is 2015.\n"
FRIDAYS = ["2015-02-13", "2015-03-13", "2015-11-13"]  # 2015's Friday the 13ths (cal 2015)


def tsolve(
    *args: str, stdin: str | None = None, shell: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd: list[str] | str = [sys.executable, "-m", "tsolve", *args]
    if shell is not None:
        cmd = ["bash", "-c", shell.replace("TSOLVE", f"{sys.executable} -m tsolve")]
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=WAIT, env=env)


def answers(stdout: str) -> list[str]:
    (row,) = [json.loads(line) for line in stdout.splitlines()]
    assert row["status"] == "complete"
    out: list[str] = row["answers"]
    return out


@pytest.mark.parametrize("path", ["-", "/dev/stdin"])
def test_solve_text_file_reads_stdin(path: str) -> None:
    r = tsolve("solve", "--text-file", path, "--format", "jsonl", stdin=PUZZLE)
    assert r.returncode == 0, r.stderr
    assert answers(r.stdout) == FRIDAYS


def test_solve_text_file_reads_a_process_substitution(tmp_path: Path) -> None:
    src = tmp_path / "p.txt"
    src.write_text(PUZZLE)
    r = tsolve(shell=f"TSOLVE solve --text-file <(cat {src}) --format jsonl")
    assert r.returncode == 0, r.stderr
    assert answers(r.stdout) == FRIDAYS


def test_solve_text_file_reads_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "puzzles"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w") as fh:  # blocks until tsolve opens the FIFO to read
            fh.write(PUZZLE)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    r = tsolve("solve", "--text-file", str(fifo), "--format", "jsonl")
    writer.join(WAIT)
    assert not writer.is_alive(), "the FIFO writer is still blocked: tsolve never read it"
    assert r.returncode == 0, r.stderr
    assert answers(r.stdout) == FRIDAYS


def test_check_claims_reads_dev_stdin() -> None:
    r = tsolve("check-claims", "/dev/stdin", "--format", "jsonl", stdin="2023 is a leap year.\n")
    assert r.returncode == 0, r.stderr
    (claim,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert claim["verdict"] == "false"  # 2023 is not divisible by 4


@pytest.mark.parametrize("cmd", [("check-claims",), ("solve", "--text-file"), ("tempo", "tag")])
def test_an_endless_stream_is_a_one_line_error(cmd: tuple[str, ...]) -> None:
    r = tsolve(*cmd, "/dev/zero")
    assert r.returncode in (1, 2), r.stderr
    assert "Traceback" not in r.stderr
    assert f"{MAX_TEXT_BYTES >> 20} MiB" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_is_stream(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("x")
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    assert is_stream("-") and is_stream(fifo) and is_stream("/dev/null")
    assert not is_stream(f) and not is_stream(tmp_path) and not is_stream("no such file")
    assert read_text_source("/dev/null") == ""
    assert read_text_source(str(f)) == "x" and read_text_source("plain words") == "plain words"


def test_not_utf8_is_one_line(tmp_path: Path) -> None:
    f = tmp_path / "b.txt"
    f.write_bytes(b"ok \xff")
    with pytest.raises(TsolveError, match=r"not UTF-8 text \(byte 3\)"):
        read_text_source(str(f))


def test_dash_is_stdin_even_beside_a_folder_named_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-`` means standard input, whatever the working folder holds: a
    folder named ``-`` there was read as a folder of records instead."""
    from cli_main import run_cli

    (tmp_path / "-").mkdir()
    monkeypatch.chdir(tmp_path)
    r = run_cli(capsys, "solve", "--text-file", "-", "--format", "jsonl", stdin=PUZZLE)
    assert r.returncode == 0, r.stderr
    assert answers(r.stdout) == FRIDAYS
