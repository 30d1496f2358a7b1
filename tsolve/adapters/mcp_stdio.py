"""The stdio wire of ``tsolve mcp``: every line a client sends gets an answer.

The MCP SDK's stdio transport drops a line it cannot validate: a client that
sends ``not json``, ``[]``, ``null``, invalid UTF-8, an object as ``id``, deep
nesting or a string escape such as ``\\ud800`` (a lone surrogate, which is no
Unicode character) never hears back and waits forever. JSON-RPC 2.0 wants a
``-32700`` (parse error) or ``-32600`` (invalid request) reply instead.

So tsolve screens each line before the SDK sees it (:func:`screen`): a line
that would pass the SDK's own validation (the very call its transport makes)
goes through untouched; any other line is answered here with a JSON-RPC error
whose message is one line saying what is wrong, and the SDK never sees it.
Blank lines are skipped (they carry no request). The SDK answers everything
it is passed (results, tool errors, ``-32601`` for an unknown method,
``-32602`` for bad params), so together every request gets a reply; the tests
(tests/test_mcp_wire.py) hold that over raw JSON-RPC to a real ``tsolve mcp``.

Replies written here and the SDK's own go through one lock a whole line at a
time, so they never interleave. While serving, file descriptors 0 and 1 point
at the null device and at stderr (as the SDK's transport does), so nothing a
tool or a library prints can reach the wire.
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

import anyio
import mcp_types
from mcp.server.stdio import stdio_server

from tsolve.records import MAX_LINE_BYTES

#: Longest message accepted, in bytes: the one line limit every reader shares
#: (:data:`tsolve.records.MAX_LINE_BYTES`, 64 MiB); a longer line is answered
#: -32700 and skipped.
MAX_MESSAGE_BYTES = MAX_LINE_BYTES
#: Deepest nesting of arrays and objects accepted. The SDK's JSON parser stops
#: near 200 levels and drops the line; no tsolve tool needs more than a dozen.
MAX_DEPTH = 100

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


@dataclass(frozen=True)
class Reply:
    """A JSON-RPC error to send back instead of passing the line on."""

    id: str | int | None
    code: int
    message: str

    def line(self) -> str:
        """The reply as one line of strict JSON."""
        error = {"code": self.code, "message": self.message}
        return json.dumps({"jsonrpc": "2.0", "id": self.id, "error": error}, allow_nan=False)


def screen(raw: bytes) -> str | Reply | None:
    """What to do with one line from the client: the text to pass to the SDK,
    a :class:`Reply` to send instead, or ``None`` for a blank line."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return Reply(None, PARSE_ERROR, f"Parse error: longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Reply(None, PARSE_ERROR, f"Parse error: not UTF-8 (byte {exc.start})")
    if not text.strip():
        return None
    try:
        obj = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        return Reply(None, PARSE_ERROR, f"Parse error: nested too deeply (over {MAX_DEPTH} levels)")
    except ValueError as exc:
        return Reply(None, PARSE_ERROR, f"Parse error: {' '.join(str(exc).split())}")
    if not isinstance(obj, dict):
        if isinstance(obj, list):
            what = "an empty batch" if not obj else "a batch (MCP has no JSON-RPC batches)"
        else:
            what = f"a JSON {_kind(obj)}"
        return Reply(None, INVALID_REQUEST, f"Invalid Request: a message is an object, not {what}")
    request_id = obj.get("id")
    if "id" in obj and not _valid_id(request_id):
        return Reply(
            None,
            INVALID_REQUEST,
            f"Invalid Request: 'id' must be a string or an integer, not a JSON {_kind(request_id)}",
        )
    problem = _deep_or_surrogate(obj)
    if problem is not None:
        code, message = problem
        return Reply(request_id, code, message)
    try:
        mcp_types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except Exception as exc:  # pydantic's ValidationError, or anything else it raises
        return Reply(request_id, INVALID_REQUEST, f"Invalid Request: {_first_error(exc)}")
    return text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _deep_or_surrogate(obj: Any) -> tuple[int, str] | None:
    """The first place nested deeper than :data:`MAX_DEPTH`, holding a lone
    surrogate (in a key or a string) or a number too large for a double
    (``1e400``), walked without recursion."""
    stack: list[tuple[Any, str, int]] = [(obj, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                return INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} levels"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str) and (char := _surrogate(key)) is not None:
                    return _bad_value(f"a key in {where.lstrip('.') or 'the message'}", char)
                here = f"{where}.{key}" if isinstance(key, str) else f"{where}[{key}]"
                stack.append((item, here, depth + 1))
        elif isinstance(value, str) and (char := _surrogate(value)) is not None:
            return _bad_value(f"the string at {where.lstrip('.')}", char)
        elif isinstance(value, float) and not math.isfinite(value):
            return _bad_value(f"the number at {where.lstrip('.')}", None)
    return None


def _surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` (what a ``\\ud800`` escape decodes to)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return text[exc.start]
    return None


def _bad_value(what: str, surrogate: str | None) -> tuple[int, str]:
    """-32602 for a value inside ``params``, -32600 elsewhere, saying what is wrong."""
    in_params = what.split(" ")[-1].startswith("params")
    code, label = (
        (INVALID_PARAMS, "Invalid params") if in_params else (INVALID_REQUEST, "Invalid Request")
    )
    if surrogate is None:
        return code, f"{label}: {what} is too large for a double"
    return code, (
        f"{label}: {what} holds a lone surrogate U+{ord(surrogate):04X} "
        "(a \\u escape that is no Unicode character)"
    )


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(map(str, first.get("loc", ()))) or "message"
            return " ".join(f"{where}: {first.get('msg', '')}".split())
        except Exception:  # an error object without the usual shape
            pass
    return " ".join(str(exc).split())[:300]


# ------------------------------------------------------------------ the wire


class _LineWriter:
    """The client's end of stdout: whole lines under one lock."""

    def __init__(self, fh: BinaryIO) -> None:
        self._fh = fh
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        data = text.encode("utf-8", errors="backslashreplace")
        with self._lock:
            self._fh.write(data)
            self._fh.flush()
        return len(text)

    def flush(self) -> None:
        with self._lock:
            self._fh.flush()


class _ScreenedLines:
    """The client's end of stdin as the SDK reads it (``readline``): only lines
    that pass :func:`screen`; the rest are answered through ``writer``."""

    def __init__(self, fh: BinaryIO, writer: _LineWriter) -> None:
        self._fh = fh
        self._writer = writer

    def readline(self) -> str:
        while True:
            raw = self._fh.readline(MAX_MESSAGE_BYTES + 1)
            if not raw:
                return ""
            if len(raw) > MAX_MESSAGE_BYTES and not raw.endswith(b"\n"):
                while (more := self._fh.readline(MAX_MESSAGE_BYTES)) and not more.endswith(b"\n"):
                    pass  # skip the rest of the overlong line
            verdict = screen(raw.rstrip(b"\r\n"))
            if isinstance(verdict, Reply):
                self._writer.write(verdict.line() + "\n")
            elif verdict is not None:
                return verdict + "\n"


@contextmanager
def _claimed_stdio() -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """Private handles on the client's stdin and stdout; meanwhile fd 0 reads
    the null device and fd 1 writes to stderr, restored on exit."""
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        with (
            os.fdopen(wire_in, "rb", closefd=False) as fin,
            os.fdopen(wire_out, "wb", closefd=False) as fout,
        ):
            yield fin, fout
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)


@asynccontextmanager
async def screened_stdio_server() -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's ``stdio_server`` over the screened stdin and the locked stdout."""
    with _claimed_stdio() as (fin, fout):
        writer = _LineWriter(fout)
        stdin = anyio.wrap_file(_ScreenedLines(fin, writer))  # type: ignore[arg-type]
        stdout = anyio.wrap_file(writer)  # type: ignore[arg-type]
        async with stdio_server(stdin=stdin, stdout=stdout) as streams:
            yield streams
