"""SPAN's record-level yes/no probes in one cell, over several seed pairs.

    PYTHONPATH=. python benchmarks/experiments/span_polar_probes_by_seed.py polar/date \
        -n 1200 --seeds 2 10 20 30 40

For each seed S: the cell's run S (what ``dataset make`` writes) is scored,
each probe fitted on run S + 1 of the cell's training options made disjoint
from it (as ``tsolve stress`` fits and confirms: SPAN's probes learn in other
years, ``Cell.training``); ``--same-window`` fits them on the cell's own
options instead, to show what a learner takes from the table itself. One
JSON line per seed, each probe's yes/no accuracy (chance 0.5). A bound that
one seed pair trips may be noise; the mean over pairs says whether the edge
is real.
"""

from __future__ import annotations

import argparse
import json
import sys

from tsolve.families.span.yes_no_probes import SPAN_PROBES, polar_accuracy
from tsolve.stress.shortcut_cells import cells_for, select_cells


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cell")
    ap.add_argument("-n", type=int, default=1200)
    ap.add_argument("--seeds", type=int, nargs="+", default=[2, 10, 20, 30, 40])
    ap.add_argument(
        "--same-window",
        action="store_true",
        help="fit on the cell's own options, not its training options",
    )
    args = ap.parse_args(argv)
    (cell,) = select_cells(cells_for("span"), [args.cell])
    for seed in args.seeds:
        evald = cell.records(args.n, seed)
        fit_on = cell if args.same_window else cell.training()
        train = fit_on.run(args.n, seed + 1, exclude=evald).records
        row: dict[str, object] = {
            "cell": cell.name,
            "seed": seed,
            "n": len(evald),
            "train_options": dict(fit_on.options),
        }
        for probe in SPAN_PROBES:
            row[probe.name] = round(polar_accuracy(probe, evald, train), 4)
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
