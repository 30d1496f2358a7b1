"""Every benchmark script is listed in benchmarks/README.md.

The top level of ``benchmarks/`` holds what a user runs, each a row of the
"What to run" table (what it measures, the command, its cost); the
one-question experiments live in ``benchmarks/experiments/``, each a row of
the experiments table (the decision it backed, its results). A script added
without its row is a script nobody finds.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : None if end < 0 else end]


def _unlisted(folder: Path, section: str) -> list[str]:
    return [p.name for p in sorted(folder.glob("*.py")) if f"| `{p.name}` |" not in section]


def test_every_script_has_its_row() -> None:
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    top = _unlisted(BENCH, _section(readme, "## What to run"))
    experiments = _unlisted(BENCH / "experiments", _section(readme, "## Experiments"))
    assert not top, f"benchmarks/ scripts missing from 'What to run': {top}"
    assert not experiments, f"benchmarks/experiments/ scripts missing: {experiments}"


def test_an_unlisted_script_is_found() -> None:
    assert _unlisted(BENCH, "| `run_bench.py` |") != []
