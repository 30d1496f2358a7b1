"""The ``tsolve`` Typer application.

Each command group lives in its own module and is a thin shell over a library
function; this module only wires them together and turns :class:`TsolveError`
into a one-line message with exit code 2.

Start-up matters here (``tsolve --help`` is run often), so the CLI modules
(a) import numpy, solvers and generators inside the command functions, never
at module level (tests/test_cli_startup.py checks this), and (b) do not use
``from __future__ import annotations``: Typer reads every command's signature
with ``get_type_hints`` on each start, and string annotations would be
compiled and evaluated there, about 10 % of a ``--help`` run.
"""

import contextlib
import sys
from typing import Any

import typer

from tsolve.errors import TsolveError

app = typer.Typer(
    name="tsolve",
    help="Constraint-solver-centric temporal reasoning tasks: generate, solve, verify.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"tsolve {version('tsolve')}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Constraint-solver-centric temporal reasoning tasks: generate, solve, verify."""


#: Command groups that belong to no one family (they work on all of them).
CORE_COMMANDS: tuple[str, ...] = (
    "tsolve.cli.verify_commands",
    "tsolve.cli.dataset_commands",
    "tsolve.cli.stress_commands",
    "tsolve.cli.bench_commands",
    "tsolve.cli.audit_commands",
    "tsolve.cli.families_commands",
    "tsolve.cli.calendar_commands",
    "tsolve.cli.predict_commands",
    "tsolve.cli.mcp_commands",
    "tsolve.cli.claims_commands",
    "tsolve.cli.report_commands",
    "tsolve.cli.export_commands",
)


def _register() -> None:
    """Attach each built-in family's own commands (its ``Family.cli``), then
    the core command groups. Families come from the one registry
    (:mod:`tsolve.families`); no entry-point scan here, see its docstring."""
    import importlib

    from tsolve.contract import builtin_families
    from tsolve.contract.family import resolve

    for family in builtin_families():
        if family.cli is not None:
            resolve(family.cli)(app)
    for module in CORE_COMMANDS:
        importlib.import_module(module).register(app)


_register()


# Click's exception base, found through Typer's public ``BadParameter``: Typer
# 0.29 vendors click privately (``typer._click``), older Typer uses click itself.
_CLICK_EXCEPTION: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)


def _readable_metavars(command: Any) -> None:
    """Blank the type Typer (0.29+) prints beside every flag (``--check <bool>``):
    a flag takes no value, so a type there reads as if it wanted one. Walks
    the command tree once, help options included (Typer caches each)."""
    for param in command.params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    get_help = getattr(command, "get_help_option", None)
    if get_help is not None:
        help_option = get_help(command.context_class(command))
        if help_option is not None and help_option.metavar is None:
            help_option.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        _readable_metavars(sub)


def command() -> Any:
    """The click command behind ``app``, with readable metavars: what
    :func:`main` runs (tests that drive ``app`` through Typer's runner get the
    same behaviour, only its help shows the flags' types)."""
    cmd = typer.main.get_command(app)
    _readable_metavars(cmd)
    return cmd


def main() -> None:
    """Console-script entry point: user errors become one line and exit 2.

    Click's standalone mode is off, so that its usage errors (a bad option
    value, an unknown command) come here too and get the same one-line form
    as everything the library raises as :class:`TsolveError`, instead of a
    multi-line box.
    """
    for stream in (sys.stdout, sys.stderr):
        # A lone surrogate in a model output cannot be encoded as UTF-8: print
        # it as its escape instead of dying mid-report (JSON output escapes it
        # itself, see tsolve.records.escape_surrogates).
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        code = command()(standalone_mode=False)
    except typer.Abort:  # end of input at a prompt
        typer.echo("aborted", err=True)
        sys.exit(130)
    except _CLICK_EXCEPTION as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `tsolve` or `tsolve logistics`
            typer.echo(exc.format_message())  # type: ignore[attr-defined]
            sys.exit(2)
        ctx = getattr(exc, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        typer.echo(f"error: {exc.format_message()}{hint}", err=True)  # type: ignore[attr-defined]
        sys.exit(getattr(exc, "exit_code", 2))
    except TsolveError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(getattr(exc, "exit_code", 2))  # 2; a dead pool worker (WorkerLost) is 3
    except FileNotFoundError as exc:
        typer.echo(f"error: file not found: {exc.filename}", err=True)
        sys.exit(2)
    except BrokenPipeError:  # e.g. `tsolve puzzle --count 1000 | head`
        sys.stderr.close()
        sys.exit(0)
    sys.exit(code if isinstance(code, int) else 0)
