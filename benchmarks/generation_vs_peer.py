"""Time-puzzle generation against the cached-mask peer and the certifying
peer, default and minimal puzzles, in one interleaved run.

    python benchmarks/generation_vs_peer.py [--work 300] [--rounds 5] [--wall] [--json]
        [--before TREE]

Six runs take turns, round by round (forward, then backward): tsolve's
default puzzles, the plain peer's, the certifying peer's, then the same three
for minimal puzzles (the peers drop each fact whose removal leaves M dates).
The certifying peer adds one CP-SAT call per puzzle that enumerates the
answer set over the facts' masks, and a checked witness per fact of a
minimal puzzle: the fair target for certified records. Each round is
``--work`` puzzles, M cycling 1..6; every tsolve record carries its CP-SAT
certificate. The clock is CPU time unless ``--wall``. Printed: each side's
median rate and the median per-round ratio with its range. The same figures
are ``tsolve bench --family time-puzzles``'s ``time-puzzles.generate.cpsat.M=1-6``
and ``...M=1-6.minimal``, and against the certifying peer the same ids ending
``.vs-certifying`` (library: ``tsolve.families.time_puzzles.bench.generation_vs_peer``).

``--before TREE`` also times another checkout's generator (its
``tsolve/families/time_puzzles/generate.py``, loaded beside this one, the rest
of tsolve shared) in the same rounds, and prints both generators' ratios to
both peers: a before/after measured in one process.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from tsolve.bench.measure import Paired, interleave
from tsolve.families.time_puzzles.bench import generation_vs_peer, mask_peer_run
from tsolve.families.time_puzzles.mask_peer import CertifyingPeer, MaskPeer


def load_generator(tree: str) -> ModuleType:
    """``tree``'s generate.py as a module of its own (``before_generate``)."""
    path = Path(tree) / "tsolve/families/time_puzzles/generate.py"
    spec = importlib.util.spec_from_file_location("before_generate", path)
    if spec is None or spec.loader is None:
        sys.exit(f"--before: no generator at {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def count(gen: ModuleType, seed: int, work: int, minimal: bool) -> Callable[[int], int]:
    cfg = gen.PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), minimal=minimal)
    # Fresh records each round (r*work ..), as the peers draw fresh puzzles:
    # the same records again would time caches already warm for them.
    return lambda r: sum(1 for i in range(work) if gen.generate_puzzle(seed, r * work + i, cfg))


def before_after(tree: str, work: int, rounds: int, clock: Callable[[], float]) -> None:
    """Both generators and both peers, default and minimal, in the same rounds."""
    from tsolve.families.time_puzzles import generate as after

    before = load_generator(tree)
    plain, certifying = MaskPeer(), CertifyingPeer()
    runs: dict[str, Callable[[int], float]] = {}
    for kind, minimal in (("default", False), ("minimal", True)):
        for name, gen in (("before", before), ("after", after)):
            runs[f"{name}.{kind}"] = count(gen, 1, work, minimal)
            count(gen, 901, min(work, 60), minimal)(0)  # warm-up, uncounted
        runs[f"peer.{kind}"] = mask_peer_run(plain, work, minimal)
        runs[f"certifying.{kind}"] = mask_peer_run(certifying, work, minimal)
        for peer in (plain, certifying):
            mask_peer_run(peer, work, minimal)(rounds + 1)
    got = interleave(runs, rounds, clock=clock)
    for kind in ("default", "minimal"):
        for name in ("before", "after"):
            for peer in ("peer", "certifying"):
                p = Paired.of(got, f"{name}.{kind}", f"{peer}.{kind}")
                r = p.ratios
                print(
                    f"{kind:8s} {name:6s} {p.value_a:6.0f}/s vs {peer:10s} {p.value_b:6.0f}/s: "
                    f"ratio {p.ratio:.3f} (range {min(r):.3f}..{max(r):.3f})"
                )
        p = Paired.of(got, f"after.{kind}", f"before.{kind}")
        r = p.ratios
        print(f"{kind:8s} after/before {p.ratio:.3f} (range {min(r):.3f}..{max(r):.3f})")
    print(f"{work} puzzles x {rounds} rounds, {len(runs)} runs interleaved")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", type=int, default=300, help="puzzles per round and run")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--before", help="another checkout whose generator to time alongside")
    args = ap.parse_args()
    clock = time.perf_counter if args.wall else time.process_time
    if args.before:
        before_after(args.before, args.work, args.rounds, clock)
        return
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
