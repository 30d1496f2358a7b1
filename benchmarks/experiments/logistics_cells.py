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
``--hostile`` adds policies a checker might write beyond the suite's, which
read one fact of the prompt and skip the tracking (:data:`HOSTILE`): the
other seed's commonest answer for a package starting at the same place, the
airport of the city it starts in, and the airport the text names most.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence

from tsolve.stress.adversarial import make_item, shared_score
from tsolve.stress.shortcut_cells import cells_for, select_cells
from tsolve.stress.shortcut_probes import Probe, visible
from tsolve.stress.shortcuts import run_family

_PLACE = re.compile(r"\bl\d+_\d+\b")


def _start(record: dict) -> tuple[str, str] | None:
    """(the asked package's initial place, its city's airport), read from the prompt."""
    from tsolve.families.logistics.parse.item import parse_item

    try:
        scenario, question = parse_item(record)
    except Exception:
        return None
    place = str(scenario.initial.get(question.package))
    city = scenario.world.city_of.get(place)
    airport = next((a for a in scenario.world.airports if scenario.world.city_of[a] == city), None)
    return (place, str(airport)) if airport else None


def _lookup_by_start(train: Sequence[dict], golds: Sequence[str]):
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r, g in zip(train, golds, strict=True):
        start = _start(visible(r))
        if start:
            table[start[0]][g] += 1
    fallback = Counter(golds).most_common(1)[0][0]

    def answer(record: dict) -> str | None:
        start = _start(record)
        seen = table.get(start[0]) if start else None
        return seen.most_common(1)[0][0] if seen else fallback

    return answer


def _start_airport(train: Sequence[dict], golds: Sequence[str]):
    def answer(record: dict) -> str | None:
        start = _start(record)
        return start[1] if start else None

    return answer


def _airport_named_most(train: Sequence[dict], golds: Sequence[str]):
    def answer(record: dict) -> str | None:
        found = _PLACE.findall(str(record.get("prompt", "")))
        names = Counter(x for x in found if x.endswith("_0"))
        return names.most_common(1)[0][0] if names else None

    return answer


HOSTILE = (
    Probe("logistics", "lookup by first place", "memorisation", _lookup_by_start,
          "the other seed's commonest answer for a package starting at the same place"),
    Probe("logistics", "first city's airport", "heuristic", _start_airport,
          "the airport of the city the package starts in"),
    Probe("logistics", "airport named most", "heuristic", _airport_named_most,
          "the airport the prompt names most often"),
)  # fmt: skip


def _diagnostic(
    cell: str, records: list, train: list, probes: Sequence[Probe] | None = None
) -> list[dict[str, object]]:
    from tsolve.families.logistics.tracking_probes import DIAGNOSTIC_PROBES
    from tsolve.stress.adversarial import _lines, chance_baseline

    if probes is None:
        probes = DIAGNOSTIC_PROBES

    items = [make_item("logistics", r) for r in records]
    golds = [make_item("logistics", r).gold for r in train]
    chance = chance_baseline(items).get("accuracy", 0.0)
    rows = []
    for probe in probes:
        answer = probe.fit(train, golds)
        scores = []
        for it in items:
            body = answer(visible(it.record))
            scores.append(
                shared_score(it.record, _lines(it, body) if body else "").get("accuracy", 0.0)
            )
        rows.append({"cell": cell, "probe": probe.name, "score": sum(scores) / len(scores),
                     "chance": chance, "n": len(items),
                     "diagnostic": probes is DIAGNOSTIC_PROBES})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cell", action="append", help="a cell name (default: every cell)")
    ap.add_argument("--diagnostic", action="store_true")
    ap.add_argument("--hostile", action="store_true")
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
        if args.hostile:
            for row in _diagnostic(cell.name, records, train, HOSTILE):
                row["hostile"] = True
                print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
