"""Scoring throughput of the TicToc family (samples scored per second).

    python benchmarks/bench_tictoc.py [--trajectories N] [--backend enumerator|cpsat|z3]

A thin shell over :func:`tsolve.families.tictoc.bench.score_throughput`: synthetic
stamped trajectories at all three levels (3 samples each), predictions in five
output formats; the time covers detection, the per-trajectory sensitivity
model (on the chosen backend) and the breakdowns. The enumerator backend is the
default; the solver backends are the in-process peers.
"""

from __future__ import annotations

import argparse
import json

from tsolve.families.tictoc.bench import score_throughput


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trajectories", type=int, default=2000)
    ap.add_argument("--backend", default=None, help="one backend (default: all three)")
    args = ap.parse_args()
    backends = [args.backend] if args.backend else ["enumerator", "z3", "cpsat"]
    for b in backends:
        print(json.dumps(score_throughput(args.trajectories, backend=b)))


if __name__ == "__main__":
    main()
