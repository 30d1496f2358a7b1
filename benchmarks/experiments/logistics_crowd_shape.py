"""Where the asked package stands in the crowd at the asked minute, per cell.

    python benchmarks/experiments/logistics_crowd_shape.py -n 100 --cell easy/serial/static ...

For each cell's default records (seed 0): how often the asked package's state is the unique
commonest among the packages on their way, tied for it, or below it; the distribution of ``k``,
the number of distinct states on the way; and the expected scores of answering the commonest
and the rarest state with a random tie-break, beside the floor (the mean of ``1/k``), and the
seconds the records took to make. Used to weigh generator changes against the policies that
track every package (docs/logistics.md, "Policies that track every package").
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from tsolve.families.logistics.tracking_probes import states_on_the_way
from tsolve.stress.shortcut_cells import cells_for, select_cells


def shape(records: list[dict]) -> dict[str, object]:
    """The figures of the module docstring for ``records``."""
    where: Counter[str] = Counter()
    ks: Counter[int] = Counter()
    most = least = floor = 0.0
    for record in records:
        tally = states_on_the_way(record)
        assert tally, record["id"]
        mine = next(w for w in tally if set(w) == set(record["answers"]))
        count, others = tally[mine], [v for w, v in tally.items() if w != mine]
        top = max(others, default=0)
        where["unique commonest" if count > top else "tied" if count == top else "below"] += 1
        ks[len(tally)] += 1
        hi, lo = max(tally.values()), min(tally.values())
        most += (count == hi) / sum(v == hi for v in tally.values())
        least += (count == lo) / sum(v == lo for v in tally.values())
        floor += 1 / len(tally)
    n = len(records)
    return {"where": dict(where), "k": dict(sorted(ks.items())), "commonest": most / n,
            "rarest": least / n, "floor": floor / n, "n": n}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cell", action="append", help="a cell name (default: every cell)")
    args = ap.parse_args(argv)
    for cell in select_cells(cells_for("logistics"), args.cell):
        start = time.perf_counter()
        records = cell.records(args.n, args.seed)
        seconds = time.perf_counter() - start
        print(json.dumps({"cell": cell.name, "seconds": round(seconds, 1), **shape(records)}),
              flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
