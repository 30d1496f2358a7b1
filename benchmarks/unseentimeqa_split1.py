"""UnSeenTimeQA accuracy and audit verdicts on a split file, file by file.

    python benchmarks/unseentimeqa_split1.py [PATH] [--no-audit] [--misses N] [--json OUT]
    python benchmarks/unseentimeqa_split1.py [PATH] --readings

PATH defaults to ``../shared/samples/unseentimeqa_split1.jsonl.gz`` (all
3,600 items of split 1, one JSON object a line, each with ``source_file``;
``.gz`` is read transparently). The benchmark's ids restart in every source
file, so items are grouped by ``source_file`` and each is answered on its own
(:func:`tsolve.families.logistics.answer_items.answer_item`, the library behind
``tsolve logistics answer``) and audited
(:func:`tsolve.families.logistics.audit.audit_logistics`, behind ``tsolve audit``);
``source_file`` + ``id`` names an item.

Printed: accuracy per source file and overall (exact set match against
``answers``), the audit's verdict counts overall and on the misses, the
readings that ambiguous verdicts name, and the misses with their verdicts.
A miss audited ``ok`` would be a defect of the audit (the gold would then be
the answer under every reading, yet the answerer gives something else), so
it is counted apart. These are the figures of docs/logistics.md.

``--readings`` prints instead how many labels each reading of an unstated
convention gives (the counts that chose the defaults): the three timings of
steps that run together over the parallel items, the three occurrences of a
repeated what-if step over the items that have one, and, for comparison,
"list order as the order of happening" (the members of a group run one after
another in list order), which is not a declared reading.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.logistics.answer_items import answer_item
from tsolve.families.logistics.audit import audit_logistics
from tsolve.families.logistics.event_graph import TIMINGS, batches, dependencies_of
from tsolve.families.logistics.model import Dependencies, Scenario
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.solve import OCCURRENCES, answer_question, occurrences

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "samples"
DEFAULT_PATH = DEFAULT / "unseentimeqa_split1.jsonl.gz"


def read_items(path: Path) -> list[dict[str, Any]]:
    """Every item of a JSON Lines file, gzipped or not."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        return [json.loads(line) for line in fh if line.strip()]


def run(path: Path, audit: bool, show: int) -> dict[str, Any]:
    items = read_items(path)
    by_file: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for item in items:
        by_file[str(item.get("source_file", "?"))].append(item)
    per_file: dict[str, tuple[int, int]] = {}
    misses: list[dict[str, Any]] = []
    verdicts: collections.Counter[str] = collections.Counter()
    miss_verdicts: collections.Counter[str] = collections.Counter()
    named: collections.Counter[str] = collections.Counter()
    for name in sorted(by_file):
        good = 0
        for pos, item in enumerate(by_file[name]):
            res = answer_item(item, pos)
            ok = bool(res.correct)
            good += ok
            verdict = "-"
            summary = ""
            if audit:
                try:
                    v = audit_logistics(item)
                    verdict = v.verdict
                    summary = str(v.detail.get("summary", ""))
                except TsolveError as exc:
                    verdict = "error"
                    summary = str(exc)
                verdicts[verdict] += 1
                if verdict == "ambiguous":
                    named.update(v.detail.get("gold_readings", []))
            if not ok:
                if audit:
                    miss_verdicts[verdict] += 1
                misses.append(
                    {
                        "source_file": name,
                        "id": item.get("id"),
                        "gold": item.get("answers"),
                        "answers": res.answers,
                        "error": res.error,
                        "verdict": verdict,
                        "summary": summary,
                    }
                )
        per_file[name] = (good, len(by_file[name]))
    total = sum(n for _g, n in per_file.values())
    right = sum(g for g, _n in per_file.values())
    for name, (g, n) in per_file.items():
        print(f"{name:45s} {g:4d}/{n:<4d} {100 * g / n:6.2f} %")
    print(f"{'all':45s} {right:4d}/{total:<4d} {100 * right / total:6.2f} %")
    if audit:
        print("audit verdicts:", dict(sorted(verdicts.items())))
        print("audit verdicts on the misses:", dict(sorted(miss_verdicts.items())))
        if named:
            print("ambiguous items, gold given by:", dict(named.most_common()))
    for m in misses[:show]:
        print(json.dumps(m, ensure_ascii=False))
    return {
        "accuracy": right / total,
        "right": right,
        "total": total,
        "verdicts": dict(verdicts),
        "miss_verdicts": dict(miss_verdicts),
        "misses": misses,
    }


def list_order(scenario: Scenario) -> Dependencies:
    """``own-step`` dependencies, plus: each member of a group waits for the
    member listed before it (the group's steps happen one after another)."""
    own = dependencies_of(scenario, "own-step")
    runs = batches(scenario.events)
    preds = list(own.preds)
    for i in range(1, len(preds)):
        if runs[i] == runs[i - 1]:
            preds[i] = tuple(sorted({*preds[i], (i - 1, 0)}))
    return Dependencies(tuple(preds), own.batch, "parallel", "own-step")


def reading_counts(path: Path) -> None:
    timing: collections.Counter[str] = collections.Counter()
    timing_sides: collections.Counter[tuple[str, ...]] = collections.Counter()
    occ: collections.Counter[str] = collections.Counter()
    occ_sides: collections.Counter[tuple[str, ...]] = collections.Counter()
    n_parallel = n_repeated = 0
    for item in read_items(path):
        scenario, question = parse_item(item)
        gold = set(item["answers"])
        depth = item.get("depth")
        if scenario.execution == "parallel":
            n_parallel += 1
            got = {
                t: set(answer_question(scenario, question, depth, timing=t).answers)
                for t in TIMINGS
            }
            seq = answer_question(scenario, question, depth, list_order(scenario)).answers
            timing["list-order (not declared)"] += set(seq) == gold
            timing.update(t for t in TIMINGS if got[t] == gold)
            if len({frozenset(a) for a in got.values()}) > 1:
                timing_sides[tuple(t for t in TIMINGS if got[t] == gold)] += 1
        if any(len(occurrences(scenario, s.event)) > 1 for s in question.shifts):
            n_repeated += 1
            got = {
                o: set(answer_question(scenario, question, depth, occurrence=o).answers)
                for o in OCCURRENCES
            }
            occ.update(o for o in OCCURRENCES if got[o] == gold)
            if len({frozenset(a) for a in got.values()}) > 1:
                occ_sides[tuple(o for o in OCCURRENCES if got[o] == gold)] += 1
    print(f"parallel items: {n_parallel}; labels each timing gives: {dict(timing)}")
    print("  where the timings differ, the gold is given by:", _sides(timing_sides))
    print(f"items with a what-if on a repeated step: {n_repeated}; labels each gives: {dict(occ)}")
    print("  where the occurrences differ, the gold is given by:", _sides(occ_sides))


def _sides(c: collections.Counter[tuple[str, ...]]) -> dict[str, int]:
    return {(" + ".join(k) or "none"): v for k, v in c.most_common()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("path", nargs="?", default=str(DEFAULT_PATH))
    ap.add_argument("--no-audit", action="store_true", help="accuracy only")
    ap.add_argument("--misses", type=int, default=50, help="print at most N misses")
    ap.add_argument("--json", help="write the figures and all misses to this file")
    ap.add_argument("--readings", action="store_true", help="label counts per reading")
    args = ap.parse_args(argv)
    if args.readings:
        reading_counts(Path(args.path))
        return 0
    out = run(Path(args.path), not args.no_audit, args.misses)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
