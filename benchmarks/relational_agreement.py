"""Relational puzzles: CP-SAT, Z3 and the enumerator on the same puzzles.

Usage: python benchmarks/relational_agreement.py [COUNT] [SEED]

Puzzle i has 2 + i % 3 events, asks for tuples or (odd i) one event's dates,
targets M = i % 5 answers, and ranges over a domain small enough for the
enumerator oracle (150 / 70 / 28 days for 2 / 3 / 4 events: 22,500 / 343,000 /
614,656 combinations, well under its 5M bound). For each puzzle it runs the
family's stress invariants (count, status, gold tuples satisfy every fact,
seed tuple, graph, regeneration to the same bytes, a second backend) and
checks that all three backends return the stored gold set with the same
status. Prints one JSON summary line; exit 1 on any
disagreement.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time

from tsolve.calendars.domain import DateDomain
from tsolve.families.relational_puzzles.generate import RelationalConfig, generate_relational_puzzle
from tsolve.families.relational_puzzles.invariants import relational_invariants
from tsolve.families.time_puzzles.solve import solve_record
from tsolve.solver.backend_names import BACKENDS

DAYS = {2: 150, 3: 70, 4: 28}


def domain_for(n: int) -> DateDomain:
    start = dt.date(2024, 1, 15)
    return DateDomain.from_dates(start.isoformat(), (start + dt.timedelta(DAYS[n] - 1)).isoformat())


def main(count: int, seed: int) -> int:
    t0 = time.perf_counter()
    bad: list[str] = []
    by_events = {2: 0, 3: 0, 4: 0}
    for i in range(count):
        n = 2 + i % 3
        cfg = RelationalConfig(events=n, solutions=i % 5, ask="event" if i % 2 else "tuples",
                               domain=domain_for(n))  # fmt: skip
        rec = generate_relational_puzzle(seed, i, cfg)
        bad += [
            f"{rec['id']}: {check}: {msg}"
            for check, msg in relational_invariants(rec, seed, i, cfg)
        ]
        for backend in BACKENDS:  # the invariants check the other two; here all three
            res = solve_record(rec, backend)
            if not res["matches"] or res["status"] != rec["solver"]["status"]:
                bad.append(f"{rec['id']}: {backend} gives {res['answers']} ({res['status']})")
        by_events[n] += 1
    summary = {"puzzles": count, "seed": seed, "by_events": by_events, "disagreements": len(bad),
               "examples": bad[:10], "seconds": round(time.perf_counter() - t0, 1)}  # fmt: skip
    print(json.dumps(summary))
    return 1 if bad else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=1000, help="puzzles (default 1000)")
    parser.add_argument("seed", nargs="?", type=int, default=0, help="seed (default 0)")
    args = parser.parse_args()
    sys.exit(main(args.count, args.seed))
