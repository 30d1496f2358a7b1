"""Would batching the gold proofs make time-puzzle generation faster? Two
ways of batching the CP-SAT proof that a default puzzle has no date beyond
its gold (``certify_known_gold``), against the proof made inline as today.

    python benchmarks/experiments/proof_batching.py [--n 300] [--pairs 3] [--batch 32]

- **inline**: ``generate_puzzles`` as it is, with a CPU timer around each
  proof.
- **after**: the same puzzles (seed 1, M = 1..6), with each proof answered
  from the inline run's results (so the searches take the same paths), and
  then the same proofs run back to back: what a generator that searched a
  chunk of puzzles and then proved them all would spend, records unchanged.
- **one model**: the proofs of ``--batch`` puzzles as one CP-SAT model (a
  literal per puzzle, exactly one true, each puzzle's upper bounds and "not a
  gold date" enforced by its literal): infeasible exactly when every puzzle's
  proof holds, so one solve would certify the batch.

"inline" and "after" run in fresh processes, alternately, ``--pairs`` times;
"one model" runs in the "after" processes on the proofs that held. Each
prints CPU ms per puzzle (the clock is ``time.process_time``).
Measured in benchmarks/results/2026-11-27-generation-profile.md.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import sys

INLINE = """
import pickle, time
import tsolve.families.time_puzzles.generate as g
cfg = g.PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6))
list(g.generate_puzzles(200, seed=99, config=cfg))
real, results, spent = g.certify_known_gold, [], [0.0]
def timed(p, gold, be="cpsat"):
    t = time.process_time()
    r = real(p, gold, be)
    spent[0] += time.process_time() - t
    results.append(r)
    return r
g.certify_known_gold = timed
t = time.process_time()
list(g.generate_puzzles({n}, seed=1, config=cfg))
total = time.process_time() - t
pickle.dump(results, open({results!r}, "wb"))
print({{"whole": 1000 * total / {n}, "proofs": 1000 * spent[0] / {n}}})
"""

AFTER = """
import pickle, time
import tsolve.families.time_puzzles.generate as g
from tsolve.encodings.facts.readings import bound_constraints
from tsolve.encodings.ir import DATE_VAR, In, IntervalSet
from tsolve.solver import cpsat
from tsolve.solver.base import Problem
cfg = g.PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6))
list(g.generate_puzzles(200, seed=99, config=cfg))
real, replies, asked = g.certify_known_gold, iter(pickle.load(open({results!r}, "rb"))), []
def replay(p, gold, be="cpsat"):
    asked.append((p, sorted({{int(d) for d in gold}})))
    return next(replies)
g.certify_known_gold = replay
t = time.process_time()
list(g.generate_puzzles({n}, seed=1, config=cfg))
searches = time.process_time() - t
t = time.process_time()
held = [(p, gold) for p, gold in asked if real(p, gold)[0].status == "complete"]
proofs = time.process_time() - t

def one_model(batch):
    dom = batch[0][0].domain
    tr = cpsat._Translator(Problem((), {{DATE_VAR: (dom.start, dom.end)}}, DATE_VAR))
    lits = []
    for p, gold in batch:
        lit = tr.model.new_bool_var("")
        lits.append(lit)
        outside = In(DATE_VAR, IntervalSet.from_days(gold).complement(dom.start, dom.end))
        for c in (*(bound_constraints(f, p.style, dom)[1] for f in p.facts), outside):
            if isinstance(c, In):  # half-reified: fully reifying each cost ~0.7 s a puzzle
                x, d = tr.vars[DATE_VAR], cpsat._domain(c.set)
                tr.model.add_linear_expression_in_domain(x, d).only_enforce_if(lit)
            else:
                tr.post(c, enforce=lit)
    tr.model.add_exactly_one(lits)
    solver = cpsat.cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(tr.model) == cpsat.cp_model.INFEASIBLE

t = time.process_time()
ok = all(one_model(held[i : i + {batch}]) for i in range(0, len(held), {batch}))
batched = time.process_time() - t
assert ok, "a batch model had a solution although every proof in it held"
print({{"searches": 1000 * searches / {n}, "proofs after": 1000 * proofs / {n},
        "whole": 1000 * (searches + proofs) / {n},
        "one model per batch": 1000 * batched / len(held)}})
"""


def run(code: str, **fields: object) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code.format(**fields)], capture_output=True, text=True, check=True
    )
    result: dict[str, float] = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300, help="puzzles per run")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=32, help="puzzles per model (one model)")
    args = ap.parse_args()
    results = "/tmp/tsolve_proof_batching.pkl"
    inline: list[dict[str, float]] = []
    after: list[dict[str, float]] = []
    for _ in range(args.pairs):
        inline.append(run(INLINE, n=args.n, results=results))
        after.append(run(AFTER, n=args.n, results=results, batch=args.batch))

    def show(label: str, runs: list[dict[str, float]]) -> None:
        parts = ", ".join(
            f"{k} {statistics.median(r[k] for r in runs):.3f}" for k in runs[0]
        )  # fmt: skip
        print(f"{label}: {parts} (CPU ms per puzzle, median of {len(runs)})")

    show("inline", inline)
    show("after", after)


if __name__ == "__main__":
    main()
