"""The lazy CLI root: the command table cannot go stale,
the root help printed without Typer is Typer's page, every command reached
lazily is the command the eager app builds, and the fast paths import what
they should (checked as ``sys.modules`` in a fresh interpreter, never as
timings; the figures are in docs/startup.md)."""

from __future__ import annotations

import inspect
import sys

import pytest
import typer
from cli_main import modules_after, run_cli

from tsolve.cli import command_table, root_help
from tsolve.cli.app import command
from tsolve.cli.typer_app import CORE_COMMANDS, commands_of


def _first_paragraph(cmd: object) -> str:
    """What Typer's rich help shows beside a command in its parent's list."""
    text = getattr(cmd, "short_help", None) or getattr(cmd, "help", None) or ""
    return inspect.cleandoc(text).split("\n\n")[0].strip()


def test_table_matches_the_eagerly_registered_commands() -> None:
    full = command()
    names = full.list_commands(None)
    assert names == [entry.name for entry in command_table.COMMANDS]
    for entry in command_table.COMMANDS:
        real = full.commands[entry.name]
        assert entry.help == _first_paragraph(real), entry.name
        # Typer keeps a line break of a command's first paragraph in the list,
        # which breaks the page mid-sentence: one line each.
        assert "\n" not in entry.help, entry.name
        assert not real.hidden and not real.deprecated, entry.name
    # Each command lives in the module the table names (and nowhere else).
    modules = {entry.module for entry in command_table.COMMANDS}
    assert set(CORE_COMMANDS) <= modules
    defined = {name: module for module in modules for name in commands_of(module)}
    assert defined == {entry.name: entry.module for entry in command_table.COMMANDS}


def test_table_root_help_and_options_match_the_root() -> None:
    full = command()
    assert full.help == command_table.ROOT_HELP
    ctx = full.context_class(full)
    options = [(p.opts[0], p.help) for p in full.get_params(ctx)]
    assert options == list(command_table.ROOT_OPTIONS)


def _eager_output(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                  args: list[str], columns: int) -> str:  # fmt: skip
    """What the eagerly built root prints for ``args`` (a help page)."""
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(sys, "argv", ["tsolve", *args])
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        command().main(args)
    assert done.value.code in (0, None)
    out = capsys.readouterr().out
    monkeypatch.delenv("COLUMNS")
    return out


@pytest.mark.parametrize("columns", [35, 52, 80, 200])
def test_root_help_without_typer_is_typers_page(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    expected = _eager_output(capsys, monkeypatch, ["--help"], columns)
    assert run_cli(capsys, "--help", columns=columns).stdout == expected
    bare = run_cli(capsys, columns=columns)
    assert (bare.returncode, bare.stdout) == (2, expected)  # a bare `tsolve`: help, exit 2


def test_root_help_colours_only_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = root_help.render_root_help(80, "tsolve")
    coloured = root_help.render_root_help(80, "tsolve", colour=True)
    assert "\x1b[" not in plain and "\x1b[1;36mpuzzle\x1b[0m" in coloured
    # Without its escapes the coloured page is the plain one.
    assert root_help.re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not root_help.use_colour(sys.stdout)


def test_wrap_breaks_as_rich_does() -> None:
    assert root_help.wrap("aa bb  cc", 5) == ["aa bb", "cc"]
    assert root_help.wrap("one\ntwo three", 20) == ["one", "two three"]
    assert root_help.wrap("abcdefgh ij", 3) == ["abc", "def", "gh", "ij"]
    assert root_help.wrap("abcdefgh ij", 3, fold=False) == ["ab…", "ij"]


@pytest.mark.parametrize("name", [entry.name for entry in command_table.COMMANDS])
def test_each_command_reached_lazily_is_the_eager_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    expected = _eager_output(capsys, monkeypatch, [name, "--help"], 100)
    lazy = run_cli(capsys, name, "--help", columns=100)
    assert (lazy.returncode, lazy.stdout) == (0, expected)


def test_typo_still_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    res = run_cli(capsys, "puzzel")
    assert res.returncode == 2
    assert res.stderr.startswith("error: No such command 'puzzel'. Did you mean 'puzzle'? ")


def test_root_help_imports_no_typer_rich_or_numpy() -> None:
    loaded = modules_after(["--help"])
    assert loaded["cli"] == ["tsolve.cli.app", "tsolve.cli.command_table", "tsolve.cli.root_help"]
    assert loaded["heavy"] == []


def test_a_command_imports_only_its_own_module() -> None:
    loaded = modules_after(["calendar", "convert", "2024-03-01", "--to", "hebrew"])
    assert loaded["cli"] == [
        "tsolve.cli.app",
        "tsolve.cli.calendar_commands",
        "tsolve.cli.command_table",
        "tsolve.cli.output",
        "tsolve.cli.plain_values",
        "tsolve.cli.typer_app",
    ]
    assert typer.__name__ in loaded["heavy"]


def test_a_command_is_built_alone() -> None:
    """Asking the lazy root for ``puzzle`` builds ``puzzle``, not ``solve``
    (registered by the same module); ``solve`` is built when asked for."""
    from tsolve.cli.typer_app import lazy_command

    root = lazy_command()
    ctx = root.make_context("tsolve", ["puzzle"], resilient_parsing=True)
    assert root.get_command(ctx, "puzzle").name == "puzzle"
    assert sorted(root.commands) == ["puzzle"]
    assert root.get_command(ctx, "solve").name == "solve"
    assert sorted(root.commands) == ["puzzle", "solve"]
    assert sorted(commands_of("tsolve.cli.calendar_commands", "calendar")) == ["calendar"]
