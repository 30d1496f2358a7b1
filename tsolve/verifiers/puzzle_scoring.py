"""Scoring Time Puzzles predictions, with a symbolic diagnosis.

For every predicted date that is not gold, the solver's ``check`` says which
facts it violates; every gold date the model left out is listed as missed. A
wrong date that violates no fact means the record's gold set is incomplete,
which the diagnosis says outright instead of blaming the model.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from tsolve.calendars.domain import iso
from tsolve.errors import TsolveError
from tsolve.solver import get_backend
from tsolve.solver.puzzle import build_problem, puzzle_from_record
from tsolve.verifiers.answer_parsing import parse_answer
from tsolve.verifiers.metrics import set_metrics
from tsolve.verifiers.registry import ItemScore, register_scorer

_ZERO = {"em": 0.0, "f1": 0.0, "jaccard": 0.0}


def _gold(record: dict[str, Any]) -> list[str]:
    gold = record.get("answers")
    if not isinstance(gold, list) or not all(isinstance(a, str) for a in gold):
        raise TsolveError(f"record {record.get('id')!r}: 'answers' must be a list of ISO dates")
    return gold


def violated_facts(
    record: dict[str, Any], wrong: list[str], backend: str = "cpsat"
) -> dict[str, Any]:
    """Which facts each wrong date violates, by the solver's ``check``."""
    puzzle = puzzle_from_record(record)
    problem = build_problem(puzzle.facts, puzzle.domain)
    days = [_dt.date.fromisoformat(d).toordinal() for d in wrong]
    truth = get_backend(backend).check_values(problem, days)
    out: dict[str, Any] = {}
    for j, d in enumerate(wrong):
        violated = [
            {"index": i, "kind": f.kind, "text": f.render(puzzle.style)}  # type: ignore[arg-type]
            for i, f in enumerate(puzzle.facts)
            if not truth[i, j]
        ]
        entry: dict[str, Any] = {"violates": violated}
        if not puzzle.domain.start <= days[j] <= puzzle.domain.end:
            entry["note"] = (
                f"outside the puzzle's domain {iso(puzzle.domain.start)}..{iso(puzzle.domain.end)}"
            )
        elif not violated:
            entry["note"] = (
                "satisfies every fact: the record's gold answers look incomplete "
                "(run `tsolve solve --check`)"
            )
        out[d] = entry
    return out


@register_scorer("time-puzzles")
def score_puzzle(record: dict[str, Any], output: str, *, diagnose: bool = True) -> ItemScore:
    """EM / F1 / Jaccard (Appendix B). With ``diagnose``, each wrong date is
    checked against every fact; without it, wrong and missed dates are only
    listed, which is several times cheaper."""
    gold = _gold(record)
    rid = str(record.get("id"))
    groups = {"solutions": str(len(gold))}
    parsed = parse_answer(output)
    if parsed.failed:
        return ItemScore(rid, "time-puzzles", dict(_ZERO), None, True,
                         {"reason": parsed.reason}, groups)  # fmt: skip
    pred = parsed.dates + [f"invalid:{t}" for t in parsed.invalid]
    metrics = set_metrics(gold, pred)
    diagnosis: dict[str, Any] = {}
    if metrics["em"] < 1.0:
        gold_set = set(gold)
        wrong = [d for d in parsed.dates if d not in gold_set]
        diagnosis = {
            "wrong": violated_facts(record, wrong)
            if wrong and diagnose
            else {d: {} for d in wrong},
            "invalid": parsed.invalid,
            "missed": [d for d in gold if d not in set(parsed.dates)],
        }
    return ItemScore(rid, "time-puzzles", metrics, parsed.dates, False, diagnosis, groups)
