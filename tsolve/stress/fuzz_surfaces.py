"""Hostile input for the surfaces beyond scoring: claim checking, the
families' own surfaces (each family's ``fuzz_surfaces`` part: tool-call
detection, a tagger, a text solver), the audit of every family, the MCP
server's wire, Hugging Face round trips with non-finite numbers, and
(:mod:`tsolve.stress.fuzz_adapters`) the MCP
server's tool and prompt arguments, TicToc tool-call arguments and the
reasoning-gym / facade / verifiers config values, and
(:mod:`tsolve.stress.fuzz_outputs`) Inspect logs read by ``tsolve report``,
the pictures ``report --plot`` draws, and the folders the output commands
replace.

Each surface takes a random input (from ``random.Random(seed)`` alone, so a
campaign is reproducible) and must do one of two things: return a result
whose JSON is strict (``allow_nan=False``: no ``NaN``/``Infinity`` a strict
parser rejects), or raise :class:`~tsolve.errors.TsolveError` (the input is
reported). Anything else is a failure: another exception, a backstop
``internal error``, a hang (over ``timeout`` seconds, a guard, not a speed
limit), output that is not strict JSON, or (MCP) a request left unanswered.

:func:`surface_campaign` spreads a budget of inputs over the surfaces;
``tsolve stress all --fuzz --budget N`` runs it beside the family campaigns
(:mod:`tsolve.stress.fuzz`), and tests/test_fuzz.py runs a small slice.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tsolve.errors import INTERNAL, TsolveError
from tsolve.stress import fuzz_adapters, fuzz_outputs
from tsolve.stress import fuzz_records as records_surfaces
from tsolve.stress.fuzz import (
    FuzzFailure,
    FuzzReport,
    _deadline,
    _Hang,
    base_records,
    fuzzable_families,
    mutate,
    random_output,
)


def family_surfaces() -> dict[str, Any]:
    """The built-in families' own surfaces (each family's ``fuzz_surfaces``
    part: name -> ``case(rng) -> (label, call)``), in registry order."""
    from tsolve.contract import builtin_families

    return {name: part for f in builtin_families() for name, part in f.fuzz_surfaces.items()}


SURFACES: tuple[str, ...] = (
    "claims", *family_surfaces(), "audit", "mcp", "hf",
    "mcp-args", "tictoc-args", "configs", "report", "report-plot", "out-folders",
    "facade-entries", "stress-flags",
)  # fmt: skip
"""Every surface a campaign covers, in the order the budget is dealt out."""

# What tsolve reads back from records and tables, and the folders it
# replaces (tsolve.stress.fuzz_records): overlap, audit-forms, user-folders,
# hub-pandas, solve-check.
SURFACES = (*SURFACES, *records_surfaces.SURFACES)


def strict_json(value: Any) -> str:
    """``value`` as strict JSON, or :class:`ValueError` naming what is not."""
    return json.dumps(value, allow_nan=False, default=_no_default)


def _no_default(value: Any) -> Any:
    raise ValueError(f"not JSON: {type(value).__name__}")


# ------------------------------------------------------------------ inputs

_CLAIM_PIECES = (
    "March 6, 2023 is a Tuesday.", "2024 is a leap year.", "100 days after 2024-01-01 is ",
    "Chinese New Year 2024 is February 10.", "There are 30 days in February.",
    "5 Adar II 5784 is ", "between 2020-01-01 and 2021-01-01 there are 366 days",
    "1" * 50, "Action: search\nAction Input: {", "<tool_call>{\"name\": \"x\"", "Q3 0000",
    "H1 0000", "the 1990s", "last week", "since 1999", "Q4 2023", "2023-W52", "{", "}",
)  # fmt: skip


def hostile_text(rng: random.Random, max_len: int) -> str:
    """A model output (see :func:`~tsolve.stress.fuzz.random_output`) mixed with
    the sentences the claims grammar, the TicToc rules and the TEMPO tagger read."""
    parts = [random_output(rng, max_len=max_len // 2)]
    for _ in range(rng.randint(0, 8)):
        parts.append(rng.choice(_CLAIM_PIECES))
        parts.append(rng.choice((" ", "\n", "", ". ")))
    if rng.random() < 0.2:  # a long run of one kind: digits, newlines, spaces, brackets
        parts.append(rng.choice(("1", "\n", " ", "[", "(", "Q3 ")) * rng.randint(1, max_len // 4))
    return "".join(parts)[:max_len]


def hostile_message(rng: random.Random) -> Any:
    """A TicToc model message: text, or an OpenAI-style dict with odd fields."""
    roll = rng.random()
    if roll < 0.6:
        return hostile_text(rng, rng.choice((200, 2_000)))
    odd_name = rng.choice((1, None, ""))
    calls: Any = rng.choice(([], [{}], [{"function": {"name": "x"}}], [{"function": None}],
                             None, "x", [1], [{"function": {"name": odd_name}}]))  # fmt: skip
    msg: dict[str, Any] = {"role": "assistant", "content": rng.choice((None, "", "hi", 5, []))}
    if rng.random() < 0.7:
        msg["tool_calls"] = calls
    if rng.random() < 0.3:
        msg["function_call"] = rng.choice(({"name": "x"}, {}, None, "x"))
    return msg


_NON_FINITE = (math.nan, math.inf, -math.inf)


def with_non_finite(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` with one to three numbers (or other values) replaced by NaN or ±inf."""
    rec = json.loads(json.dumps(record))

    def walk(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, Any]]:
        if isinstance(node, dict):
            for k, v in node.items():
                yield node, k
                yield from walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield node, i
                yield from walk(v, (*path, i))

    places = list(walk(rec, ()))
    numbers = [(p, k) for p, k in places if isinstance(p[k], int | float)]
    for _ in range(rng.randint(1, 3)):
        pool = numbers if numbers and rng.random() < 0.8 else places
        if not pool:
            break
        parent, key = rng.choice(pool)
        parent[key] = rng.choice(_NON_FINITE)
    return rec


def hostile_line(rng: random.Random) -> bytes:
    """One line for the MCP server: JSON-RPC requests with poisoned parts."""
    roll = rng.random()
    if roll < 0.15:
        return rng.choice((b"not json", b"[]", b"null", b"42", b'"x"', b"{", b"\xff\xfe",
                           b"[" * rng.randint(1, 5000), b"{}", b'{"jsonrpc":"2.0"}'))  # fmt: skip
    if roll < 0.25:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 80))).replace(b"\n", b" ")
    rid: Any = rng.choice((1, "a", 0, -5, 2**70, None, True, 1.5, {"a": 1}, [1], ""))
    args: dict[str, Any] = rng.choice((
        {"text": hostile_text(rng, 300)},
        {"calendar_name": rng.choice(("gregorian", "hebrew", "x")),
         "year": rng.choice((2024, -1, 10**9)), "month": rng.choice((1, "Nisan", 13, None)),
         "day": rng.choice((1, 31, 0))},
        {"date": rng.choice(("2024-02-29", "2023-02-29", "5784-Adar II-14", ""))},
        {"facts": rng.choice(([], [{"kind": "weekday", "params": {"weekday": "Monday"}}], "x"))},
    ))  # fmt: skip
    name = rng.choice(("check_claim", "search_calendar", "convert_date", "solve_facts", "nope", ""))
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": rng.choice(("tools/call", "ping",
                           "tools/list", "x"))}  # fmt: skip
    if rng.random() < 0.9:
        msg["id"] = rid
    if msg["method"] == "tools/call":
        msg["params"] = {"name": name, "arguments": args}
    text = json.dumps(msg, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.3:  # splice a poison escape or token into the text
        poison = rng.choice(('"\\ud800"', '"\\udfff x"', "NaN", "Infinity", "1e400", "[" * 300))
        cut = text.rfind("}", 0, len(text) - 1)
        text = text[:cut] + ',"p":' + poison + text[cut:]
    return text.encode("utf-8", errors="surrogatepass")


# ------------------------------------------------------------------ surfaces


def _claims(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    from tsolve.claims import check_claims

    text = hostile_text(rng, rng.choice((200, 2_000, 8_000)))
    return f"{len(text)} chars", lambda: [c.to_json() for c in check_claims(text)]


def _audit(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    from tsolve.audit.report import audit_record

    family = rng.choice(_audit_families())
    rec, what = mutate(rng.choice(bases(family)), rng)

    def run() -> Any:
        result = audit_record(rec)
        out = result.to_json()
        if INTERNAL in json.dumps(out, default=str):
            raise AssertionError(f"backstop: {json.dumps(out, default=str)[:200]}")
        return out

    return f"{family}: {what}", run


def _mcp(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    from tsolve.adapters.mcp_stdio import Reply, screen

    line = hostile_line(rng)

    def run() -> Any:
        verdict = screen(line)
        if isinstance(verdict, Reply):
            return json.loads(verdict.line())
        return verdict

    return line[:60].decode("utf-8", errors="replace"), run


def _hf(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    from tsolve.records import hf

    family = rng.choice(fuzzable_families())
    records = [with_non_finite(r, rng) for r in rng.sample(bases(family), 2)]

    def run() -> Any:
        # Non-finite numbers must be refused (TsolveError), never stored and
        # read back as NaN: the campaign's strict-JSON check catches those.
        return hf.from_dataset(hf.to_dataset(records))

    return f"{family}: non-finite numbers", run


_SURFACE_CALLS: dict[str, Callable[[random.Random], tuple[str, Callable[[], Any]]]] = {
    "claims": _claims, "audit": _audit, "mcp": _mcp, "hf": _hf,
    # The families' own surfaces (their ``fuzz_surfaces`` parts).
    **family_surfaces(),
    # The adapters' arguments and configs: tsolve.stress.fuzz_adapters.
    "mcp-args": fuzz_adapters.mcp_args, "tictoc-args": fuzz_adapters.tictoc_args,
    "configs": fuzz_adapters.configs,
    # What tsolve reads back and writes out: tsolve.stress.fuzz_outputs.
    "report": fuzz_outputs.report_input, "report-plot": fuzz_outputs.report_plot_input,
    "out-folders": fuzz_outputs.folders_input,
    # The public library calls and tsolve stress's flags: tsolve.stress.fuzz_adapters.
    "facade-entries": fuzz_adapters.facade_entries,
    "stress-flags": fuzz_adapters.stress_flags,
}  # fmt: skip
# The records surfaces: tsolve.stress.fuzz_records.
_SURFACE_CALLS.update(records_surfaces.SURFACE_CALLS)

_BASES: dict[str, list[dict[str, Any]]] = {}
"""Valid records per family, drawn once per process (seed 0): the inputs mutate copies."""


def bases(family: str) -> list[dict[str, Any]]:
    """Valid records of ``family`` for a surface's inputs to mutate (drawn once)."""
    if family not in _BASES:
        _BASES[family] = base_records(family, 0)
    return _BASES[family]


def _audit_families() -> list[str]:
    from tsolve.contract import get_family

    return [f for f in fuzzable_families() if get_family(f).audit is not None]


# ------------------------------------------------------------------ the campaign


def check_surface(
    surface: str, rng: random.Random, timeout: float, case: dict[str, Any] | None = None
) -> tuple[FuzzFailure | None, bool, float, str]:
    """One random input through ``surface``: (failure or None, reported, seconds,
    label); ``case`` (e.g. the seed and index that reproduce it) goes into a failure."""
    label, call = _SURFACE_CALLS[surface](rng)
    t0 = time.perf_counter()
    case = {"surface": surface, "input": label, **(case or {})}
    try:
        with _deadline(timeout):
            result = call()
    except TsolveError:
        return None, True, time.perf_counter() - t0, label
    except _Hang:
        return FuzzFailure("hang", surface, f"over {timeout:g} s", case), False, timeout, label
    except AssertionError as exc:
        return FuzzFailure("internal", surface, str(exc)[:300], case), False, 0.0, label
    except Exception as exc:  # what the campaign is here to find
        msg = f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
        return FuzzFailure("exception", surface, msg, case), False, 0.0, label
    took = time.perf_counter() - t0
    try:
        strict_json(result)
    except ValueError as exc:
        return FuzzFailure("non-strict-json", surface, str(exc)[:200], case), False, took, label
    return None, False, took, label


def warm_up(surface: str) -> None:
    """One throwaway input through ``surface``, with no deadline: the first call
    builds what a process builds once (calendar tables, the claims grammar,
    a family's sample records), which must not be timed as a hang."""
    try:
        _label, call = _SURFACE_CALLS[surface](random.Random(f"warm-up:{surface}"))
        call()
    except Exception:  # what it raises is the campaign's business, not the warm-up's
        pass


def surface_campaign(
    inputs: int,
    seed: int = 0,
    timeout: float = 10.0,
    surfaces: tuple[str, ...] = SURFACES,
    on_case: Callable[[], None] | None = None,
) -> dict[str, FuzzReport]:
    """``inputs`` random inputs dealt round-robin over ``surfaces``; one report
    per surface (``outputs`` counts its inputs, ``reported_rows`` those
    rejected with a :class:`TsolveError`)."""
    unknown = sorted(set(surfaces) - set(SURFACES))
    if unknown:
        raise TsolveError(f"fuzz: unknown surface {unknown[0]!r} (known: {', '.join(SURFACES)})")
    reports = {s: FuzzReport(seed=seed) for s in surfaces}
    rngs = {s: random.Random(f"tsolve-fuzz-surface:{s}:{seed}") for s in surfaces}
    for s in surfaces:
        warm_up(s)
    started = {s: 0.0 for s in surfaces}
    for k in range(inputs):
        surface = surfaces[k % len(surfaces)]
        report = reports[surface]
        t0 = time.perf_counter()
        n = report.outputs  # the input's index within its surface: with seed, its replay
        where = {"seed": seed, "index": n}
        failure, reported, took, label = check_surface(surface, rngs[surface], timeout, where)
        started[surface] += time.perf_counter() - t0
        report.outputs += 1
        report.reported_rows += reported
        if failure is not None:
            report.failures.append(failure)
        if took > report.slowest_seconds:
            report.slowest_seconds, report.slowest_case = took, f"input {k}: {label}"[:120]
        if on_case is not None:
            on_case()
    for s in surfaces:
        reports[s].seconds = started[s]
    return reports


# ------------------------------------------------------------------ the MCP wire, for real


@contextmanager
def _server() -> Iterator[subprocess.Popen[bytes]]:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root),
           os.environ.get("PYTHONPATH")]))}  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "tsolve", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)  # fmt: skip
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def mcp_wire_campaign(lines: int, seed: int = 0, timeout: float = 60.0) -> FuzzReport:
    """``lines`` hostile lines through one real ``tsolve mcp`` over raw JSON-RPC.

    After each line a ``ping`` with a fresh id follows; every reply up to the
    ping's must be strict JSON, and a line that is a request (or is answered by
    :func:`~tsolve.adapters.mcp_stdio.screen`) must have had exactly one. A reply that
    never comes within ``timeout`` seconds is a hang, and ends the campaign."""
    import select

    from tsolve.adapters.mcp_stdio import Reply, screen

    rng = random.Random(f"tsolve-fuzz-mcp-wire:{seed}")
    report = FuzzReport(seed=seed)
    t_start = time.perf_counter()
    with _server() as proc:
        assert proc.stdin is not None and proc.stdout is not None
        out_fd = proc.stdout.fileno()
        pending = b""

        def send(raw: bytes) -> None:
            assert proc.stdin is not None
            proc.stdin.write(raw + b"\n")
            proc.stdin.flush()

        def replies_until(wanted: set[Any]) -> list[Any] | None:
            """Every reply up to the one that completes ``wanted`` (ids), or
            None if they do not all come within ``timeout``."""
            nonlocal pending
            got: list[Any] = []
            missing = set(wanted)
            deadline = time.monotonic() + timeout
            while True:
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    msg = json.loads(line, parse_constant=_refuse_constant)
                    got.append(msg)
                    missing.discard(msg.get("id"))
                if not missing:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                ready, _, _ = select.select([out_fd], [], [], left)
                if ready:
                    chunk = os.read(out_fd, 1 << 16)
                    if not chunk:
                        return None
                    pending += chunk

        init = {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "0"}}}  # fmt: skip
        send(json.dumps(init).encode())
        if replies_until({"init"}) is None:
            report.failures.append(FuzzFailure("hang", "mcp-wire", "no reply to initialize", {}))
            return report
        send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for k in range(lines):
            raw = hostile_line(rng)
            verdict = screen(raw)
            if isinstance(verdict, str) and _is_request(verdict):
                # A fresh id, so that its reply is told apart from earlier ones.
                msg = json.loads(verdict)
                msg["id"] = f"q-{k}"
                raw = json.dumps(msg).encode()
                verdict = screen(raw)
            ping = f"ping-{k}"
            wanted: set[Any] = {ping}
            expected = 0
            if isinstance(verdict, Reply):
                wanted.add(verdict.id)
                expected = 1
            elif isinstance(verdict, str) and _is_request(verdict):
                wanted.add(f"q-{k}")
                expected = 1
            send(raw)
            send(f'{{"jsonrpc":"2.0","id":"{ping}","method":"ping"}}'.encode())
            case = {"line": raw[:300].decode("utf-8", errors="backslashreplace")}
            try:
                got = replies_until(wanted)
            except ValueError as exc:
                report.failures.append(FuzzFailure("non-strict-json", "mcp-wire", str(exc), case))
                break
            report.outputs += 1
            if got is None:
                report.failures.append(
                    FuzzFailure("unanswered", "mcp-wire", f"no reply in {timeout:g} s", case)
                )
                break
            answers = [g for g in got if g.get("id") != ping]
            if len(answers) != expected:
                report.failures.append(FuzzFailure(
                    "extra-reply", "mcp-wire", f"{len(answers)} replies, expected {expected}",
                    case))  # fmt: skip
            report.reported_rows += any("error" in g for g in answers)
    report.seconds = time.perf_counter() - t_start
    return report


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-strict JSON constant {name} in a reply")


def _is_request(passed: str) -> bool:
    """Is a line the screen passed on a request (``method`` and ``id``), which
    must get a reply, rather than a notification or a response?"""
    msg = json.loads(passed)
    return "method" in msg and "id" in msg


def budget_split(budget: int, families: int) -> tuple[int, int, int, int]:
    """How ``tsolve stress --fuzz --budget N`` deals N inputs out: (model outputs
    per family, mutated records per family, surface inputs, MCP wire lines).

    About 5% go over the real MCP wire (each a round trip to a subprocess),
    55% to the in-process surfaces and the rest to the family campaigns,
    half outputs and half mutations, so the total is N (up to rounding)."""
    wire = budget // 20
    surfaces = budget * 55 // 100
    per_family = (budget - wire - surfaces) // max(1, families)
    return per_family - per_family // 2, per_family // 2, surfaces, wire


def failure_counts(reports: dict[str, FuzzReport]) -> dict[str, int]:
    """Failures by kind over all reports (crashes are ``exception`` and ``internal``)."""
    counts: dict[str, int] = {}
    for r in reports.values():
        for f in r.failures:
            counts[f.kind] = counts.get(f.kind, 0) + 1
    return counts
