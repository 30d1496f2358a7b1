"""Stamping a conversation with realistic times: the model of §2.4 and Appendix B.4.

Per conversation, three pace variables are drawn (Table 3):

* reading speed r ~ TN(238, 60, [50, ∞)) words per minute;
* writing speed w ~ TLN(3.61, 0.40, [5, ∞)) words per minute (μ and σ are of
  ln w; the bounds are in words per minute);
* generation speed g ~ TN(40, 16, [10, ∞)) words per second.

Then, from the start time: the first non-system message is stamped at the
start (a system prompt shares the time of what follows it, as in the
benchmark); a user message takes ``words / w`` minutes of writing, plus
``words / r`` minutes of reading the previous assistant message when it
follows one; an assistant message takes ``words / g`` seconds (a tool call's
words are its names and arguments); a tool message takes 1 s. Each delta gets
a jitter ε ~ N(0, σε²) and is floored at 0 so time never runs backwards; the
paper does not give σε, tsolve uses 1 s. Times are rounded to whole seconds,
as the benchmark writes them.

Finally the last message (a user question) gets three times, one per elapsed
level, from Table 4's truncated normals for the chosen sensitivity (a month is
30 days here), each gap rounded to whole seconds, which keeps it within its
integer bounds. Record i of a run draws from
``tsolve.generators.seeding.record_np_rng("tictoc-timestamp", TIMESTAMP_VERSION, seed, i)``
(the key every family uses) so it depends only on (seed, i, sensitivity, start).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tsolve.errors import TsolveError
from tsolve.families.tictoc.data import iso, parse_time
from tsolve.families.tictoc.sensitivity import SENSITIVITIES, TABLE4, Sensitivity, unit_span
from tsolve.generators.seeding import record_np_rng
from tsolve.records import BadRow, iter_json_rows
from tsolve.records.validation import bad, expect_dict, expect_list, expect_str

#: 2: randomness from tsolve.generators.seeding (the key every family uses), not [seed, i].
TIMESTAMP_VERSION = "2"

READ = (238.0, 60.0, 50.0, math.inf)
"""Table 3: reading speed TN(μ, σ, [a, b]) in words per minute."""
WRITE = (3.61, 0.40, 5.0, math.inf)
"""Table 3: writing speed TLN(μ, σ, [a, b]): μ, σ of ln(wpm); a, b in wpm."""
GENERATE = (40.0, 16.0, 10.0, math.inf)
"""Table 3: generation speed TN(μ, σ, [a, b]) in words per second."""
TOOL_SECONDS = 1.0
JITTER_SD = 1.0
DEFAULT_START = "2025-01-01T09:00:00Z"
ROLES = ("system", "developer", "user", "assistant", "tool", "function")


def truncated_normal(
    rng: np.random.Generator, mean: float, sd: float, low: float, high: float, size: int
) -> np.ndarray:
    """``size`` draws of N(mean, sd²) conditioned on [low, high], by rejection
    (exact; every bound tsolve uses keeps the acceptance rate above 95 %)."""
    if not low < high or sd <= 0:
        raise ValueError("need low < high and sd > 0")
    out = np.empty(0)
    while out.size < size:
        draw = rng.normal(mean, sd, size=max(16, 2 * (size - out.size)))
        out = np.concatenate((out, draw[(draw >= low) & (draw <= high)]))
    return out[:size]


def truncated_lognormal(
    rng: np.random.Generator, mu: float, sigma: float, low: float, high: float, size: int
) -> np.ndarray:
    """X = exp(Y), Y ~ N(mu, sigma²) conditioned on X in [low, high]."""
    lo = math.log(low) if low > 0 else -math.inf
    hi = math.log(high) if high < math.inf else math.inf
    return np.exp(truncated_normal(rng, mu, sigma, lo, hi, size))


@dataclass(frozen=True)
class Speeds:
    read_wpm: float
    write_wpm: float
    generate_wps: float

    def to_json(self) -> dict[str, float]:
        return {"read_wpm": round(self.read_wpm, 3), "write_wpm": round(self.write_wpm, 3),
                "generate_wps": round(self.generate_wps, 3)}  # fmt: skip


def draw_speeds(rng: np.random.Generator) -> Speeds:
    r = float(truncated_normal(rng, *READ, 1)[0])
    w = float(truncated_lognormal(rng, *WRITE, 1)[0])
    g = float(truncated_normal(rng, *GENERATE, 1)[0])
    return Speeds(r, w, g)


def draw_gaps(rng: np.random.Generator, sensitivity: Sensitivity, size: int = 1) -> np.ndarray:
    """A (size, 3) array of final gaps in whole seconds (small, medium, large)."""
    cols = []
    for spec in TABLE4[sensitivity]:
        unit = unit_span(spec.unit, 1, "30d", None)
        x = truncated_normal(rng, spec.mean, spec.sd, spec.low, spec.high, size)
        cols.append(np.round(x * unit))
    return np.stack(cols, axis=1)


def words(message: dict[str, Any]) -> int:
    """Words of a message's text, plus its tool calls' names and arguments."""
    parts: list[str] = []
    content = message.get("content")
    if isinstance(content, str):
        parts.append(content)
    elif isinstance(content, list):
        parts.extend(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    for call in message.get("tool_calls") or []:
        fn = call.get("function") if isinstance(call, dict) else None
        if isinstance(fn, dict):
            parts.append(str(fn.get("name", "")))
            args = fn.get("arguments", "")
            parts.append(args if isinstance(args, str) else json.dumps(args))
    return sum(len(p.split()) for p in parts)


def check_conversation(messages: Any, field: str) -> list[dict[str, Any]]:
    msgs = expect_list(messages, field, 10_000, min_len=2)
    for i, m in enumerate(msgs):
        expect_dict(m, f"{field}[{i}]")
        role = expect_str(m.get("role"), f"{field}[{i}].role", 100)
        if role not in ROLES:
            raise bad(f"{field}[{i}].role", "one of " + ", ".join(ROLES), role)
    if msgs[-1]["role"] != "user":
        raise bad(f"{field}[{len(msgs) - 1}].role", "'user' (the final question)", msgs[-1]["role"])
    return msgs


def stamp(
    messages: list[dict[str, Any]],
    sensitivity: Sensitivity,
    rng: np.random.Generator,
    start: dt.datetime,
) -> tuple[list[dict[str, Any]], list[float], Speeds]:
    """A stamped copy of ``messages``, the three final gaps (s), the speeds drawn."""
    if sensitivity not in SENSITIVITIES:
        raise TsolveError(
            f"sensitivity: expected one of {', '.join(SENSITIVITIES)}, got {sensitivity!r}"
        )
    speeds = draw_speeds(rng)
    t = 0.0
    started = False
    stamped: list[dict[str, Any]] = []
    body = messages[:-1]
    for i, msg in enumerate(body):
        role = msg["role"]
        if role in ("system", "developer"):
            delta = 0.0
        elif not started:
            delta, started = 0.0, True
        else:
            if role == "user":
                delta = words(msg) / speeds.write_wpm * 60
                prev = body[i - 1]
                if prev["role"] == "assistant":
                    delta += words(prev) / speeds.read_wpm * 60
            elif role == "assistant":
                delta = words(msg) / speeds.generate_wps
            else:  # tool / function
                delta = TOOL_SECONDS
            delta = max(0.0, delta + float(rng.normal(0.0, JITTER_SD)))
        t += delta
        stamped.append({**msg, "time": iso(start + dt.timedelta(seconds=round(t)))})
    anchor = start + dt.timedelta(seconds=round(t))
    gaps = [float(g) for g in draw_gaps(rng, sensitivity)[0]]
    final_times = [iso(anchor + dt.timedelta(seconds=g)) for g in gaps]
    stamped.append({**messages[-1], "time": final_times})
    return stamped, gaps, speeds


def _conversation_of(row: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    key = "messages" if "messages" in row else "history"
    if key not in row:
        raise TsolveError("messages: missing (a conversation row needs 'messages' or 'history')")
    return key, check_conversation(row[key], key)


def iter_conversations(path: str | Path) -> Iterator[tuple[str, dict[str, Any]] | BadRow]:
    """``(key, row)`` per conversation. A file whose rows are all messages
    (each has ``role``) is one conversation, stored under ``history``."""
    rows = list(iter_json_rows(path))
    if rows and all(isinstance(r, dict) and "role" in r for r in rows):
        try:
            yield "history", {"history": check_conversation(rows, "messages")}
        except TsolveError as exc:
            yield BadRow(Path(path).name, str(exc))
        return
    if not rows:
        raise TsolveError(f"file: {Path(path).name} holds no conversation")
    for i, row in enumerate(rows):
        if isinstance(row, BadRow):
            yield row
            continue
        try:
            key, _ = _conversation_of(row)
        except TsolveError as exc:
            yield BadRow(f"{Path(path).name}[{i}]", str(exc))
            continue
        yield key, row


def stamp_file(
    path: str | Path, sensitivity: Sensitivity, seed: int, start: str = DEFAULT_START
) -> Iterable[dict[str, Any] | BadRow]:
    """Each conversation in ``path`` stamped; record i draws from its own
    generator (:func:`tsolve.generators.seeding.record_np_rng`)."""
    t0 = parse_time(start, "start")
    if sensitivity not in SENSITIVITIES:
        raise TsolveError(
            f"sensitivity: expected one of {', '.join(SENSITIVITIES)}, got {sensitivity!r}"
        )
    if seed < 0:
        raise TsolveError(f"seed: must be non-negative, got {seed}")
    for i, item in enumerate(iter_conversations(path)):
        if isinstance(item, BadRow):
            yield item
            continue
        key, row = item
        rng = record_np_rng("tictoc-timestamp", TIMESTAMP_VERSION, seed, i)
        history, gaps, speeds = stamp(row[key], sensitivity, rng, t0)
        out = {k: v for k, v in row.items() if k != key}
        out.setdefault("id", f"conversation-{i}")
        out.update({"history": history, "sensitivity": sensitivity,
                    "gaps_seconds": gaps, "speeds": speeds.to_json()})  # fmt: skip
        yield out
