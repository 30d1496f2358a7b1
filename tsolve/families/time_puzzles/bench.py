"""Bench cases of the time-puzzles group: generation by backend and M, solve
latency, fact kinds, relational puzzles and verification, with Algorithm 3 of
the Time Puzzles paper as the peer timed in alternation."""

from __future__ import annotations

import datetime as _dt
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from tsolve.bench.measure import (
    Measurement,
    Paired,
    Size,
    attach_peer,
    count_generated,
    interleave,
    interleave_items,
    latencies,
    p95,
    paired_measure,
    rate_measure,
    round_figure,
    solve_with,
)
from tsolve.families.time_puzzles.mask_peer import CertifyingPeer, MaskPeer
from tsolve.solver.backend_names import BACKENDS, GENERATION_BACKENDS

#: The Time Puzzles paper: "around 2 seconds to generate each puzzle in a single core CPU".
PAPER_PUZZLES_PER_SECOND = 0.5

# ---------------------------------------------------------------- time puzzles


def algorithm3_solve(facts: Sequence[Any], domain: Any) -> list[int]:
    """The paper's SOLVEPUZZLE (Algorithm 3), as the peer: compute every fact's
    date set over the whole domain from scratch, sort by information gain,
    intersect. Vectorised with NumPy (a fair, fast peer), but with no caching
    and no solver: the cost grows with the domain."""
    from tsolve.encodings.facts import DayView

    view = DayView(np.arange(domain.start, domain.end + 1, dtype=np.int64))
    masks = [np.asarray(f.holds(view), dtype=bool) for f in facts]
    n = view.days.size
    ig = [np.inf if m.sum() == 0 else np.log2(n) - np.log2(m.sum()) for m in masks]
    acc = np.ones(n, dtype=bool)
    for k in sorted(range(len(facts)), key=lambda i: -ig[i]):
        acc &= masks[k]
    return [int(d) for d in view.days[acc]]


def bench_time_puzzles(size: Size) -> list[Measurement]:
    from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
    from tsolve.families.time_puzzles.solve import puzzle_from_record

    group = "time-puzzles"
    out: list[Measurement] = []
    mixed = (1, 2, 3, 4, 5, 6)
    warm = size(60, 150)
    for i in range(warm):  # per-process caches (fact IR, anchor views): a long run's steady state
        generate_puzzle(900, i, PuzzleConfig(solutions=mixed))
    note = f"after a warm-up of {warm} puzzles (per-process fact caches)"

    # Headline: CP-SAT, mixed M = 1..6, default and minimal puzzles, each
    # against the cached-mask peer making the same kind, in the same rounds.
    work, rounds = size(80, 600), size.reps(4, 5)
    pair = generation_vs_peer(work, rounds)
    for m in pair:
        m.note = f"{m.note}; {note}"
    m = pair[0]
    m.reference = {
        "name": "Time Puzzles paper (~2 s/puzzle, one core)",
        "value": PAPER_PUZZLES_PER_SECOND,
        "unit": "puzzles/s",
        "ratio": round_figure((m.value or 0) / PAPER_PUZZLES_PER_SECOND),
    }
    out.extend(pair)
    out.append(bench_paper_release(size))
    out.append(bench_wide_domain(size))
    out.extend(bench_relational(size))

    out.extend(bench_puzzle_kinds(size, note))

    # By backend and M.
    per_m = {"cpsat": size(8, 40), "z3": size(2, 10)}
    for backend in GENERATION_BACKENDS:
        for target in mixed:
            c = PuzzleConfig(solutions=target, backend=backend)
            w = per_m[backend]
            out.append(
                rate_measure(
                    f"time-puzzles.generate.{backend}.M={target}",
                    group,
                    "generate",
                    "puzzles/s",
                    w,
                    1,
                    count_generated(generate_puzzle, 2, w, c),
                    {"backend": backend, "M": target},
                    note,
                )
            )

    # Solve latency per backend against Algorithm 3, on the same generated puzzles (mixed M).
    cfg = PuzzleConfig(solutions=mixed)
    records = [generate_puzzle(3, i, cfg) for i in range(size(40, 200))]
    n = size(30, 100)  # per round; verification below uses all the records
    out.extend(bench_solve_latency([puzzle_from_record(r) for r in records[:n]], size))
    out.extend(bench_verify_puzzles(records, size))
    return out


PEER_NAME = (
    "cached-mask NumPy peer (calendar facts' masks kept, ANDed until M; "
    "no knowledge base, no certificate)"
)
CERTIFYING_PEER_NAME = (
    "certifying peer (the cached-mask peer plus one CP-SAT call enumerating the answer "
    "set over the facts' masks; minimal: a checked witness per fact)"
)
#: The whole proleptic Gregorian calendar.
WIDE_DOMAIN = ("0001-01-01", "9999-12-31")


def mask_peer_run(peer: MaskPeer, work: int, minimal: bool = False) -> Callable[[int], int]:
    """A round of the peer: ``work`` puzzles, M cycling 1..6, seeded by the round
    (certified when ``peer`` is a :class:`CertifyingPeer`)."""
    make = peer.certified if isinstance(peer, CertifyingPeer) else peer.puzzle

    def run(r: int) -> int:
        rng = np.random.default_rng(r)
        for i in range(work):
            make(rng, 1 + i % 6, minimal)
        return work

    return run


def generation_vs_peer(
    work: int, rounds: int, domain: Any = None, clock: Callable[[], float] = time.process_time
) -> list[Measurement]:
    """Generation of default and of minimal puzzles (CP-SAT, M = 1..6, every
    record certified), each against two peers making the same kind of puzzle:
    the cached-mask peer (:class:`MaskPeer`, no certificate) and the
    certifying peer (:class:`CertifyingPeer`: the same plus one CP-SAT call
    per puzzle and, for minimal ones, a checked witness per fact). All six
    runs are timed in the same interleaved rounds of ``work`` puzzles
    (:func:`~tsolve.bench.measure.interleave`: A B C ..., ... C B A), by
    ``clock`` (CPU time by default: the machine is shared, and CPU time is
    what another process's load disturbs least). Each figure is the median of
    its per-round rates; its ``peer.ratio`` the median per-round ratio to the
    peer. Returns the default and the minimal figure against the plain peer,
    then the same two against the certifying peer (ids ending
    ``.vs-certifying``)."""
    from tsolve.calendars.domain import DEFAULT_DOMAIN
    from tsolve.families.time_puzzles.generate import PuzzleConfig

    dom = domain or DEFAULT_DOMAIN
    plain, certifying = MaskPeer(dom), CertifyingPeer(dom)
    runs: dict[str, Callable[[int], float]] = {}
    for kind, minimal in (("default", False), ("minimal", True)):
        cfg = PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), domain=dom, minimal=minimal)
        runs[f"tsolve.{kind}"] = count_puzzles(1, cfg, work)
        runs[f"peer.{kind}"] = mask_peer_run(plain, work, minimal)
        runs[f"certifying.{kind}"] = mask_peer_run(certifying, work, minimal)
        # Warm-up, uncounted (other records than the rounds'): the mask
        # table, anchors' days, the peers' masks, as a long run has them
        # (60 puzzles leave few of the default domain's masks to build).
        warm = min(work, 60)
        count_puzzles(901, cfg, warm)(0)
        mask_peer_run(plain, warm, minimal)(rounds + 1)
        mask_peer_run(certifying, warm, minimal)(rounds + 1)
    got = interleave(runs, rounds, clock=clock)
    out = []
    peers = (("peer", PEER_NAME, 0.5), ("certifying", CERTIFYING_PEER_NAME, 0.8))
    for peer, name, target in peers:
        for kind in ("default", "minimal"):
            pair = Paired.of(got, f"tsolve.{kind}", f"{peer}.{kind}")
            mid = f"time-puzzles.generate.cpsat.M=1-6{'' if kind == 'default' else '.minimal'}"
            m = Measurement(
                mid + ("" if peer == "peer" else ".vs-certifying"),
                "time-puzzles", "generate", "puzzles/s", pair.value_a, work, rounds,
                got.seconds[f"tsolve.{kind}"],
                {"backend": "cpsat", "M": "1-6", "minimal": kind == "minimal",
                 "clock": getattr(clock, "__name__", "clock"), "target_peer_ratio": target},
                {"rates": [round_figure(r) for r in pair.a]},
                note=f"{kind} puzzles, each certified by CP-SAT; {work} a round, "
                f"{len(runs)} runs interleaved",
            )  # fmt: skip
            out.append(attach_peer(m, f"{name}, {kind} puzzles", "puzzles/s", work, pair))
    return out


RELEASE_PEER_NAME = (
    "the Time Puzzles paper's released generator (puzzles_generator/date_generator, "
    "Algorithm 1 in Python, every date of 1800-2050 checked against every fact), "
    "on a stand-in knowledge table from tsolve's knowledge base, every answer-set size "
    "0-6 allowed"
)


def bench_paper_release(
    size: Size,
    release: str | None = None,
    venv: str | None = None,
    work: int | None = None,
    peer_work: int | None = None,
    rounds: int | None = None,
    clock: str = "cpu",
) -> Measurement:
    """tsolve's ``--preset paper`` generator against the paper's own released
    generator (:mod:`tsolve.families.time_puzzles.paper_peer`), in alternating
    processes: each round tsolve makes ``work`` puzzles here and the release
    ``peer_work`` in its worker (timed there, without the pipe), A B, B A, ...
    (:func:`interleave`). Rates are per CPU second (``clock="cpu"``: the
    shared machine's load moves wall time by tens of percent within a minute)
    or per wall second (``"wall"``); the other clock's rates are kept in
    ``stats``. The release and its virtual environment come from
    ``release``/``venv`` or ``$TSOLVE_PAPER_RELEASE``/``$TSOLVE_PAPER_PEER_VENV``;
    when either is missing or the release does not load, the row is
    ``skipped`` with the reason, never a figure."""
    from tsolve.errors import TsolveError
    from tsolve.families.time_puzzles import paper_peer

    mid = "time-puzzles.generate.paper-preset.vs-release"
    rel, env = paper_peer.release_dir(release), paper_peer.venv_dir(venv)
    work = work or size(42, 210)
    peer_work = peer_work or size(6, 21)
    rounds = rounds or size.reps(3, 5)
    params = {"preset": "paper", "backend": "cpsat", "M": "0-6", "facts": "4-6",
              "domain": "1800-01-01..2050-12-31", "release": str(rel)}  # fmt: skip

    def skipped(reason: str) -> Measurement:
        return Measurement(mid, "time-puzzles", "generate", "puzzles/s", params=params,
                           status="skipped", note=reason)  # fmt: skip

    reason = paper_peer.peer_unavailable(rel, env)
    if reason is not None:
        return skipped(reason)

    if clock not in ("cpu", "wall"):
        raise TsolveError(f"clock: expected 'cpu' or 'wall', got {clock!r}")
    other: dict[str, list[float]] = {"tsolve": [], "release": []}

    def rates(side: str, count: float, wall: float, cpu: float) -> float:
        by = {"wall": count / max(wall, 1e-9), "cpu": count / max(cpu, 1e-9)}
        other[side].append(round_figure(by["wall" if clock == "cpu" else "cpu"]))
        return by[clock]

    def ours(r: int) -> float:
        from tsolve.families.time_puzzles.generate import generate_puzzle

        t0, c0 = time.perf_counter(), time.process_time()
        for i in range(work):
            generate_puzzle(0, r * work + i, cfg)
        return rates("tsolve", work, time.perf_counter() - t0, time.process_time() - c0)

    try:
        with paper_peer.ReleaseGenerator(rel, env) as peer:
            from tsolve.families.time_puzzles.generate import generate_puzzle

            cfg = paper_peer.tsolve_paper_config()

            def theirs(r: int) -> float:
                got = peer.run(r, paper_peer.paper_jobs(peer_work, r * peer_work))
                return rates("release", got["count"], got["seconds"], got["cpu_seconds"])

            for i in range(min(work, 14)):  # per-process caches, as in a long run
                generate_puzzle(901, i, cfg)
            peer.run(901, paper_peer.paper_jobs(1))
            got = interleave({"tsolve": ours, "release": theirs}, rounds, per_second=False)
            rows = peer.rows
    except TsolveError as exc:
        return skipped(str(exc))
    pair = Paired.of(got, "tsolve", "release")
    m = Measurement(
        mid, "time-puzzles", "generate", "puzzles/s", pair.value_a, work, rounds,
        got.seconds["tsolve"], {**params, "fact_sheet_rows": rows, "clock": clock},
        {"rates": [round_figure(r) for r in pair.a],
         f"{'wall' if clock == 'cpu' else 'cpu'}_rates": other["tsolve"],
         f"peer_{'wall' if clock == 'cpu' else 'cpu'}_rates": other["release"]},
        note=f"tsolve --preset paper ({work} a round, M cycled 0-6) and the release "
        f"({peer_work} a round) in alternating processes, per {clock} second; the "
        "release's rate is timed inside its worker",
    )  # fmt: skip
    return attach_peer(m, RELEASE_PEER_NAME, "puzzles/s", peer_work, pair)


def bench_wide_domain(size: Size) -> Measurement:
    """Generation over 0001-01-01..9999-12-31 (the target: at least
    100 puzzles/s and under 1 GB), against the peer on the same domain."""
    from tsolve.calendars.domain import DateDomain
    from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle

    domain = DateDomain.from_dates(*(_dt.date.fromisoformat(d) for d in WIDE_DOMAIN))
    cfg = PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), domain=domain)
    warm = size(40, 100)  # sizes, residues and anchors: a long run's steady state
    for i in range(warm):
        generate_puzzle(901, i, cfg)
    work = size(20, 100)
    # Most facts the peer draws need a fresh mask over 3.65 million days (a
    # year's, a decade's: thousands of them), so it is ~15x slower than the
    # figure, varies a lot from puzzle to puzzle and keeps GBs of masks:
    # quick runs give it fewer puzzles a round (both figures are rates, timed
    # in the same rounds). Its uncounted warm-up round (other seeds than the
    # rounds') builds the masks every puzzle shares (months, weekdays, days).
    peer_work = size(4, 100)
    peer, peer_warm = MaskPeer(domain), size(4, 10)
    rounds = size.reps(3, 4)
    mask_peer_run(peer, peer_warm)(rounds + 1)
    return paired_measure(
        "time-puzzles.generate.cpsat.M=1-6.domain=0001-9999",
        "time-puzzles",
        "generate",
        "puzzles/s",
        work,
        count_puzzles(1, cfg, work),
        (PEER_NAME, peer_work, mask_peer_run(peer, peer_work)),
        rounds,
        {"backend": "cpsat", "M": "1-6", "domain": "..".join(WIDE_DOMAIN), "target": 100},
        f"after a warm-up of {warm} puzzles (the peer: {peer_warm}); "
        f"the peer draws {peer_work} a round; "
        "peak memory: benchmarks/bench_time_puzzles.py",
    )


def bench_solve_latency(puzzles: list[Any], size: Size) -> list[Measurement]:
    """Solve latency per backend and of Algorithm 3 (the peer), in interleaved
    rounds (:func:`interleave`) over the same puzzles: a round's figure is its
    median latency, the value the median of the rounds'. Each solver does
    all the puzzles in a row: interleaved puzzle by puzzle, Algorithm 3's
    large arrays evict CP-SAT's working set and double its sub-millisecond
    latency, which is then no longer the latency of a batch of solves."""
    from tsolve.families.time_puzzles.solve import solve_puzzle

    solvers: dict[str, Callable[[Any], object]] = {
        "algorithm3": lambda p: algorithm3_solve(p.facts, p.domain),
        **{b: partial(solve_with, solve_puzzle, b) for b in BACKENDS},
    }
    for fn in solvers.values():  # each fact's IR and model once, as a long-lived process would
        latencies(puzzles, fn)
    n, reps = len(puzzles), size.reps(3, 3)
    pooled: dict[str, list[float]] = {k: [] for k in solvers}
    rounds = interleave(
        {k: partial(median_latency_ms, puzzles, fn, pooled[k]) for k, fn in solvers.items()},
        reps,
        per_second=False,
    )
    out = []
    for name in [*BACKENDS, "algorithm3"]:
        lat, med = pooled[name], statistics.median(rounds.figures[name])
        mm = Measurement(
            f"time-puzzles.solve.{name}", "time-puzzles", "solve-latency", "ms", med, n, reps,
            rounds.seconds[name],
            {"backend": name} if name == "algorithm3" else {"backend": name, "M": "1-6"},
            {
                "median_ms": round_figure(med),
                "p95_ms": round_figure(p95(lat) * 1e3),
                "mean_ms": round_figure(statistics.fmean(lat) * 1e3),
                "round_medians_ms": [round_figure(x) for x in rounds.figures[name]],
            },
            note="the peer: every fact's set over the whole domain, intersected by IG"
            if name == "algorithm3"
            else "full answer set per puzzle; value is the median of the rounds' medians",
        )  # fmt: skip
        if name != "algorithm3":
            pair = Paired.of(rounds, name, "algorithm3", lower_is_better=True)
            attach_peer(mm, "paper Algorithm 3 (full-domain enumeration)", "ms", n, pair)
        if name == "z3" and (z3_over_cpsat := Paired.of(rounds, "z3", "cpsat").ratio):
            mm.stats["z3_over_cpsat"] = round_figure(z3_over_cpsat)
        out.append(mm)
    return out


def median_latency_ms(
    items: Sequence[Any], fn: Callable[[Any], object], pooled: list[float], rep: int
) -> float:
    """One round of a latency figure: ``fn`` on every item; the median in ms.
    Every latency (s) is added to ``pooled`` too, for the p95 over all rounds."""
    lat = latencies(items, fn)
    pooled.extend(lat)
    return statistics.median(lat) * 1e3


def bench_puzzle_kinds(size: Size, note: str) -> list[Measurement]:
    """Minimal and zero-answer puzzles beside plain ones, record by record in
    turn (:func:`interleave_items`): each kind's ratio to plain puzzles is the
    median of the per-round ratios."""
    from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle

    mixed = (1, 2, 3, 4, 5, 6)
    kinds = {
        "plain": PuzzleConfig(solutions=mixed),
        "minimal": PuzzleConfig(solutions=mixed, minimal=True),
        "zero-minimal-unsat": PuzzleConfig(solutions=0),
        "zero-trivial": PuzzleConfig(solutions=0, trivial_contradictions=True),
    }
    work, reps = size(10, 100), size.reps(3, 3)
    rounds = interleave_items(
        {k: partial(generate_puzzle, 7, config=cfg) for k, cfg in kinds.items()}, work, reps
    )
    out = []
    for kind in kinds:
        rates = rounds.figures[kind]
        m = Measurement(
            f"time-puzzles.generate.kind={kind}", "time-puzzles", "generate", "puzzles/s",
            statistics.median(rates), work, reps, rounds.seconds[kind],
            {"kind": kind, "backend": "cpsat"}, {"rates": [round_figure(r) for r in rates]},
            note=f"record by record in turn with the other kinds; {note}",
        )  # fmt: skip
        if kind != "plain":
            attach_peer(
                m,
                "plain puzzles, M = 1..6, same rounds",
                "puzzles/s",
                work,
                Paired.of(rounds, kind, "plain"),
            )
        out.append(m)
    return out


def bench_relational(size: Size) -> list[Measurement]:
    """Relational generation (2-4 events, tuples, M = 1..6, CP-SAT gold),
    record by record in turn with single-date generation (M = 1..6;
    :func:`interleave_items`) as the peer: not a slower way of doing the
    same job, but the cost of the relational form over the single-date one
    (also kept as ``stats.ratio_to_single_date``, its older home). The
    relational generator is reached through the registry, as a plug-in's
    would be: no family imports another."""
    from tsolve.contract.registry import get_family
    from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle

    relational = get_family("relational-puzzles", need="generate")
    generate_relational_puzzle = relational.require("generate")

    work, reps = size(10, 100), size.reps(3, 3)
    events = (2, 3, 4)
    mixed = (1, 2, 3, 4, 5, 6)
    runs: dict[str, Callable[[int], object]] = {
        "single": partial(generate_puzzle, 1, config=PuzzleConfig(solutions=mixed))
    }
    for n in events:
        cfg = relational.require("build")({"events": n, "solutions": mixed})
        runs[f"events={n}"] = partial(generate_relational_puzzle, 1, config=cfg)
    rounds = interleave_items(runs, work, reps)
    out = []
    for n in events:
        rates = rounds.figures[f"events={n}"]
        m = Measurement(
            f"time-puzzles.generate.relational.events={n}",
            "time-puzzles",
            "generate",
            "puzzles/s",
            statistics.median(rates),
            work,
            reps,
            rounds.seconds[f"events={n}"],
            {"backend": "cpsat", "M": "1-6", "events": n, "ask": "tuples"},
            {"rates": [round_figure(r) for r in rates]},
            note="relational puzzles over the default 3-year domain",
        )
        attach_peer(
            m,
            "single-date puzzles, M = 1..6, same rounds",
            "puzzles/s",
            work,
            Paired.of(rounds, f"events={n}", "single"),
        )
        if m.peer and m.peer["ratio"] is not None:
            m.stats["ratio_to_single_date"] = m.peer["ratio"]
        out.append(m)
    return out


def count_puzzles(seed: int, cfg: Any, work: int) -> Callable[[int], int]:
    """A round generating single-date records r*work .. r*work+work-1 of run ``seed``."""
    from tsolve.families.time_puzzles.generate import generate_puzzle

    return lambda r: sum(1 for i in range(work) if generate_puzzle(seed, r * work + i, cfg))


def synthesise_predictions(
    records: Sequence[dict[str, Any]], copies: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``copies`` renamed copies of every record, each with one prediction made
    from its gold answers by a perturbation (exact, a date missed, a wrong date
    added, shifted by a day, ``None``, month names, markdown, no answer line),
    so the verifier exercises parsing, scoring and diagnosis."""
    months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]

    def named(d: str) -> str:
        y, m, dd = d.split("-")
        return f"{months[int(m) - 1]} {int(dd)}, {y}"

    def shift(d: str, k: int) -> str:
        return (_dt.date.fromisoformat(d) + _dt.timedelta(days=k)).isoformat()

    variants: list[Callable[[list[str]], str]] = [
        lambda a: "MY ANSWER: " + (", ".join(a) or "None"),
        lambda a: "MY ANSWER: " + (", ".join(a[:-1]) or "None"),
        lambda a: "MY ANSWER: " + ", ".join([*a, "2000-02-29"]),
        lambda a: "MY ANSWER: " + (", ".join(shift(d, 1) for d in a) or "None"),
        lambda a: "Reasoning...\nMY ANSWER: None",
        lambda a: "**My answer:** " + (", ".join(named(d) for d in a) or "None"),
        lambda a: "I am not sure which date it is.",
    ]
    recs: list[dict[str, Any]] = []
    preds: list[dict[str, Any]] = []
    k = 0
    for c in range(copies):
        for r in records:
            rid = f"{r['id']}#{c}"
            recs.append({**r, "id": rid})
            preds.append({"id": rid, "output": variants[k % len(variants)](list(r["answers"]))})
            k += 1
    return recs, preds


def verify_as_cli(
    records: list[dict[str, Any]], predictions: list[dict[str, Any]], diagnose: bool = True
) -> Any:
    """``verify`` as ``tsolve verify`` runs it: inside ``fewer_gc_pauses`` (the
    library leaves the collector alone unless asked; the CLI asks)."""
    from tsolve.engines.gc_tuning import fewer_gc_pauses
    from tsolve.verifiers.verify_batch import verify

    with fewer_gc_pauses() as batch_gc:
        return verify(records, predictions, diagnose, batch_gc=batch_gc)


def bench_verify_puzzles(records: list[dict[str, Any]], size: Size) -> list[Measurement]:
    target = size(1_000, 20_000)
    recs, preds = synthesise_predictions(records, max(1, target // len(records)))
    verify_as_cli(recs[:50], preds[:50])  # warm
    reps = size.reps(3, 5)
    m = rate_measure(
        "time-puzzles.verify",
        "time-puzzles",
        "verify",
        "predictions/s",
        len(preds),
        reps,
        lambda r: verify_as_cli(recs, preds).scored,
        {"mix": "exact, missed, extra, shifted, None, month names, unparseable"},
        "wrong dates are diagnosed (which facts they violate); after one uncounted repetition",
        warmup=True,
    )
    m_fast = rate_measure(
        "time-puzzles.verify.no-diagnosis",
        "time-puzzles",
        "verify",
        "predictions/s",
        len(preds),
        reps,
        lambda r: verify_as_cli(recs, preds, False).scored,
        {"mix": "as time-puzzles.verify"},
        "same scores; wrong dates listed, not checked fact by fact (--no-diagnosis)",
        warmup=True,
    )
    exact = [
        {"id": r["id"], "output": "MY ANSWER: " + (", ".join(r["answers"]) or "None")} for r in recs
    ]
    m2 = rate_measure(
        "time-puzzles.verify.exact",
        "time-puzzles",
        "verify",
        "predictions/s",
        len(exact),
        reps,
        lambda r: verify_as_cli(recs, exact).scored,
        {"mix": "all exact"},
        warmup=True,
    )
    # Real model outputs are mostly reasoning, with the answer line at the end.
    long = [{**p, "output": REASONING_PREFIX + p["output"]} for p in preds]
    m3 = rate_measure(
        "time-puzzles.verify.long-outputs",
        "time-puzzles",
        "verify",
        "predictions/s",
        len(long),
        reps,
        lambda r: verify_as_cli(recs, long).scored,
        {"mix": "as time-puzzles.verify", "output_chars": len(REASONING_PREFIX) + 20},
        "each output starts with ~1 KB of reasoning text; wrong dates diagnosed",
        warmup=True,
    )
    return [m, m_fast, m2, m3]


REASONING_PREFIX = (
    "Let me work through the constraints one at a time. The first fact fixes the year, "
    "so only dates in that year remain; the next narrows the month, and I list the "
    "weekdays of that month to check which days can still work. "
) * 5 + "\n\nChecking every remaining candidate against each fact once more:\n\n"
"""About 1 KB of chain-of-thought text put in front of the synthetic outputs."""
