"""A logistics question's compact gold: its answer names and the scenario's names.

Accuracy (and the paper's ``partial``) compare the names on the answer line
with the label; the reader needs only which names the scenario knows, which
it never answers with, and which are vehicles, so a trainer's row need not
carry the scenario (:mod:`tsolve.rl`). The symbolic diagnosis is not
computed here."""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.logistics.parse.item import gold_names
from tsolve.families.logistics.schedule import solve_record
from tsolve.families.logistics.score import over_answer_names, read_answer_names, scenario_names
from tsolve.records.validation import expect_field, expect_list, expect_str


def logistics_gold(record: dict[str, Any]) -> dict[str, Any]:
    """``{"answers", "known", "never", "vehicles"}``, each a sorted list of names."""
    answers = gold_names(record)
    scenario, _question, _res = solve_record(record)
    known, never, vehicles = scenario_names(scenario)
    return {"answers": answers, "known": sorted(known - {""}), "never": sorted(never - {""}),
            "vehicles": sorted(vehicles - {""})}  # fmt: skip


def _names(gold: dict[str, Any], key: str) -> list[str]:
    values = expect_list(expect_field(gold, key, "ground truth"), f"ground truth: {key}")
    return [expect_str(v, f"ground truth: {key}", 200) for v in values]


def score_logistics_gold(gold: dict[str, Any], output: str) -> dict[str, float]:
    """The scorer's accuracy and ``partial`` from :func:`logistics_gold`'s fields."""
    answers = _names(gold, "answers")
    if not answers:
        raise TsolveError("ground truth: 'answers' is empty")
    known, never, vehicles = (set(_names(gold, k)) for k in ("known", "never", "vehicles"))
    predicted, _reason = read_answer_names(output, known | {""}, never | {""})
    if predicted is None:
        return {"accuracy": 0.0, "partial": 0.0}
    too_many = over_answer_names(predicted, vehicles)
    ok = set(predicted) == set(answers) and too_many is None
    partial = too_many is None and bool(set(predicted) & set(answers))
    return {"accuracy": float(ok), "partial": float(partial)}
