"""Run ``tsolve ARGS`` in-process through the real entry point.

``main`` turns a ``TsolveError`` into one line and exit 2, as a user sees
it; the tests of hostile input, batch rows and error messages all check that
path, so they share this one runner."""

from __future__ import annotations

import io
import json
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


#: Packages whose import the start-up tests watch for (docs/startup.md).
HEAVY = ("typer", "click", "rich", "pydantic", "numpy", "ortools", "pandas")


def modules_after(argv: list[str]) -> dict[str, list[str]]:
    """What a fresh interpreter has imported after running ``tsolve ARGV``
    through the real entry point: ``cli``, the tsolve CLI modules; ``heavy``,
    the packages of :data:`HEAVY`; ``metadata``, ``importlib.metadata`` if it
    was imported (pydantic's plug-in lookup brings it)."""
    code = (
        "import contextlib, io, json, sys\n"
        f"sys.argv = ['tsolve', *{argv!r}]\n"
        "from tsolve.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main()\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps({\n"
        "    'cli': sorted(m for m in sys.modules if m.startswith('tsolve.cli.')),\n"
        "    'heavy': sorted({m.split('.')[0] for m in sys.modules} & set(heavy)),\n"
        "    'metadata': [m for m in ('importlib.metadata',) if m in sys.modules],\n"
        "}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)  # fmt: skip
    return json.loads(out.stdout.splitlines()[-1])
