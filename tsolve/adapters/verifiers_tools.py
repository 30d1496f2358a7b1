"""The tools the verifiers taskset offers (``tools="calendar"``).

The ``calendar`` condition of the tool-augmented evaluation: SPAN's ``search_calendar`` (with the
paper's parameters ``calendar_name``, ``year``, ``month``, ``day`` or
``festival_name``) and the narrower ``convert_date`` and ``festival_date``.
They are the functions ``tsolve mcp`` serves (:mod:`tsolve.adapters.agent_tools`);
none of them takes a set of facts and returns answers. verifiers runs a
``Toolset`` as an MCP server in its own process (``python -m`` this module).

A bad argument is a tool error whose text is tsolve's one-line message, never
an exception that ends the rollout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import verifiers.v1 as vf
from mcp.server.mcpserver.exceptions import ToolError

from tsolve.adapters import agent_tools
from tsolve.errors import TsolveError

TOOL_CONDITIONS = ("none", "calendar")
"""The tool conditions the taskset offers, named as in the
Inspect tool conditions. ``knowledge``,
``code`` and ``all`` are not offered yet (docs/rl.md)."""


def _call(fn: Callable[..., dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    try:
        return fn(**kwargs)
    except TsolveError as exc:
        raise ToolError(str(exc)) from exc


class TsolveCalendarToolset(vf.Toolset[vf.ToolsetConfig]):
    """tsolve's calendar tools as a verifiers tool server."""

    @vf.tool
    def search_calendar(
        self,
        calendar_name: str,
        year: int,
        month: int | str | None = None,
        day: int | None = None,
        festival_name: str | None = None,
    ) -> dict[str, Any]:
        """SPAN's search_calendar: a date (calendar_name, year, month, day) or a
        festival (calendar_name, year, festival_name), as the same day in every
        calendar (gregorian, chinese, hebrew, islamic, persian, shaka)."""
        return _call(
            agent_tools.search_calendar,
            calendar_name=calendar_name,
            year=year,
            month=month,
            day=day,
            festival_name=festival_name,
        )

    @vf.tool
    def convert_date(
        self, date: str, from_calendar: str = "gregorian", to_calendars: list[str] | None = None
    ) -> dict[str, Any]:
        """One date, written Y-M-D in from_calendar, in to_calendars (all when empty)."""
        return _call(
            agent_tools.convert_date,
            date=date,
            from_calendar=from_calendar,
            to_calendars=to_calendars,
        )

    @vf.tool
    def festival_date(
        self, festival_name: str, year: int, year_calendar: str = "gregorian"
    ) -> dict[str, Any]:
        """The days of a festival in a year of year_calendar."""
        return _call(
            agent_tools.festival_date,
            festival_name=festival_name,
            year=year,
            year_calendar=year_calendar,
        )


if __name__ == "__main__":
    TsolveCalendarToolset.run()
