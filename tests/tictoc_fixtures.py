"""Hand-built TicToc-format items (the benchmark's own shape) for the tests.

The shared sample has no license, so the tests never copy it: they build
items here, with invented content, read ``fixtures/tictoc_invented.json``
(invented conversations in the benchmark's bundle shape, written by
``fixtures/make_tictoc_invented.py``), and add the shared sample as a further
case only when ``../shared`` is present.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

SHARED_SAMPLE = (
    Path(__file__).resolve().parents[1].parent / "shared" / "samples" / "tictoc_sample.json"
)
INVENTED_SAMPLE = Path(__file__).resolve().parent / "fixtures" / "tictoc_invented.json"
SAMPLE_BUNDLES = [
    pytest.param(INVENTED_SAMPLE, id="invented"),
    *([pytest.param(SHARED_SAMPLE, id="shared")] if SHARED_SAMPLE.exists() else []),
]
"""Bundles the sample-wide tests run on: always the invented one, and the
shared sample too when ``../shared`` is beside the repository (not a skip:
a fresh clone has nothing missing)."""

START = dt.datetime(2024, 5, 6, 8, 0, 0, tzinfo=dt.timezone.utc)
HOUR, DAY = 3600, 86400
MONTH30 = 30 * DAY

# Table 4 written out again in seconds, independently of tsolve.families.tictoc.sensitivity,
# with 30-day months (the audit's first convention).
M, D, H, MIN = 30 * 86400, 86400, 3600, 60
TABLE4_SECONDS = {
    "low": ((MIN, 6 * MIN), (D, 6 * D), (M, 6 * M)),
    "medium": ((MIN, 6 * MIN), (H, 6 * H), (D, 6 * D)),
    "high": ((1, 6), (MIN, 6 * MIN), (H, 6 * H)),
}


def reference_levels(gaps: tuple[float, float, float]) -> set[str]:
    """Plain Python: the levels whose three intervals contain the three gaps."""
    return {lv for lv, cells in TABLE4_SECONDS.items()
            if all(lo <= g <= hi for g, (lo, hi) in zip(gaps, cells, strict=True))}  # fmt: skip


def parse_z(s: str) -> dt.datetime:
    """The benchmark's ``2024-05-06T08:00:00Z`` as a naive UTC datetime."""
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ")


def raw_final_gaps(item: dict[str, Any]) -> tuple[float, float, float]:
    """Seconds from the last history message to each final time, from the raw JSON."""
    h = item["history"]
    anchor = parse_z(h[-2]["time"])
    g = [(parse_z(t) - anchor).total_seconds() for t in h[-1]["time"]]
    return (g[0], g[1], g[2])


def raw_level(file_name: str) -> int:
    """The elapsed level in a benchmark file name: 2 for ``preferTool_elapse_2.json``."""
    return int(file_name.removesuffix(".json").rsplit("_", 1)[1])


GAPS = {  # one clear member of each Table 4 row, in seconds
    "low": (180, 3 * DAY, 3 * MONTH30),
    "medium": (180, 3 * HOUR, 3 * DAY),
    "high": (3, 180, 3 * HOUR),
}


def z(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def item(
    rid: str,
    gaps: tuple[float, float, float] = GAPS["medium"],
    offsets: tuple[int, ...] = (0, 0, 5, 6, 11),
    start: dt.datetime = START,
    with_tool: bool = True,
) -> dict[str, Any]:
    """A benchmark item: system, user, assistant call, tool result, assistant
    answer (at ``offsets`` seconds from ``start``), then the final question
    with three times ``gaps`` seconds after the last message."""
    call = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    bodies: list[dict[str, Any]] = [
        {"role": "system", "content": "You help with lookups."},
        {"role": "user", "content": "What is the status of order 7?"},
        {"role": "assistant", "content": None, "tool_calls": [call]}
        if with_tool
        else {"role": "assistant", "content": "Let me think."},
        {"role": "tool", "tool_call_id": "c1", "name": "lookup", "content": '{"status": "open"}'}
        if with_tool
        else {"role": "user", "content": "Take your time."},
        {"role": "assistant", "content": "Order 7 is open."},
    ]
    msgs = [
        {**b, "time": z(start + dt.timedelta(seconds=off))}
        for b, off in zip(bodies, offsets, strict=True)
    ]
    last = start + dt.timedelta(seconds=offsets[-1])
    msgs.append({"role": "user", "content": "and now?",
                 "time": [z(last + dt.timedelta(seconds=g)) for g in gaps]})  # fmt: skip
    fn = [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}]
    return {"id": rid, "history": msgs, "function": fn}


def write_bundle(path: Path, files: dict[str, list[dict[str, Any]]]) -> Path:
    path.write_text(json.dumps(files, indent=1))
    return path


def write_rows(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path
