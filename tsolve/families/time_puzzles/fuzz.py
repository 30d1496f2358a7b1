"""The time-puzzles family's own surfaces for ``tsolve stress all --fuzz
--budget N`` (:mod:`tsolve.stress.fuzz_surfaces`): ``tsolve solve
--text-file`` on shuffled, cut and hostile puzzle text (``solve-text``), and
``library-args``: ``tsolve.generate_puzzle`` / ``generate_puzzles`` with a
hostile ``config``, ``index``, ``seed`` or override. A refusal must be one
line; an accepted call must make a record whose ``generator.index`` is the
non-negative integer asked for (``True`` or ``-1`` written into a record is
a failure, as is an ``AttributeError``)."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tsolve.errors import INTERNAL, TsolveError


def solve_text_case(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A stored puzzle's prompt with its lines shuffled and cut, hostile text
    appended, or hostile text alone; a partial reading must say so."""
    from tsolve.families.time_puzzles.solve_text import solve_text_file
    from tsolve.stress.fuzz_surfaces import bases, hostile_text

    rec = rng.choice(bases("time-puzzles"))
    text = str(rec.get("prompt", ""))
    roll = rng.random()
    if roll < 0.4:
        lines = text.splitlines()
        rng.shuffle(lines)
        text = "\n".join(lines[: rng.randint(0, len(lines))])
    elif roll < 0.8:
        text = text[: rng.randint(0, len(text))] + hostile_text(rng, 300)
    else:
        text = hostile_text(rng, 1_000)

    def run() -> Any:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "puzzles.txt"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            report = solve_text_file(path, limit=50, time_limit=2.0)
        for skipped in report.skipped:
            if INTERNAL in str(skipped):
                raise AssertionError(f"backstop: {skipped}")
        for r in report.results:
            if r["unread"] and (r["status"] != "partial-reading" or r["complete"]):
                raise AssertionError(f"a partial reading called {r['status']!r}")
        return report.results

    return f"{len(text)} chars", run


_INDEXES: tuple[tuple[str, Callable[[], Any]], ...] = (
    ("-1", lambda: -1), ("True", lambda: True), ("False", lambda: False),
    ("1.0", lambda: 1.0), ("'1'", lambda: "1"), ("None", lambda: None), ("3", lambda: 3),
)  # fmt: skip
_LIBRARY_CONFIGS: tuple[tuple[str, Callable[[], Any]], ...] = (
    ("5", lambda: 5), ("a dict", lambda: {"solutions": 2}), ("text", lambda: "solutions=2"),
    ("a list", lambda: [1]), ("None", lambda: None),
)  # fmt: skip


def library_args(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One hostile argument to a puzzle generator call (block comment above)."""
    which = rng.choice(("index", "config", "seed", "override", "batch-config"))
    if which in ("config", "batch-config"):
        what, make = rng.choice(_LIBRARY_CONFIGS)
        kwargs: dict[str, Any] = {"config": make()}
    elif which == "override":
        what, kwargs = "solution=2", {"solution": 2}
    else:
        what, make = rng.choice(_INDEXES)
        kwargs = {which: make()}
    return f"{which} = {what}", lambda: check_library_call(which, kwargs)


def check_library_call(which: str, kwargs: dict[str, Any]) -> Any:
    """``generate_puzzle(**kwargs)`` (``batch-config``: ``generate_puzzles``)
    refused in one line, or a record with the index asked for."""
    # The very functions ``tsolve.generate_puzzle`` / ``generate_puzzles``
    # export (the package's lazy exports name these).
    from tsolve.families.time_puzzles.generate import generate_puzzle, generate_puzzles
    from tsolve.stress.fuzz_adapters import one_bounded_line

    try:
        if which == "batch-config":
            records = list(generate_puzzles(1, **kwargs))
            return {"records": len(records)}
        record = generate_puzzle(**kwargs)
    except TsolveError as exc:
        one_bounded_line(str(exc))
        raise
    asked = kwargs.get("index", 0)
    got = record.get("generator", {}).get("index")
    if type(got) is not int or got < 0 or got != asked or type(asked) is not int:
        raise AssertionError(f"accepted {which}={asked!r}, wrote index {got!r} into the record")
    return {"index": got}
