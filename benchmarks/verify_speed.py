"""``tsolve verify`` throughput on time-puzzle predictions, this tree against
another (``--old``, e.g. a checkout of main), timed in alternation.

Two figures, each as the ratio new/old taken round by round (A B, B A, A B,
...: the machine's drift hits both alike), reported as the median of the
rounds with their range:

- **library** (the issue's target: predictions/s with diagnosis on one core):
  ``verify`` + ``summary()`` in one process on records already parsed, as
  ``tsolve bench``'s ``time-puzzles.verify`` runs it
  (:func:`tsolve.families.time_puzzles.bench.verify_as_cli` over
  :func:`~tsolve.families.time_puzzles.bench.synthesise_predictions`: exact, missed,
  extra, shifted, ``None``, month names, unparseable). Each round starts a
  fresh interpreter per tree, warms it up, and takes the median of
  ``--reps`` timed runs.
- **cli** (``--cli-count N``): the whole ``tsolve verify RECORDS PREDICTIONS
  --format F > /dev/null`` process, start-up and JSON decoding included,
  with its CPU seconds and peak RSS from the kernel (``os.wait4``).

The records are ``tsolve dataset time-puzzles --solutions 1-6 --seed 3``
(200, written once under ``--work``), repeated under new ids.

    python benchmarks/verify_speed.py --old /work/main --rounds 7
    python benchmarks/verify_speed.py --old /work/main --rounds 5 --count 0 --cli-count 200000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _env(tree: Path) -> dict[str, str]:
    """``tree``'s tsolve, bytecode cached as a user's install would have it."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def base_records(work: Path, tree: Path) -> Path:
    """200 generated time puzzles, M = 1..6 (written once)."""
    out = work / "time-puzzles-200.jsonl"
    if not out.exists():
        cmd = [sys.executable, "-m", "tsolve", "dataset", "time-puzzles", "--count", "200"]
        cmd += ["--solutions", "1-6", "--seed", "3", "--out", str(out)]
        subprocess.run(cmd, check=True, env=_env(tree), cwd=tree, stdout=subprocess.DEVNULL)
    return out


def child(records: Path, count: int, reps: int, diagnose: bool) -> None:
    """In the tree under test: print the median rate of ``reps`` timed runs."""
    from tsolve.families.time_puzzles.bench import synthesise_predictions, verify_as_cli

    base = [json.loads(line) for line in records.read_text().splitlines()]
    recs, preds = synthesise_predictions(base, max(1, count // len(base)))
    verify_as_cli(recs, preds, diagnose).summary()  # warm: fact caches, imports
    rates = []
    for _ in range(reps):
        t0 = time.perf_counter()
        verify_as_cli(recs, preds, diagnose).summary()
        rates.append(len(preds) / (time.perf_counter() - t0))
    print(json.dumps({"rate": statistics.median(rates)}))


def library_rate(tree: Path, records: Path, count: int, reps: int, diagnose: bool) -> float:
    cmd = [sys.executable, __file__, "--child", str(records), "--count", str(count)]
    cmd += ["--reps", str(reps)] + ([] if diagnose else ["--no-diagnosis"])
    done = subprocess.run(cmd, env=_env(tree), cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr[-2000:]}")
    rate: float = json.loads(done.stdout.splitlines()[-1])["rate"]
    return rate


def cli_inputs(work: Path, records: Path, count: int) -> tuple[Path, Path]:
    """``count`` time-puzzle records and one prediction each (written once)."""
    from tsolve.families.time_puzzles.bench import synthesise_predictions

    recs_path = work / f"tp-records-{count}.jsonl"
    preds_path = work / f"tp-preds-{count}.jsonl"
    if recs_path.exists() and preds_path.exists():
        return recs_path, preds_path
    base = [json.loads(line) for line in records.read_text().splitlines()]
    recs, preds = synthesise_predictions(base, -(-count // len(base)))
    with recs_path.open("w") as rf, preds_path.open("w") as pf:
        for rec, pred in zip(recs[:count], preds[:count], strict=True):
            rf.write(json.dumps(rec, ensure_ascii=False) + "\n")
            pf.write(json.dumps(pred, ensure_ascii=False) + "\n")
    return recs_path, preds_path


def cli_run(tree: Path, recs: Path, preds: Path, fmt: str) -> dict[str, float]:
    """One whole ``tsolve verify`` process: wall and CPU seconds, peak RSS."""
    cmd = [sys.executable, "-m", "tsolve", "verify", str(recs), str(preds), "--format", fmt]
    t0 = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(cmd, env=_env(tree), cwd=tree, stdout=null, stderr=null)
        _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} (in {tree}) failed: exit {proc.returncode}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def paired(label: str, new: list[float], old: list[float], unit: str) -> None:
    """Medians of each side and of the round-by-round ratios, with ranges."""
    ratios = [a / b for a, b in zip(new, old, strict=True)]

    def fig(xs: list[float], form: str) -> str:
        return f"{statistics.median(xs):{form}} ({min(xs):{form}}-{max(xs):{form}})"

    form = ",.0f" if max(new) >= 100 else ".2f"
    print(
        f"{label}: new {fig(new, form)} {unit}, old {fig(old, form)} {unit}, "
        f"new/old {fig(ratios, '.2f')}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, help="the other source tree (e.g. a checkout of main)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--count", type=int, default=20_000, help="library predictions (0: skip)")
    ap.add_argument("--reps", type=int, default=3, help="timed library runs per round")
    ap.add_argument("--no-diagnosis", action="store_true")
    ap.add_argument("--cli-count", type=int, default=0, help="CLI predictions (0: skip)")
    ap.add_argument("--format", default="jsonl", help="the CLI's --format")
    ap.add_argument("--work", type=Path, default=Path("/tmp/tsolve-verify-speed"))
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.count, args.reps, not args.no_diagnosis)
        return
    args.work.mkdir(parents=True, exist_ok=True)
    records = base_records(args.work, HERE)
    trees = {"new": HERE, **({"old": args.old} if args.old else {})}
    order = list(trees)
    lib: dict[str, list[float]] = {k: [] for k in trees}
    cli: dict[str, list[dict[str, float]]] = {k: [] for k in trees}
    if args.cli_count:
        recs, preds = cli_inputs(args.work, records, args.cli_count)
    for r in range(args.rounds):
        for name in order if r % 2 == 0 else reversed(order):
            if args.count:
                lib[name].append(
                    library_rate(trees[name], records, args.count, args.reps, not args.no_diagnosis)
                )
            if args.cli_count:
                cli[name].append(cli_run(trees[name], recs, preds, args.format))
        done = {k: (f"{v[-1]:,.0f}/s" if v else "") for k, v in lib.items()}
        done_cli = {k: (f"{v[-1]['wall']:.2f} s" if v else "") for k, v in cli.items()}
        print(f"round {r + 1}: library {done}  cli {done_cli}", file=sys.stderr, flush=True)
    diag = "no diagnosis" if args.no_diagnosis else "diagnosis"
    if args.count:
        if "old" in lib:
            paired(f"library, {diag}", lib["new"], lib["old"], "pred/s")
        else:
            print(f"library, {diag}: {statistics.median(lib['new']):,.0f} pred/s")
    if args.cli_count:
        n = args.cli_count
        for key, unit in (("wall", "s"), ("cpu", "s"), ("peak_mb", "MB")):
            new = [c[key] for c in cli["new"]]
            old = [c[key] for c in cli.get("old", [])]
            if old:
                paired(f"cli {args.format} {n:,}, {key}", new, old, unit)
            else:
                print(f"cli {args.format} {n:,}, {key}: {statistics.median(new):,.3g} {unit}")
        rates = [n / c["wall"] for c in cli["new"]]
        print(f"cli new: {statistics.median(rates):,.0f} predictions/s wall (whole process)")


if __name__ == "__main__":
    main()
