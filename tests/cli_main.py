"""Run ``tsolve ARGS`` in-process through the real entry point.

``main`` turns a ``TsolveError`` into one line and exit 2, as a user sees
it; the tests of hostile input, batch rows and error messages all check that
path, so they share this one runner."""

from __future__ import annotations

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
