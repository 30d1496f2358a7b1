"""What the solver certificates of time-puzzle generation cost, per puzzle, in
two checkouts, in alternating fresh processes.

    python benchmarks/experiments/certificate_costs.py OLD_TREE NEW_TREE [--n 300] [--pairs 3]
    python benchmarks/experiments/certificate_costs.py TREE --floor [--n 300]
    python benchmarks/experiments/certificate_costs.py TREE --replay [--n 300]

Each run imports tsolve from its tree (``PYTHONPATH``), wraps the generator's
certificate calls (``certify_known_gold``, ``certify_necessity``,
``certify_contradiction``, looked up in ``generate.py``'s namespace) with CPU
timers, generates 200 warm-up puzzles, then ``--n`` puzzles (seed 1) of three
kinds: default (M = 1..6), minimal (M = 1..6) and zero-answer (M = 0, minimal
unsatisfiable sets). It prints CPU ms per puzzle: the whole puzzle and each
certificate. Runs alternate OLD NEW, NEW OLD, ...; the figures are the
medians over the pairs. Timers cost a few microseconds a call; both trees
pay them alike.

``--replay`` (one tree) records every certificate call of ``--n`` default
and ``--n`` minimal puzzles, then makes the same calls again back to back in
the same process, one certificate's calls together: what each certificate
costs with warm caches, against its cost inside generation (the first
figure of each pair).

``--floor`` measures what any CP-SAT call costs at that point of generation
(one tree, default puzzles): before each ``certify_known_gold`` it builds and
solves a trivial model (one variable, five small domain constraints) and
times that apart. The trivial call runs first, so it pays for CP-SAT's code
and data being out of the CPU caches after the search, and the real call
that follows runs warmer than it would alone.
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


FLOOR = """
import time
import tsolve.families.time_puzzles.generate as g
import tsolve.solver.cpsat as C
acc = {{"trivial CP-SAT build": 0.0, "trivial CP-SAT solve": 0.0, "certify_known_gold": 0.0}}
small = C.Domain.from_flat_intervals([700000, 700100, 700200, 700300])
real = g.certify_known_gold
def w(p, gold, be="cpsat"):
    t0 = time.process_time()
    m = C._Model()
    x = m.new_int_var(693000, 767000, "d")
    for _ in range(5):
        m.add_linear_expression_in_domain(x, small)
    t1 = time.process_time()
    s = C.cp_model.CpSolver()
    s.parameters.num_workers = 1
    s.solve(m)
    t2 = time.process_time()
    r = real(p, gold, be)
    t3 = time.process_time()
    acc["trivial CP-SAT build"] += t1 - t0
    acc["trivial CP-SAT solve"] += t2 - t1
    acc["certify_known_gold"] += t3 - t2
    return r
g.certify_known_gold = w
cfg = g.PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6))
list(g.generate_puzzles(200, seed=99, config=cfg))
acc = dict.fromkeys(acc, 0.0)
list(g.generate_puzzles({n}, seed=1, config=cfg))
print({{k: round(1000 * v / {n}, 3) for k, v in acc.items()}})
"""


REPLAY = """
import time
import tsolve.families.time_puzzles.generate as g
names = ("certify_known_gold", "certify_necessity")
real = {{name: getattr(g, name) for name in names}}
out = {{}}
for kind in ("default", "minimal"):
    calls, inside = [], dict.fromkeys(names, 0.0)
    def recording(name):
        def w(*a):
            t = time.process_time()
            r = real[name](*a)
            inside[name] += time.process_time() - t
            calls.append((name, a))
            return r
        return w
    for name in names:
        setattr(g, name, recording(name))
    cfg = g.PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), minimal=kind == "minimal")
    list(g.generate_puzzles(200, seed=99, config=cfg))
    calls.clear()
    inside = dict.fromkeys(names, 0.0)
    list(g.generate_puzzles({n}, seed=1, config=cfg))
    again = dict.fromkeys(names, 0.0)
    for name in names:  # one certificate's calls together, as a batch would make them
        for _, a in (c for c in calls if c[0] == name):
            t = time.process_time()
            real[name](*a)
            again[name] += time.process_time() - t
    out[kind] = {{f"{{name}} (inside, back to back)": (round(1000 * inside[name] / {n}, 3),
                  round(1000 * again[name] / {n}, 3)) for name in names if inside[name]}}
print(out)
"""


def run(tree: str, n: int, code: str = CODE) -> dict[str, dict[str, float]]:
    done = subprocess.run(
        [sys.executable, "-c", code.format(n=n)],
        env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True, cwd="/",
    )  # fmt: skip
    result: dict[str, dict[str, float]] = ast.literal_eval(done.stdout.strip())
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new", nargs="?")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--floor", action="store_true", help="one tree: a trivial CP-SAT call too")
    ap.add_argument("--replay", action="store_true", help="one tree: the calls again, warm")
    args = ap.parse_args()
    if args.floor:
        print("default puzzles, CPU ms per puzzle:", run(args.old, args.n, FLOOR))
        return
    if args.replay:
        for kind, figures in run(args.old, args.n, REPLAY).items():
            print(f"{kind} puzzles, CPU ms per puzzle: {figures}")
        return
    if args.new is None:
        ap.error("give two trees (OLD_TREE NEW_TREE), or one with --floor")
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
