"""Accuracy of a table-free estimator on SPAN polar questions, beside the label balance.

    tsolve span --date 2024-07-01 --count 2000 --seed 0 > span.jsonl
    python benchmarks/span_polar_baseline.py span.jsonl            # a table
    python benchmarks/span_polar_baseline.py span.jsonl --json     # one JSON object

The estimator (tsolve.families.span.polar_baseline) uses epochs and mean month/year lengths,
no calendar tables, and answers "Yes" when the candidate is within 14 days of
its estimate. Near 50 % means the "No" candidates need the real calendar.
"""

from __future__ import annotations

import argparse
import json
import sys

from tsolve.families.span.polar_baseline import span_polar_baseline


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", help="SPAN records, JSON Lines ('-' for stdin)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    fh = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    with fh:
        rep = span_polar_baseline(json.loads(line) for line in fh if line.strip())
    out = rep.to_json()
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"polar items: {out['polar_items']}   labels: {out['labels']}")
    print(f"table-free estimator accuracy: {out['estimator_accuracy']:.1%}")
    for kind, v in out["by_near_miss"].items():
        print(f"  {kind:<16} n={v['n']:<5} accuracy {v['accuracy']:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
