"""`tsolve.rl.compute_score` against `tsolve verify` on many answers per family.

For each family that generates and scores: `--records` records of run
`--seed`, each answered four ways (gold, perturbed gold, another record's
gold, garbage: `tsolve.verifiers.baselines`), scored by `tsolve verify`
(the library call, the whole record, diagnosis on) and by verl's
`compute_score` on the compact ground truth. Prints, per family, the
answers compared, the mismatches (must be 0), the gold and garbage
scores, and the ground truth's largest size in bytes.

    PYTHONPATH=. python benchmarks/rl_parity.py --records 250
"""

from __future__ import annotations

import argparse

from tsolve.contract import builtin_families
from tsolve.rl import compute_score
from tsolve.rl.gold import ground_truth
from tsolve.verifiers.baselines import predict
from tsolve.verifiers.rewards import DIAGNOSTIC
from tsolve.verifiers.verify_batch import verify


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=250)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for fam in builtin_families():
        if fam.generate is None or fam.score is None:
            print(f"{fam.name}: generates no records (scores data that exists elsewhere)")
            continue
        config = fam.make_options({})
        recs = [fam.make_record(args.seed, i, config) for i in range(args.records)]
        pairs = []
        for baseline in ("gold", "perturbed", "random"):
            pairs += [
                (r, p["output"], baseline)
                for r, p in zip(recs, predict(recs, baseline), strict=True)
            ]
        pairs += [(r, "I think it is MY ANSWER: the 5th of never", "garbage") for r in recs]
        preds = [{"id": f"a{i}", "output": o} for i, (_r, o, _b) in enumerate(pairs)]
        report = verify([{**r, "id": f"a{i}"} for i, (r, _o, _b) in enumerate(pairs)], preds,
                        keep_items=True)  # fmt: skip
        bad, by = 0, {"gold": [], "garbage": []}
        for (rec, out, kind), item in zip(pairs, report.items, strict=True):
            want = {k: v for k, v in item.metrics.items() if k not in DIAGNOSTIC}
            got = compute_score(fam.name, out, ground_truth(rec))
            bad += {k: v for k, v in got.items() if k != "score"} != want
            if kind in by:
                by[kind].append(got["score"])
        size = max(len(ground_truth(r).encode()) for r in recs)
        print(
            f"{fam.name}: {len(pairs)} answers, {bad} mismatches with tsolve verify; "
            f"gold mean {sum(by['gold']) / len(by['gold']):.3f}, garbage mean "
            f"{sum(by['garbage']) / len(by['garbage']):.3f}; ground truth <= {size} bytes"
        )


if __name__ == "__main__":
    main()
