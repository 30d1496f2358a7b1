"""Time Puzzles throughput (the figures the engine was
first held to), measured in one process.

    python benchmarks/bench_time_puzzles.py [--n 300]

Prints: generation rate with CP-SAT (mixed M = 1..6) and with Z3; solve latency
median / p95 per backend on the same generated puzzles, with the Z3 / CP-SAT
ratio and the plain full-domain enumeration (the paper's Algorithm 3 over every
date) as a peer; verification rate for all-correct predictions and for a mix
where a third are wrong (each wrong date diagnosed by the solver's check).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
from tsolve.families.time_puzzles.solve import solve_record
from tsolve.solver.backend_names import BACKENDS, GENERATION_BACKENDS
from tsolve.verifiers.verify_batch import verify


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f}/s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300, help="puzzles per measurement")
    n = ap.parse_args().n
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    cfg = PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6))
    generate_puzzle(0, 0, cfg)  # warm the per-fact caches once, as a long run would
    for backend in GENERATION_BACKENDS:
        c = PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), backend=backend)
        t = time.perf_counter()
        recs = [generate_puzzle(1, i, c) for i in range(n)]
        dt = time.perf_counter() - t
        print(f"generate  {backend:10s} M=1..6  n={n}  {rate(n, dt)}")
    lat: dict[str, list[float]] = {}
    for backend in BACKENDS:
        xs = []
        for r in recs:
            t = time.perf_counter()
            solve_record(r, backend)
            xs.append(time.perf_counter() - t)
        xs.sort()
        lat[backend] = xs
        print(
            f"solve     {backend:10s} n={n}  median {statistics.median(xs) * 1e3:.2f} ms  "
            f"p95 {xs[int(0.95 * (n - 1))] * 1e3:.2f} ms"
        )
    med = {b: statistics.median(v) for b, v in lat.items()}
    print(f"ratio     z3/cpsat median {med['z3'] / med['cpsat']:.1f}x  "
          f"enumerator/cpsat {med['enumerator'] / med['cpsat']:.1f}x")  # fmt: skip
    for wrong in (False, True):
        preds = []
        for k, r in enumerate(recs):
            a = list(r["answers"])
            if wrong and k % 3 == 0:
                a = [*a[:-1], "2000-01-01"]
            preds.append({"id": r["id"], "output": "...\nMY ANSWER: " + ", ".join(a)})
        verify(recs, preds)
        reps = max(1, 20_000 // n)
        t = time.perf_counter()
        for _ in range(reps):
            verify(recs, preds)
        dt = time.perf_counter() - t
        label = "1/3 wrong+diagnosis" if wrong else "all correct"
        print(f"verify    {label:20s} n={n * reps}  {rate(n * reps, dt)}")


if __name__ == "__main__":
    main()
