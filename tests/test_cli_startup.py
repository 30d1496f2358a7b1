"""Start-up cost of the CLI, checked as *which modules get imported*.

``tsolve --help`` must not load numpy, pandas, OR-Tools, Z3 or matplotlib (the
optional ``plot`` extra, loaded only when a picture is drawn): they cost most
of a bare start (numpy alone was ~100 ms of ~290 ms). Each check runs in a fresh
interpreter, because this test process has long since imported everything.
No timing is asserted; the figures live in docs/startup.md and benchmarks/results/.
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
        # The whole --help path (printed from the command table, tests/test_cli_lazy.py).
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


def test_public_names_are_the_engine_s_and_the_built_in_families_exports() -> None:
    """Every name of ``tsolve.__all__`` resolves: the engine's own table, or a
    built-in family's ``exports`` part, each of which ``__all__`` lists."""
    import tsolve
    from tsolve.contract.family import resolve
    from tsolve.contract.registry import builtin_families

    declared = {n: p for f in builtin_families() for n, p in f.exports.items()}
    assert declared, "no built-in family exports a public name"
    assert sorted(tsolve.__all__) == sorted({*tsolve._EXPORTS, *declared})
    for name, part in declared.items():
        assert getattr(tsolve, name) is resolve(part)
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        _ = tsolve.not_a_name


def test_import_tsolve_reads_no_family_declaration() -> None:
    """The families' exports are found in the registry on first use only:
    neither ``import tsolve`` nor importing one of its submodules loads it."""
    families = ("tsolve.contract.registry", "tsolve.families.time_puzzles.family")
    code = (
        "import sys, tsolve\n"
        "from tsolve import records\n"
        f"print(' '.join(m for m in {families!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)  # fmt: skip
    assert out.stdout.split() == []


def _loaded_after(code: str, packages: tuple[str, ...]) -> list[str]:
    """Which of the top-level ``packages`` are in ``sys.modules`` after ``code``."""
    report = f"import sys; print(' '.join(p for p in {packages!r} if p in sys.modules))"
    out = subprocess.run([sys.executable, "-c", f"{code}\n{report}"], capture_output=True,
                         text=True, check=True, timeout=120)  # fmt: skip
    return out.stdout.split()


def test_first_puzzle_is_certified_without_pandas() -> None:
    """`tsolve puzzle --solutions 3` certifies with CP-SAT (the record says so)
    but does not import pandas, which ortools' cp_model imports at load and
    which was ~410 ms of the command's ~850."""
    code = (
        "import contextlib, io, json, sys\n"
        "sys.argv = ['tsolve', 'puzzle', '--solutions', '3', '--format', 'json']\n"
        "from tsolve.cli.app import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "rec = json.loads(buf.getvalue())\n"
        "assert rec['solver']['backend'] == 'cpsat' and len(rec['answers']) == 3, rec"
    )
    loaded = _loaded_after(code, ("pandas", "ortools", "z3", "matplotlib", "hypothesis"))
    assert loaded == ["ortools"]


def test_cp_model_pandas_helpers_still_give_real_pandas() -> None:
    """The stand-in defers pandas, it does not remove it: cp_model's
    ``*_series`` helpers import the real pandas on first use."""
    code = (
        "import sys\n"
        "from tsolve.solver.ortools_import import load_cp_model\n"
        "cp = load_cp_model()\n"
        "assert 'pandas' not in sys.modules\n"
        "import pandas as pd\n"
        "m = cp.CpModel()\n"
        "s = m.new_int_var_series('v', pd.Index(['a', 'b']), 0, 5)\n"
        "assert type(s) is pd.Series and len(s) == 2\n"
        "try:\n"
        "    m.new_int_var_series('w', ['not', 'an', 'index'], 0, 5)\n"
        "except TypeError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('a list passed as an index')\n"
        "assert isinstance(pd.Series([1]), cp.pd.Series)"
    )
    assert _loaded_after(code, ("pandas",)) == ["pandas"]


def test_cp_model_uses_pandas_itself_when_already_loaded() -> None:
    code = (
        "import pandas\n"
        "from tsolve.solver.ortools_import import load_cp_model\n"
        "assert load_cp_model().pd is pandas"
    )
    assert _loaded_after(code, ("pandas",)) == ["pandas"]


#: Modules the first puzzle does without (docs/startup.md, "round 2"): each
#: was measured on its path and moved off it, or made to load on first use.
NOT_ON_THE_PUZZLE_PATH = (
    "tsolve.records.rows",  # the record reader: the generator needs only field checks
    "rich._emoji_codes",  # rich's emoji table: the text output prints Text, not markup
    "importlib.resources",  # the packaged data files are read next to their module
    "importlib.readers",
    "zipfile",
)


def test_first_puzzle_in_text_loads_none_of_what_it_does_not_need() -> None:
    code = (
        "import contextlib, io, sys\n"
        "sys.argv = ['tsolve', 'puzzle', '--solutions', '3']\n"
        "from tsolve.cli.app import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "assert 'Answers: ' in buf.getvalue(), buf.getvalue()"
    )
    assert _loaded_after(code, NOT_ON_THE_PUZZLE_PATH) == []


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_the_command_line_asks_openblas_for_one_thread_unless_told(
    given: str | None, expected: str
) -> None:
    """tsolve does no linear algebra, so its commands load numpy with one
    OpenBLAS thread (cli/app.one_blas_thread); a user's own setting wins."""
    import os

    code = (
        "import contextlib, io, os, sys\n"
        "sys.argv = ['tsolve', 'calendar', '--help']\n"
        "from tsolve.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
        timeout=120,
    )  # fmt: skip
    assert out.stdout.split()[-1] == expected
