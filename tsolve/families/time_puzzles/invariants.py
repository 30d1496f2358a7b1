"""Time-puzzle invariants: the properties every generated puzzle must have
(``tsolve stress time-puzzles`` and the property tests).

They recompute what the generator claims by an independent route: a second
solver backend and the reference enumerator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tsolve.calendars.domain import DateDomain, iso, parse_iso
from tsolve.encodings.facts import DayView, information_gain
from tsolve.encodings.ir import DATE_VAR
from tsolve.families.time_puzzles.generate import generate_puzzle
from tsolve.families.time_puzzles.solve import build_problem, puzzle_from_record
from tsolve.generators.record_checks import Violations, round_trip, same_record
from tsolve.solver import get_backend
from tsolve.solver.backend_names import GENERATION_BACKENDS


def time_puzzle_invariants(rec: dict[str, Any], seed: int, index: int, cfg: Any) -> Violations:
    """Gold answers equal an independent backend's and the enumerator's; every
    gold date satisfies every fact; the count is exactly the target; the record
    regenerates identically and survives a JSON round trip."""
    out: Violations = []
    same_record(generate_puzzle(seed, index, cfg), rec, out)
    back = round_trip(rec, out)
    puzzle = puzzle_from_record(back if back is not None else rec)
    domain: DateDomain = puzzle.domain
    if domain != cfg.domain:
        out.append(("domain", f"record domain {rec.get('domain')} is not the config's"))

    # The facts read back from JSON are the facts that were generated.
    for f, fj in zip(puzzle.facts, rec["facts"], strict=True):
        again = {
            **f.to_json(rec.get("style", "implicit")),
            "information_gain": round(information_gain(f, domain), 6),
        }
        if again != fj:
            out.append(("facts-roundtrip", f"fact {fj.get('kind')} re-reads as {again}"))
        if fj.get("text") and fj["text"] not in rec.get("prompt", ""):
            out.append(("prompt", f"fact sentence missing from the prompt: {fj['text']!r}"))

    answers = rec.get("answers", [])
    gold = [parse_iso(a, "answers").toordinal() for a in answers]
    target = cfg.target(index)
    if gold != sorted(set(gold)):
        out.append(("answers-format", "answers are not sorted and distinct"))
    if any(d not in domain for d in gold):
        out.append(("answers-format", "an answer lies outside the domain"))
    if len(gold) != target or rec.get("solution_count") != target:
        out.append(
            (
                "count",
                f"target {target}, answers {len(gold)}, solution_count {rec.get('solution_count')}",
            )
        )

    problem = build_problem(puzzle.facts, domain)
    used = rec.get("solver", {}).get("backend", cfg.backend)
    other = next(b for b in GENERATION_BACKENDS if b != used)  # the gold's cross-check
    for name, limit in ((other, target + 2), ("enumerator", None)):
        res = get_backend(name).solve(problem, limit=limit)
        if list(res.solutions) != gold or not res.complete:
            got = [iso(d) for d in res.solutions[:8]]
            out.append(
                (
                    f"backend-{name}",
                    f"{name} finds {res.count}{'' if res.complete else '+'} answers "
                    f"{got}, gold has {len(gold)}",
                )
            )

    checker = get_backend("enumerator")
    for d in gold:
        verdict = checker.check(problem, {DATE_VAR: d})
        fast = [bool(f.holds(DayView(np.asarray([d], dtype=np.int64)))[0]) for f in puzzle.facts]
        for f, ok, quick in zip(puzzle.facts, verdict, fast, strict=True):
            if not ok:
                out.append(("gold-satisfies-facts", f"{iso(d)} violates {f.kind}: {f.render()}"))
            if ok != quick:
                out.append(("holds-vs-ir", f"{f.kind}.holds and its IR disagree on {iso(d)}"))

    seed_date = rec.get("generator", {}).get("seed_date")
    if target > 0 and seed_date is not None and seed_date not in answers:
        out.append(("seed-date", f"the hidden seed date {seed_date} is not an answer"))
    return out
