"""The Time Puzzles paper's own generator, run as a peer in its own process.

A stand-alone script (standard library only: it runs under the virtual
environment that holds the release's dependencies, never tsolve's), started by
:mod:`tsolve.families.time_puzzles.paper_peer`::

    VENV/bin/python paper_peer_worker.py RELEASE_DIR FACT_SHEET_CSV WORK_DIR

It imports the release's ``puzzles_generator/date_generator`` from
``RELEASE_DIR`` (nothing of it is copied), turns the stand-in knowledge table
into the release's pickle with the release's own ``preprocess_facts``, builds
its ``ConstraintGenerator`` over 1800..2050 (the paper's ``start_year`` and
``end_year``) and then answers one JSON request a line on stdin::

    {"seed": int, "jobs": [[num_constraints, [solution_count, ...]], ...]}

by seeding ``random`` and NumPy's global generator (as the release's
``main.py`` does) and calling ``generate_puzzle(n, allowed)`` for every job
(``allowed``: the answer-set sizes the puzzle may have), timed
around the calls alone, in wall and CPU time. The reply is one JSON line:
``{"count", "seconds", "cpu_seconds", "solution_counts", "facts"}``; a failure is
``{"error": "..."}``. The first line it writes is ``{"ready": true}`` or
``{"error": ...}`` (the release or its dependencies did not import). The
release's own printing goes to stderr, so stdout carries only the replies.

The only change to the release's behaviour is where its knowledge base is
read from: ``KnowledgeBaseEventFact`` reads ``WORK_DIR/facts.pkl`` instead of
the release's ``data/facts.pkl`` (which the release does not ship), so the
release folder is never written to.
"""

from __future__ import annotations

import functools
import json
import os
import random
import sys
import time
import traceback
from typing import Any

START_YEAR, END_YEAR = 1800, 2050


def _setup(release: str, csv_path: str, work: str) -> Any:
    sys.path.insert(0, os.path.join(release, "puzzles_generator"))
    import numpy as np  # the release's dependency, not tsolve's
    from date_generator import facts, generator, preprocess_facts

    pkl = os.path.join(work, "facts.pkl")
    preprocess_facts.preprocess_facts(csv_path, pkl)
    generator.KnowledgeBaseEventFact = functools.partial(facts.KnowledgeBaseEventFact, pkl)
    gen = generator.ConstraintGenerator(start_year=START_YEAR, end_year=END_YEAR)
    return gen, np


def _run(gen: Any, np: Any, request: dict[str, Any]) -> dict[str, Any]:
    seed = int(request["seed"])
    jobs = [(int(n), [int(m) for m in allowed]) for n, allowed in request["jobs"]]
    random.seed(seed)
    np.random.seed(seed % 2**32)
    counts: list[int] = []
    facts: list[int] = []
    t0, c0 = time.perf_counter(), time.process_time()
    for n, allowed in jobs:
        puzzle = gen.generate_puzzle(num_constraints=n, allowed_solution_counts=allowed)
        counts.append(int(puzzle["solution_count"]))
        facts.append(len(puzzle["constraints_meta"]))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "count": len(jobs),
        "seconds": seconds,
        "cpu_seconds": cpu,
        "solution_counts": counts,
        "facts": facts,
    }


def main(argv: list[str]) -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # the release prints; only replies go to `out`

    def reply(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    if len(argv) != 3:
        reply({"error": "usage: paper_peer_worker.py RELEASE_DIR FACT_SHEET_CSV WORK_DIR"})
        return 2
    try:
        gen, np = _setup(*argv)
    except Exception as exc:  # reported to the parent as the reason to skip
        reply({"error": f"release generator did not load: {type(exc).__name__}: {exc}"})
        return 1
    reply({"ready": True})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply(_run(gen, np, json.loads(line)))
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            reply({"error": f"{type(exc).__name__}: {exc}"})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
