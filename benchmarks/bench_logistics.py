"""Throughput of the logistics family: answering and generating.

    python benchmarks/bench_logistics.py [--rounds N] [--count N]
    python benchmarks/bench_logistics.py --copies 20000 --copies-out /tmp/lg20k.jsonl

* answered questions/s: benchmark items answered from their English (parse,
  graph schedule, timeline), over the 120 sample items if ``../shared`` is
  beside the repo, else over generated records read back from their text;
  per wall second and per CPU second of this process (the CPU figure is the
  one a loaded machine moves least);
* the same questions with the schedule solved by CP-SAT instead of the graph
  pass, as the in-process peer (the ratio is what the graph pass buys);
* generated scenarios with solved questions/s, over every difficulty,
  execution and question type, depth drawn from 6..20.

Targets: >= 2,000 answers/s, >= 5,000 on one core, and
>= 200 generated records/s.

``--copies-out`` writes the items replicated to about ``--copies`` lines, ids
renamed so none repeats, for timing ``tsolve logistics answer FILE --workers N``
as a whole process (``docs/scaling.md``, "Verification at scale"; figures in
``benchmarks/results/2026-11-24-logistics-workers.md``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time
from pathlib import Path
from typing import Any

from tsolve.families.logistics.answer_items import answer_item
from tsolve.families.logistics.bench import answer_with_cpsat, logistics_items
from tsolve.families.logistics.generate import GenerateParams, generate_record

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "samples" / "unseentimeqa_sample.jsonl"


def _items() -> tuple[list[dict[str, Any]], str]:
    if SAMPLE.exists():
        items = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
        return items, f"{len(items)} UnSeenTimeQA sample items"
    items = logistics_items(7)
    return items, f"{len(items)} generated records (sample not found)"


def bench_answer(items: list[dict[str, Any]], rounds: int) -> tuple[float, float, float, int]:
    """(median, best) answers/s over ``rounds`` passes, the median answers per
    CPU second, and the exact matches.

    All three are printed because a shared machine's load moves the wall
    median; the best pass and the CPU rate are the closest to the code's own
    speed on one core."""
    correct = 0
    rates, cpu_rates = [], []
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        for k, item in enumerate(items):
            correct += bool(answer_item(item, k).correct)
        rates.append(len(items) / (time.perf_counter() - t0))
        cpu_rates.append(len(items) / (time.process_time() - c0))
    rates.sort()
    cpu_rates.sort()
    return rates[len(rates) // 2], rates[-1], cpu_rates[len(rates) // 2], correct // rounds


def write_copies(items: list[dict[str, Any]], copies: int, out: Path) -> int:
    """Write ``items`` over and over (ids renamed ``ID#c``) up to ``copies``
    lines or just past; returns the lines written."""
    rounds = -(-copies // len(items))
    with out.open("w", encoding="utf-8") as fh:
        for c in range(rounds):
            for it in items:
                fh.write(json.dumps({**it, "id": f"{it.get('id')}#{c}"}) + "\n")
    return rounds * len(items)


def bench_answer_cpsat(items: list[dict[str, Any]]) -> float:
    """Peer: the same questions with every schedule solved by CP-SAT."""
    t0 = time.perf_counter()
    for item in items:
        answer_with_cpsat(item)
    return len(items) / (time.perf_counter() - t0)


def bench_generate(count: int) -> float:
    combos = list(itertools.product(("easy", "medium", "hard"), ("serial", "parallel"),
                                    ("static", "relative", "hypothetical")))  # fmt: skip
    t0 = time.perf_counter()
    for i in range(count):
        d, e, q = combos[i % len(combos)]
        generate_record(0, i, GenerateParams(d, e, q))  # type: ignore[arg-type]
    return count / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20, help="passes over the items when answering")
    ap.add_argument("--count", type=int, default=1000, help="records to generate")
    ap.add_argument("--copies", type=int, default=20_000, help="lines for --copies-out")
    ap.add_argument("--copies-out", type=Path, help="write the items replicated, then stop")
    args = ap.parse_args()
    items, what = _items()
    if args.copies_out:
        n = write_copies(items, args.copies, args.copies_out)
        print(f"wrote {n} items ({what}, ids renamed) to {args.copies_out}")
        return
    answer_item(items[0])  # warm imports and caches
    rate, best, cpu_rate, correct = bench_answer(items, args.rounds)
    peer = bench_answer_cpsat(items)
    gen = bench_generate(args.count)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load}")
    print(f"answering: {what}, {correct}/{len(items)} exact set match")
    print(f"  answered questions/s (parsing included): {rate:,.0f} median, {best:,.0f} best pass")
    print(f"  per CPU second of this process:          {cpu_rate:,.0f} median")
    print("                                           (targets >= 2,000; >= 5,000 on one core)")
    ratio = rate / peer
    print(f"  peer, schedules by CP-SAT:               {peer:,.0f}   (graph pass: {ratio:,.0f}x)")
    print(f"generating: {args.count} records over 18 difficulty/execution/question combos")
    print(f"  generated scenarios with questions/s:    {gen:,.0f}   (target >= 200)")


if __name__ == "__main__":
    main()
