"""Logistics shortcut probes cell by cell, for runs too slow to make at once.

    python benchmarks/experiments/logistics_cells.py -n 300 --seed 0 [--cell easy/serial/static ...]
        [--diagnostic] > rows.jsonl

``tsolve stress logistics --shortcuts -n N`` runs every cell in one go; this
runs the same probes (:func:`tsolve.stress.shortcuts.run_shortcuts`, fitted on
``seed + 1``) on the cells named, printing one JSON line per probe and cell as
each cell ends (``cell``, ``probe``, ``score``, ``chance``, ``n``), so that
cells can be run in several processes and a long run read as it goes.
``--diagnostic`` adds the probes measured but not held to the bound
(``tsolve.families.logistics.tracking_probes.DIAGNOSTIC_PROBES``) and the
score of a random one of the answers packages on their way hold (``tracking
floor (1/k)``); ``--only-diagnostic`` runs those alone.
``--hostile`` adds policies a checker might write beyond the suite's, which
read one fact of the prompt and skip the tracking (:data:`HOSTILE`): the
other seed's commonest answer relative to the starting place's city, its
commonest answer the prompt names skipping the place named most, the
airport of the city the package starts in, and the airport the text names
most. (The commonest answer for a package starting at the same place is a
gated probe since generator 9: ``lookup by first place``.)
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
from tsolve.stress.shortcut_probes import Answer, Probe, visible
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


def _start_airport(train: Sequence[dict], golds: Sequence[str]) -> Answer:
    def answer(record: dict) -> str | None:
        start = _start(record)
        return start[1] if start else None

    return answer


def _airport_named_most(train: Sequence[dict], golds: Sequence[str]) -> Answer:
    def answer(record: dict) -> str | None:
        found = _PLACE.findall(str(record.get("prompt", "")))
        names = Counter(x for x in found if x.endswith("_0"))
        return names.most_common(1)[0][0] if names else None

    return answer


_NAME = re.compile(r"l(\d+)_(\d+)")


def _world(record: dict) -> tuple[str, int, int] | None:
    """(the asked package's initial place, its city's number, the number of cities)."""
    from tsolve.families.logistics.parse.item import parse_item

    try:
        scenario, question = parse_item(record)
    except Exception:
        return None
    place = str(scenario.initial.get(question.package))
    m = _NAME.fullmatch(place)
    return (place, int(m.group(1)), len(scenario.world.cities)) if m else None


def _role(gold: str, start: tuple[str, int, int]) -> str:
    """``gold`` with each place renamed by its city counted from the starting
    city's (``H`` that city, ``A1``, ``A2`` the next ones by number) and the
    starting place itself ``S``: what is the same answer in every world."""
    place, k, n = start
    out = []
    for part in gold.split(", "):
        m = _NAME.fullmatch(part)
        if part == place:
            out.append("S")
        elif m:
            rank = (int(m.group(1)) - k) % n
            out.append(f"{'H' if rank == 0 else f'A{rank}'}_{m.group(2)}")
        else:
            out.append(part)
    return ", ".join(out)


def _unrole(role: str, start: tuple[str, int, int]) -> str:
    place, k, n = start
    out = []
    for part in role.split(", "):
        m = re.fullmatch(r"(H|A(\d+))_(\d+)", part)
        if part == "S":
            out.append(place)
        elif m:
            rank = 0 if m.group(1) == "H" else int(m.group(2))
            out.append(f"l{(k + rank) % n}_{m.group(3)}")
        else:
            out.append(part)
    return ", ".join(out)


def _lookup_by_role(train: Sequence[dict], golds: Sequence[str]) -> Answer:
    """The other seed's commonest answer *relative to the starting place*
    (its city's airport, the next city's, ...) for the same number of
    cities and the same kind of starting place (airport or not): the
    first-place lookup pooled over cities, so that 300 records fill it."""
    table: dict[tuple[int, bool], Counter[str]] = defaultdict(Counter)
    for r, g in zip(train, golds, strict=True):
        w = _world(visible(r))
        if w:
            table[(w[2], w[0].endswith("_0"))][_role(g, w)] += 1

    def answer(record: dict) -> str | None:
        w = _world(record)
        seen = table.get((w[2], w[0].endswith("_0"))) if w else None
        return _unrole(seen.most_common(1)[0][0], w) if seen and w else None

    return answer


def _constant_not_named_most(train: Sequence[dict], golds: Sequence[str]) -> Answer:
    """The other seed's commonest answer among those the prompt can give
    (every name of it in the prompt), skipping a place alone that the prompt
    names most: reads version 8's rule that the place named most is seldom
    the answer."""
    ranked = [g for g, _k in Counter(golds).most_common()]
    word = re.compile(r"\b[a-z]\d+(?:_\d+)?\b")

    def answer(record: dict) -> str | None:
        prompt = str(record.get("prompt", ""))
        counts = Counter(_PLACE.findall(prompt))
        top = max(counts.values()) if counts else 0
        most = {p for p, k in counts.items() if k == top}
        names = set(word.findall(prompt))
        for g in ranked:
            parts = g.split(", ")
            if all(x in names for x in parts) and not (len(parts) == 1 and parts[0] in most):
                return g
        return None

    return answer


HOSTILE = (
    Probe("logistics", "lookup by first place's city", "memorisation", _lookup_by_role,
          "the other seed's commonest answer relative to the starting place's city"),
    Probe("logistics", "best constant not named most", "heuristic", _constant_not_named_most,
          "the other seed's commonest answer the prompt names, skipping the place named most"),
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
    if probes is DIAGNOSTIC_PROBES:
        from tsolve.families.logistics.tracking_probes import tracking_floor

        rows.append({"cell": cell, "probe": "tracking floor (1/k)",
                     "score": tracking_floor(records), "chance": chance, "n": len(items),
                     "diagnostic": True})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cell", action="append", help="a cell name (default: every cell)")
    ap.add_argument("--diagnostic", action="store_true")
    ap.add_argument("--hostile", action="store_true")
    ap.add_argument(
        "--only-diagnostic",
        action="store_true",
        help="the diagnostic probes alone (they fit on nothing: no second run)",
    )
    args = ap.parse_args(argv)
    try:
        cells = select_cells(cells_for("logistics"), args.cell)
    except Exception as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for cell in cells:
        records = cell.records(args.n, args.seed)
        if args.only_diagnostic:
            for row in _diagnostic(cell.name, records, []):
                print(json.dumps(row), flush=True)
            continue
        # fitted as tsolve stress fits: on a run made disjoint from the evaluated one
        train = cell.run(args.n, args.seed + 1, exclude=records).records
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
