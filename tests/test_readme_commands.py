"""The README's tour runs as written, and the docs name only commands and options that exist.

The README marks its tour blocks with the fence ```` ```bash tour ````. Their
commands run here in order, in one empty folder (``tests/fixtures`` linked in,
as in a fresh clone; no ``../shared``), through ``bash`` exactly as written:
pipes, redirections, ``python -c`` and all. ``tsolve`` and ``python`` are this
interpreter with this source tree, whatever is installed. A command left out
by design (:data:`LEFT_OUT`) still has its subcommand and options checked
against the CLI, as has every ``tsolve ...`` line in a code block of
``docs/*.md``: an option renamed or dropped fails here instead of in a
reader's terminal.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: Tour commands not run here, by the start of the command, and why. Their
#: options are still checked (:func:`test_left_out_commands_name_real_options`).
LEFT_OUT: dict[str, str] = {
    "pip install": "changes the environment and needs the package index",
    "inspect eval": "needs a hosted model and its API key, or for --model tsolve/gold half a "
    "minute of Inspect's start-up (tests/test_inspect_tasks.py and "
    "tests/test_inspect_offline_model.py run the tasks offline, in process)",
    "tsolve dataset time-puzzles --count 6000": "minutes of work (tests/test_dataset.py)",
    "tsolve stress": "one to several minutes (tests/test_stress.py, tests/test_fuzz.py)",
    "tsolve bench": "half a minute and more (tests/test_bench.py)",
}

#: Exact rewrites that keep a command's options but make its work small; the
#: commands after it read what it writes, so the flow is still checked.
SMALLER: dict[str, str] = {
    "tsolve puzzle --solutions 1-6 --count 600 ": "tsolve puzzle --solutions 1-6 --count 12 ",
    "tsolve dataset span --date 2024-03-01 --count 500 ": (
        "tsolve dataset span --date 2024-03-01 --count 40 "
    ),
    "tsolve dataset span --count 480 ": "tsolve dataset span --count 40 ",
    "tsolve dataset span --count 200 --seed 4 ": "tsolve dataset span --count 20 --seed 4 ",
}

#: Commands that exit non-zero on purpose, as the README says beside them.
EXIT_CODES: dict[str, int] = {
    "tsolve audit tests/fixtures/unseentimeqa_sample.jsonl": 1,  # 15 items are ambiguous
}

_FENCE = re.compile(r"^```bash tour\n(.*?)^```$", re.M | re.S)


def split_commands(block: str) -> list[str]:
    """Shell commands of a code block: a command goes on over a trailing
    backslash or an open quote (a multi-line ``python -c "..."``)."""
    commands, pending = [], ""
    for line in block.splitlines(keepends=True):
        pending += line
        if pending.rstrip("\n").endswith("\\"):
            continue
        try:
            words = shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        if words:
            commands.append(pending.strip())
        pending = ""
    assert not pending.strip(), f"unterminated command in README: {pending!r}"
    return commands


def tour_commands() -> list[str]:
    return [c for block in _FENCE.findall(README.read_text()) for c in split_commands(block)]


def printed_values(command: str) -> list[str]:
    """What a ``python -c`` snippet's ``print(...)  # VALUE`` lines promise,
    in order (a trailing ``(note)`` is not part of the value)."""
    return [
        re.sub(r"\s*\(.*\)$", "", m[1]).strip()
        for m in re.finditer(r"^print\(.*\)\s*#\s*(.+)$", command, re.M)
    ]


def _left_out(command: str) -> str | None:
    return next((why for start, why in LEFT_OUT.items() if command.startswith(start)), None)


def _shims(bin_dir: Path) -> None:
    """``tsolve`` and ``python`` on PATH: this interpreter, this source tree."""
    bin_dir.mkdir()
    for name, argv in (("tsolve", '"$PY" -m tsolve'), ("python", '"$PY"')):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nPY={shlex.quote(sys.executable)}\nexec {argv} "$@"\n')
        shim.chmod(0o755)


def test_the_tour_is_found() -> None:
    """The marker is in use: a README edit that drops it fails here, not silently."""
    commands = tour_commands()
    assert len(commands) > 40
    assert commands[0].startswith("tsolve puzzle")
    for start in LEFT_OUT:
        assert any(c.startswith(start) for c in commands), f"LEFT_OUT names no command: {start}"
    for old in [*SMALLER, *EXIT_CODES]:
        assert any(c.startswith(old.strip()) for c in commands), f"no such command: {old}"


def test_tour_runs_as_written(tmp_path: Path) -> None:
    work = tmp_path / "clone"
    work.mkdir()
    (work / "tests").mkdir()
    (work / "tests" / "fixtures").symlink_to(ROOT / "tests" / "fixtures")
    _shims(tmp_path / "bin")
    env = {
        **os.environ,
        "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "80",
    }
    failures = []
    for command in tour_commands():
        if _left_out(command):
            continue
        run = command
        for old, new in SMALLER.items():
            run = run.replace(old, new)
        proc = subprocess.run(
            ["bash", "-c", f"set -o pipefail\n{run}"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        expected = next((code for s, code in EXIT_CODES.items() if command.startswith(s)), 0)
        problems = []
        if proc.returncode != expected:
            problems.append(f"exit {proc.returncode}, expected {expected}")
        if "Traceback" in proc.stderr + proc.stdout:
            problems.append("a traceback")
        promised = printed_values(command)
        if promised and proc.stdout.splitlines() != promised:
            problems.append(f"printed {proc.stdout.splitlines()}, README says {promised}")
        if problems:
            failures.append(f"{command}\n  {'; '.join(problems)}\n  stderr: {proc.stderr[-600:]}")
    assert not failures, "README tour commands that fail as written:\n" + "\n".join(failures)


# ---- options of commands that are not run -------------------------------------


def _cli() -> Any:
    from tsolve.cli.app import command

    return command()


def check_invocation(argv: list[str]) -> list[str]:
    """Problems with ``tsolve ARGV``: an unknown subcommand or option. Values
    are not checked (they may be placeholders such as ``DATA...``)."""
    cmd, rest, path = _cli(), list(argv), ["tsolve"]
    while rest and hasattr(cmd, "commands") and not rest[0].startswith("-"):
        name = rest.pop(0)
        default = getattr(cmd, "default_command", None)  # `tsolve dataset FAMILY` = `make FAMILY`
        if name not in cmd.commands and default in cmd.commands:
            rest.insert(0, name)
            name = default
        if name not in cmd.commands:
            return [f"{' '.join(path)}: no subcommand {name!r}"]
        cmd = cmd.commands[name]
        path.append(name)
    known = {o for p in cmd.params for o in (*p.opts, *p.secondary_opts)} | {"--help"}
    problems = []
    for word in rest:
        if word.startswith("-") and word != "-" and not re.fullmatch(r"-\d.*", word):
            option = word.split("=", 1)[0]
            if option not in known:
                problems.append(f"{' '.join(path)}: no option {option}")
    return problems


def _tsolve_words(command: str) -> list[list[str]]:
    """The argument lists of each ``tsolve`` call in a shell command."""
    calls = []
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return []
    for i, word in enumerate(words):
        if word == "tsolve" and (i == 0 or words[i - 1] in {"&&", "||", ";", "|"}):
            args = []
            for w in words[i + 1 :]:
                if w in {"&&", "||", ";", "|", ">", "<", "2>", ">>"}:
                    break
                args.append(w)
            calls.append(args)
    return calls


def test_left_out_commands_name_real_options() -> None:
    problems = [
        p
        for c in tour_commands()
        if _left_out(c)
        for args in _tsolve_words(c)
        for p in check_invocation(args)
    ]
    assert not problems, problems


def test_printed_values_reads_the_comments() -> None:
    snippet = 'python -c "\nx = 1\nprint(x)  # 1\nprint(x / 2)    # 0.5 (a half)\n"'
    assert printed_values(snippet) == ["1", "0.5"]
    assert printed_values("tsolve puzzle --solutions 3  # one puzzle") == []


def test_check_invocation_can_fail() -> None:
    assert check_invocation(["puzzle", "--solutions", "3"]) == []
    assert check_invocation(["puzzle", "--output", "x"]) == ["tsolve puzzle: no option --output"]
    assert check_invocation(["tictoc", "scor"]) == ["tsolve tictoc: no subcommand 'scor'"]


def docs_commands() -> list[tuple[str, str]]:
    """``(file, command)`` for every line of a docs code block that calls ``tsolve``."""
    found = []
    fence = re.compile(r"^```[^\n]*\n(.*?)^```$", re.M | re.S)
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for block in fence.findall(doc.read_text()):
            for line in block.splitlines():
                if re.match(r"\s*(\$ )?tsolve ", line):
                    found.append((doc.name, line.strip().removeprefix("$ ")))
    return found


def test_docs_name_real_commands_and_options() -> None:
    commands = docs_commands()
    assert len(commands) > 20
    problems = []
    for doc, line in commands:
        # Synopsis lines write alternatives as ``[--format text|json]``: drop the brackets.
        for args in _tsolve_words(line.replace("[", " ").replace("]", " ")):
            problems += [f"{doc}: {p}" for p in check_invocation(args)]
    assert not problems, "\n".join(problems)
