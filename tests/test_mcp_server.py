"""``tsolve mcp`` end to end: the server runs as a subprocess (``python -m
tsolve mcp``) and every tool is called through the official MCP Python client
over stdio, offline. Values are checked against sources other than tsolve
(published festival dates, pyluach, lunardate, datetime); bad input must come
back as a tool error with a one-line message, and the server must go on
answering after it."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession  # the mcp extra is part of the test extra: never skipped
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ["search_calendar", "convert_date", "festival_date", "solve_facts", "list_fact_kinds",
         "check_claim", "verify_answer", "lookup_knowledge"]  # fmt: skip
# Generous bounds against a hung server on a loaded machine; nothing is timed.
WAIT = 300


class StdioClient:
    """One server subprocess and one client session for the whole module.

    The session lives in an event loop on a background thread (the SDK's
    context managers must be entered and left in one task); tests call
    :meth:`call` synchronously."""

    def __init__(self, errlog: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.errlog = errlog
        self.session: ClientSession | None = None
        self.instructions: str | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._closing: asyncio.Event | None = None
        self._task = asyncio.run_coroutine_threadsafe(self._run(), self.loop)
        if not self._ready.wait(WAIT) or self._failed is not None:
            raise RuntimeError(f"the MCP server did not start: {self._failed!r}")

    async def _run(self) -> None:
        self._closing = asyncio.Event()
        env = {
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        }
        for name in ("TSOLVE_CACHE_DIR", "XDG_CACHE_HOME", "HOME"):
            if name in os.environ:
                env[name] = os.environ[name]
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "tsolve", "mcp"], env=env, cwd=str(ROOT)
        )
        try:
            async with (
                stdio_client(params, errlog=self.errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                init = await session.initialize()
                self.instructions = init.instructions
                self.session = session
                self._ready.set()
                await self._closing.wait()
        except BaseException as exc:
            self._failed = exc
            self._ready.set()
            raise

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        assert self.session is not None
        coro = self.session.call_tool(name, arguments)
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(WAIT)

    def list_tools(self) -> Any:
        assert self.session is not None
        return asyncio.run_coroutine_threadsafe(self.session.list_tools(), self.loop).result(WAIT)

    def close(self) -> None:
        if self._closing is not None:
            self.loop.call_soon_threadsafe(self._closing.set)
        try:
            self._task.result(WAIT)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(WAIT)


@pytest.fixture(scope="module")
def server_log() -> Iterator[Any]:
    with tempfile.TemporaryFile("w+", encoding="utf-8") as log:
        yield log


@pytest.fixture(scope="module")
def client(server_log: Any) -> Iterator[StdioClient]:
    c = StdioClient(server_log)
    try:
        yield c
    finally:
        c.close()


def ok(result: Any) -> dict[str, Any]:
    """The structured result of a successful call (and its text is the same JSON)."""
    assert not result.is_error, [c.text for c in result.content]
    data: dict[str, Any] = result.structured_content
    assert json.loads(result.content[0].text) == data
    return data


def error(result: Any) -> str:
    """The one-line message of a failed call."""
    assert result.is_error
    (content,) = result.content
    text: str = content.text
    assert "\n" not in text and text.strip()
    return text


def by_calendar(entry: dict[str, Any], cal: str) -> tuple[Any, ...]:
    v = entry["calendars"][cal]
    return (v["year"], v["month"], v["day"]) + ((v["leap"],) if cal == "chinese" else ())


# ------------------------------------------------------------------ listing


def test_lists_every_tool_with_a_schema(client: StdioClient) -> None:
    listed = {t.name: t for t in client.list_tools().tools}
    assert sorted(listed) == sorted(TOOLS)
    for tool in listed.values():
        assert tool.description and tool.input_schema["type"] == "object"
    props = listed["search_calendar"].input_schema["properties"]
    # SPAN's two parameter schemas, in one flat schema.
    assert {"calendar_name", "year", "month", "day", "festival_name"} <= set(props)
    assert set(listed["search_calendar"].input_schema["required"]) == {"calendar_name", "year"}
    assert set(listed["solve_facts"].input_schema["required"]) == {"facts"}
    assert set(listed["verify_answer"].input_schema["required"]) == {"record", "output"}
    assert set(listed["check_claim"].input_schema["required"]) == {"text"}
    assert client.instructions and "search_calendar" in client.instructions


# ------------------------------------------------------------------ calendars


def test_search_calendar_date_schema(client: StdioClient) -> None:
    import lunardate
    import pyluach.dates as pd

    # 15 Nisan 5784, the first day of Passover: 23 April 2024 (hebcal).
    args = {"calendar_name": "Hebrew calendar", "year": 5784, "month": "Nisan", "day": 15}
    (entry,) = ok(client.call("search_calendar", args))["entries"]
    assert entry["date"] == "2024-04-23" and entry["weekday"] == "Tuesday"
    h = pd.GregorianDate(2024, 4, 23).to_heb()
    assert by_calendar(entry, "hebrew") == (h.year, h.month, h.day)
    c = lunardate.LunarDate.from_solar_date(2024, 4, 23)
    assert by_calendar(entry, "chinese") == (c.year, c.month, c.day, bool(c.is_leap_month))


def test_search_calendar_festival_schema(client: StdioClient) -> None:
    args = {
        "calendar_name": "Chinese lunar calendar",
        "year": 2024,
        "festival_name": "Chinese New Year",
    }
    out = ok(client.call("search_calendar", args))
    assert [e["date"] for e in out["entries"]] == ["2024-02-10"]  # Hong Kong Observatory
    assert out["query"]["festival"] == "chinese-new-year"
    # A Gregorian year lists every occurrence: two Hijri New Years in 2008.
    args = {"calendar_name": "Gregorian", "year": 2008, "festival_name": "Hijri New Year"}
    out = ok(client.call("search_calendar", args))
    assert [e["date"] for e in out["entries"]] == ["2008-01-10", "2008-12-29"]
    assert [by_calendar(e, "islamic")[:2] for e in out["entries"]] == [(1429, 1), (1430, 1)]


def test_convert_date(client: StdioClient) -> None:
    import lunardate
    import pyluach.dates as pd

    want = lunardate.LunarDate(2023, 2, 15, True).to_solar_date()  # leap 2nd month of 2023
    args = {"date": "2023-L2-15", "from_calendar": "chinese", "to_calendars": ["hebrew"]}
    entry = ok(client.call("convert_date", args))["entry"]
    assert entry["date"] == want.isoformat()
    h = pd.GregorianDate(want.year, want.month, want.day).to_heb()
    assert entry["calendars"] == {
        "hebrew": {
            "year": h.year,
            "month": h.month,
            "month_name": entry["calendars"]["hebrew"]["month_name"],
            "day": h.day,
        }
    }


def test_festival_date(client: StdioClient) -> None:
    out = ok(client.call("festival_date", {"festival_name": "Mid-Autumn Festival", "year": 2024}))
    assert [e["date"] for e in out["dates"]] == ["2024-09-17"]  # Hong Kong Observatory
    assert out["rule"] == "chinese 8/15"
    out = ok(
        client.call(
            "festival_date", {"festival_name": "Nowruz", "year": 1403, "year_calendar": "persian"}
        )
    )
    assert [e["date"] for e in out["dates"]] == ["2024-03-20"]  # the Iranian calendar


# ------------------------------------------------------------------ solver


def test_solve_facts(client: StdioClient) -> None:
    facts = [
        {"kind": "weekday", "params": {"weekday": "Friday"}},
        {"kind": "day_of_month", "params": {"day": 13}},
        {"kind": "year", "params": {"year": 2026}},
    ]
    out = ok(client.call("solve_facts", {"facts": facts}))
    want = [
        dt.date(2026, m, 13).isoformat()
        for m in range(1, 13)
        if dt.date(2026, m, 13).weekday() == 4
    ]
    assert (out["answers"], out["count"], out["status"]) == (want, len(want), "complete")
    limited = ok(
        client.call(
            "solve_facts",
            {
                "facts": facts[:1],
                "limit": 2,
                "domain": {"start": "2024-01-01", "end": "2024-12-31"},
            },
        )
    )
    assert limited["answers"] == ["2024-01-05", "2024-01-12"] and limited["status"] == "limit"


# ------------------------------------------------------------------ verifier


def test_verify_answer_time_puzzle(client: StdioClient) -> None:
    facts = [
        {"kind": "month", "params": {"month": 2}},
        {"kind": "day_of_month", "params": {"day": 29}},
        {"kind": "decade", "params": {"decade": 2000}},
    ]
    gold = ["2000-02-29", "2004-02-29", "2008-02-29"]  # the leap years of the 2000s
    record = {"id": "leap-days", "family": "time-puzzles", "facts": facts, "answers": gold}
    right = ok(
        client.call("verify_answer", {"record": record, "output": "MY ANSWER: " + ", ".join(gold)})
    )
    assert (right["em"], right["f1"]) == (1.0, 1.0)
    half = ok(
        client.call(
            "verify_answer", {"record": record, "output": "MY ANSWER: 2000-02-29, 2001-03-01"}
        )
    )
    assert half["em"] == 0.0 and half["f1"] == pytest.approx(
        2 * (1 / 2) * (1 / 3) / (1 / 2 + 1 / 3)
    )
    assert "2001-03-01" in half["diagnosis"]["wrong"]


def test_verify_answer_span_record(client: StdioClient) -> None:
    import lunardate

    record = json.loads((ROOT / "tests/fixtures/span_v1_sample.jsonl").read_text().splitlines()[0])
    p = record["params"]
    # Recompute the gold without tsolve: the day N days ago, in the Chinese calendar.
    ref = dt.date.fromisoformat(p["reference_date"]["gregorian"])
    assert (p["unit"], p["sign"], p["target_calendar"]) == ("days", "ago", "chinese")
    day = ref - dt.timedelta(days=p["offset"])
    lu = lunardate.LunarDate.from_solar_date(day.year, day.month, day.day)
    cand = p["candidate"]
    same = (lu.year, lu.month, lu.day, bool(lu.is_leap_month)) == (
        cand["year"],
        cand["month"],
        cand["day"],
        cand["leap"],
    )
    answer, other = ("Yes", "No") if same else ("No", "Yes")
    assert (
        ok(client.call("verify_answer", {"record": record, "output": f"MY ANSWER: {answer}"}))[
            "accuracy"
        ]
        == 1.0
    )
    assert (
        ok(client.call("verify_answer", {"record": record, "output": f"MY ANSWER: {other}"}))[
            "accuracy"
        ]
        == 0.0
    )


# ------------------------------------------------------------------ errors

BAD = [
    (
        "search_calendar",
        {"calendar_name": "Mayan", "year": 2024, "month": 1, "day": 1},
        "unknown calendar",
    ),
    (
        "search_calendar",
        {"calendar_name": "hebrew", "year": 5783, "month": 13, "day": 1},
        "common year",
    ),
    ("search_calendar", {"calendar_name": "hebrew", "year": 5784}, "festival_name"),
    (
        "search_calendar",
        {
            "calendar_name": "hebrew",
            "year": 5784,
            "month": 1,
            "day": 15,
            "festival_name": "Passover",
        },
        "not both",
    ),
    ("search_calendar", {"calendar_name": "hebrew", "year": "soon", "month": 1, "day": 1}, "year"),
    ("search_calendar", {"year": 2024, "month": 1, "day": 1}, "calendar_name"),
    ("convert_date", {"date": "2023-02-29"}, "date"),
    ("convert_date", {"date": "2023-01-01", "to_calendars": "hebrew"}, "to_calendars"),
    ("festival_date", {"festival_name": "Diwali", "year": 2024}, "unknown festival"),
    ("solve_facts", {"facts": [{"kind": "nope"}]}, "unknown kind"),
    ("solve_facts", {"facts": [{"kind": "month", "params": {"month": 2}}], "limit": 0}, "limit"),
    ("solve_facts", {"facts": "the date is a Monday"}, "facts"),
    ("verify_answer", {"record": {"id": "x"}, "output": "MY ANSWER: None"}, "family"),
    ("verify_answer", {"record": {"id": "x", "family": "time-puzzles"}}, "output"),
    ("no_such_tool", {}, "no_such_tool"),
    # Strict before the SDK's lax coercion (true was January, or a limit of 1),
    # and capped before anything decodes or echoes the text.
    (
        "search_calendar",
        {"calendar_name": "gregorian", "year": 2024, "month": True, "day": 1},
        "month: expected",
    ),
    ("solve_facts", {"facts": [{"kind": "month", "params": {"month": 2}}], "limit": True}, "limit"),
    (
        "search_calendar",
        {"calendar_name": "gregorian", "year": 2024, "month": "[" * 100_000, "day": 1},
        "at most 40 characters",
    ),
]


@pytest.mark.parametrize(("tool", "args", "needle"), BAD, ids=[f"{t}-{n}" for t, _, n in BAD])
def test_bad_input_is_a_one_line_tool_error(
    client: StdioClient, tool: str, args: dict[str, Any], needle: str
) -> None:
    assert needle in error(client.call(tool, args))
    # The server is still there and still right.
    (entry,) = ok(
        client.call(
            "search_calendar", {"calendar_name": "gregorian", "year": 2024, "month": 2, "day": 29}
        )
    )["entries"]
    assert entry["weekday"] == "Thursday"


def test_server_never_crashed(client: StdioClient, server_log: Any) -> None:
    """Tool failures are logged as such, never as an unexpected exception."""
    client.call("festival_date", {"festival_name": "Diwali", "year": 2024})
    server_log.flush()
    server_log.seek(0)
    log = server_log.read()
    assert "Traceback" not in log and "unexpected exception" not in log


def test_docs_list_exactly_the_servers_parameters(client: StdioClient) -> None:
    """docs/mcp.md has a parameter table per tool; it must match the schema."""
    import re

    text = (ROOT / "docs/mcp.md").read_text(encoding="utf-8")
    documented: dict[str, set[str]] = {}
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        name = section.split()[0]
        rows = re.findall(r"^\| `(\w+)` \|", section, flags=re.M)
        if rows:
            documented[name] = set(rows)
    served = {t.name: set(t.input_schema["properties"]) for t in client.list_tools().tools}
    assert documented == {name: params for name, params in served.items() if params}
    # A tool without parameters still has its section.
    assert all(f"### {name}\n" in text for name in served)


def test_without_the_mcp_package_tsolve_mcp_says_how_to_get_it() -> None:
    import subprocess

    code = (
        "import sys; sys.modules['mcp'] = None; sys.argv = ['tsolve', 'mcp']\n"
        "from tsolve.cli.app import main\nmain()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=WAIT
    )
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "error: mcp: the MCP server needs the mcp package (pip install 'tsolve[mcp]')"
    ]


def test_check_claim_judges_each_claim(client: StdioClient) -> None:
    """Weekdays from datetime: 2023-03-06 was a Monday; 2024 is a leap year."""
    import datetime as dt

    assert dt.date(2023, 3, 6).strftime("%A") == "Monday"
    text = "March 6, 2023 is a Tuesday.\n2024 is a leap year."
    out = ok(client.call("check_claim", {"text": text}))
    verdicts = [(c["line"], c["verdict"]) for c in out["claims"]]
    assert verdicts == [(1, "false"), (2, "true")]
    assert out["claims"][0]["correct"] and "Monday" in out["claims"][0]["correct"]
    assert out["counts"] == {"true": 1, "false": 1, "unknown": 0, "unread": 0}


def test_cli_help_names_every_tool(client: StdioClient) -> None:
    """``tsolve mcp --help`` lists the tools the server serves (it once left out
    check_claim)."""
    from tsolve.cli.app import command

    help_text = " ".join(command().commands["mcp"].help.split())
    served = [t.name for t in client.list_tools().tools]
    assert f"Tools: {', '.join(served)}." in help_text
