"""The side experiments behind benchmarks/results/2026-11-27-generation-profile.md
(what stands between generation and 0.5x the peer): each asks whether something other than the
search's design would make time-puzzle generation faster.

    python benchmarks/experiments/generation_experiments.py params     # CP-SAT settings
    python benchmarks/experiments/generation_experiments.py backends   # cpsat and z3 proofs
    python benchmarks/experiments/generation_experiments.py constants  # search constants
    python benchmarks/experiments/generation_experiments.py failures   # where seeds fail

``params`` and ``backends`` record the gold proofs (``certify_known_gold``)
of 300 default puzzles (seed 1, M = 1..6), then make them again under each
variant in turn, in one process, rounds alternating; CPU ms per proof.
``constants`` generates 400 minimal puzzles per setting (each module
constant set in this process only), in order, twice for the defaults.
``failures`` counts, over 300 minimal puzzles, the seeds tried and found
and the outcome of each last step. Figures move with the machine's load:
compare within one run.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tsolve.families.time_puzzles.generate as gen
from tsolve.solver import cpsat

M_ALL = (1, 2, 3, 4, 5, 6)


def recorded_proofs(n: int = 300) -> list[tuple[Any, list[int]]]:
    """The (puzzle, gold) of every gold proof ``n`` default puzzles make."""
    real, calls = gen.certify_known_gold, []

    def record(p: Any, gold: Any, backend: str = "cpsat") -> Any:
        calls.append((p, list(gold)))
        return real(p, gold, backend)

    gen.certify_known_gold = record
    try:
        list(gen.generate_puzzles(n, seed=1, config=gen.PuzzleConfig(solutions=M_ALL)))
    finally:
        gen.certify_known_gold = real
    return calls


def timed_rounds(variants: dict[str, Callable[[], None]], rounds: int, calls: int) -> None:
    """Each variant once per round, rounds alternating; the median round, in
    CPU ms per call (``calls`` a round)."""
    spent: dict[str, list[float]] = {k: [] for k in variants}
    for r in range(rounds):
        for name in list(variants) if r % 2 == 0 else list(variants)[::-1]:
            t = time.process_time()
            variants[name]()
            spent[name].append(time.process_time() - t)
    for name, times in spent.items():
        print(f"  {name}: {1000 * statistics.median(times) / calls:.3f} ms per proof")


def params(rounds: int) -> None:
    calls = recorded_proofs()
    base = cpsat.CpSatBackend._solver
    settings = {
        "default": {},
        "presolve off": {"cp_model_presolve": False},
        "probing off": {"cp_model_probing_level": 0},
        "presolve and symmetry off": {"cp_model_presolve": False, "symmetry_level": 0},
    }

    def run(kw: dict[str, Any]) -> Callable[[], None]:
        def solver(self: Any, deadline: float | None = None) -> Any:
            s = base(self, deadline)
            for k, v in kw.items():
                setattr(s.parameters, k, v)
            return s

        def go() -> None:
            cpsat.CpSatBackend._solver = solver  # type: ignore[method-assign]
            try:
                for p, gold in calls:
                    gen.certify_known_gold(p, gold)
            finally:
                cpsat.CpSatBackend._solver = base  # type: ignore[method-assign]

        return go

    print(f"{len(calls)} gold proofs, each variant:")
    timed_rounds({k: run(v) for k, v in settings.items()}, rounds, len(calls))


def backends(rounds: int) -> None:
    calls = recorded_proofs()

    def run(backend: str) -> Callable[[], None]:
        return lambda: [gen.certify_known_gold(p, gold, backend) for p, gold in calls] and None

    print(f"{len(calls)} gold proofs, each backend:")
    timed_rounds({b: run(b) for b in ("cpsat", "z3")}, rounds, len(calls))


def constants(_rounds: int) -> None:
    cfg = gen.PuzzleConfig(solutions=M_ALL, minimal=True)
    saved = {k: getattr(gen, k) for k in ("LAST_VARIANTS", "BRANCHES", "MAX_NODES")}
    trials: list[dict[str, int]] = [{}, {"LAST_VARIANTS": 5}, {"LAST_VARIANTS": 2},
                                    {"BRANCHES": 2}, {"BRANCHES": 6}, {"MAX_NODES": 12},
                                    {"MAX_NODES": 48}, {}]  # fmt: skip
    list(gen.generate_puzzles(100, seed=99, config=cfg))
    for trial in trials:
        for k, v in {**saved, **trial}.items():
            setattr(gen, k, v)
        t = time.process_time()
        list(gen.generate_puzzles(400, seed=1, config=cfg))
        print(f"  {trial or 'defaults'}: {1000 * (time.process_time() - t) / 400:.2f} ms a puzzle")
    for k, v in saved.items():
        setattr(gen, k, v)


def failures(_rounds: int) -> None:
    counts: collections.Counter[str] = collections.Counter()
    search = gen._Search
    choose, last_two = search.choose, search._last_two

    def counting_choose(self: Any, anchor: Any, view: Any, seed: Any) -> Any:
        got = choose(self, anchor, view, seed)
        counts["seeds"] += 1
        counts["sets found"] += got is not None
        if anchor.kind == "event_relation" and len(view) < 400:
            counts["event anchors of a month or a year"] += 1
            counts["  of which found a set"] += got is not None
        return got

    def counting_last_two(self: Any, part: Any, used: frozenset[str]) -> Any:
        counts["last steps"] += 1
        slot = len(part.facts)
        (a, a_open), (b, b_open) = self._open(slot, used), self._open(slot + 1, used)
        a_and = a.windows & part.prefix
        a_count = self.count_rows(a_and)
        keep = self._needed(part, a, a_count, a_open & (a_count >= self.m), last=False)
        rows, cols = np.flatnonzero(keep), np.flatnonzero(part.prefix)
        got = last_two(self, part, used)
        if not a_open.any() or not b_open.any() or rows.size == 0:
            counts["  no candidate left for the first slot"] += 1
        else:
            pairs = a_and[rows][:, cols][:, None, :] & b.windows[:, cols][None, :, :]
            ok = (self.count_rows(pairs) == self.m) & ~gen.CLASH[a.kinds[rows]][:, b.kinds]
            if not (ok & b_open[None, :]).any():
                counts["  no pair leaves exactly M"] += 1
            elif got is None:
                counts["  pairs leave M, but a fact is then not needed"] += 1
        return got

    search.choose = counting_choose  # type: ignore[method-assign]
    search._last_two = counting_last_two  # type: ignore[method-assign]
    cfg = gen.PuzzleConfig(solutions=M_ALL, minimal=True)
    try:
        list(gen.generate_puzzles(300, seed=1, config=cfg))
    finally:
        search.choose, search._last_two = choose, last_two  # type: ignore[method-assign]
    for k, v in counts.items():
        print(f"  {k}: {v}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("experiment", choices=("params", "backends", "constants", "failures"))
    ap.add_argument("--rounds", type=int, default=4, help="params, backends: rounds")
    args = ap.parse_args()
    {"params": params, "backends": backends, "constants": constants, "failures": failures}[
        args.experiment
    ](args.rounds)


if __name__ == "__main__":
    main()
