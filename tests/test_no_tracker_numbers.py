"""No tracker numbers in the code, tests, docs or benchmarks.

A reader outside the project's tracker cannot follow "see issue N": the
sentence should say what the constraint is and why. The history (which
change came from which request) belongs in CHANGELOG.md and the commit
messages, which this test does not read.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACKER = re.compile(r"\bissues? [0-9]+", re.IGNORECASE)
PLACES = ("tsolve", "tests", "docs", "benchmarks", "README.md")
TEXT = {".py", ".md", ".txt", ".toml", ".yaml", ".yml", ".json", ".jsonl", ".cfg", ".ini"}


def _files() -> list[Path]:
    out = []
    for place in PLACES:
        path = ROOT / place
        out += [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in TEXT)
    return out


def test_the_pattern_finds_a_tracker_number() -> None:
    assert TRACKER.search("(" + "Issue" + " 26, part 4)")
    assert not TRACKER.search("an issue with 2 dates; issues 'x'")


def test_no_tracker_number_in_code_tests_docs_or_benchmarks() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
        for path in _files()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if TRACKER.search(line)
    ]
    assert not found, "tracker numbers (say the reason instead):\n" + "\n".join(found)
