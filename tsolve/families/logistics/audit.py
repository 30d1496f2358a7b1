"""Audit logistics items: which readings of the text give the stored gold?

The auditor reads an item's *text* (the English a model reads, via
:func:`~tsolve.families.logistics.parse.item.parse_item`, for benchmark items and
tsolve's own records alike) and answers it under every combination of the
readings the text leaves open (:mod:`tsolve.families.logistics.readings`: how
steps that run together are timed, which occurrence of a repeated step a
what-if moves, the boundary minute, the day, "N hours before T", an anchor
beside a what-if, a repeated stated start).

Verdicts (``docs/ground-truth.md``):

* ``ok``: every reading gives the stored gold;
* ``ambiguous``: some readings give it and some do not;
  ``detail["gold_readings"]`` names the first kind,
  ``detail["other_readings"]`` the second with their answers (and
  ``detail["reading"]`` / ``detail["answers"]`` the first of them, as every
  auditor reports);
* ``inconsistent``: no reading gives it. ``detail["proof"]`` is a proof by
  cases: the steps whose times every reading shares, each justified by a
  sentence (a duration, the stated start, a what-if) or a rule every reading
  shares; then, for each reading, the steps it times differently (justified
  by that reading's own rule, named as such) and the package's state at the
  asked minute, which is never the gold.

Before reading the text, :func:`gold_form_mismatches` compares a tsolve
record's stored forms of its gold (``answers``, ``solution``, ``schedule``)
with its structured form solved afresh; a disagreement is ``inconsistent``
(:mod:`tsolve.audit.forms`).

The proof is built as data (:mod:`tsolve.families.logistics.proof`: steps,
the events they wait for, the rules and stated facts behind them) and its
JSON rendered from that (:mod:`tsolve.families.logistics.proof_text`);
:func:`explain` writes it as numbered lines quoting the story's sentences
(:mod:`tsolve.families.logistics.explain`, :mod:`tsolve.audit.explain`),
following the structure, never the proof's words.

Readings that would contradict the benchmark's stated rules are not
considered: serial versus parallel execution (each item's domain description
states it), the "N hours" arithmetic itself (60·N minutes), or where a package
is while it is loaded (the domain description states it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tsolve.audit.base import AuditVerdict
from tsolve.audit.forms import FormMismatch, forms_verdict, mistyped
from tsolve.errors import TsolveError
from tsolve.families.logistics.explain import event_sentences, explain
from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.proof import SHARED_RULES, LogisticsProof, build_proof
from tsolve.families.logistics.proof_text import RenderedProof, since_text
from tsolve.families.logistics.proof_text import names as _names
from tsolve.families.logistics.readings import (
    Reading,
    ScheduleReading,
    clock_text,
    readings_in_full,
)
from tsolve.records.validation import bad


def proof(
    scenario: Scenario,
    question: Question,
    found: Sequence[tuple[ScheduleReading, Reading]],
    gold: Sequence[str],
) -> RenderedProof:
    """The checkable proof that no reading gives ``gold``, as JSON: a proof by cases.

    ``schedule`` holds the steps whose start and end are the same under
    every reading and are justified by a sentence or a shared rule
    (:data:`SHARED_RULES`); every time in it is a sum of stated durations
    from the question's stated start (or the text's stated times). Each of
    ``cases`` is one reading: the steps it times differently, each with
    the rule that puts it there (shared, or the reading's own, named), and
    the package's state at the asked minute, which is not the gold. The
    structure it is rendered from is its ``structure``
    (:func:`~tsolve.families.logistics.proof.build_proof`).
    """
    return RenderedProof(build_proof(scenario, question, found, gold))


# --- the auditor ----------------------------------------------------------------------------


def _gold(record: dict[str, Any]) -> list[str]:
    gold = record.get("answers")
    if not isinstance(gold, list) or not gold or not all(isinstance(g, str) for g in gold):
        raise TsolveError(f"answers: expected a non-empty list of names, got {gold!r}")
    return gold


def _where(record: dict[str, Any]) -> str:
    """The benchmark's split and question type: its ``id``s restart in every
    file, so the id alone does not find the item again."""
    parts = [record.get(k) for k in ("data_split", "execution", "question_type")]
    return " ".join(p for p in parts if isinstance(p, str))


SOLVED = "scenario + structured_question, solved"
"""How a finding names the answer of the record's structured form (what the
scorer and the pictures read)."""


def gold_form_mismatches(record: dict[str, Any]) -> list[FormMismatch]:
    """Where a logistics record's stored forms of its gold disagree.

    tsolve's own records store the item twice: as English (what a model and
    this auditor read) and as ``scenario`` + ``structured_question`` (what
    the scorer, its diagnosis and the pictures read), with the solver's
    ``solution`` (minute, clock, state, causing event) and ``schedule``. The
    structured form is solved afresh and its answer, solution and schedule
    compared with the stored ``answers`` (what the facade serves),
    ``solution`` and ``schedule``. A benchmark item has only ``answers``.
    """
    from tsolve.families.logistics.clock import format_clock
    from tsolve.families.logistics.schedule import schedule_json, solve_record

    gold = _gold(record)
    # A present solution or schedule of another type names no answer, with
    # or without the structured form to solve (a benchmark-form copy keeps them).
    shapes = [
        found
        for key in ("solution", "schedule")
        if (found := mistyped(key, record.get(key), dict, "an object", "answers", gold))
    ]
    if shapes or not (isinstance(record.get("scenario"), dict)
                      and isinstance(record.get("structured_question"), dict)):  # fmt: skip
        return shapes
    scenario, _question, res = solve_record(record)
    out: list[FormMismatch] = []
    if set(res.answers) != set(gold):
        out.append(FormMismatch("answers", gold, SOLVED, list(res.answers)))
    solution = record.get("solution")
    if isinstance(solution, dict):
        solved = {"minute": res.minute, "clock": format_clock(res.minute),
                  "state": res.place.state, "event": res.place.cause}  # fmt: skip
        for key, value in solved.items():
            if key in solution and solution[key] != value:
                out.append(FormMismatch(f"solution.{key}", solution[key], SOLVED, value))
    schedule = record.get("schedule")
    solved_schedule = schedule_json(scenario, res) if isinstance(schedule, dict) else None
    if solved_schedule is not None and schedule != solved_schedule:
        diff = _first_difference(schedule, solved_schedule, "schedule")
        if diff is not None:
            out.append(FormMismatch(diff[0], diff[1], SOLVED, diff[2]))
    return out


def _first_difference(stored: Any, solved: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first place (a dotted path, a stored and a solved value) where two
    JSON values differ, or None when they are equal."""
    if isinstance(stored, dict) and isinstance(solved, dict):
        for key in [*solved, *(k for k in stored if k not in solved)]:
            found = _first_difference(stored.get(key), solved.get(key), f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(stored, list) and isinstance(solved, list) and len(stored) == len(solved):
        for i, (a, b) in enumerate(zip(stored, solved, strict=True)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if stored == solved else (path, stored, solved)


def _text_gives(record: dict[str, Any]) -> list[str] | None:
    """The answer of the record's English under the default reading."""
    from tsolve.families.logistics.solve import answer_question

    try:
        scenario, question = parse_item(record)
        return list(answer_question(scenario, question, _depth(record)).answers)
    except TsolveError:
        return None


def _depth(record: dict[str, Any]) -> int | None:
    """The record's ``depth`` (it breaks the rare tie between two days), None
    when absent; of another type it would be read as absent, silently
    changing the answer the audit derives, so it is a one-line error."""
    depth = record.get("depth")
    if depth is None or (isinstance(depth, int) and not isinstance(depth, bool)):
        return depth
    raise bad(f"record {str(record.get('id'))!r}: depth", "an integer", depth)


def audit_logistics(record: dict[str, Any]) -> AuditVerdict:
    """Audit one logistics record (tsolve's own or a raw UnSeenTimeQA item)."""
    rid = str(record.get("id"))
    gold = _gold(record)
    _depth(record)
    # No served-answer check (tsolve.audit.forms.served_answer_mismatch): the
    # facade serves ``answers`` joined by commas and the scorer compares with
    # that same list, so it could find nothing the checks here miss, and it
    # would solve every item once more.
    mismatches = gold_form_mismatches(record)
    if mismatches:
        verdict = forms_verdict(rid, "logistics", mismatches, _text_gives(record))
        if _where(record):
            verdict.detail["item"] = _where(record)
        return verdict
    scenario, question = parse_item(record)
    found = readings_in_full(scenario, question, _depth(record))
    names = list(dict.fromkeys(r.name for _sr, r in found))
    where = {"item": _where(record)} if _where(record) else {}
    right = [r for _sr, r in found if set(r.answers) == set(gold)]
    if not right:
        detail = _inconsistent(scenario, question, found, gold)
        return AuditVerdict(rid, "logistics", "inconsistent", {**detail, **where}, names)
    wrong = [r for _sr, r in found if set(r.answers) != set(gold)]
    if wrong:
        detail = _ambiguous(right, wrong, gold, found)
        return AuditVerdict(rid, "logistics", "ambiguous", {**detail, **where}, names)
    return AuditVerdict(rid, "logistics", "ok", {}, names)


def _inconsistent(
    scenario: Scenario,
    question: Question,
    found: Sequence[tuple[ScheduleReading, Reading]],
    gold: Sequence[str],
) -> dict[str, Any]:
    """The detail of an ``inconsistent`` verdict: its summary and proof."""
    pr = proof(scenario, question, found, gold)
    structure: LogisticsProof = pr.structure
    res = found[0][0].resolution
    summary = _no_reading(structure, res.place.cause, scenario)
    wrong = [r for _sr, r in found if set(r.answers) != set(gold)]
    others = sorted({_names(r.answers) for r in wrong} - {_names(res.answers)})
    if others:
        summary += f"; other readings give {', '.join(others)}"
    return {
        "summary": summary,
        "answers": list(res.answers),
        "readings": [r.to_json() for _sr, r in found],
        "proof": pr,
    }


def _no_reading(structure: LogisticsProof, cause: int | None, scenario: Scenario) -> str:
    """Where the default reading puts the package at the asked minute, and since when."""
    default = structure.cases[0]
    here = default.at_asked_minute
    summary = (
        f"gold {_names(structure.gold)} is the answer of no reading: at "
        f"{clock_text(default.asked)} {structure.package} is {here.state} "
        f"{_names(default.answers)} since {since_text(here.start)}"
    )
    if cause is not None:
        summary += f" (#{cause} {scenario.events[cause].phrase()})"
    return summary


def _ambiguous(
    right: Sequence[Reading],
    wrong: Sequence[Reading],
    gold: Sequence[str],
    found: Sequence[tuple[ScheduleReading, Reading]],
) -> dict[str, Any]:
    """The detail of an ``ambiguous`` verdict: the readings that give the gold, and the rest."""
    first = wrong[0]
    summary = (
        f"gold {_names(gold)} is the answer under {', '.join(r.name for r in right)}; "
        f"under {first.name} ({first.note}) it is {_names(first.answers)}"
    )
    if len(wrong) > 1:
        more = len(wrong) - 1
        rest = "readings disagree" if more > 1 else "reading disagrees"
        summary += f" (and {more} more {rest})"
    return {
        "summary": summary,
        "gold_readings": [r.name for r in right],
        "other_readings": [r.to_json() for r in wrong],
        "reading": first.name,
        "answers": list(first.answers),
        "gold": list(gold),
        "readings": [r.to_json() for _sr, r in found],
    }


__all__ = [
    "SHARED_RULES",
    "SOLVED",
    "audit_logistics",
    "event_sentences",
    "explain",
    "gold_form_mismatches",
    "proof",
]
