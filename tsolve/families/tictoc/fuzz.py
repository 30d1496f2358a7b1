"""TicToc's own surfaces for ``tsolve stress all --fuzz --budget N``
(:mod:`tsolve.stress.fuzz_surfaces`), each with an oracle of its own:

* ``tictoc-detect``: tool-call detection on hostile messages (text or a chat
  message) must return strict JSON or refuse in one line;
* ``tictoc-args``: a TicToc file holding one good item and one whose past
  tool call has hostile ``arguments`` (deep nesting, a long number, a lone
  surrogate escape, non-string JSON). The TicToc task must keep the good
  item (one bad row is reported, the rest go on) or refuse in one line.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError


def detect_case(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One hostile message (text or a chat message) through the detector."""
    import dataclasses

    from tsolve.families.tictoc.detect import detect_tool_call
    from tsolve.stress.fuzz_surfaces import hostile_message

    msg = hostile_message(rng)
    label = f"{len(msg)} chars" if isinstance(msg, str) else "message"
    return label, lambda: dataclasses.asdict(detect_tool_call(msg))


_ARGUMENTS: tuple[tuple[str, Callable[[], Any]], ...] = (
    ("100k '['", lambda: "[" * 100_000),
    ("100k '{\"a\":'", lambda: '{"a":' * 20_000),
    ("5,000 digits", lambda: "9" * 5000),
    ("a 5,000-digit field", lambda: '{"n": ' + "9" * 5000 + "}"),
    ("not JSON", lambda: "{server: web-3"),
    ("a JSON list", lambda: "[1, 2]"),
    ("a JSON number", lambda: "12"),
    ("an object", lambda: {"server": "web-3"}),
    ("a list", lambda: [1, 2]),
    ("null", lambda: None),
    ("a number", lambda: 10**30),
    ("1e400", lambda: '{"x": 1e400}'),
    ("NaN", lambda: '{"x": NaN}'),
    ("empty text", lambda: ""),
    ("a lone surrogate escape", lambda: '{"server": "\\ud800"}'),
    ("a lone surrogate", lambda: "\ud800"),
)


def _item(item_id: str, arguments: Any) -> dict[str, Any]:
    """A TicToc item in the benchmark's public shape (invented content)."""
    when = "2024-06-11T08:00:00Z"
    call = {"id": "call_1", "type": "function",
            "function": {"name": "get_load", "arguments": arguments}}  # fmt: skip
    return {
        "id": item_id,
        "history": [
            {"role": "system", "content": "You report server load.", "time": when},
            {"role": "user", "content": "How busy is web-3?", "time": when},
            {"role": "assistant", "content": None, "tool_calls": [call], "time": when},
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "name": "get_load",
                "content": '{"cpu": 91}',
                "time": when,
            },
            {
                "role": "user",
                "content": "Check web-3 again.",
                "time": [when, "2024-06-11T08:05:00Z", "2024-06-11T10:00:00Z"],
            },
        ],
        "function": [
            {
                "type": "function",
                "function": {
                    "name": "get_load",
                    "description": "Current load of a server.",
                    "parameters": {"type": "object", "properties": {"server": {"type": "string"}}},
                },
            }
        ],
    }


def arguments_case(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A TicToc file with one good item and one hostile one (module docstring)."""
    what, make = rng.choice(_ARGUMENTS)
    arguments = make()
    good_first = rng.random() < 0.5
    return f"tool-call arguments: {what}", lambda: check_arguments(arguments, good_first)


def check_arguments(arguments: Any, good_first: bool = True) -> Any:
    """The TicToc task's dataset from a file of a good item and one whose past
    tool call has ``arguments``: the good item must be kept, a skipped one
    said on stderr in one line (then this raises that line as a
    :class:`TsolveError`: the input was reported)."""
    items = [_item("good", '{"server": "web-3"}'), _item("hostile", arguments)]
    if not good_first:
        items.reverse()
    from tsolve.families.tictoc.inspect_task import tictoc_dataset
    from tsolve.stress.fuzz_adapters import one_bounded_line

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "preferTool_elapse_0.json"
        path.write_text(json.dumps(items), encoding="utf-8")
        with contextlib.redirect_stderr(io.StringIO()) as err:
            dataset = tictoc_dataset(path)
    ids = [str(s.id) for s in dataset]
    if "good@tool-0" not in ids:
        raise AssertionError(f"the good item was dropped with the hostile one: {ids}")
    said = err.getvalue().strip()
    if len(ids) < len(items) and not said:
        raise AssertionError("a bad item was skipped without a word on stderr")
    if said:
        one_bounded_line(said)
    if len(ids) < len(items):  # the hostile item was reported and skipped: counted as reported
        raise TsolveError(said[:200])
    return {"samples": ids}
