"""The ``tsolve`` Typer application, in two builds of the same commands.

* :func:`lazy_command` is what ``tsolve`` runs: a root group that knows its
  commands from :mod:`tsolve.cli.command_table` and imports a command's module
  only when that command is asked for, so ``tsolve puzzle`` never imports
  (nor has Typer build) the other nineteen command modules.
* :func:`full_app` registers every command at once,
  the way the table is checked against (``tests/test_cli_lazy.py``) and what
  tests that drive the app with Typer's runner get.

The CLI modules import numpy, solvers and generators inside the command
functions, never at module level (``tests/test_cli_startup.py`` checks this),
and do not use ``from __future__ import annotations``: Typer reads every
command's signature with ``get_type_hints`` when it builds the command, and
string annotations would be compiled and evaluated there.
"""

import importlib
from typing import Any

import typer
from typer.core import TyperGroup

from tsolve.cli.command_table import CORE_COMMANDS, ROOT_HELP, commands, module_of
from tsolve.cli.plain_values import plain_first


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"tsolve {version('tsolve')}")
        raise typer.Exit()


def _root(
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Constraint-solver-centric temporal reasoning tasks: generate, solve, verify."""


def _root_app(cls: type[TyperGroup] | None = None) -> typer.Typer:
    """The root Typer app with its ``--version`` callback and no commands."""
    app = typer.Typer(
        name="tsolve",
        cls=cls,
        help=ROOT_HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_root)
    return app


def register_all(app: typer.Typer) -> None:
    """Attach each built-in family's own commands (its ``Family.cli``), then
    the core command groups. Families come from the one registry
    (:mod:`tsolve.contract`); no entry-point scan here, see its docstring."""
    from tsolve.contract import builtin_families
    from tsolve.contract.family import resolve

    for family in builtin_families():
        if family.cli is not None:
            resolve(family.cli)(app)
    for module in CORE_COMMANDS:
        importlib.import_module(module).register(app)


def full_app() -> typer.Typer:
    """A root Typer app with every command registered (the eager build)."""
    app = _root_app()
    register_all(app)
    return app


def click_command(app: typer.Typer) -> Any:
    """The click command of a Typer app as ``tsolve`` runs it: readable
    metavars, and option values coerced plain-first (:mod:`.plain_values`)."""
    return plain_first(readable_metavars(typer.main.get_command(app)))


def readable_metavars(command: Any) -> Any:
    """Blank the type Typer (0.29+) prints beside every flag (``--check <bool>``):
    a flag takes no value, so a type there reads as if it wanted one. Walks
    the command tree once, help options included (Typer caches each), and
    returns ``command``."""
    for param in command.params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    get_help = getattr(command, "get_help_option", None)
    if get_help is not None:
        help_option = get_help(command.context_class(command))
        if help_option is not None and help_option.metavar is None:
            help_option.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        readable_metavars(sub)
    return command


def commands_of(module: str, name: str | None = None) -> dict[str, Any]:
    """The click commands that ``module``'s ``register(app)`` defines, by name,
    built as the full app builds them (Typer's settings for commands registered
    on the root are the defaults the root uses too). With ``name``, only that
    one is built, when ``register`` names it: ``tsolve puzzle`` does not build
    ``solve``, the other command of its module (~1 ms of start-up)."""
    scratch = typer.Typer()
    importlib.import_module(module).register(scratch)
    if name is not None:
        _keep_only(scratch, name)
    group = plain_first(readable_metavars(typer.main.get_group(scratch)))
    return dict(group.commands)


def _keep_only(app: typer.Typer, name: str) -> None:
    """Drop ``app``'s registrations named other than ``name``. One registered
    without a name keeps its place: its name is Typer's to derive."""

    def kept(registered: Any) -> bool:
        return not isinstance(registered.name, str) or registered.name == name

    app.registered_commands = [c for c in app.registered_commands if kept(c)]
    app.registered_groups = [g for g in app.registered_groups if kept(g)]


class LazyTyperGroup(TyperGroup):
    """The root group: lists the table's commands, and builds a command (by
    importing its module) the first time it is asked for. Click's documented
    pattern for lazy subcommands (``list_commands`` / ``get_command``).

    Built commands are kept in ``self.commands``, the group's own dict, as an
    eager group keeps them. A name that is not in the table (a typo) loads
    every command first, so Typer's "Did you mean ...?" sees them all."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [entry.name for entry in commands()]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands:
            module = module_of(cmd_name)
            if module is None:
                return None
            self.commands.update(commands_of(module, cmd_name))
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and module_of(args[0]) is None:
            for entry in commands():
                self.get_command(ctx, entry.name)
        return super().resolve_command(ctx, args)


def lazy_command() -> Any:
    """The click command ``tsolve`` runs: the root with lazily built commands."""
    return click_command(_root_app(LazyTyperGroup))


# Click's exception base, found through Typer's public ``BadParameter``: Typer
# 0.29 vendors click privately (``typer._click``), older Typer uses click itself.
CLICK_EXCEPTION: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)
