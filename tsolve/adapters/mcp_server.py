"""tsolve's agent tools (:mod:`tsolve.adapters.agent_tools`) as an MCP server.

This module only wires: each tool below is the library function with its
parameters described for the JSON schema a client sees (``Annotated`` +
pydantic ``Field``), and :func:`serve` runs the server on stdio
(``tsolve mcp``). The work, the argument checks and the results are the
library's, so a direct caller and an MCP client get the same answers.

Errors: a bad call never stops the server. It returns a tool error result
(``isError``) whose text is one line: the library's own
:class:`~tsolve.errors.TsolveError` message, or, for arguments that fail the
schema, the fields and what was expected. Anything else a tool raises is
reported as an ``internal error`` line (a tsolve bug, since every bad input
should be caught by a check that names its field).

Every line a client sends gets an answer: :mod:`tsolve.adapters.mcp_stdio` screens
the stdio wire and answers malformed lines (``-32700`` / ``-32600``) that the
SDK would drop in silence.

Uses the official MCP Python SDK, version 2 (``MCPServer``, called
``FastMCP`` in version 1): ``pip install 'tsolve[mcp]'``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import wraps
from typing import Annotated, Any, TypeVar

from tsolve.adapters import agent_tools
from tsolve.adapters.mcp_arguments import check_prompt_arguments, check_tool_arguments
from tsolve.encodings.facts.schema import any_fact_schema
from tsolve.errors import INTERNAL, TsolveError
from tsolve.records.validation import bad, shown
from tsolve.solver.backend_names import BACKENDS

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.shared.exceptions import MCPError
    from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, ToolAnnotations
    from pydantic import Field, ValidationError
except ImportError:  # without the extra (tests/test_mcp_server.py)
    raise TsolveError(
        "mcp: the MCP server needs the mcp package (pip install 'tsolve[mcp]')"
    ) from None

SERVER_NAME = "tsolve"

INSTRUCTIONS = """\
Exact temporal reasoning tools from tsolve. Calendars: gregorian, chinese \
(Chinese lunar), hebrew, islamic (tabular), islamic-umalqura, persian, shaka; \
SPAN's names such as 'Chinese lunar calendar' work too. Use search_calendar or \
convert_date to move a date between calendars, festival_date for a festival's \
day in a year, solve_facts for the dates that satisfy a set of time-puzzle \
facts (list_fact_kinds gives each kind's parameters), and verify_answer to \
score a model's answer to a tsolve task record. The resource \
tsolve://families/{family}/instructions and the prompt task_prompt give a \
task family's instructions and an example task."""

_F = TypeVar("_F", bound=Callable[..., Any])


class _OneLineErrorServer(MCPServer):
    """An ``MCPServer`` whose tool errors are one line.

    The SDK reports arguments that fail the input schema with pydantic's
    multi-line text; this rewrites them as ``field: message`` pairs on one
    line, after the SDK's own ``Error executing tool <name>:`` prefix. Errors
    raised by the tools are already one line (see :func:`_tool`).
    """

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            raise ToolError(f"Unknown tool: {shown(name)}")
        try:
            check_tool_arguments(arguments, tool.parameters)
        except TsolveError as exc:
            raise ToolError(f"Error executing tool {name}: invalid arguments: {exc}") from None
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                fields = "; ".join(
                    f"{'.'.join(map(str, err['loc'])) or 'arguments'}: {err['msg']}"
                    for err in cause.errors()
                )
                raise ToolError(
                    f"Error executing tool {name}: invalid arguments: {fields}"
                ) from cause
            raise ToolError(" ".join(str(exc).split())) from cause
        return result

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> Any:
        """The SDK's ``get_prompt``, with bad requests refused first as
        ``-32602`` (the SDK reports them as a generic error with code 0, and
        logs a traceback), and any other failure as ``-32603``."""
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt: {shown(name)}")
        declared = [(a.name, bool(a.required)) for a in prompt.arguments or []]
        try:
            check_prompt_arguments(arguments, declared)
        except TsolveError as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None
        try:
            return await super().get_prompt(name, arguments, context)
        except MCPError:
            raise
        except Exception as exc:  # a tsolve bug: the SDK has logged the traceback
            raise MCPError(INTERNAL_ERROR, " ".join(f"{INTERNAL}: {exc}".split())) from exc

    async def run_stdio_async(self) -> None:
        """Serve on stdio with every line screened first (:mod:`tsolve.adapters.mcp_stdio`):
        a line the SDK would drop unanswered gets a JSON-RPC error instead.
        Same as the SDK's own method but for the transport (the low-level server
        is the SDK's ``_lowlevel_server``, which its method uses too)."""
        from tsolve.adapters.mcp_stdio import screened_stdio_server

        async with screened_stdio_server() as (read_stream, write_stream):
            await self._lowlevel_server.run(
                read_stream,
                write_stream,
                self._lowlevel_server.create_initialization_options(),
            )


def _tool(fn: _F) -> _F:
    """A tool function's errors as one-line :class:`ToolError` s: the SDK turns
    a ``ToolError`` into an error result with its text, and anything else into
    a bare "Error executing tool", which would hide tsolve's message."""

    @wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TsolveError as exc:
            raise ToolError(str(exc)) from exc
        except Exception as exc:
            # A tsolve bug: the caller gets one line, the server log the traceback.
            logging.getLogger(__name__).exception("tool %s failed unexpectedly", fn.__name__)
            message = " ".join(f"{INTERNAL}: {type(exc).__name__}: {exc}".split())
            raise ToolError(message) from exc

    return call  # type: ignore[return-value]


# ------------------------------------------------------------------ parameters

#: Longest calendar, family or backend name read (the checks of
#: :mod:`tsolve.adapters.agent_tools` use the same caps), and longest festival or
#: knowledge-base name. Every string parameter has a cap in its schema, which
#: :mod:`tsolve.adapters.mcp_arguments` enforces before the SDK sees the call.
_NAME = 100
_FESTIVAL = 200

CalendarName = Annotated[
    str,
    Field(
        description="Calendar: gregorian, chinese, hebrew, islamic, islamic-umalqura, persian "
        "or shaka; SPAN's names ('Chinese lunar calendar', 'Islamic calendar') also work.",
        max_length=_NAME,
    ),
]
Year = Annotated[int, Field(description="Year in the calendar named.")]
Month = Annotated[
    int | Annotated[str, Field(max_length=agent_tools.MAX_MONTH_TEXT)] | None,
    Field(
        description="Date schema: month number or name (e.g. 1, 'Nisan', 'Adar II'); a "
        "Chinese leap month as 'L4'. Give with day, not with festival_name."
    ),
]
Day = Annotated[int | None, Field(description="Date schema: day of the month.")]
FestivalName = Annotated[
    Annotated[str, Field(max_length=_FESTIVAL)] | None,
    Field(
        description="Festival schema: e.g. 'Chinese New Year', 'Eid al-Fitr', 'Nowruz', "
        "'Passover'. Give instead of month and day."
    ),
]


# ------------------------------------------------------------------ the tools


def search_calendar(
    calendar_name: CalendarName,
    year: Year,
    month: Month = None,
    day: Day = None,
    festival_name: FestivalName = None,
) -> dict[str, Any]:
    """Convert a date or a festival in one calendar to the same day in all calendars
    (SPAN's search_calendar). Two schemas: {calendar_name, year, month, day} for a
    date, or {calendar_name, year, festival_name} for a festival in that calendar's
    year (a Gregorian year lists every occurrence in it). Returns one entry per day:
    ISO date, weekday, and the date in each calendar (null outside its tables)."""
    return agent_tools.search_calendar(calendar_name, year, month, day, festival_name)


def convert_date(
    date: Annotated[
        str,
        Field(
            description="Y-M-D in from_calendar; the month may be a name ('5784-Adar II-14'), "
            "a Chinese leap month 'L2' ('2023-L2-15'). Gregorian is ISO (2024-04-23).",
            max_length=_NAME,
        ),
    ],
    from_calendar: Annotated[
        str, Field(description="Calendar of date.", max_length=_NAME)
    ] = "gregorian",
    to_calendars: Annotated[
        list[Annotated[str, Field(max_length=_NAME)]] | None,
        Field(description="Target calendars (default: all).", max_length=20),
    ] = None,
) -> dict[str, Any]:
    """Convert one date from one calendar to one, several or all other calendars.
    Returns the ISO date, the weekday, and the date in each target calendar."""
    return agent_tools.convert_date(date, from_calendar, to_calendars)


def festival_date(
    festival_name: Annotated[
        str, Field(description="Festival, e.g. 'Mid-Autumn Festival'.", max_length=_FESTIVAL)
    ],
    year: Annotated[int, Field(description="Year, of year_calendar.")],
    year_calendar: Annotated[
        str,
        Field(
            description="Calendar of year: gregorian (every occurrence in that year) or the "
            "festival's own calendar (exactly one day).",
            max_length=_NAME,
        ),
    ] = "gregorian",
) -> dict[str, Any]:
    """The day(s) of a festival in a year, with its rule (e.g. 'chinese 8/15'), as
    ISO date, weekday, and the date in the Gregorian and the festival's own calendar."""
    return agent_tools.festival_date(festival_name, year, year_calendar)


def solve_facts(
    facts: Annotated[
        list[dict[str, Any]],
        Field(
            description="Facts about one unknown date, each {kind, params} as in tsolve's "
            "time-puzzle records, e.g. {'kind': 'weekday', 'params': {'weekday': 'Monday'}}, "
            "{'kind': 'month', 'params': {'month': 3}}, {'kind': 'year', "
            "'params': {'year': 2024}}. Each kind's params are in the items' schema "
            "(oneOf) and in list_fact_kinds; an unknown kind lists the known ones.",
            json_schema_extra={"items": any_fact_schema()},
        ),
    ],
    domain: Annotated[
        dict[str, str] | None,
        Field(description="{start, end} ISO dates to search (default 1900-01-31..2100-12-31)."),
    ] = None,
    limit: Annotated[
        int, Field(description="Most answers to list.", ge=1, le=agent_tools.MAX_LIMIT)
    ] = 1000,
    time_limit: Annotated[
        float, Field(description="Seconds.", gt=0, le=agent_tools.MAX_TIME_LIMIT)
    ] = 10.0,
    backend: Annotated[
        str,
        Field(
            description="Solver backend.",
            max_length=_NAME,
            json_schema_extra={"enum": list(BACKENDS)},
        ),
    ] = "cpsat",
) -> dict[str, Any]:
    """Every date that satisfies all the facts, from a constraint solver. status says
    how the search ended: complete or unsat (the answers are all of them), limit
    (stopped at limit answers; there may be more), partial or timeout (the time limit
    stopped it). facts echoes each fact as read, dates spelled out."""
    return agent_tools.solve_facts(facts, domain, limit, time_limit, backend)


def list_fact_kinds() -> dict[str, Any]:
    """The time-puzzle fact kinds solve_facts reads: for each, the JSON schema of
    {kind, params}, whether it is a knowledge-based anchor (a person, a president,
    an event), and a valid example fact."""
    return agent_tools.list_fact_kinds()


def verify_answer(
    record: Annotated[
        dict[str, Any],
        Field(description="A tsolve task record (any family), as tsolve dataset writes it."),
    ],
    output: Annotated[
        str, Field(description="The model's raw answer text.", max_length=agent_tools.MAX_OUTPUT)
    ],
    family: Annotated[
        Annotated[str, Field(max_length=_NAME)] | None,
        Field(description="Task family (default: the record's own)."),
    ] = None,
) -> dict[str, Any]:
    """Score a model's output on a tsolve task record with tsolve's verifier: the
    metrics (e.g. em/f1/jaccard or accuracy), what was parsed, and a diagnosis of
    what is wrong (e.g. which facts a wrong date violates)."""
    return agent_tools.verify_answer(record, output, family)


def check_claim(
    text: Annotated[
        str,
        Field(
            description="A sentence or a reasoning chain, e.g. 'March 6, 2023 is a Tuesday.'",
            max_length=agent_tools.MAX_CLAIM_TEXT,
        ),
    ],
) -> dict[str, Any]:
    """Check every date claim in the text: weekday of a date, leap year, date
    arithmetic (N days after/before, days between), cross-calendar dates,
    festival dates, month lengths. Each claim comes back with its line, span,
    verdict (true, false or unknown) and, when false, the correct value."""
    return agent_tools.check_claim(text)


def lookup_knowledge(
    name: Annotated[
        str,
        Field(
            description="A person ('Michael Jackson'), US president ('Obama'), historical "
            "event ('the fall of the Berlin Wall') or sporting event ('Summer Olympics').",
            max_length=_FESTIVAL,
        ),
    ],
    kind: Annotated[
        Annotated[str, Field(max_length=_NAME)] | None,
        Field(
            description="Narrow the search: person, office, event or edition.",
            json_schema_extra={"enum": list(agent_tools.KNOWLEDGE_KINDS)},
        ),
    ] = None,
) -> dict[str, Any]:
    """Look up dates in tsolve's knowledge base: a person's birth and death, a US
    president's terms, a historical event's dates, a sporting event's editions,
    each with its source URL. An offline stand-in for web search; it does not
    solve puzzles."""
    return agent_tools.lookup_knowledge(name, kind)


#: The tools, in the order clients list them.
TOOLS: tuple[Callable[..., dict[str, Any]], ...] = (
    search_calendar,
    convert_date,
    festival_date,
    solve_facts,
    list_fact_kinds,
    check_claim,
    verify_answer,
    lookup_knowledge,
)

#: Every tool computes from tsolve's own tables and solvers: it changes nothing,
#: the same call gives the same answer, and it reaches nothing outside.
ANNOTATIONS = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
#: Where a task family's instructions are read (a resource template).
INSTRUCTIONS_URI = "tsolve://families/{family}/instructions"


def family_instructions(family: str) -> str:
    """A task family's instructions as JSON text: what it asks, the marker its
    scorer reads the final answer after, and an example task with its gold reply
    (record 0 of seed 0)."""
    from tsolve.records import json_text

    try:
        return json_text(agent_tools.family_instructions(family), indent=2)
    except TsolveError as exc:  # the client gets tsolve's one line as the error message
        raise MCPError(INVALID_PARAMS, str(exc)) from None


def task_prompt(
    family: Annotated[
        str,
        Field(description="A family that generates records (as `tsolve families` lists them)."),
    ],
    seed: Annotated[str, Field(description="Run seed (an integer).")] = "0",
    index: Annotated[str, Field(description="Record index in the run (an integer).")] = "0",
) -> str:
    """Task number index of run seed of a tsolve task family, as a model is shown it:
    the record's prompt, with its answer instruction."""
    try:
        made = agent_tools.family_instructions(
            family, _int_arg(seed, "seed"), _int_arg(index, "index")
        )
    except TsolveError as exc:
        raise MCPError(INVALID_PARAMS, str(exc)) from None
    return str(made["example"]["prompt"])


def _int_arg(text: str, name: str) -> int:
    """Prompt arguments are strings in MCP; an integer is spelled in ASCII
    digits. ``str.isdigit`` is not the test: it accepts ``"²"`` and other
    characters ``int`` refuses, and any number of digits, while ``int``
    stops at 4,300 (a seed is at most 19 digits, below ``2**63``)."""
    digits = text.strip() if isinstance(text, str) else ""
    if not _SEED_DIGITS.fullmatch(digits):
        raise bad(name, "a non-negative integer in ASCII digits (at most 19)", text)
    return int(digits)


_SEED_DIGITS = re.compile(r"[0-9]{1,19}")


def build_server() -> MCPServer:
    """The MCP server with every tool of :data:`TOOLS` registered."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        tsolve_version = version("tsolve")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        tsolve_version = ""
    server = _OneLineErrorServer(SERVER_NAME, instructions=INSTRUCTIONS, version=tsolve_version)
    for fn in TOOLS:
        server.add_tool(_tool(fn), name=fn.__name__, annotations=ANNOTATIONS)
    server.resource(
        INSTRUCTIONS_URI,
        name="family_instructions",
        description="A task family's instructions: what it asks, the answer marker, an "
        "example task and its gold reply (JSON).",
        mime_type="application/json",
    )(family_instructions)
    server.prompt(name="task_prompt")(task_prompt)
    return server


class OneLineFormatter(logging.Formatter):
    """A log record as one plain line, its exception (if any) folded in as
    ``Type: message``: a client shows the server's stderr in its own log, where
    the SDK's default (a rich, terminal-wrapped handler with multi-line
    tracebacks) turns one event into many broken lines."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"tsolve mcp: {record.levelname}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            line += f" ({type(exc).__name__}: {exc})"
        return " ".join(line.split())


def quiet_logging() -> None:
    """Warnings and errors only, each one plain line on stderr. Installed on the
    root logger before the server is built, so the SDK's own logging setup
    (which configures only a root logger without handlers) leaves it alone."""
    handler = logging.StreamHandler()
    handler.setFormatter(OneLineFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)


def serve() -> None:
    """Run the server on stdio until the client closes it (``tsolve mcp``)."""
    quiet_logging()
    build_server().run("stdio")
