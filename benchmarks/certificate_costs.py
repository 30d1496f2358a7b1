"""What the solver certificates of time-puzzle generation cost, per puzzle, in
two checkouts, in alternating fresh processes.

    python benchmarks/certificate_costs.py OLD_TREE NEW_TREE [--n 300] [--pairs 3]

Each run imports tsolve from its tree (``PYTHONPATH``), wraps the generator's
certificate calls (``certify_known_gold``, ``certify_necessity``,
``certify_contradiction``, looked up in ``generate.py``'s namespace) with CPU
timers, generates 200 warm-up puzzles, then ``--n`` puzzles (seed 1) of three
kinds: default (M = 1..6), minimal (M = 1..6) and zero-answer (M = 0, minimal
unsatisfiable sets). It prints CPU ms per puzzle: the whole puzzle and each
certificate. Runs alternate OLD NEW, NEW OLD, ...; the figures are the
medians over the pairs. Timers cost a few microseconds a call; both trees
pay them alike.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import sys

CODE = """
import collections, time
import tsolve.families.time_puzzles.generate as g
acc = collections.Counter()
def timed(name):
    f = getattr(g, name)
    def w(*a, **k):
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            acc[name] += time.process_time() - t
    setattr(g, name, w)
for name in ("certify_known_gold", "certify_necessity", "certify_contradiction"):
    timed(name)
out = {{}}
for kind, fields in (("default", {{}}), ("minimal", {{"minimal": True}}), ("zero", {{}})):
    sols = (0,) if kind == "zero" else (1, 2, 3, 4, 5, 6)
    cfg = g.PuzzleConfig(solutions=sols, **fields)
    list(g.generate_puzzles(200, seed=99, config=cfg))
    acc.clear()
    t = time.process_time()
    list(g.generate_puzzles({n}, seed=1, config=cfg))
    out[kind] = {{"puzzle": time.process_time() - t, **acc}}
    out[kind] = {{k: round(1000 * v / {n}, 3) for k, v in out[kind].items()}}
print(out)
"""


def run(tree: str, n: int) -> dict[str, dict[str, float]]:
    done = subprocess.run(
        [sys.executable, "-c", CODE.format(n=n)],
        env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True, cwd="/",
    )  # fmt: skip
    result: dict[str, dict[str, float]] = ast.literal_eval(done.stdout.strip())
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--pairs", type=int, default=3)
    args = ap.parse_args()
    runs: dict[str, list[dict[str, dict[str, float]]]] = {args.old: [], args.new: []}
    for p in range(args.pairs):
        order = (args.old, args.new) if p % 2 == 0 else (args.new, args.old)
        for tree in order:
            runs[tree].append(run(tree, args.n))
    for kind in ("default", "minimal", "zero"):
        print(f"{kind} puzzles, CPU ms per puzzle (median of {args.pairs}):")
        keys = sorted({k for r in runs[args.old] + runs[args.new] for k in r[kind]})
        for key in keys:
            old = statistics.median(r[kind].get(key, 0.0) for r in runs[args.old])
            new = statistics.median(r[kind].get(key, 0.0) for r in runs[args.new])
            print(f"  {key:24} {old:8.3f} -> {new:8.3f}")


if __name__ == "__main__":
    main()
