"""What a bench figure is, and how it is timed: :class:`Measurement`,
:class:`BenchReport`, the work-size policy :class:`Size`, and the timing
helpers every family's bench cases share (rates over repetitions, latencies,
a peer timed in alternation with its figure, and their ratio). The JSON
schema is in :mod:`tsolve.bench`."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from importlib import metadata
from typing import Any

import numpy as np

SCHEMA = "tsolve-bench/1"


@dataclass
class Measurement:
    """One figure (see the module docstring for the JSON schema)."""

    id: str
    group: str
    metric: str
    unit: str
    value: float | None = None
    work: int = 0
    repetitions: int = 0
    seconds: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)
    peer: dict[str, Any] | None = None
    reference: dict[str, Any] | None = None
    status: str = "ok"
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for k in ("value", "seconds"):
            if isinstance(out[k], float):
                out[k] = round_figure(out[k])
        return out


def calibration_rate(n: int = 2_000_000) -> float:
    """Millions of iterations per second of a fixed pure-Python loop.

    A shared VM's CPU speed moves during a run (on the 2-core machine these
    figures were measured on, the same loop's time varied by ~40 % within a
    minute, with no steal time reported). Measured at the start and the end of
    every run, it lets two runs be compared by their calibration as well as by
    their peer ratios: a figure that fell with the calibration is the machine,
    not the code."""
    t0 = time.perf_counter()
    acc = 0
    for i in range(n):
        acc += i
    dt = time.perf_counter() - t0
    return round_figure(n / dt / 1e6) if acc >= 0 else 0.0


@dataclass
class BenchReport:
    quick: bool
    scale: float = 1.0
    results: list[Measurement] = field(default_factory=list)
    seconds: float = 0.0
    created: str = ""
    calibration: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "tsolve_version": _version(),
            "created": self.created,
            "quick": self.quick,
            "scale": self.scale,
            "seconds": round(self.seconds, 3),
            "machine": {**machine_info(), "calibration": self.calibration},
            "results": [m.to_json() for m in self.results],
        }


def round_figure(x: float) -> float:
    """Keep 4 significant digits: figures are noisy beyond that."""
    if x == 0 or not np.isfinite(x):
        return x
    return float(f"{x:.4g}")


def machine_info() -> dict[str, Any]:
    libs: dict[str, str | None] = {}
    for dist in ("ortools", "z3-solver", "numpy", "convertdate", "lunarcalendar", "hijridate"):
        try:
            libs[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            libs[dist] = None
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "libraries": libs,
    }


# ---------------------------------------------------------------- timing helpers


class Size:
    """Work sizes: the quick or the full figure, times ``scale`` (tests use a
    tiny scale to exercise every code path in seconds).

    Quick mode keeps its time budget (the README's "under a minute" on an
    idle 2-core machine) by smaller work units and fewer rounds, never by
    dropping a peer: every figure that has a peer in a full run has it in a
    quick one, timed in the same interleaved rounds, so a quick ratio is the
    same comparison with a wider range. A case asks for no more work or rounds
    in quick mode than in a full run."""

    def __init__(self, quick: bool, scale: float = 1.0) -> None:
        self.quick = quick
        self.scale = scale

    def __call__(self, quick_value: int, full_value: int) -> int:
        return max(2, int((quick_value if self.quick else full_value) * self.scale))

    def reps(self, quick_value: int, full_value: int) -> int:
        return max(1, quick_value if self.quick else full_value)

    @property
    def round_seconds(self) -> float:
        """The least time one side of an interleaved round should take
        (``min_seconds`` of :func:`interleave`), for figures whose single call
        lasts milliseconds."""
        return (0.05 if self.quick else 0.1) * min(1.0, self.scale)


def rate_reps(run: Callable[[int], int], reps: int) -> tuple[list[float], float]:
    """Call ``run(rep)`` ``reps`` times; each returns the items it did. Returns
    (items/s per repetition, total seconds)."""
    rates: list[float] = []
    total = 0.0
    for r in range(reps):
        t0 = time.perf_counter()
        n = run(r)
        dt = time.perf_counter() - t0
        total += dt
        rates.append(n / dt if dt > 0 else float("inf"))
    return rates, total


def rate_measure(
    mid: str,
    group: str,
    metric: str,
    unit: str,
    work: int,
    reps: int,
    run: Callable[[int], int],
    params: dict[str, Any] | None = None,
    note: str = "",
    warmup: bool = False,
) -> Measurement:
    """The median rate over ``reps`` repetitions. With ``warmup``, one more
    repetition runs first and is not counted: on this kind of shared 2-core VM
    the first pass over a batch is often 20-40 % slower than the ones after it
    (allocator, caches, clock ramp-up), which is not the steady state a long
    batch job sees. It is used for the batch figures (verify, answer), whose
    repetitions are cheap and repeat the same work."""
    if warmup:
        run(0)
    rates, total = rate_reps(run, reps)
    return Measurement(
        mid,
        group,
        metric,
        unit,
        statistics.median(rates),
        work,
        reps,
        total,
        params or {},
        {"rates": [round_figure(r) for r in rates]},
        note=note,
    )


def latencies(items: Sequence[Any], fn: Callable[[Any], object]) -> list[float]:
    out = []
    for x in items:
        t0 = time.perf_counter()
        fn(x)
        out.append(time.perf_counter() - t0)
    return out


def p95(xs: Sequence[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def count_generated(gen: Callable[..., Any], seed: int, n: int, cfg: Any) -> Callable[[int], int]:
    """A repetition that generates records 0..n-1 of run ``seed`` and counts them."""
    return lambda rep: sum(1 for i in range(n) if gen(seed, i, cfg))


def solve_with(solve: Callable[[Any, str], Any], backend: str, puzzle: Any) -> Any:
    return solve(puzzle, backend)


def count_converted(
    convert: Callable[..., Any], days: np.ndarray, cal: str | None
) -> Callable[[int], int]:
    """A repetition converting every day of ``days`` (to all calendars when None)."""

    def run(rep: int) -> int:
        convert(days, cal)
        return int(days.size)

    return run


# ------------------------------------------------------- interleaved peers


@dataclass(frozen=True)
class Rounds:
    """Per-round figures of runs timed in alternation (see :func:`interleave`).

    ``figures[name][r]`` is ``name``'s figure in round ``r``; ``seconds[name]``
    the wall time of all its calls; ``order`` the names in the order they ran."""

    figures: dict[str, list[float]]
    seconds: dict[str, float]
    order: list[str]


def interleave(
    runs: Mapping[str, Callable[[int], float]],
    rounds: int,
    per_second: bool = True,
    min_seconds: float = 0.0,
    clock: Callable[[], float] = time.perf_counter,
) -> Rounds:
    """Run every one of ``runs`` once per round, alternating the order: forward
    in even rounds, backward in odd ones (A B, B A, A B, ...; with more runs
    A B C, C B A, ...). A figure and its peer are then always timed seconds
    apart, so the machine's drift (this shared VM's speed moves by ~40 % within
    a minute) hits both alike and cancels in their ratio, and the reversal
    cancels the advantage of going first or second.

    ``run(round)`` returns the items it did, and its figure is items per
    second of ``clock``. A run that takes less than ``min_seconds`` is called
    again in the same turn until it has taken that long: a run of a few
    milliseconds is otherwise timed mostly by the scheduler's noise. With
    ``per_second=False`` a run returns its figure itself (e.g. a median
    latency it measured), is called once, and ``clock`` only adds up the wall
    time. ``clock`` is a parameter so that tests can drive it."""
    names = list(runs)
    figures: dict[str, list[float]] = {k: [] for k in names}
    seconds = dict.fromkeys(names, 0.0)
    order: list[str] = []
    for r in range(rounds):
        for name in names if r % 2 == 0 else reversed(names):
            t0 = clock()
            got = runs[name](r)
            dt = clock() - t0
            while per_second and dt < min_seconds:
                got += runs[name](r)
                dt = clock() - t0
            seconds[name] += dt
            order.append(name)
            if per_second:
                figures[name].append(got / dt if dt > 0 else float("inf"))
            else:
                figures[name].append(float(got))
    return Rounds(figures, seconds, order)


def interleave_items(
    runs: Mapping[str, Callable[[int], object]],
    per_round: int,
    rounds: int,
    clock: Callable[[], float] = time.perf_counter,
) -> Rounds:
    """:func:`interleave` item by item: ``run(i)`` does item ``i`` (0 ..
    ``per_round * rounds - 1``), and every run does item ``i`` before any
    does ``i + 1``, in alternating order. Runs that take seconds per round
    are then compared milliseconds apart, well inside one of the machine's
    fast or slow phases. A round's figure is its items per second. (Not for
    sub-millisecond items whose working set the other runs would evict: see
    :func:`tsolve.families.time_puzzles.bench.bench_solve_latency`.)"""
    calls = interleave(
        {k: partial(_one_item, run) for k, run in runs.items()},
        per_round * rounds,
        clock=clock,
    )
    item_seconds = {k: [1 / f for f in fs] for k, fs in calls.figures.items()}
    figures: dict[str, list[float]] = {}
    for k, secs in item_seconds.items():
        chunks = [sum(secs[r * per_round : (r + 1) * per_round]) for r in range(rounds)]
        figures[k] = [per_round / c if c > 0 else float("inf") for c in chunks]
    return Rounds(figures, calls.seconds, calls.order)


def _one_item(run: Callable[[int], object], i: int) -> int:
    run(i)
    return 1


@dataclass(frozen=True)
class Paired:
    """A figure and its peer, round by round, and their ratio: the median of
    the per-round ratios, with its range. The per-round ratio is how many times
    better ``a`` did than ``b`` in that round (higher figures are better, or
    lower ones with ``lower_is_better``, as for latencies). A round where
    either figure is zero or not finite has no ratio."""

    a: list[float]
    b: list[float]
    seconds_a: float = 0.0
    lower_is_better: bool = False

    @classmethod
    def of(cls, rounds: Rounds, a: str, b: str, lower_is_better: bool = False) -> Paired:
        """The pair ``a`` against ``b`` out of interleaved rounds."""
        return cls(rounds.figures[a], rounds.figures[b], rounds.seconds[a], lower_is_better)

    @property
    def ratios(self) -> list[float]:
        out = []
        for x, y in zip(self.a, self.b, strict=True):
            if 0 < x < float("inf") and 0 < y < float("inf"):
                out.append(y / x if self.lower_is_better else x / y)
        return out

    @property
    def ratio(self) -> float | None:
        return statistics.median(self.ratios) if self.ratios else None

    @property
    def value_a(self) -> float:
        return statistics.median(self.a)

    @property
    def value_b(self) -> float:
        return statistics.median(self.b)


def paired(
    run_a: Callable[[int], float],
    run_b: Callable[[int], float],
    rounds: int,
    per_second: bool = True,
    lower_is_better: bool = False,
    min_seconds: float = 0.0,
    clock: Callable[[], float] = time.perf_counter,
) -> Paired:
    """``run_a`` against ``run_b`` over ``rounds`` interleaved rounds (A B, B A,
    A B, ...; see :func:`interleave`), with each round's ratio."""
    r = interleave({"a": run_a, "b": run_b}, rounds, per_second, min_seconds, clock)
    return Paired.of(r, "a", "b", lower_is_better)


def attach_peer(m: Measurement, name: str, unit: str, work: int, pair: Paired) -> Measurement:
    """Attach a peer timed in the same rounds as ``m``: its median figure,
    ``ratio`` (the median per-round ratio: how many times faster ``m`` is), its
    range over the rounds and every round's ratio and peer figure. ``ratio``
    is a median of ratios, so it need not equal ``m.value / value`` exactly."""
    ratios = pair.ratios
    ratio = pair.ratio
    m.peer = {
        "name": name,
        "value": round_figure(pair.value_b),
        "unit": unit,
        "work": work,
        "ratio": round_figure(ratio) if ratio is not None else None,
        "ratio_min": round_figure(min(ratios)) if ratios else None,
        "ratio_max": round_figure(max(ratios)) if ratios else None,
        "ratios": [round_figure(x) for x in ratios],
        "values": [round_figure(x) for x in pair.b],
    }
    return m


def paired_measure(
    mid: str,
    group: str,
    metric: str,
    unit: str,
    work: int,
    run: Callable[[int], int],
    peer: tuple[str, int, Callable[[int], int]],
    rounds: int,
    params: dict[str, Any] | None = None,
    note: str = "",
    warmup: bool = False,
    min_seconds: float = 0.0,
) -> Measurement:
    """:func:`rate_measure` with a peer: ``peer`` is (name, items per call,
    run), timed in the same interleaved rounds (:func:`paired`; each call
    repeated to last ``min_seconds``); the figure is the median of its
    per-round rates. With ``warmup``, both run once uncounted first (see
    :func:`rate_measure`)."""
    peer_name, peer_work, peer_run = peer
    if warmup:
        run(0)
        peer_run(0)
    pair = paired(run, peer_run, rounds, min_seconds=min_seconds)
    m = Measurement(
        mid,
        group,
        metric,
        unit,
        pair.value_a,
        work,
        rounds,
        pair.seconds_a,
        params or {},
        {"rates": [round_figure(r) for r in pair.a]},
        note=note,
    )
    return attach_peer(m, peer_name, unit, peer_work, pair)


def _version() -> str:
    """The installed tsolve's version, from its package metadata (not from
    ``tsolve/__init__``, which sits above the engine and imports families)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tsolve")
    except PackageNotFoundError:
        return "?"
