"""The ``tsolve`` Typer application.

Each command group lives in its own module and is a thin shell over a library
function; this module only wires them together and turns :class:`TsolveError`
into a one-line message with exit code 2.
"""

from __future__ import annotations

import sys

import typer

from tsolve.errors import TsolveError

app = typer.Typer(
    name="tsolve",
    help="Constraint-solver-centric temporal reasoning tasks: generate, solve, verify.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Constraint-solver-centric temporal reasoning tasks: generate, solve, verify."""


def _register() -> None:
    """Attach the command groups. Imports are local so a broken optional group
    cannot stop the others from loading at import time of this module."""
    from tsolve.cli import puzzle_commands

    puzzle_commands.register(app)
    __import__("tsolve.cli.calendar_commands", fromlist=["register"]).register(app)
    __import__("tsolve.cli.span_commands", fromlist=["register"]).register(app)
    __import__("tsolve.cli.logistics_commands", fromlist=["register"]).register(app)
    __import__("tsolve.cli.dataset_commands", fromlist=["register"]).register(app)
    __import__("tsolve.cli.stress_commands", fromlist=["register"]).register(app)
    __import__("tsolve.cli.bench_commands", fromlist=["register"]).register(app)
    # A new family adds one line: its cli module's register(app).


_register()


def main() -> None:
    """Console-script entry point: user errors become one line and exit 2.

    Typer's standalone mode already handles usage errors (exit 2) and Ctrl-C;
    everything the library raises as :class:`TsolveError` is caught here.
    """
    try:
        app()
    except TsolveError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except FileNotFoundError as exc:
        typer.echo(f"error: file not found: {exc.filename}", err=True)
        sys.exit(2)
    except BrokenPipeError:  # e.g. `tsolve puzzle --count 1000 | head`
        sys.stderr.close()
        sys.exit(0)
