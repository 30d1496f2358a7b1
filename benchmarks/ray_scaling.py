"""The Ray engine's speed-up on this machine: local engine vs Ray, 1 and 2 CPUs.

    python benchmarks/ray_scaling.py [--family logistics] [--count 2000]
        [--cpus 1,2] [--rounds 3] [--json out.json] [--png docs/img/ray_scaling.png]

In one process, for ``--rounds`` rounds and in a new shuffled order each
round, writes the same dataset with every configuration: ``local`` with W
processes and ``ray`` on a fresh local Ray instance of W CPUs, for each W in
``--cpus``. Each timing covers ``write_dataset`` from call to return (worker
start-up included: the local pool's fork server, Ray's worker processes and
their imports); starting and stopping the Ray instance itself (``ray.init``,
a few seconds, paid once per run) is timed apart. Every output is compared
byte for byte with the first.

Because the machine's speed drifts between minutes, every figure is reported
as a ratio to its peer *within the same round* (Ray W CPUs / local 1
process, Ray W / Ray 1, local W / local 1), as the median over the rounds
with the min..max spread.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run(engine: str, cpus: int, family: str, count: int, out: Path) -> tuple[float, float]:
    """(seconds to write, seconds to start and stop Ray)."""
    import ray

    from tsolve.datasets import write_dataset

    overhead = 0.0
    if engine == "ray":
        t = time.perf_counter()
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR")  # fmt: skip
        overhead += time.perf_counter() - t
    try:
        t = time.perf_counter()
        write_dataset(family, {}, count=count, out=out, seed=1, workers=cpus, engine=engine)
        seconds = time.perf_counter() - t
    finally:
        if engine == "ray":
            t = time.perf_counter()
            ray.shutdown()
            overhead += time.perf_counter() - t
    return seconds, overhead


def _ratios(rounds: list[dict[str, float]], a: str, b: str) -> dict[str, float]:
    values = [r[a] / r[b] for r in rounds]
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", default="logistics")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--cpus", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--png", type=Path)
    args = ap.parse_args()
    cpus = [int(c) for c in args.cpus.split(",")]
    configs = [(e, c) for e in ("local", "ray") for c in cpus]
    rounds: list[dict[str, float]] = []
    starts: list[float] = []
    digests: set[str] = set()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = configs[:]
            rng.shuffle(order)
            times: dict[str, float] = {}
            for engine, c in order:
                out = Path(tmp) / f"{engine}-{c}.jsonl"
                seconds, overhead = _run(engine, c, args.family, args.count, out)
                times[f"{engine}-{c}"] = seconds
                if engine == "ray":
                    starts.append(overhead)
                digests.add(_digest(out))
                out.unlink()
            rounds.append(times)
            load = os.getloadavg()[0]
            shown = "  ".join(f"{k} {v:.2f}s" for k, v in sorted(times.items()))
            print(f"round {r + 1}: {shown}  (load {load:.1f})", file=sys.stderr)
    base = f"local-{cpus[0]}"
    result: dict[str, Any] = {
        "family": args.family,
        "count": args.count,
        "rounds": rounds,
        "byte_identical": len(digests) == 1,
        "ray_start_stop_seconds": {
            "median": statistics.median(starts),
            "min": min(starts),
            "max": max(starts),
        },
        "speed_vs_local_1": {k: _ratios(rounds, base, k) for k in sorted(rounds[0]) if k != base},
        "ray_2_vs_ray_1": _ratios(rounds, f"ray-{cpus[0]}", f"ray-{cpus[-1]}"),
        "local_2_vs_local_1": _ratios(rounds, base, f"local-{cpus[-1]}"),
        "machine": f"{platform.python_version()}, {os.cpu_count()} CPUs",
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    if args.png:
        _plot(result, cpus, args.png)


def _plot(result: dict[str, Any], cpus: list[int], png: Path) -> None:
    """Speed-up over one local process against CPUs, median and spread."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.2, 3.0), dpi=120)
    for engine, marker in (("local", "o"), ("ray", "s")):
        med, lo, hi = [], [], []
        for c in cpus:
            key = f"{engine}-{c}"
            r = result["speed_vs_local_1"].get(key, {"median": 1.0, "min": 1.0, "max": 1.0})
            med.append(r["median"])
            lo.append(r["median"] - r["min"])
            hi.append(r["max"] - r["median"])
        ax.errorbar(cpus, med, yerr=[lo, hi], marker=marker, capsize=4, label=engine)
    ax.plot(cpus, cpus, ":", color="grey", label="ideal")
    ax.set_xticks(cpus)
    ax.set_xlabel("CPUs (processes)")
    ax.set_ylabel("speed-up over 1 local process")
    ax.set_title(f"{result['family']}, {result['count']} records", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png)


if __name__ == "__main__":
    main()
