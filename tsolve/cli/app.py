"""The ``tsolve`` entry point: :func:`main` runs the command line, turning
:class:`TsolveError` and click's usage errors into a one-line message.

Start-up matters here (``tsolve --help`` and ``tsolve puzzle`` are what people
run first; docs/startup.md has the figures), so this module imports no Typer
or rich at load:

* ``tsolve --help`` (and a bare ``tsolve``) print the root help from the
  command table (:mod:`tsolve.cli.root_help`), without Typer;
* every other command line runs the lazy Typer root
  (:func:`tsolve.cli.typer_app.lazy_command`), which imports only the module
  of the command asked for.

Each command group lives in its own module (``*_commands.py``) and is a thin
shell over a library function; :mod:`tsolve.cli.typer_app` wires them
together (and says why the command modules import little at load).

``app`` (the Typer app with every command registered) and :func:`command`
(its click command) stay here for code that drives the CLI in process;
``app`` is built on first access (a module ``__getattr__``), then kept as the
module attribute it always was.
"""

import contextlib
import sys
from typing import Any


def __getattr__(name: str) -> Any:
    """``app``: the full Typer app, built on first use and then kept in the
    module's namespace (so every importer gets the same object)."""
    if name == "app":
        from tsolve.cli.typer_app import full_app

        app = full_app()
        globals()["app"] = app
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def command() -> Any:
    """The click command behind ``app`` (every command registered), as
    :func:`main` runs commands: readable metavars, plain-first option values
    (:func:`tsolve.cli.typer_app.click_command`). :func:`main` runs the lazy
    root instead, which builds the same commands one at a time; tests that
    drive ``app`` through Typer's runner get the same behaviour, only its help
    shows the flags' types."""
    from tsolve.cli.typer_app import click_command

    built = globals().get("app")
    return click_command(built if built is not None else __getattr__("app"))


def _is_root_help(args: list[str]) -> bool:
    """Whether ``tsolve ARGS`` only asks for the root help: ``tsolve --help``,
    or a bare ``tsolve`` (which prints the help and exits 2, as Typer's
    ``no_args_is_help`` does)."""
    return args in ([], ["--help"])


def one_blas_thread() -> None:
    """Ask OpenBLAS for one thread, unless the user set a number: before
    numpy loads, for this process and the workers it starts.

    tsolve does no linear algebra (its masks are bit operations and
    popcounts), yet numpy's OpenBLAS starts a thread per core when it loads,
    and they spin for a while: about 100 ms of CPU on every command, more
    than the puzzle itself, and on a busy machine CPU the command's own thread
    waits for (docs/startup.md). ``tsolve dataset --workers N`` paid it N
    times over. Only the command line does this: a program that imports
    tsolve keeps its own setting."""
    import os

    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


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
    args = sys.argv[1:]
    if _is_root_help(args):
        from tsolve.cli.root_help import print_root_help

        try:
            print_root_help()
        except BrokenPipeError:  # `tsolve --help | head -3`
            sys.stderr.close()
        sys.exit(0 if args else 2)

    one_blas_thread()
    import typer

    from tsolve.cli.typer_app import CLICK_EXCEPTION, lazy_command
    from tsolve.errors import TsolveError

    try:
        code = lazy_command()(args, standalone_mode=False)
    except typer.Abort:  # end of input at a prompt
        typer.echo("aborted", err=True)
        sys.exit(130)
    except CLICK_EXCEPTION as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `tsolve` or `tsolve logistics`
            typer.echo(exc.format_message())  # type: ignore[attr-defined]
            sys.exit(2)
        ctx = getattr(exc, "ctx", None)
        # The path the user typed: a group with an implied subcommand
        # (``tsolve dataset FAMILY``) records it in ctx.meta.
        path = ctx.meta.get("tsolve.help_path", ctx.command_path) if ctx is not None else None
        hint = f" (see '{path} --help')" if path else ""
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
