"""Regenerate the pictures in docs/img/ (docs/pictures.md) with tsolve's own commands.

Run from the repository root with the plot extra installed:

    python docs/make_pictures.py

Each picture is one documented command; the generated records are pure
functions of their seeds, so the pictures change only when tsolve does.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

IMG = Path(__file__).parent / "img"
SAMPLE = Path(__file__).parent.parent / "tests" / "fixtures" / "unseentimeqa_sample.jsonl"


def tsolve(*args: str, stdout: Path | None = None) -> None:
    print("tsolve", " ".join(args))
    with open(stdout, "w") if stdout else open("/dev/null", "w") as out:
        subprocess.run([sys.executable, "-m", "tsolve", *args], check=True, stdout=out)


def main() -> None:
    IMG.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "lg.jsonl"
        tsolve("logistics", "generate", "--execution", "parallel", "--question", "hypothetical",
               "--count", "1", "--seed", "3", "--format", "jsonl", stdout=records)  # fmt: skip
        tsolve("logistics", "show", str(records), "--out", str(IMG / "gantt_generated.png"))
    tsolve("logistics", "show", str(SAMPLE), "--id", "1", "--out",
           str(IMG / "gantt_unseentimeqa.png"))  # fmt: skip
    tsolve("puzzle", "--seed", "1", "--solutions", "3", "--plot", str(IMG / "calendar_strip.png"))
    tsolve("puzzle", "--seed", "2", "--solutions", "2", "--plot",
           str(IMG / "calendar_strip_years.png"))  # fmt: skip
    tsolve("puzzle", "--seed", "5", "--solutions", "3", "--plot",
           str(IMG / "calendar_strip_close.png"))  # fmt: skip
    tsolve("puzzle", "--events", "4", "--seed", "2", "--plot", str(IMG / "relation_graph.png"))


if __name__ == "__main__":
    main()
