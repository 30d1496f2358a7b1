"""Where a generated time puzzle's time goes: CPU time around each call that
``generate_puzzle`` makes (the search, the certificates, the difficulty, the
record's parts), per puzzle, after a warm-up.

    python benchmarks/generation_breakdown.py [--minimal] [--wide] [--warm 1000] [--n 300]

Each call is wrapped in a timer for the run (the module's functions are
replaced in this process only); "total" is the whole of ``generate_puzzles``
and the rest of it is the record's own assembly. The figures move with the
machine's load (the files in benchmarks/results/ give them with the load); compare the
shares, and use ``generation_vs_peer.py`` for rates.
"""

from __future__ import annotations

import argparse
import collections
import time
from collections.abc import Callable
from typing import Any

import tsolve.families.time_puzzles.generate as gen
import tsolve.families.time_puzzles.record as record
from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain

TIMED = (
    "certify_known_gold", "certify_necessity", "certify_contradiction", "difficulty",
    "fact_masks", "sizes_without", "render_prompt", "puzzle_readings",
)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minimal", action="store_true")
    ap.add_argument("--wide", action="store_true", help="over 0001-01-01..9999-12-31")
    ap.add_argument("--warm", type=int, default=1000, help="puzzles before timing")
    ap.add_argument("--n", type=int, default=300, help="puzzles timed")
    args = ap.parse_args()
    spent: collections.Counter[str] = collections.Counter()

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any, **k: Any) -> Any:
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                spent[name] += time.process_time() - t

        return run

    for name in TIMED:
        setattr(gen, name, timed(name, getattr(gen, name)))
    record.render_prompt = gen.render_prompt  # the record's assembly calls it from there
    gen._Search.run = timed("search", gen._Search.run)  # type: ignore[method-assign]
    domain = DateDomain.from_dates("0001-01-01", "9999-12-31") if args.wide else DEFAULT_DOMAIN
    cfg = gen.PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), minimal=args.minimal, domain=domain)
    list(gen.generate_puzzles(args.warm, seed=99, config=cfg))
    spent.clear()
    t = time.process_time()
    list(gen.generate_puzzles(args.n, seed=1, config=cfg))
    total = time.process_time() - t
    kind = "minimal" if args.minimal else "default"
    print(f"total {1000 * total / args.n:.2f} ms/puzzle ({kind})")
    for name, s in spent.most_common():
        print(f"  {name}: {1000 * s / args.n:.2f} ms")
    print(f"  the rest (the record): {1000 * (total - sum(spent.values())) / args.n:.2f} ms")


if __name__ == "__main__":
    main()
