"""The false-negative rate of honest answer styles, by family and style (docs/scoring.md).

    python benchmarks/honest_styles.py [--n 40] [--seed 1] [--json FILE]
    python benchmarks/honest_styles.py --compare BEFORE.json AFTER.json

Generates the records :func:`tsolve.stress.adversarial.generate_records`
makes (``n`` per family, SPAN twice as many), writes each record's gold in
every style of :mod:`tsolve.stress.honest` and scores it through the shared
scorer (``tsolve verify``'s metrics and the facade's reward). The
false-negative rate of a style is the share of the items it applies to whose
reward is below 1: an honest, right answer marked down.

``--compare`` prints one markdown table from two ``--json`` files, each cell
"before → after"; benchmarks/results/2026-11-28-honest-styles.md's table is that
output, "before" measured
with this script against the parser before it was widened.
"""

from __future__ import annotations

import argparse
import json
import sys

from tsolve.stress.adversarial import (
    FAMILIES,
    generate_records,
    records_per_family,
    shared_score,
)
from tsolve.stress.honest import run_styles


def false_negatives(n: int, seed: int) -> dict[str, dict[str, dict[str, float]]]:
    """``{family: {style: {"applied", "fnr"}}}``."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for family in FAMILIES:
        records = generate_records(family, records_per_family(family, n), seed)
        results = run_styles(family, records, shared_score)
        out[family] = {
            name: {"applied": r.applied, "fnr": 1.0 - r.means.get("reward", 0.0)}
            for name, r in results.items()
            if r.applied
        }
    return out


def compare(before: dict, after: dict) -> str:  # type: ignore[type-arg]
    """One markdown table: a row per style, a column per family, each cell
    the false-negative rate "before → after" (over the items the style
    applies to; "·" where it applies to none)."""
    families = list(after)
    names = list(dict.fromkeys(n for f in families for n in after[f]))
    head = "| style | " + " | ".join(families) + " |"
    rows = [head, "|---" * (len(families) + 1) + "|"]
    for name in names:
        cells = []
        for family in families:
            now = after[family].get(name)
            if now is None:
                cells.append("·")
                continue
            was = before.get(family, {}).get(name)
            old = f"{was['fnr']:.0%}" if was else "-"
            cells.append(f"{old} → {now['fnr']:.0%}" if old != f"{now['fnr']:.0%}" else old)
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    counts = " | ".join(str(max(c["applied"] for c in after[f].values())) for f in families)
    rows.append(f"| *items* | {counts} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.compare:
        with open(args.compare[0]) as f, open(args.compare[1]) as g:
            print(compare(json.load(f), json.load(g)))
        return
    result = false_negatives(args.n, args.seed)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    json.dump(result, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
