"""``tsolve mcp`` over raw JSON-RPC: every line a client sends gets an answer.

A real server subprocess reads lines no SDK client would send (``not json``,
``[]``, ``null``, invalid UTF-8, an object as id, deep nesting, a lone
surrogate escape). Each must come back as a JSON-RPC error with the right code
(JSON-RPC 2.0: -32700 parse error, -32600 invalid request, -32602 invalid
params), and the server must then still answer a ``ping``. Nothing is timed:
a reply that never comes fails the test after a generous guard instead of
stalling CI. :func:`tsolve.adapters.mcp_stdio.screen` is also checked directly on
random bytes (never raises; every reply is strict JSON)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.adapters.mcp_stdio import MAX_DEPTH, Reply, screen

ROOT = Path(__file__).resolve().parents[1]
WAIT = 300  # a guard against a hang, not a speed limit

INIT = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}


def strict(line: bytes) -> Any:
    """A reply line as strict JSON (no NaN / Infinity)."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"non-strict JSON constant {name} in {line!r}")

    return json.loads(line, parse_constant=refuse)


class RawServer:
    """``python -m tsolve mcp`` on pipes; replies collected by a reader thread."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tsolve", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=str(ROOT),
            env=env,
        )
        self.replies: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.replies.put(line)

    def send(self, raw: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def reply(self) -> dict[str, Any]:
        try:
            line = self.replies.get(timeout=WAIT)
        except queue.Empty:
            pytest.fail(f"no reply from tsolve mcp within {WAIT} s (a hang)")
        out: dict[str, Any] = strict(line)
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail("tsolve mcp did not exit when its stdin closed")


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    s = RawServer()
    s.send(json.dumps(INIT).encode())
    assert s.reply()["id"] == "init"
    s.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    try:
        yield s
    finally:
        s.close()
    assert s.proc.returncode == 0


def call(name: str, arguments: str, request_id: int = 7) -> bytes:
    """A tools/call line with ``arguments`` spliced in as raw JSON text."""
    return (
        f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call",'
        f'"params":{{"name":"{name}","arguments":{arguments}}}}}'
    ).encode()


HOSTILE = [
    ("not-json", b"not json", None, -32700),
    ("empty-batch", b"[]", None, -32600),
    ("batch", b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', None, -32600),
    ("null", b"null", None, -32600),
    ("number", b"42", None, -32600),
    ("invalid-utf8", b'\xff\xfe{"jsonrpc"', None, -32700),
    ("bad-utf8-in-string", b'{"jsonrpc":"2.0","id":3,"method":"ping","x":"\xc3("}', None, -32700),
    ("object-id", b'{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', None, -32600),
    ("bool-id", b'{"jsonrpc":"2.0","id":true,"method":"ping"}', None, -32600),
    ("deep-unclosed", b"[" * 100_000, None, -32700),
    ("deep-params", call("check_claim", '{"text":' + "[" * 150 + "]" * 150 + "}"), 7, -32600),
    (
        "lone-surrogate",
        call("check_claim", '{"text":"\\ud800 March 6, 2023 is a Tuesday"}'),
        7,
        -32602,
    ),
    ("surrogate-key", call("check_claim", '{"\\udc00":"x"}'), 7, -32602),
    ("nan", call("solve_facts", '{"facts":[],"time_limit":NaN}'), None, -32700),
    ("huge-number", call("solve_facts", '{"facts":[],"time_limit":1e400}'), 7, -32602),
    ("wrong-version", b'{"jsonrpc":"1.0","id":5,"method":"ping"}', 5, -32600),
    ("no-method", b'{"jsonrpc":"2.0","id":6}', 6, -32600),
    ("params-array", b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[]}', 8, -32600),
    # Lines that pass the screen: the SDK answers them itself.
    ("unknown-method", b'{"jsonrpc":"2.0","id":9,"method":"nope"}', 9, -32601),
    ("call-without-name", b'{"jsonrpc":"2.0","id":10,"method":"tools/call"}', 10, -32602),
]


@pytest.mark.parametrize(("line", "want_id", "code"), [h[1:] for h in HOSTILE],
                         ids=[h[0] for h in HOSTILE])  # fmt: skip
def test_every_hostile_line_gets_a_json_rpc_error(
    server: RawServer, line: bytes, want_id: int | None, code: int
) -> None:
    server.send(line)
    reply = server.reply()
    assert reply["jsonrpc"] == "2.0" and reply["id"] == want_id
    assert reply["error"]["code"] == code
    message = reply["error"]["message"]
    assert isinstance(message, str) and message.strip() and "\n" not in message
    # ... and the server goes on answering.
    server.send(b'{"jsonrpc":"2.0","id":"after","method":"ping"}')
    assert server.reply() == {"jsonrpc": "2.0", "id": "after", "result": {}}


def test_blank_lines_are_skipped_and_good_requests_still_work(server: RawServer) -> None:
    server.send(b"")
    server.send(b"   ")
    server.send(b'{"jsonrpc":"2.0","id":11,"method":"tools/list"}')
    reply = server.reply()  # the blank lines got none: this is the list's
    assert reply["id"] == 11
    assert "check_claim" in {t["name"] for t in reply["result"]["tools"]}


def test_a_message_names_the_problem(server: RawServer) -> None:
    server.send(call("check_claim", '{"text":"\\ud800"}', request_id=12))
    message = server.reply()["error"]["message"]
    assert "params.arguments.text" in message and "U+D800" in message


# ------------------------------------------------------------------ screen() alone


@settings(max_examples=examples(200))
@given(st.binary(max_size=200))
def test_screen_never_raises_on_bytes(raw: bytes) -> None:
    verdict = screen(raw)
    if isinstance(verdict, Reply):
        assert verdict.code in (-32700, -32600, -32602)
        strict(verdict.line().encode())


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda kids: st.lists(kids) | st.dictionaries(st.text(), kids),
                    max_leaves=20))  # fmt: skip
def test_screen_answers_or_passes_any_json_value(value: Any) -> None:
    """Whatever JSON arrives as ``params``, the line is passed on only if the
    SDK's own validation accepts it; otherwise it gets a strict-JSON reply."""
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": value})
    verdict = screen(line.encode("utf-8", errors="surrogatepass"))
    assert verdict is not None
    if isinstance(verdict, Reply):
        strict(verdict.line().encode())
    else:
        assert verdict == line


def test_depth_bound_is_below_the_sdk_parsers() -> None:
    ok = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":' + "[" * 90 + "]" * 90 + "}}"
    assert screen(ok.encode()) == ok
    deep = ok.replace("[" * 90, "[" * (MAX_DEPTH + 5)).replace("]" * 90, "]" * (MAX_DEPTH + 5))
    verdict = screen(deep.encode())
    assert isinstance(verdict, Reply) and verdict.code == -32600 and verdict.id == 1
