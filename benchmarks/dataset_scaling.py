"""Dataset generation: 1 worker vs W workers, byte identity, and the rate.

    /work/venv/bin/python benchmarks/dataset_scaling.py [--count 2000] [--workers 1,2]
        [--family time-puzzles] [--set solutions=1-6] [--rounds 2]

Runs ``tsolve dataset`` as a user would (a fresh process per run, so every
run starts with cold per-process caches, as on a cluster node), alternating
the worker counts for ``--rounds`` rounds, and prints wall time, records/s,
the speed-up over one worker and whether all outputs are byte-identical. The
machine's load average is printed too: on a shared machine another job's CPU
use shows up directly in the multi-worker figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--family", default="time-puzzles")
    ap.add_argument("--set", action="append", default=None, help="generator option KEY=VALUE")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    sets = (
        args.set
        if args.set is not None
        else (["solutions=1-6"] if args.family == "time-puzzles" else [])
    )
    tsolve = str(Path(sys.executable).with_name("tsolve"))
    workers = [int(w) for w in args.workers.split(",")]
    walls: dict[int, list[float]] = {w: [] for w in workers}
    digests: set[str] = set()
    print(
        f"# {platform.processor() or platform.machine()} x {os.cpu_count()}, "
        f"Python {platform.python_version()}, {args.family} {' '.join(sets)}, "
        f"count {args.count}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for w in workers:
                out = Path(tmp) / f"w{w}-{r}.jsonl"
                cmd = [
                    tsolve,
                    "dataset",
                    args.family,
                    "--count",
                    str(args.count),
                    "--out",
                    str(out),
                    "--workers",
                    str(w),
                    "--summary-json",
                    "-q",
                ]
                for s in sets:
                    cmd += ["--set", s]
                load = os.getloadavg()[0]
                t0 = time.perf_counter()
                res = subprocess.run(cmd, capture_output=True, text=True, check=False)
                wall = time.perf_counter() - t0
                if res.returncode not in (0, 1):
                    sys.exit(f"failed: {' '.join(cmd)}\n{res.stderr}")
                summary = json.loads(res.stdout)
                digests.add(hashlib.sha256(out.read_bytes()).hexdigest())
                walls[w].append(wall)
                print(
                    f"round {r} workers {w}: wall {wall:6.1f} s, {args.count / wall:7.1f} "
                    f"records/s (in-run {summary['records_per_second']:.1f}/s), "
                    f"load before {load:.2f}"
                )
    base = statistics.median(walls[workers[0]])
    print("\n| workers | median wall (s) | records/s | speed-up |")
    print("|---:|---:|---:|---:|")
    for w in workers:
        med = statistics.median(walls[w])
        print(f"| {w} | {med:.1f} | {args.count / med:.1f} | {base / med:.2f}x |")
    print(f"\nall outputs byte-identical: {len(digests) == 1}")


if __name__ == "__main__":
    main()
