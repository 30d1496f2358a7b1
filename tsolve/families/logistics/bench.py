"""Bench cases of the logistics group: questions answered (one process and
a pool) and generation."""

from __future__ import annotations

import time
from typing import Any

from tsolve.bench.measure import Measurement, Size, paired_measure, rate_measure, round_figure

# ---------------------------------------------------------------- logistics


def logistics_items(per_combo: int, seed: int = 0) -> list[dict[str, Any]]:
    """Generated records reduced to the benchmark's own fields (what a user
    feeds ``tsolve logistics answer``), over every difficulty x execution x
    question kind."""
    import itertools

    from tsolve.families.logistics.generate import GenerateParams, benchmark_item, generate_record

    items = []
    combos = itertools.product(
        ("easy", "medium", "hard"), ("serial", "parallel"), ("static", "relative", "hypothetical")
    )
    for k, (d, e, q) in enumerate(combos):
        params = GenerateParams(d, e, q)  # type: ignore[arg-type]
        for i in range(per_combo):
            rec = generate_record(seed + k, i, params)
            items.append(benchmark_item(rec))
    return items


def answer_with_cpsat(item: dict[str, Any]) -> None:
    """The peer of ``logistics.answer``: the same question, with every schedule
    solved by CP-SAT (interval variables) instead of the graph pass."""
    from tsolve.families.logistics.parse.item import parse_item
    from tsolve.families.logistics.schedule_cpsat import cpsat_schedule
    from tsolve.families.logistics.solve import resolve_minute

    sc, q = parse_item(item)
    sched = cpsat_schedule(sc)
    forced = {s.event: sched.start[s.event] + s.minutes for s in q.shifts}
    if forced:
        sched = cpsat_schedule(sc, forced=forced)
    if q.anchor is not None:
        sched = sched.shifted(q.anchor[1] - sched.start[q.anchor[0]])
    resolve_minute(sc, sched, q, item.get("depth"))


def bench_logistics(size: Size) -> list[Measurement]:
    import itertools

    from tsolve.families.logistics.answer_items import answer_item
    from tsolve.families.logistics.generate import GenerateParams, generate_record

    group = "logistics"
    items = logistics_items(size(6, 40))
    answer_item(items[0])
    reps = size.reps(3, 5)
    # The peer answers every 4th item (every combo at the bench's sizes).
    peer_items = items[::4]

    def answer_peer_items(rep: int) -> int:
        for it in peer_items:
            answer_with_cpsat(it)
        return len(peer_items)

    m = paired_measure(
        "logistics.answer",
        group,
        "answer",
        "questions/s",
        len(items),
        lambda r: sum(1 for k, it in enumerate(items) if answer_item(it, k).answers is not None),
        (
            "same questions, schedules by CP-SAT",
            len(peer_items),
            answer_peer_items,
        ),
        reps,
        {"items": "18 difficulty x execution x question combos", "parsing": True},
        "after one uncounted round",
        warmup=True,
    )
    out = [m]
    if not size.quick and size.scale >= 1:
        out.append(bench_logistics_workers(items))

    combos = list(
        itertools.product(
            ("easy", "medium", "hard"),
            ("serial", "parallel"),
            ("static", "relative", "hypothetical"),
        )
    )
    params = [GenerateParams(d, e, q) for d, e, q in combos]  # type: ignore[arg-type]
    work = size(45, 540)
    out.append(
        rate_measure(
            "logistics.generate",
            group,
            "generate",
            "records/s",
            work,
            3,
            lambda r: sum(
                1 for i in range(work) if generate_record(5, r * work + i, params[i % len(params)])
            ),
            {"combos": len(params), "depth": "6-20"},
        )
    )
    return out


def bench_logistics_workers(items: list[dict[str, Any]], rounds: int = 2) -> Measurement:
    """``answer_items(..., workers=2)`` over eight renamed copies of the items
    as raw JSON lines (what ``tsolve logistics answer --workers 2`` hands its
    workers), pool start-up included, paired round by round with one process
    answering the same lines: the speed-up is the median of the pairs' ratios,
    so a load that drifts during the run moves both sides of each ratio alike.
    Full runs only: starting the pool takes about a second."""
    import json
    import statistics

    from tsolve.families.logistics.answer_items import answer_items
    from tsolve.records import RawLine

    workers = 2
    lines = [
        RawLine(f"bench.jsonl:{k + 1}", json.dumps({**it, "id": f"{it.get('id')}#{c}"}).encode())
        for k, (c, it) in enumerate((c, it) for c in range(8) for it in items)
    ]

    def rate(n_workers: int) -> tuple[float, float, float]:
        """(answers/s, wall seconds, this process's CPU seconds)"""
        t0, c0 = time.perf_counter(), time.process_time()
        done = sum(1 for r in answer_items(enumerate(lines), n_workers) if r.answers is not None)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        return done / dt, dt, cpu

    pairs = [(rate(1), rate(workers)) for _ in range(rounds)]
    ratios = [two[0] / one[0] for one, two in pairs]
    return Measurement(
        f"logistics.answer.workers={workers}",
        "logistics",
        "answer",
        "questions/s",
        statistics.median(two[0] for _one, two in pairs),
        len(lines),
        rounds,
        sum(two[1] for _one, two in pairs),
        {"workers": workers, "parsing": True, "input": "raw JSON lines"},
        {
            "speedup_over_one_process": round_figure(statistics.median(ratios)),
            "speedups": [round_figure(r) for r in ratios],
            "one_process_rates": [round_figure(one[0]) for one, _two in pairs],
            "parent_cpu_share": round_figure(
                statistics.median(two[2] / two[1] for _one, two in pairs)
            ),
        },
        note="tsolve logistics answer --workers 2 against one process on the same lines, "
        "paired; pool start-up included; parent_cpu_share: the parent's CPU seconds per "
        "wall second (splitting lines, ordering results)",
    )
