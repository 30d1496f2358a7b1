"""The table of adversarial policies by family and metric (docs/scoring.md).

    python benchmarks/adversarial_table.py [--n 60] [--seed 1] [--family F] [--json FILE]
    python benchmarks/adversarial_table.py --compare BEFORE.json AFTER.json

``--compare`` prints one table per family from two ``--json`` files, each
cell "before → after", as benchmarks/results/2026-11-26-adversarial-scorers.md
shows them.

Generates ``n`` records per family (run ``seed``, the options of
:data:`tsolve.stress.adversarial.DEFAULT_OPTIONS`), runs every policy of
:mod:`tsolve.stress.adversarial` through the shared scorer and prints one
markdown table per family: the chance baseline, then each policy's mean per
metric, a ``*`` marking a broken rule (a no-answer policy above 0, a guess
above the baseline, an honest answer below 1). The same command gave the
"before" and the "after" tables of
benchmarks/results/2026-11-26-adversarial-scorers.md and the relational table
of benchmarks/results/2026-11-28-adversarial-relational-modes.md, whose
"before" column is ``--no-rotation``: every record made with the default
options, as before the relational records rotated through their ask modes.
"""

from __future__ import annotations

import argparse
import json
import sys

from tsolve.stress import adversarial
from tsolve.stress.adversarial import FAMILIES, generate_records, records_per_family, run_family


def markdown(result) -> str:  # type: ignore[no-untyped-def]
    metrics = [k for k in result.baseline]
    head = "| policy | " + " | ".join(metrics) + " | parse fail |"
    rows = [head, "|" + "---|" * (len(metrics) + 2)]
    rows.append(
        "| **chance baseline** | "
        + " | ".join(f"{result.baseline[k]:.3f}" for k in metrics)
        + " | |"
    )
    for title, table in (("", result.no_answer), ("", result.guesses), ("honest: ", result.honest)):
        for name, means in table.items():
            cells = []
            for k in metrics:
                v = means.get(k, 0.0)
                limit = 0.0 if table is result.no_answer else result.baseline[k]
                over = not title and k not in result.gameable and v > limit + 1e-9
                under = title and k in ("em", "accuracy", "reward") and v < 1 - 1e-9
                cells.append(f"{v:.3f}{' *' if over or under else ''}")
            rows.append(
                f"| {title}{name} | "
                + " | ".join(cells)
                + f" | {means.get('parse_failed', 0):.2f} |"
            )
    return "\n".join(rows)


def compare(before_path: str, after_path: str) -> str:
    """Markdown tables, one per family: every policy's mean per metric in
    ``before`` and ``after`` (two ``--json`` outputs), with the baselines."""
    with open(before_path) as f:
        before = json.load(f)
    with open(after_path) as f:
        after = json.load(f)
    out = []
    for fam, new in after.items():
        old = before.get(fam, {})
        metrics = [k for k in new["baseline"] if k != "parse_failed"]
        gameable = set(new.get("gameable", []))
        names = [f"{m} (gameable)" if m in gameable else m for m in metrics]
        out.append(f"\n### {fam} ({new['n']} records)\n")
        out.append("| policy | " + " | ".join(names) + " |")
        out.append("|" + "---|" * (len(metrics) + 1))

        def cell(a: dict, b: dict, k: str) -> str:
            x, y = a.get(k), b.get(k, 0.0)
            return f"{y:.3f}" if x is None or abs(x - y) < 5e-4 else f"{x:.3f} → **{y:.3f}**"

        out.append(
            "| *chance baseline* | "
            + " | ".join(cell(old.get("baseline", {}), new["baseline"], k) for k in metrics)
            + " |"
        )
        for kind, label in (("no_answer", "no answer"), ("guesses", "guess"), ("honest", "honest")):
            for name, means in new[kind].items():
                prev = old.get(kind, {}).get(name, {})
                out.append(
                    f"| {label}: {name} | "
                    + " | ".join(cell(prev, means, k) for k in metrics)
                    + " |"
                )
    return "\n".join(out)


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        print(compare(sys.argv[2], sys.argv[3]))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60, help="records per family (SPAN: 2n)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    ap.add_argument("--family", action="append")
    ap.add_argument("--no-rotation", action="store_true",
                    help="default options only (no ROTATED_OPTIONS): the records as "
                    "they were before the relational ask modes rotated")  # fmt: skip
    args = ap.parse_args()
    if args.no_rotation:
        adversarial.ROTATED_OPTIONS.clear()
    out = {}
    for fam in args.family or FAMILIES:
        result = run_family(fam, generate_records(fam, records_per_family(fam, args.n), args.seed))
        out[fam] = result.to_json()
        print(f"\n### {fam} ({result.n} records, seed {args.seed})\n")
        print(markdown(result))
        for line in result.failures():
            print(f"- FAIL {line}", file=sys.stderr)
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
