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
* ``code``: Inspect's own ``python()`` tool, run in the task's sandbox.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from inspect_ai.tool import Tool, ToolError, python, tool

from tsolve.adapters import agent_tools
from tsolve.errors import INTERNAL, TsolveError

#: Seconds one ``python()`` call may run.
PYTHON_TIMEOUT = 60

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


def code_tools() -> list[Tool]:
    """The ``code`` condition's tool: Inspect's ``python()``, in the task's sandbox."""
    return [python(timeout=PYTHON_TIMEOUT)]


#: Each condition's tools, built fresh per call (Inspect tools are objects).
TOOL_SETS: dict[str, Callable[[], list[Tool]]] = {
    "none": list,
    "calendar": calendar_tools,
    "knowledge": knowledge_tools,
    "code": code_tools,
    "all": lambda: [*calendar_tools(), *knowledge_tools(), *code_tools()],
}
