"""Run ``tsolve ARGS`` in-process through the real entry point.

``main`` turns a ``TsolveError`` into one line and exit 2, as a user sees
it; the tests of hostile input, batch rows and error messages all check that
path, so they share this one runner."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from tsolve.cli.app import main


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``tsolve ARGS``."""
    argv = sys.argv
    sys.argv = ["tsolve", *args]
    try:
        with pytest.raises(SystemExit) as done:
            main()
    finally:
        sys.argv = argv
    out, err = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0), out, err


def run_cli(
    capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None, columns: int = 100
) -> subprocess.CompletedProcess[str]:
    """``tsolve ARGS`` in-process, shaped like ``subprocess.run``'s result.

    A test that checks what a command prints and returns (exit code, stdout,
    one-line stderr) gets the same answer in-process for a fraction of a
    second, where a subprocess pays the interpreter and import start-up (about
    1 s of CPU, 4 s for ``check-claims``) every call. ``stdin`` is the text
    the command reads for ``-``; ``columns`` is the terminal width. What only
    a real process shows (start-up, signals, pipes and FIFOs, hash seeds, the
    README's shell lines) stays a subprocess test (docs/testing.md)."""
    saved_stdin, saved_columns = sys.stdin, os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code, out, err = run_main(capsys, *args)
    finally:
        sys.stdin = saved_stdin
        if saved_columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved_columns
    return subprocess.CompletedProcess(["tsolve", *args], code, out, err)
