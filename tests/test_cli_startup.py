"""Start-up cost of the CLI, checked as *which modules get imported*.

``tsolve --help`` must not load numpy, pandas, OR-Tools, Z3 or matplotlib (the
optional ``plot`` extra, loaded only when a picture is drawn): they cost most
of a bare start (numpy alone was ~100 ms of ~290 ms). Each check runs in a fresh
interpreter, because this test process has long since imported everything.
No timing is asserted; the figures live in benchmarks/README.md.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("numpy", "pandas", "ortools", "z3", "matplotlib")

_REPORT = (
    "import sys; "
    f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}); "
    "print(' '.join(heavy))"
)


def _heavy_after(code: str) -> list[str]:
    """Top-level heavy packages (and submodules) loaded after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{_REPORT}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return out.stdout.split()


@pytest.mark.parametrize(
    "code",
    [
        "import tsolve",
        "import tsolve.cli.app",
        # The whole --help path: Typer builds every command and rich renders the help.
        "import contextlib, io, sys\n"
        "sys.argv = ['tsolve', '--help']\n"
        "from tsolve.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main()",
        "import contextlib, io, sys\n"
        "sys.argv = ['tsolve', 'puzzle', '--help']\n"
        "from tsolve.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main()",
        "import contextlib, io, sys\n"
        "sys.argv = ['tsolve', 'logistics', 'show', '--help']\n"
        "from tsolve.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main()",
    ],
    ids=["import-tsolve", "import-cli", "help", "puzzle-help", "logistics-show-help"],
)
def test_cli_start_loads_no_numeric_or_solver_package(code: str) -> None:
    assert _heavy_after(code) == []


def test_lazy_public_api_still_resolves() -> None:
    """The lazy ``tsolve.__getattr__`` hands out the real objects on first use."""
    loaded = _heavy_after(
        "import tsolve\n"
        "from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle\n"
        "assert tsolve.PuzzleConfig is PuzzleConfig\n"
        "assert tsolve.generate_puzzle is generate_puzzle\n"
        "assert callable(tsolve.solve) and callable(tsolve.verify)"
    )
    assert "numpy" in loaded  # the generators really were imported on demand
