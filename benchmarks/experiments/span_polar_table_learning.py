"""Does a learned SPAN yes/no probe find a shortcut, or learn the table?

    PYTHONPATH=. python benchmarks/experiments/span_polar_table_learning.py

Pools the polar/date runs of seeds 2, 10, 20, ..., 80 (1,200 records each)
and the runs they are fitted on in ``tsolve stress`` (seed + 1, made
disjoint), 18 runs in all, and
fits gradient boosting (scikit-learn's histogram model) per direction on
three feature sets: the rough distance alone (``gap``), the gradient-boosted
rough probe's features (``rough``) and the calendar probe's (``full``),
scored two ways:

* ``same-years``: six-fold cross-validation by run, each fold fitted on 15
  runs of the same window, 1960-2060 (4,500 records per direction);
* ``other-years``: fitted on the reference years of alternate five-year
  blocks and scored on the others (both ways), so that no month a record
  asks about is one the model was fitted on.

A shortcut that skips the conversion pays in any years; an edge that is
there in the same years only is the model learning the table's entries
(the day each month starts) from the training records.
"""

from __future__ import annotations

import collections
import json
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import GroupKFold, cross_val_score

from tsolve.families.span.yes_no_probes import calendar_features
from tsolve.stress.adversarial import make_item
from tsolve.stress.shortcut_cells import cells_for, select_cells
from tsolve.stress.shortcut_probes import visible

SEEDS = (2, 10, 20, 30, 40, 50, 60, 70, 80)
N = 1200
CALENDAR_EXTRA = 23  # calendar_features' columns beyond rough_features'


def _model() -> HistGradientBoostingClassifier:
    return HistGradientBoostingClassifier(
        max_iter=200, max_depth=4, learning_rate=0.05, random_state=0
    )


def main() -> int:
    (cell,) = select_cells(cells_for("span"), ["polar/date"])
    runs = []
    for seed in SEEDS:
        evald = cell.records(N, seed)
        runs += [evald, cell.run(N, seed + 1, exclude=evald).records]
    data: dict[str, tuple[list, list, list, list]] = collections.defaultdict(
        lambda: ([], [], [], [])
    )
    for run_no, records in enumerate(runs):
        for r in records:
            gold = make_item("span", r).gold
            v = visible(r)
            f = calendar_features(v)
            if gold not in ("Yes", "No") or f is None:
                continue
            p = v["params"]
            ry = int(p["reference_date"]["year"])
            year = ry - 3760 if p["source_calendar"] == "hebrew" else ry
            xs, ys, runs_of, blocks = data[f"{p['source_calendar']}->{p['target_calendar']}"]
            xs.append(f)
            ys.append(gold == "Yes")
            runs_of.append(run_no)
            blocks.append((year // 5) % 2)
    for direction, (xs, ys, runs_of, blocks) in sorted(data.items()):
        x, y, g, b = np.array(xs), np.array(ys), np.array(runs_of), np.array(blocks)
        base = x.shape[1] - CALENDAR_EXTRA
        row: dict[str, object] = {"direction": direction, "n": len(y)}
        for name, cols in (("gap", [0, 1]), ("rough", list(range(base))),
                           ("full", list(range(x.shape[1])))):  # fmt: skip
            xc = x[:, cols]
            same = cross_val_score(_model(), xc, y, cv=GroupKFold(6), groups=g).mean()
            right = []
            for fold in (0, 1):
                m = _model().fit(xc[b != fold], y[b != fold])
                right += list(m.predict(xc[b == fold]) == y[b == fold])
            row[f"{name} same-years"] = round(float(same), 3)
            row[f"{name} other-years"] = round(float(np.mean(right)), 3)
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
