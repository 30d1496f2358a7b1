"""Logistics shortcut probes cell by cell, for runs too slow to make at once.

    python benchmarks/experiments/logistics_cells.py -n 300 --seed 0 [--cell easy/serial/static ...]
        [--diagnostic] > rows.jsonl

``tsolve stress logistics --shortcuts -n N`` runs every cell in one go; this
runs the same probes (:func:`tsolve.stress.shortcuts.run_shortcuts`, fitted on
``seed + 1``) on the cells named, printing one JSON line per probe and cell as
each cell ends (``cell``, ``probe``, ``score``, ``chance``, ``n``), so that
cells can be run in several processes and a long run read as it goes.
``--diagnostic`` adds the probes measured but not held to the bound
(``tsolve.families.logistics.tracking_probes.DIAGNOSTIC_PROBES``).
"""

from __future__ import annotations

import argparse
import json
import sys

from tsolve.stress.adversarial import make_item, shared_score
from tsolve.stress.shortcut_cells import cells_for, select_cells
from tsolve.stress.shortcut_probes import visible
from tsolve.stress.shortcuts import run_family


def _diagnostic(cell: str, records: list, train: list) -> list[dict[str, object]]:
    from tsolve.stress.adversarial import _lines, chance_baseline
    from tsolve.families.logistics.tracking_probes import DIAGNOSTIC_PROBES

    items = [make_item("logistics", r) for r in records]
    golds = [make_item("logistics", r).gold for r in train]
    chance = chance_baseline(items).get("accuracy", 0.0)
    rows = []
    for probe in DIAGNOSTIC_PROBES:
        answer = probe.fit(train, golds)
        scores = []
        for it in items:
            body = answer(visible(it.record))
            scores.append(
                shared_score(it.record, _lines(it, body) if body else "").get("accuracy", 0.0)
            )
        rows.append({"cell": cell, "probe": probe.name, "score": sum(scores) / len(scores),
                     "chance": chance, "n": len(items), "diagnostic": True})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cell", action="append", help="a cell name (default: every cell)")
    ap.add_argument("--diagnostic", action="store_true")
    args = ap.parse_args(argv)
    try:
        cells = select_cells(cells_for("logistics"), args.cell)
    except Exception as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for cell in cells:
        records, train = cell.records(args.n, args.seed), cell.records(args.n, args.seed + 1)
        for r in run_family("logistics", records, train, cell.name):
            row = {"cell": cell.name, "probe": r.probe, "score": r.score, "chance": r.chance,
                   "n": r.n, "skipped": r.skipped}  # fmt: skip
            print(json.dumps(row), flush=True)
        if args.diagnostic:
            for row in _diagnostic(cell.name, records, train):
                print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
