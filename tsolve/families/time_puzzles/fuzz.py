"""The time-puzzles family's own surface for ``tsolve stress all --fuzz
--budget N`` (:mod:`tsolve.stress.fuzz_surfaces`): ``tsolve solve
--text-file`` on shuffled, cut and hostile puzzle text."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tsolve.errors import INTERNAL


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
