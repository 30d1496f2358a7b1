"""Time-puzzle generation of two checkouts, in alternating fresh processes.

    python benchmarks/experiments/generation_ab.py OLD_TREE NEW_TREE [--n 300] [--pairs 4]
        [--config "{'minimal': True}"]

Each run imports tsolve from its tree (``PYTHONPATH``), generates 60 warm-up
puzzles, then times ``--n`` puzzles (seed 1, M cycling 1..6, the given
``PuzzleConfig`` fields) in CPU time. Runs alternate OLD NEW, NEW OLD, ... so
the machine's drift hits both alike; the figure is the median per-pair ratio
NEW / OLD. For a change to the generator, not for absolute rates (those are
``benchmarks/experiments/generation_targets.py``'s, against a peer).
"""

from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import sys

CODE = """
import time
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
cfg = PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), **{config})
for i in range(60):
    generate_puzzle(900, i, cfg)
t = time.process_time()
for i in range({n}):
    generate_puzzle(1, i, cfg)
print({n} / (time.process_time() - t))
"""


def rate(tree: str, n: int, config: dict[str, object]) -> float:
    out = subprocess.run(
        [sys.executable, "-c", CODE.format(n=n, config=config)],
        env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True, cwd="/",
    )  # fmt: skip
    return float(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--config", default="{}", help="PuzzleConfig fields, a Python dict literal")
    args = ap.parse_args()
    config = ast.literal_eval(args.config)
    rates: dict[str, list[float]] = {args.old: [], args.new: []}
    for p in range(args.pairs):
        for tree in (args.old, args.new) if p % 2 == 0 else (args.new, args.old):
            rates[tree].append(rate(tree, args.n, config))
    for tree, rs in rates.items():
        print(f"{tree}: {statistics.median(rs):.0f} puzzles/s  {[round(r) for r in rs]}")
    ratios = [b / a for a, b in zip(rates[args.old], rates[args.new], strict=True)]
    print(f"new/old: {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
