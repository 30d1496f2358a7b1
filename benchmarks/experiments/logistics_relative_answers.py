"""Where a logistics cell's answers lie counted from the asked package's start.

    PYTHONPATH=. python benchmarks/experiments/logistics_relative_answers.py \
        easy/parallel/static -n 1000

Evaluates seed 0 of the cell, fitted on seed 1's run made disjoint from it
(as ``tsolve stress`` fits). For each key the hostile probe "lookup by
first place's city" reads (the world's number of cities, whether the package
starts at an airport) it prints the records, the probe's hits, and the
commonest answers renamed relative to the start (``H_0`` the starting city's
airport, ``A1_0`` the next city's, ``S`` the starting place itself): where
an answer class falls in fewer relative slots than absolute ones, the lookup
beats the best constant answer.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from logistics_cells import _role, _unrole, _world

from tsolve.stress.adversarial import make_item
from tsolve.stress.shortcut_cells import cells_for, select_cells
from tsolve.stress.shortcut_probes import visible


def _table(records: list) -> tuple[dict, Counter, list]:
    by_key: dict = defaultdict(Counter)
    absolute: Counter = Counter()
    rows = []
    for r in records:
        gold = make_item("logistics", r).gold
        w = _world(visible(r))
        key = (w[2], w[0].endswith("_0")) if w else None
        absolute[gold] += 1
        rows.append((key, gold, w))
        if w:
            by_key[key][_role(gold, w)] += 1
    return by_key, absolute, rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cell")
    ap.add_argument("-n", type=int, default=300)
    args = ap.parse_args(argv)
    (cell,) = select_cells(cells_for("logistics"), [args.cell])
    evald = cell.records(args.n, 0)
    train = cell.run(args.n, 1, exclude=evald).records
    fitted, _, _ = _table(train)
    seen, absolute, rows = _table(evald)
    hits: Counter = Counter()
    count: Counter = Counter()
    for key, gold, w in rows:
        count[key] += 1
        if key in fitted and w and _unrole(fitted[key].most_common(1)[0][0], w) == gold:
            hits[key] += 1
    chance = absolute.most_common(1)[0][1] / len(evald)
    print(f"{cell.name}: n = {len(evald)}, chance {chance:.3f} ({absolute.most_common(1)[0][0]})")
    for key in sorted(count, key=str):
        print(f"  cities, starts at an airport = {key}: {count[key]} records, {hits[key]} hits;"
              f" commonest {seen[key].most_common(4) if key in seen else []}")  # fmt: skip
    score = sum(hits.values()) / len(evald)
    print(f"lookup by first place's city {score:.3f}: {score - chance:+.3f} over chance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
