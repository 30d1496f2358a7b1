"""Peak memory and speed of ``tsolve verify`` over N predictions, this tree
against another (``--old``, e.g. a worktree of main), each a fresh process.

Writes N records (time puzzles and SPAN questions, half each) and one
prediction per record, then runs ``tsolve verify RECORDS PREDICTIONS
--format F > /dev/null`` under ``/usr/bin/time -v`` and prints wall time,
predictions/s and peak RSS. The records are a few hundred generated ones
repeated under new ids (``id#copy``), as ``tsolve bench`` does
(:func:`tsolve.families.time_puzzles.bench.synthesise_predictions`), so making a
million costs seconds; the predictions mix exact, partly wrong, shifted and
unparseable answers, so the diagnosis runs.

    python benchmarks/verify_memory.py --count 100000 --old /work/main
    python benchmarks/verify_memory.py --count 1000000 --old /work/main --formats jsonl

For throughput with old and new interleaved, see ``verify_speed.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def make_inputs(work: Path, count: int, base: int = 200) -> tuple[Path, Path]:
    """``count`` records and predictions under ``work`` (reused if present)."""
    from tsolve.families.time_puzzles.bench import synthesise_predictions

    recs_path, preds_path = work / f"records-{count}.jsonl", work / f"preds-{count}.jsonl"
    if recs_path.exists() and preds_path.exists():
        return recs_path, preds_path
    bases = {}
    for family in ("time-puzzles", "span"):
        out = work / f"base-{family}.jsonl"
        if not out.exists():
            cmd = [sys.executable, "-m", "tsolve", "dataset", family, "--count", str(base)]
            subprocess.run([*cmd, "--seed", "7", "--out", str(out)], check=True, env=_env(HERE))
        bases[family] = [json.loads(line) for line in out.read_text().splitlines()]
    span_answers = ("MY ANSWER: Yes", "MY ANSWER: No", "I cannot tell.")
    with recs_path.open("w") as rf, preds_path.open("w") as pf:
        written, copy = 0, 0
        while written < count:
            recs, preds = synthesise_predictions(bases["time-puzzles"], 1)
            for r in bases["span"]:
                recs.append(r)
                preds.append({"id": r["id"], "output": span_answers[written % 3]})
            for rec, pred in zip(recs, preds, strict=True):
                if written == count:
                    break
                rid = f"{rec['id'].split('#')[0]}#{copy}"
                rf.write(json.dumps({**rec, "id": rid}, ensure_ascii=False) + "\n")
                pf.write(json.dumps({**pred, "id": rid}, ensure_ascii=False) + "\n")
                written += 1
            copy += 1
    return recs_path, preds_path


def _env(tree: Path) -> dict[str, str]:
    """Run ``tree``'s tsolve (the commands also start in ``tree``: ``python -m``
    puts the working directory ahead of PYTHONPATH)."""
    return {**os.environ, "PYTHONPATH": str(tree)}


def run(tree: Path, records: Path, preds: Path, fmt: str) -> dict[str, float]:
    """One ``tsolve verify`` under ``/usr/bin/time -v``: seconds and peak RSS."""
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "tsolve", "verify"]
    cmd += [str(records), str(preds), "--format", fmt]
    t0 = time.perf_counter()
    done = subprocess.run(
        cmd, env=_env(tree), cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    wall = time.perf_counter() - t0
    err = done.stderr.decode(errors="replace")
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    if done.returncode not in (0, 1) or peak is None:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{err[-2000:]}")
    return {"seconds": wall, "peak_mb": int(peak.group(1)) / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--old", type=Path, help="another source tree to compare (e.g. main)")
    ap.add_argument("--formats", nargs="+", default=["jsonl", "json", "text"])
    ap.add_argument("--work", type=Path, default=Path("/tmp/tsolve-verify-memory"))
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    records, preds = make_inputs(args.work, args.count)
    print(f"{args.count:,} predictions: {records}, {preds}")
    trees = [("new", HERE)] + ([("old", args.old)] if args.old else [])
    for label, tree in trees:
        for fmt in args.formats:
            if label == "old" and fmt == "jsonl":
                fmt = "text"  # main has no jsonl; text is its leanest form
            r = run(tree, records, preds, fmt)
            rate = args.count / r["seconds"]
            print(
                f"{label:4} --format {fmt:5} {r['seconds']:8.1f} s  {rate:9,.0f} predictions/s"
                f"  peak RSS {r['peak_mb']:8,.0f} MB",
                flush=True,
            )


if __name__ == "__main__":
    main()
