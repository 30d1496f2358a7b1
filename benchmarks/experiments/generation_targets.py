"""Time-puzzle generation against the NumPy-mask
peer, on the default domain and on 0001-01-01..9999-12-31, with peak memory.

    python benchmarks/experiments/generation_targets.py [--work 200] [--rounds 6] [--json]

Each configuration runs in a fresh process (so its peak RSS is its own): a
warm-up (per-process fact caches, as a long dataset run has them), then
``--rounds`` interleaved rounds of tsolve and the peer
(``tsolve.families.time_puzzles.mask_peer``), ``--work`` puzzles each, M cycling 1..6. Reported:
tsolve's and the peer's median rates, the median per-round ratio with its
range, and the process's peak RSS. Configurations: the default generator
(``tsolve puzzle``'s settings), the dataset default (``minimal``: every fact
needed, certified by one more CP-SAT call), and the wide domain.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

CONFIGS: dict[str, dict[str, Any]] = {
    "default domain": {},
    "default domain, minimal (dataset default)": {"minimal": True},
    "0001-01-01..9999-12-31": {"domain": ("0001-01-01", "9999-12-31")},
    # The same without the peer in the process, for tsolve's own peak memory
    # (the peer's field arrays over 3.65 million days take ~250 MB).
    "0001-01-01..9999-12-31, tsolve alone": {"domain": ("0001-01-01", "9999-12-31"), "peer": False},
}


def measure(options: dict[str, Any], work: int, rounds: int, warm: int) -> dict[str, Any]:
    """One configuration, in this process (the parent runs each in a child)."""
    import numpy as np

    from tsolve.bench.measure import paired
    from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain
    from tsolve.families.time_puzzles.bench import count_puzzles, mask_peer_run
    from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
    from tsolve.families.time_puzzles.mask_peer import MaskPeer

    opts = dict(options)
    with_peer = opts.pop("peer", True)
    domain = DEFAULT_DOMAIN
    if "domain" in opts:
        import datetime as dt

        domain = DateDomain.from_dates(*(dt.date.fromisoformat(d) for d in opts.pop("domain")))
    cfg = PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), domain=domain, **opts)
    for i in range(warm):
        generate_puzzle(900, i, cfg)
    run = count_puzzles(1, cfg, work)
    if not with_peer:
        rates = []
        for r in range(rounds):
            t0 = time.perf_counter()
            rates.append(run(r) / (time.perf_counter() - t0))
        return {"tsolve": round(statistics.median(rates), 1), "peak_rss_mb": _peak_mb()}
    pair = paired(run, mask_peer_run(MaskPeer(domain), work, cfg.minimal), rounds)
    ratios = pair.ratios
    return {
        "tsolve": round(pair.value_a, 1),
        "peer": round(pair.value_b, 1),
        "ratio": round(float(np.median(ratios)), 3),
        "ratio_min": round(min(ratios), 3),
        "ratio_max": round(max(ratios), 3),
        "peak_rss_mb": _peak_mb(),
    }


def _peak_mb() -> int:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", type=int, default=200, help="puzzles per round and side")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--warm", type=int, default=100, help="warm-up puzzles")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(CONFIGS[args.child], args.work, args.rounds, args.warm)))
        return
    results = {}
    for name in CONFIGS:
        out = subprocess.run(
            [sys.executable, __file__, "--child", name, "--work", str(args.work),
             "--rounds", str(args.rounds), "--warm", str(args.warm)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        results[name] = json.loads(out.stdout)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    head = ("configuration", "tsolve/s", "peer/s", "ratio (range)", "peak MB")
    print(f"{head[0]:44s} {head[1]:>9s} {head[2]:>8s} {head[3]:>20s} {head[4]:>8s}")
    for name, r in results.items():
        if "peer" in r:
            span = f"{r['ratio']:.2f} ({r['ratio_min']:.2f}-{r['ratio_max']:.2f})"
            peer = f"{r['peer']:8.0f}"
        else:
            span, peer = "-", f"{'-':>8s}"
        print(f"{name:44s} {r['tsolve']:9.0f} {peer} {span:>20s} {r['peak_rss_mb']:8d}")


if __name__ == "__main__":
    main()
