"""Answer UnSeenTimeQA split 1 as one concatenated file and file by file.

Batch rows are never dropped, checked on real data: the benchmark numbers the items of each of its
files from 0, so the concatenation repeats ids; ``tsolve logistics answer``
must still write one row per input row, in input order, with the same
accuracy as answering the files one at a time.

    python benchmarks/experiments/concat_split1.py [../shared/samples/unseentimeqa_split1.jsonl.gz]

Prints the row counts, the repeated-id warning, and the exact-set-match
accuracy both ways; exits 1 if the two runs differ in any row. Then scores
``logistics answer``'s own outputs as predictions with ``tsolve verify``: on
the concatenation by position (``--match order``; by id it is refused, since
ids repeat) and file by file by id, which must agree. The sample is
not copied into the repository (it is read from ``../shared``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from tsolve.errors import TsolveError
from tsolve.families.logistics.answer_items import answer_file
from tsolve.records import RepeatedIds
from tsolve.verifiers.verify_batch import verify

DEFAULT = Path(__file__).resolve().parents[3] / "shared/samples/unseentimeqa_split1.jsonl.gz"


def main(sample: Path) -> int:
    with gzip.open(sample, "rt", encoding="utf-8") as fh:
        items = [json.loads(line) for line in fh if line.strip()]
    by_file: dict[str, list[dict]] = defaultdict(list)
    for item in items:
        by_file[item.get("source_file", "?")].append(item)
    with tempfile.TemporaryDirectory() as tmp:
        concat = Path(tmp) / "concat.jsonl"  # as a user would: the files, one after another
        concat.write_text(
            "".join(
                json.dumps({k: v for k, v in it.items() if k != "source_file"}) + "\n"
                for rows in by_file.values()
                for it in rows
            )
        )
        repeated = RepeatedIds()
        whole = list(answer_file(concat, repeated=repeated))
        apart = []
        for k, rows in enumerate(by_file.values()):
            part = Path(tmp) / f"file{k}.json"
            part.write_text(json.dumps(rows))  # the benchmark's own format: a JSON array
            apart.extend(answer_file(part))
    inputs = [it for rows in by_file.values() for it in rows]
    preds = [{"id": r.id, "output": "Answer: " + ", ".join(r.answers or [])} for r in whole]
    try:
        verify(inputs, preds)
        refused = "no"
    except TsolveError as exc:
        refused = str(exc)[:90] + "..."
    by_order = verify(inputs, preds, match="order").summary()["families"]["logistics"]
    apart_acc, k = [], 0
    for rows in by_file.values():
        report = verify(rows, preds[k : k + len(rows)], keep_items=True)
        apart_acc += [it.metrics["accuracy"] for it in report.items]
        k += len(rows)
    ids_kept = [r.id for r in whole] == [it["id"] for it in inputs]
    types_kept = all(type(r.id) is type(it["id"]) for r, it in zip(whole, inputs, strict=True))
    same = [r.to_json(with_gold=True) for r in whole] == [r.to_json(with_gold=True) for r in apart]
    for name, results in (("concatenated", whole), ("file by file", apart)):
        correct = sum(r.correct is True for r in results)
        errors = sum(r.error is not None for r in results)
        total = len(results)
        print(f"{name}: {total} rows, {errors} errors, {correct}/{total} = {correct / total:.2%}")
    print(f"files: {len(by_file)}; ids kept in order and type: {ids_kept and types_kept}")
    print(f"warning: {repeated.warning('answered')}")
    print(f"rows identical both ways: {same}")
    n, acc = by_order["overall"]["n"], by_order["overall"]["accuracy"]
    apart_mean = sum(apart_acc) / len(apart_acc)
    print(f"verify by id on the concatenation: refused: {refused}")
    print(
        f"verify --match order: n={n}, accuracy {acc:.4f}; "
        f"file by file by id: n={len(apart_acc)}, accuracy {apart_mean:.4f}"
    )
    agree = n == len(apart_acc) and abs(acc - apart_mean) < 1e-12
    ok = same and ids_kept and types_kept and len(whole) == len(inputs) and agree
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", nargs="?", type=Path, default=DEFAULT, help="split-1 JSONL (.gz)")
    args = parser.parse_args()
    if not args.sample.is_file():
        parser.error(f"no such file: {args.sample}")
    sys.exit(main(args.sample))
