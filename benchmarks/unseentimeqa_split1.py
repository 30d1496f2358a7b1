"""UnSeenTimeQA accuracy and audit verdicts on a split file, file by file.

    python benchmarks/unseentimeqa_split1.py [PATH] [--no-audit] [--misses N] [--json OUT]

PATH defaults to ``../shared/samples/unseentimeqa_split1.jsonl.gz`` (all
3,600 items of split 1, one JSON object a line, each with ``source_file``;
``.gz`` is read transparently). The benchmark's ids restart in every source
file, so items are grouped by ``source_file`` and each is answered on its own
(:func:`tsolve.solver.logistics_answer.answer_item`, the library behind
``tsolve logistics answer``) and audited
(:func:`tsolve.audit.logistics.audit_logistics`, behind ``tsolve audit``);
``source_file`` + ``id`` names an item.

Printed: accuracy per source file and overall (exact set match against
``answers``), the audit's verdict counts overall and on the misses, the
readings that ambiguous verdicts name, and the misses with their verdicts.
A miss audited ``ok`` would be a defect of the audit (the gold would then be
the answer under every reading, yet the answerer gives something else), so
it is counted apart. These are the figures of docs/logistics.md.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from tsolve.audit.logistics import audit_logistics
from tsolve.errors import TsolveError
from tsolve.solver.logistics_answer import answer_item

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("path", nargs="?", default=str(DEFAULT_PATH))
    ap.add_argument("--no-audit", action="store_true", help="accuracy only")
    ap.add_argument("--misses", type=int, default=50, help="print at most N misses")
    ap.add_argument("--json", help="write the figures and all misses to this file")
    args = ap.parse_args(argv)
    out = run(Path(args.path), not args.no_audit, args.misses)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
