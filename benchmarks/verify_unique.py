"""Verification throughput on a dataset of distinct puzzles.

    tsolve dataset time-puzzles --count 20000 --solutions 0-6 --workers 2 --out tp.jsonl
    /work/venv/bin/python benchmarks/verify_unique.py tp.jsonl [--rounds 5]

``tsolve bench`` verifies renamed copies of a few hundred puzzles, so that it
finishes in seconds. Copies share their facts, which flatters the caches
behind batch diagnosis (facts read once, their IR built once). This script
checks the figure on a real dataset, where every record is distinct: one
prediction per record, made by the same seven perturbations of the gold
answers as the bench (``tsolve.bench.synthesise_predictions``). It prints the
median and best rate over ``--rounds`` runs, with and without diagnosis, and
how many distinct facts the dataset holds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from tsolve.families.time_puzzles.bench import synthesise_predictions
from tsolve.verifiers.verify_batch import verify


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path, help="JSONL of time-puzzle records (tsolve dataset)")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    records = [json.loads(line) for line in args.dataset.read_text().splitlines() if line.strip()]
    recs, preds = synthesise_predictions(records, 1)
    rates: dict[str, list[float]] = {"diagnosis": [], "no-diagnosis": []}
    for _ in range(args.rounds):
        for label, diagnose in (("diagnosis", True), ("no-diagnosis", False)):
            t0 = time.perf_counter()
            report = verify(recs, preds, diagnose=diagnose)
            dt = time.perf_counter() - t0
            assert report.scored == len(preds) and not report.errors
            rates[label].append(len(preds) / dt)
    distinct = len({(f["kind"], repr(f["params"])) for r in records for f in r["facts"]})
    print(f"{len(preds)} predictions, {len(records)} distinct records, {distinct} distinct facts")
    for label, xs in rates.items():
        print(
            f"{label:13s} median {statistics.median(xs):8,.0f}/s   best {max(xs):8,.0f}/s   "
            f"({args.rounds} rounds)"
        )


if __name__ == "__main__":
    main()
