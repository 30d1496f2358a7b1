"""tsolve's agent tools as Inspect tools (``@tool``), for the tool conditions.

Each tool here is the function ``tsolve mcp`` serves (:mod:`tsolve.adapters.agent_tools`),
with its parameters described for the model and its JSON result returned as
text. Nothing is computed here, so an Inspect run and an MCP client get the
same answers.

A bad call never ends a sample: tsolve's one-line
:class:`~tsolve.errors.TsolveError` becomes Inspect's
:class:`~inspect_ai.tool.ToolError`, which Inspect hands back to the model as
the tool's error result, and anything else a tool raises (a tsolve bug) is
reported the same way as an ``internal error`` line. Arguments of the wrong
JSON type never reach these functions: Inspect checks them against the schema
and returns its own parsing error to the model.

The paper's tool sets (:data:`TOOL_SETS`):

* ``calendar``: ``search_calendar`` with SPAN's own schema (``{calendar_name,
  year, month, day}`` or ``{calendar_name, year, festival_name}``), plus the
  narrower ``convert_date`` and ``festival_date``;
* ``knowledge``: ``lookup_knowledge``, the offline stand-in for web search
  (a name in, dates and sources out; no tool takes a set of facts);
* ``code``: Inspect's own ``python()`` tool, run in the task's sandbox, behind
  a guard (:func:`guarded_python`): Inspect's own ``--sandbox``, its
  ``INSPECT_EVAL_SANDBOX`` variable and a ``.env`` file in any parent folder
  all replace the sandbox a task declares, so each call checks the sandbox
  Inspect actually gives it and stops the run unless it is the declared one.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.tool import Tool, ToolDef, ToolError, python, tool
from inspect_ai.util import SandboxEnvironment, display_type, registry_info, sandbox

from tsolve.adapters import agent_tools
from tsolve.errors import INTERNAL, TsolveError

#: Seconds one ``python()`` call may run.
PYTHON_TIMEOUT = 60

#: The sandbox the code tool requires when nothing else is declared: the one
#: that confines the model's code.
DEFAULT_SANDBOX = "docker"

#: The sample-metadata key naming the sandbox that ran the model's code (the
#: condition's ``sandbox`` is the one asked for).
SANDBOX_IN_EFFECT = "sandbox_in_effect"

#: How a user opts in to running the model's code on the host.
LOCAL_OPT_IN = "-T sandbox=local"

logger = logging.getLogger(__name__)


def _call(name: str, fn: Callable[..., dict[str, Any]], *args: Any) -> str:
    """``fn(*args)`` as JSON text; every failure as a one-line ToolError."""
    try:
        result = fn(*args)
    except TsolveError as exc:
        raise ToolError(str(exc)) from exc
    except Exception as exc:  # a tsolve bug: the model sees one line, the log the traceback
        logger.exception("tool %s failed unexpectedly", name)
        raise ToolError(" ".join(f"{INTERNAL}: {type(exc).__name__}: {exc}".split())) from exc
    return json.dumps(result, ensure_ascii=False)


@tool
def search_calendar() -> Tool:
    """SPAN's search_calendar (see the module docstring)."""

    async def execute(
        calendar_name: str,
        year: int,
        month: int | str | None = None,
        day: int | None = None,
        festival_name: str | None = None,
    ) -> str:
        """Convert a date or a festival in one calendar to the same day in every calendar.

        Two schemas: {calendar_name, year, month, day} for a date, or
        {calendar_name, year, festival_name} for a festival in that year of that
        calendar (a Gregorian year lists every occurrence in it). Returns one entry
        per day: its ISO date, weekday, and the date in each calendar.

        Args:
            calendar_name: Calendar: gregorian, chinese, hebrew, islamic, islamic-umalqura, persian or shaka; SPAN's names ('Chinese lunar calendar') also work.
            year: Year in the calendar named.
            month: Date schema: month number or name (1, 'Nisan', 'Adar II'); a Chinese leap month as 'L4'.
            day: Date schema: day of the month.
            festival_name: Festival schema, instead of month and day: e.g. 'Chinese New Year', 'Eid al-Fitr', 'Nowruz'.
        """  # noqa: E501
        return _call(
            "search_calendar", agent_tools.search_calendar, calendar_name, year, month, day,
            festival_name,
        )  # fmt: skip

    return execute


@tool
def convert_date() -> Tool:
    """One date from one calendar to others."""

    async def execute(
        date: str, from_calendar: str = "gregorian", to_calendars: list[str] | None = None
    ) -> str:
        """Convert one date from one calendar to one, several or all other calendars.

        Args:
            date: Y-M-D in from_calendar; the month may be a name ('5784-Adar II-14') or a Chinese leap month ('2023-L2-15'). Gregorian is ISO (2024-04-23).
            from_calendar: Calendar of date (default gregorian).
            to_calendars: Target calendars (default: all).
        """  # noqa: E501
        return _call("convert_date", agent_tools.convert_date, date, from_calendar, to_calendars)

    return execute


@tool
def festival_date() -> Tool:
    """A festival's days in a year."""

    async def execute(festival_name: str, year: int, year_calendar: str = "gregorian") -> str:
        """The day(s) of a festival in a year, with its rule, as ISO date, weekday and the date in the Gregorian and the festival's own calendar.

        Args:
            festival_name: Festival, e.g. 'Mid-Autumn Festival', 'Passover'.
            year: Year, of year_calendar.
            year_calendar: gregorian (every occurrence in that year) or the festival's own calendar (exactly one day).
        """  # noqa: E501
        return _call("festival_date", agent_tools.festival_date, festival_name, year, year_calendar)

    return execute


@tool
def lookup_knowledge() -> Tool:
    """The knowledge base by name: the offline stand-in for web search."""

    async def execute(name: str, kind: str | None = None) -> str:
        """Look up dates in a knowledge base: a person's birth and death, a US president's terms, a historical event's dates, a sporting event's editions, each with its source.

        Args:
            name: A person ('Michael Jackson'), US president ('Obama'), historical event ('the fall of the Berlin Wall') or sporting event ('Summer Olympics').
            kind: Optional: person, office, event or edition.
        """  # noqa: E501
        return _call("lookup_knowledge", agent_tools.lookup_knowledge, name, kind)

    return execute


def calendar_tools() -> list[Tool]:
    """The ``calendar`` condition's tools."""
    return [search_calendar(), convert_date(), festival_date()]


def knowledge_tools() -> list[Tool]:
    """The ``knowledge`` condition's tool."""
    return [lookup_knowledge()]


class SandboxRefused(TsolveError):
    """The code tool was given a sandbox other than the one the task declared.

    Not a :class:`~inspect_ai.tool.ToolError`: the model must not be told and
    carry on; the sample fails and, under Inspect's default ``fail_on_error``,
    the run stops with this message."""


def sandbox_in_effect() -> str:
    """The type of the sandbox Inspect gives this sample (``docker``,
    ``local``, a plug-in's name), which is the one ``python()`` runs in: its
    default environment, unwrapped from Inspect's event-recording proxy.
    ``none`` outside a sandbox."""
    try:
        # as_type returns what the proxy wraps; any environment is a SandboxEnvironment
        env = sandbox().as_type(SandboxEnvironment)  # type: ignore[type-abstract]
    except (ProcessLookupError, ValueError):
        return "none"
    try:
        name = registry_info(type(env)).name
    except ValueError:  # a class Inspect did not register: name it by its class
        return type(env).__name__
    return name.rsplit("/", 1)[-1]  # "inspect_ai/docker" -> "docker"


def check_sandbox(declared: str) -> str:
    """The sandbox in effect, if it is ``declared``; else :class:`SandboxRefused`,
    said on stderr too when Inspect's display is off
    (:func:`say_when_display_is_off`).

    The sample's metadata records the sandbox in effect either way
    (:data:`SANDBOX_IN_EFFECT`); when it is ``local`` (opted in), the sample's
    log says that the code ran unconfined."""
    actual = sandbox_in_effect()
    state = _sample_state()
    first = state is not None and SANDBOX_IN_EFFECT not in state.metadata
    if state is not None:
        state.metadata[SANDBOX_IN_EFFECT] = actual
    if actual != declared:
        message = refusal(declared, actual)
        say_when_display_is_off(message)
        raise SandboxRefused(message)
    if actual == "local" and first:
        transcript().info(local_warning(), source="tsolve")
    return actual


def say_when_display_is_off(message: str) -> None:
    """``message`` on stderr under ``--display none``, where Inspect's display
    shows neither a run's error nor its own one-line prerequisite errors, so a
    run would stop with no reason given. (Other displays show it themselves.)"""
    if display_type() == "none":
        print(message, file=sys.stderr, flush=True)


def refusal(declared: str, actual: str) -> str:
    """Why the code tool refuses to run, and the way out: one line."""
    if actual == "none":
        return (
            f"tsolve: the code tool refuses to run: the task declared sandbox {declared!r}, "
            "but the sample has none; run the task with its own sandbox."
        )
    text = (
        f"tsolve: the code tool refuses to run: the task declared sandbox {declared!r}, "
        f"but Inspect gave it {actual!r} (set by --sandbox or eval(sandbox=...), "
        "INSPECT_EVAL_SANDBOX, or a .env file in this or a parent folder)"
    )
    if actual == "local":
        return (
            f"{text}; the model's code would run on this machine, unconfined. "
            f"Remove that setting, or opt in with {LOCAL_OPT_IN}."
        )
    return f"{text}. Remove that setting; tsolve runs the code in docker, or local when opted in."


def local_warning() -> str:
    """The warning an opted-in ``local`` sandbox gets, on the console and in the log."""
    return (
        "tsolve: sandbox=local runs the model's Python code on this machine, "
        "unconfined; use it only with trusted (e.g. scripted) models"
    )


def _sample_state() -> Any:
    """The running sample's TaskState, or None (Inspect keeps it private)."""
    try:
        from inspect_ai.solver._task_state import sample_state
    except ImportError:  # pragma: no cover - an Inspect that moved it
        return None
    return sample_state()


def _declared(sandbox: str | None) -> str:
    """``sandbox``, else the one the running sample's tsolve condition declares,
    else :data:`DEFAULT_SANDBOX`."""
    if sandbox is not None:
        return sandbox
    state = _sample_state()
    condition = state.metadata.get("condition") if state is not None else None
    chosen = condition.get("sandbox") if isinstance(condition, dict) else None
    return chosen if isinstance(chosen, str) else DEFAULT_SANDBOX


def guarded_python(sandbox: str | None = None, timeout: int = PYTHON_TIMEOUT) -> Tool:
    """Inspect's ``python()`` (same name, description and parameters for the
    model) that first checks, on every call, that the sandbox Inspect gives it
    is the one declared (:func:`check_sandbox`).

    ``sandbox`` is the declared one; None reads it from the running sample's
    tsolve condition (so the ``--solver tsolve/scripted`` path, which builds
    its tools without the task, checks the same thing), else ``docker``."""
    inner = ToolDef(python(timeout=timeout))

    async def execute(code: str) -> str:
        check_sandbox(_declared(sandbox))
        result = await inner.tool(code=code)
        assert isinstance(result, str)
        return result

    return ToolDef(
        execute,
        name=inner.name,
        description=inner.description,
        parameters=inner.parameters,
        parallel=inner.parallel,
        viewer=inner.viewer,
    ).as_tool()


def code_tools(sandbox: str | None = None) -> list[Tool]:
    """The ``code`` condition's tool: Inspect's ``python()``, in the task's
    sandbox, guarded (:func:`guarded_python`)."""
    return [guarded_python(sandbox)]


#: Each condition's tools, built fresh per call (Inspect tools are objects).
TOOL_SETS: dict[str, Callable[[], list[Tool]]] = {
    "none": list,
    "calendar": calendar_tools,
    "knowledge": knowledge_tools,
    "code": code_tools,
    "all": lambda: [*calendar_tools(), *knowledge_tools(), *code_tools()],
}
