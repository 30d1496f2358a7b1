"""How cost grows with the size of the work (the curves in
benchmarks/results/2026-11-23-scaling-curves.md).

    /work/venv/bin/python benchmarks/scaling.py [--n 60] [--only domain,facts,m,logistics]

Prints Markdown tables, measured in this one process:

* **domain length** (50, 200, 1000 years): time-puzzle generation rate (CP-SAT,
  M = 1..6) and solve latency per backend, against the paper's Algorithm 3
  (every fact's set over the whole domain). The Chinese-lunar tables cover
  1900-01-31..2100-12-31 only, so over the 1000-year domain the two lunar
  categories are unavailable and the generator leaves them out (their
  ``available(domain)`` is false); the other 14 categories remain;
* **number of facts** K = 3..8 (M = 1..6);
* **target M** = 0..6, 10, 15;
* **logistics scenario size**: question depth 4..30 (more events per plan),
  generation and answering rates.

Each row is measured after a warm-up on the same settings (per-process caches
filled), so it shows the steady state of a long dataset run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from tsolve.calendars.domain import DateDomain
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.bench import algorithm3_solve
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
from tsolve.families.time_puzzles.solve import puzzle_from_record, solve_puzzle
from tsolve.solver.backend_names import BACKENDS

DOMAINS = {
    "50 y (1950-1999)": ("1950-01-01", "1999-12-31"),
    "200 y (1900-2100, default)": ("1900-01-31", "2100-12-31"),
    "1000 y (1500-2499, no lunar)": ("1500-01-01", "2499-12-31"),
}


def _rate(n: int, fn: Callable[[int], Any]) -> float:
    t0 = time.perf_counter()
    for i in range(n):
        fn(i)
    return n / (time.perf_counter() - t0)


def _median_ms(items: list[Any], fn: Callable[[Any], Any]) -> float:
    lat = []
    for x in items:
        t0 = time.perf_counter()
        fn(x)
        lat.append(time.perf_counter() - t0)
    return statistics.median(lat) * 1e3


def _solve(backend: str, puzzle: Any) -> Any:
    return solve_puzzle(puzzle, backend)


def _answer(fn: Callable[[Any, int], Any], items: list[Any], i: int) -> Any:
    return fn(items[i], i)


def puzzle_row(cfg: PuzzleConfig, n: int, seed: int) -> dict[str, float]:
    for i in range(n // 2):  # warm-up
        generate_puzzle(seed + 1000, i, cfg)
    gen = _rate(n, lambda i: generate_puzzle(seed, i, cfg))
    puzzles = [puzzle_from_record(generate_puzzle(seed, i, cfg)) for i in range(n)]
    out = {"gen/s": gen}
    for b in BACKENDS:
        out[f"{b} ms"] = _median_ms(puzzles, partial(_solve, b))
    out["alg3 ms"] = _median_ms(puzzles, lambda p: algorithm3_solve(p.facts, p.domain))
    return out


def table(title: str, key: str, rows: list[tuple[str, dict[str, float]]]) -> None:
    cols = list(rows[0][1])
    print(f"\n### {title}\n")
    print(f"| {key} | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for label, vals in rows:
        print(
            f"| {label} | "
            + " | ".join(f"{v:,.3g}" if v < 100 else f"{v:,.0f}" for v in vals.values())
            + " |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60, help="puzzles per row")
    ap.add_argument("--only", default="domain,facts,m,logistics")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    print(
        f"_{dt.date.today()} · {platform.processor() or platform.machine()} · "
        f"Python {platform.python_version()} · n = {args.n} per row_"
    )
    mixed = (1, 2, 3, 4, 5, 6)
    if "domain" in parts:
        rows = []
        for label, (a, b) in DOMAINS.items():
            cfg = PuzzleConfig(solutions=mixed, domain=DateDomain.from_dates(a, b))
            rows.append((label, {"days": float(cfg.domain.size), **puzzle_row(cfg, args.n, 1)}))
        table("Domain length (CP-SAT generation, M = 1..6)", "domain", rows)
    if "facts" in parts:
        rows = [
            (str(k), puzzle_row(PuzzleConfig(solutions=mixed, facts=k), args.n, 2))
            for k in range(3, 9)
        ]
        table("Number of facts K (incl. the anchor; M = 1..6)", "K", rows)
    if "m" in parts:
        rows = []
        for m in (0, 1, 2, 3, 4, 5, 6, 10, 15):
            cfg = PuzzleConfig(solutions=m)
            for i in range(args.n // 2):
                generate_puzzle(3000 + m, i, cfg)
            rate = _rate(args.n, partial(generate_puzzle, 3, config=cfg))
            rows.append((str(m), {"gen/s": rate}))
        table("Target M (CP-SAT generation)", "M", rows)
    if "logistics" in parts:
        run_logistics(args.n)


def run_logistics(n: int) -> None:
    from tsolve.families.logistics.answer_items import answer_item
    from tsolve.families.logistics.generate import GenerateParams, generate_record

    rows = []
    for depth in (4, 8, 12, 16, 20, 25, 30):
        params = [
            GenerateParams("hard", e, q, depth)
            for e in ("serial", "parallel")
            for q in ("static", "relative", "hypothetical")
        ]
        recs: list[dict[str, Any]] = []
        declined = 0
        t0 = time.perf_counter()
        for i in range(n):
            try:
                recs.append(generate_record(7, i, params[i % len(params)]))
            except TsolveError:  # the generator found no question of that depth
                declined += 1
        gen = n / (time.perf_counter() - t0)
        if not recs:
            continue
        events = statistics.mean(len(r["scenario"]["events"]) for r in recs)
        items = [
            {k: r[k] for k in r if k not in ("scenario", "structured_question", "solution")}
            for r in recs
        ]
        ans = _rate(len(items), partial(_answer, answer_item, items))
        row = {"events": events, "gen/s": gen, "answered/s": ans, "declined": float(declined)}
        rows.append((str(depth), row))
    table("Logistics scenario size (hard, serial+parallel, all question kinds)", "depth", rows)


if __name__ == "__main__":
    main()
