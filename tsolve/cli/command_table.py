"""The table of tsolve's top-level commands: name, the module that defines it,
and its one-line help, in the order ``tsolve --help`` lists them.

Why a table: ``tsolve --help`` and ``tsolve puzzle`` are the commands people
run most, and importing all twenty command modules (and building every
command's options with Typer) to print a list of names, or to run one of
them, was most of their start-up (docs/startup.md). With the table, the root
knows each command without importing it; a command's module is imported when
that command runs (:class:`tsolve.cli.typer_app.LazyTyperGroup`), and the
root help is printed from the table alone (:mod:`tsolve.cli.root_help`).

This module imports nothing but the family declarations (no family's code),
so it costs next to nothing to read. It can never go stale silently:
``tests/test_cli_lazy.py`` builds every command the eager way
(each family's ``Family.cli``, then :data:`CORE_COMMANDS`) and holds the
names, order, modules and help texts equal to this table.
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: The root's help: the first line of ``tsolve --help``.
ROOT_HELP = "Constraint-solver-centric temporal reasoning tasks: generate, solve, verify."

#: The root's own options, as ``tsolve --help`` lists them: (flag, help).
ROOT_OPTIONS: tuple[tuple[str, str], ...] = (
    ("--version", "Print the version and exit."),
    ("--help", "Show this message and exit."),
)

#: Command groups that belong to no one family (they work on all of them);
#: each module's ``register(app)`` adds its commands. The families' own
#: command modules are named by each family's ``Family.cli``.
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
    "tsolve.cli.import_commands",
    "tsolve.cli.rl_commands",
)


class CommandEntry(NamedTuple):
    """One top-level command: its name, the module whose ``register(app)``
    defines it, and the help shown beside it in ``tsolve --help`` (the first
    paragraph of the command's help; Typer keeps its line breaks, so each is one line)."""

    name: str
    module: str
    help: str


#: The core commands, in the order of ``tsolve --help``: Typer lists single
#: commands (the families' first, then these) before groups (the families',
#: then these). The families' own commands are each family's
#: ``Family.commands`` (:func:`commands`).
CORE_SINGLE: tuple[CommandEntry, ...] = (
    CommandEntry(
        "verify",
        "tsolve.cli.verify_commands",
        "Score model outputs: EM / F1 / Jaccard (puzzles) or accuracy, with a symbolic diagnosis.",
    ),
    CommandEntry(
        "stress",
        "tsolve.cli.stress_commands",
        "Property-check N generated tasks with randomised generator settings.",
    ),
    CommandEntry(
        "bench",
        "tsolve.cli.bench_commands",
        "Measure throughput, with ratios against peers timed in alternation.",
    ),
    CommandEntry(
        "audit",
        "tsolve.cli.audit_commands",
        "Audit each item's gold: ok, ambiguous or inconsistent (with the proof).",
    ),
    CommandEntry(
        "families",
        "tsolve.cli.families_commands",
        "List the registered task families: built-in and from installed packages.",
    ),
    CommandEntry(
        "predict",
        "tsolve.cli.predict_commands",
        'Write example predictions {"id", "output"} for RECORDS, ready for `tsolve verify`.',
    ),
    CommandEntry(
        "mcp",
        "tsolve.cli.mcp_commands",
        "Serve tsolve's agent tools to an MCP client over stdio (see docs/mcp.md).",
    ),
    CommandEntry(
        "check-claims",
        "tsolve.cli.claims_commands",
        "Check the date claims in TEXT|FILE: weekdays, leap years, dates across calendars.",
    ),
    CommandEntry(
        "report",
        "tsolve.cli.report_commands",
        "Accuracy and tool use by task, condition, style and M over Inspect logs.",
    ),
    CommandEntry(
        "serve-rewards",
        "tsolve.cli.rl_commands",
        "Serve rewards over HTTP: OpenRLHF's /get_reward, a batch /score, /health (docs/rl.md).",
    ),
)

CORE_GROUPS: tuple[CommandEntry, ...] = (
    CommandEntry(
        "dataset",
        "tsolve.cli.dataset_commands",
        "Write datasets (tsolve dataset FAMILY --count N --out FILE) and check two for "
        "shared content (tsolve dataset overlap TRAIN EVAL).",
    ),
    CommandEntry(
        "calendar",
        "tsolve.cli.calendar_commands",
        "Convert dates between calendars and resolve festivals.",
    ),
    CommandEntry(
        "export",
        "tsolve.cli.export_commands",
        "Write a tsolve run as a task of another evaluator (lm-evaluation-harness) or as an RL "
        "trainer's train and test files (TRL, verl, OpenRLHF).",
    ),
    CommandEntry(
        "import",
        "tsolve.cli.import_commands",
        "Read another benchmark's published release into tsolve records (Time Puzzles).",
    ),
)


def commands() -> tuple[CommandEntry, ...]:
    """Every top-level command, in the order of ``tsolve --help``: the
    built-in families' single commands, the core ones, the families' groups,
    the core groups. A family's commands are its ``Family.commands``, in the
    module its ``Family.cli`` names (read from the declarations alone: no
    family code is imported, and no entry point is scanned)."""
    global _COMMANDS
    if _COMMANDS is None:
        from tsolve.contract import builtin_families
        from tsolve.contract.family import Lazy

        singles: list[CommandEntry] = []
        groups: list[CommandEntry] = []
        for family in builtin_families():
            cli = family.cli
            module = cli.module if isinstance(cli, Lazy) else getattr(cli, "__module__", "")
            for cmd in family.commands:
                (groups if cmd.group else singles).append(CommandEntry(cmd.name, module, cmd.help))
        _COMMANDS = (*singles, *CORE_SINGLE, *groups, *CORE_GROUPS)
    return _COMMANDS


_COMMANDS: tuple[CommandEntry, ...] | None = None


def __getattr__(name: str) -> Any:
    # ``COMMANDS``, the table itself, is built on first use (:func:`commands`).
    if name == "COMMANDS":
        return commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def module_of(name: str) -> str | None:
    """The module that defines top-level command ``name``, or None. A core
    command is found without reading the family declarations (a core
    command's start-up does not pay for the registry)."""
    for entry in (*CORE_SINGLE, *CORE_GROUPS):
        if entry.name == name:
            return entry.module
    for entry in commands():
        if entry.name == name:
            return entry.module
    return None
