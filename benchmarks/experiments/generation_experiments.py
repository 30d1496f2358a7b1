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
and why each other seed failed. Figures move with the machine's load:
compare within one run.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
from collections.abc import Callable
from typing import Any

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
    import tsolve.families.time_puzzles.search.minimal as minimal
    import tsolve.families.time_puzzles.search.plan as plan

    cfg = gen.PuzzleConfig(solutions=M_ALL, minimal=True)
    home = {"LAST_VARIANTS": plan, "BEAM": minimal, "ANCHOR_TRIES": minimal}  # where each is read
    saved = {k: getattr(home[k], k) for k in home}
    trials: list[dict[str, int]] = [{}, {"LAST_VARIANTS": 5}, {"LAST_VARIANTS": 2},
                                    {"BEAM": 24}, {"BEAM": 96}, {"ANCHOR_TRIES": 4},
                                    {"ANCHOR_TRIES": 16}, {}]  # fmt: skip
    list(gen.generate_puzzles(100, seed=99, config=cfg))
    for trial in trials:
        for k, v in {**saved, **trial}.items():
            setattr(home[k], k, v)
        t = time.process_time()
        list(gen.generate_puzzles(400, seed=1, config=cfg))
        print(f"  {trial or 'defaults'}: {1000 * (time.process_time() - t) / 400:.2f} ms a puzzle")
    for k, v in saved.items():
        setattr(home[k], k, v)


def failures(_rounds: int) -> None:
    """Where a minimal puzzle's seeds fail: the search grows a seed's sets
    slot by slot (``MinimalChooser.sets``, time_puzzles/search/minimal.py) and hands those
    that leave exactly M days to the necessity test (``MinimalChooser.necessary``)."""
    from tsolve.families.time_puzzles.search.minimal import MinimalChooser

    counts: collections.Counter[str] = collections.Counter()
    minimal_sets, necessary = MinimalChooser.sets, MinimalChooser.necessary
    tested: list[bool] = []

    def counting_sets(self: Any) -> Any:
        tested.clear()
        got = minimal_sets(self)
        counts["seeds"] += 1
        counts["sets found"] += got is not None
        if got is None and not tested:
            counts["  no set leaves exactly M"] += 1
        elif got is None:
            counts["  sets leave M, but in each a fact is not needed"] += 1
        if self.anchor.kind == "event_relation" and len(self.pools.windows.view) < 400:
            counts["event anchors of a month or a year"] += 1
            counts["  of which found a set"] += got is not None
        return got

    def counting_necessary(self: Any, beam: Any) -> Any:
        tested.append(True)
        return necessary(self, beam)

    MinimalChooser.sets = counting_sets  # type: ignore[method-assign]
    MinimalChooser.necessary = counting_necessary  # type: ignore[method-assign]
    cfg = gen.PuzzleConfig(solutions=M_ALL, minimal=True)
    try:
        list(gen.generate_puzzles(300, seed=1, config=cfg))
    finally:
        MinimalChooser.sets, MinimalChooser.necessary = minimal_sets, necessary  # type: ignore[method-assign]
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
