"""Time-puzzle generation against the cached-mask peer,
default and minimal puzzles, in one interleaved run.

    python benchmarks/generation_vs_peer.py [--work 300] [--rounds 5] [--wall] [--json]

Four runs take turns, round by round (forward, then backward): tsolve's
default puzzles, the peer's, tsolve's minimal puzzles, the peer's minimal
puzzles (it drops each fact whose removal leaves M dates). Each round is
``--work`` puzzles, M cycling 1..6; every tsolve record carries its CP-SAT
certificate. The clock is CPU time unless ``--wall``. Printed: each side's
median rate and the median per-round ratio with its range. The same figures
are ``tsolve bench --family time-puzzles``'s ``time-puzzles.generate.cpsat.M=1-6``
and ``...M=1-6.minimal`` (library: ``tsolve.families.time_puzzles.bench.generation_vs_peer``).
"""

from __future__ import annotations

import argparse
import json
import time

from tsolve.families.time_puzzles.bench import generation_vs_peer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", type=int, default=300, help="puzzles per round and run")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    clock = time.perf_counter if args.wall else time.process_time
    figures = generation_vs_peer(args.work, args.rounds, clock=clock)
    if args.json:
        print(json.dumps([m.to_json() for m in figures], indent=2))
        return
    for m in figures:
        p = m.peer or {}
        print(
            f"{m.id}: tsolve {m.value:.0f}/s, peer {p.get('value')}/s, "
            f"ratio {p.get('ratio')} (range {p.get('ratio_min')}..{p.get('ratio_max')}), "
            f"{m.work} puzzles x {m.repetitions} rounds"
        )


if __name__ == "__main__":
    main()
