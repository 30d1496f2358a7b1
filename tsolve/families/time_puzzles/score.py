"""Scoring Time Puzzles predictions, with a symbolic diagnosis.

A wrong prediction that an admissible reading of the facts gives (the
knowledge horizon, a dating convention, a disputed lunar month; see
:mod:`tsolve.encodings.facts.readings`) is flagged in the diagnosis
(``alt_reading``) and counted apart by the ``alt_reading`` metric, present on
every item with EM < 1; EM itself stays as the paper defines it.

For every predicted date that is not gold, the solver's ``check`` says which
facts it violates; every gold date the model left out is listed as missed. A
wrong date that violates no fact means the record's gold set is incomplete,
which the diagnosis says outright instead of blaming the model.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from tsolve.calendars.domain import DateDomain, iso
from tsolve.contract.item import ItemScore
from tsolve.encodings.facts import Fact
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.solve import (
    Puzzle,
    bound_problems,
    build_problem,
    puzzle_from_record,
    puzzle_readings,
    reading_problem,
    stored_answers,
)
from tsolve.records.validation import expect_list, plain
from tsolve.solver import get_backend
from tsolve.verifiers.answer_parsing import date_order, parse_answer
from tsolve.verifiers.gold_answers import NONE
from tsolve.verifiers.metrics import answer_set_metrics, over_answers

_ZERO = {"em": 0.0, "f1": 0.0, "jaccard": 0.0}


def violated_facts(
    record: dict[str, Any], wrong: list[str], backend: str = "cpsat"
) -> dict[str, Any]:
    """Which facts each wrong date violates, by the solver's ``check``."""
    found = _violations([(puzzle_from_record(record), wrong)], backend)[0]
    if isinstance(found, str):
        raise TsolveError(found)
    return found


def _violations(
    requests: Sequence[tuple[Puzzle, list[str]]], backend: str = "cpsat"
) -> list[dict[str, Any] | str]:
    """:func:`violated_facts` for many puzzles at once; a request whose facts
    cannot be checked gets the reason (a string) instead of its entries.

    The dates are grouped by fact, and each distinct fact is checked once, over
    every date that needs it: facts recur across a dataset (they are shared by
    :func:`~tsolve.encodings.facts.fact_from_json`), and one vectorised check
    costs about as much as a check of a single date.
    """
    be = get_backend(backend)
    days = [[_dt.date.fromisoformat(d).toordinal() for d in wrong] for _p, wrong in requests]
    # (fact, domain) -> the (request, fact position) pairs that need it.
    groups: dict[tuple[Fact, DateDomain], list[tuple[int, int]]] = {}
    for k, (puzzle, _wrong) in enumerate(requests):
        if not days[k]:
            continue
        dom = puzzle.domain
        for i, f in enumerate(puzzle.facts):
            users = groups.get((f, dom))
            if users is None:
                users = groups[f, dom] = []
            users.append((k, i))
    # Only the violations are carried back: most checks pass, so walking the
    # failures alone keeps the per-fact Python work small.
    broken: list[dict[int, list[int]]] = [{} for _ in requests]  # request -> date -> facts
    failed: dict[int, str] = {}  # request -> why it could not be diagnosed
    for (fact, domain), users in groups.items():
        values = [d for k, _i in users for d in days[k]]
        try:
            holds = be.check_values(build_problem((fact,), domain), values)[0]
        except TsolveError as exc:  # this fact cannot be checked: its requests fail, not the batch
            for k, _i in users:
                failed[k] = str(exc)
            continue
        if holds.all():
            continue
        offsets = np.cumsum([0] + [len(days[k]) for k, _i in users])
        at = np.flatnonzero(~holds)
        who = np.searchsorted(offsets, at, side="right") - 1
        for u, j in zip(who.tolist(), (at - offsets[who]).tolist(), strict=True):
            k, i = users[u]
            broken[k].setdefault(j, []).append(i)
    out: list[dict[str, Any] | str] = []
    for k, (puzzle, wrong) in enumerate(requests):
        if k in failed:
            out.append(failed[k])
            continue
        dom = puzzle.domain
        facts = puzzle.facts
        entries: dict[str, Any] = {}
        for j, d in enumerate(wrong):
            violated = [
                {"index": i, "kind": facts[i].kind, "text": fact_text(facts[i], puzzle.style)}
                for i in sorted(broken[k].get(j, ()))
            ]
            entry: dict[str, Any] = {"violates": violated}
            if not dom.start <= days[k][j] <= dom.end:
                entry["note"] = f"outside the puzzle's domain {iso(dom.start)}..{iso(dom.end)}"
            elif not violated:
                entry["note"] = (
                    "satisfies every fact: the record's gold answers look incomplete "
                    "(run `tsolve solve --check`)"
                )
            entries[d] = entry
        out.append(entries)
    return out


def admissible_reading(record: dict[str, Any], predicted: list[str],
                       backend: str = "cpsat",
                       puzzle: Puzzle | None = None) -> dict[str, Any] | None:  # fmt: skip
    """Is ``predicted`` (not the gold) what an admissible reading gives?

    Returns ``{"reading": name}`` when it is exactly the answer set of one of
    the puzzle's readings, ``{"reading": None, "between_bounds": True}`` when
    it lies between the lower and upper answer sets (some combination of
    readings across facts may give it), else None.

    Taking the stored gold as the canonical answer set (as scoring does; the
    auditor checks it), lower ⊆ gold, so "lower ⊆ predicted" is "no gold date
    left out holds under every reading": two vectorised checks, no search.
    Only a flagged prediction is solved, to name its reading.

    A record that carries ``readings`` (generator version 2 on) was proven by
    the solver to have the same gold under every one of them, so no reading
    can give another answer: nothing to compute (``tsolve audit`` re-checks
    such claims). ``puzzle`` is the record already read, if the caller has it.
    """
    if isinstance(record.get("readings"), list):
        return None
    puzzle = puzzle or puzzle_from_record(record)
    names = puzzle_readings(puzzle)
    if len(names) == 1:
        return None
    dom = puzzle.domain
    days = sorted({_dt.date.fromisoformat(d).toordinal() for d in predicted})
    if any(not dom.start <= d <= dom.end for d in days):
        return None
    be = get_backend(backend)
    lower, upper = bound_problems(puzzle)
    if days and not np.logical_and.reduce(be.check_values(upper, days)).all():
        return None
    left_out = sorted(
        {_dt.date.fromisoformat(d).toordinal() for d in stored_answers(record)} - set(days)
    )
    if left_out and np.logical_and.reduce(be.check_values(lower, left_out)).any():
        return None
    for name in names[1:]:
        res = be.solve(reading_problem(puzzle, name), len(days) + 1)
        if sorted(res.solutions) == days:
            return {"reading": name}
    return {"reading": None, "between_bounds": True}


# fact_text's cache: (fact, style) -> the sentence. A fact read from a dataset
# is shared by every record that states it and named in many diagnoses. Keyed
# by the fact's fields (facts are frozen values) and the style; never stale,
# since a sentence depends on nothing else. Bounded, least recently used out.
@lru_cache(maxsize=16384)
def fact_text(fact: Fact, style: str) -> str:
    """``fact.render(style)``, rendered once per fact and style."""
    return fact.render(style)  # type: ignore[arg-type]


def diagnose_puzzles(
    pairs: Sequence[tuple[dict[str, Any], ItemScore]], backend: str = "cpsat"
) -> list[str | None]:
    """Fill in ``diagnosis["wrong"]`` of items scored with ``diagnose=False``."""
    errors: list[str | None] = [None] * len(pairs)
    requests: list[tuple[Puzzle, list[str]]] = []
    targets: list[tuple[int, ItemScore]] = []
    for n, (record, item) in enumerate(pairs):
        wrong = item.diagnosis.get("wrong")
        if not wrong:
            continue
        try:  # the scorer hands over the record it read; else read it here
            puzzle = (
                item.context if isinstance(item.context, Puzzle) else puzzle_from_record(record)
            )
        except TsolveError as exc:
            errors[n] = str(exc)
            continue
        requests.append((puzzle, list(wrong)))
        targets.append((n, item))
    for (n, item), entries in zip(targets, _violations(requests, backend), strict=True):
        if isinstance(entries, str):
            errors[n] = entries
        else:
            item.diagnosis["wrong"] = entries
    return errors


def puzzle_groups(record: dict[str, Any], solutions: int) -> dict[str, str | list[str]]:
    """What a report breaks a time puzzle's score down by: answer-set size,
    style, measured difficulty, and the kinds and levels of its facts (an item
    counts under each of its facts' kinds and levels). Read from a record that
    :func:`puzzle_from_record` accepted, so ``facts`` is a list of objects."""
    facts = record.get("facts") or []
    measured = record.get("difficulty")
    label = measured.get("label") if isinstance(measured, dict) else None
    return {
        "solutions": str(solutions),
        "style": str(record.get("style", "implicit")),
        "difficulty": str(label or "unmeasured"),
        "fact_kind": sorted({str(f.get("kind")) for f in facts}),
        "fact_level": sorted({str(f.get("level")) for f in facts}),
    }


def score_puzzle(record: dict[str, Any], output: str, *, diagnose: bool = True) -> ItemScore:
    """EM / F1 / Jaccard (Appendix B), all 0 for an answer with more dates
    than the gold (:func:`~tsolve.verifiers.metrics.answer_set_metrics`;
    ``diagnosis["over_answer"]`` says so). With ``diagnose``, each wrong date is
    checked against every fact; without it, wrong and missed dates are only
    listed, which is several times cheaper."""
    puzzle = puzzle_from_record(record)  # a record is checked whole, with or without diagnosis
    gold = stored_answers(record)
    rid = str(record.get("id"))
    groups = puzzle_groups(record, len(gold))
    parsed = parse_answer(output, date_order(record))
    if parsed.failed:
        return ItemScore(rid, "time-puzzles", dict(_ZERO), None, True,
                         {"reason": parsed.reason}, groups)  # fmt: skip
    pred = parsed.dates + [f"invalid:{t}" for t in parsed.invalid]
    metrics = answer_set_metrics(gold, pred)
    diagnosis: dict[str, Any] = {}
    if over_answers(gold, pred):
        diagnosis["over_answer"] = f"{len(set(pred))} answers, more than the {len(gold)} there are"
    if metrics["em"] < 1.0:
        gold_set = set(gold)
        wrong = [d for d in parsed.dates if d not in gold_set]
        pred_set = set(parsed.dates)
        diagnosis = {
            **diagnosis,
            "wrong": {d: {} for d in wrong},
            "invalid": parsed.invalid,
            "missed": [d for d in gold if d not in pred_set],
        }
        # Wrong under the gold, right under another admissible reading: counted
        # apart (``alt_reading``), EM unchanged.
        alt = None if parsed.invalid else admissible_reading(record, parsed.dates, puzzle=puzzle)
        metrics["alt_reading"] = 0.0 if alt is None else 1.0
        if alt is not None:
            diagnosis["alt_reading"] = alt
        if not gold and isinstance(record.get("contradiction"), dict):
            # A zero-answer puzzle stores its minimal contradiction: name it,
            # so a reader sees which facts exclude every date together.
            diagnosis["contradiction"] = [fact_text(f, puzzle.style) for f in puzzle.facts]
    item = ItemScore(rid, "time-puzzles", metrics, parsed.dates, False, diagnosis, groups,
                     context=puzzle)  # fmt: skip
    if diagnose and diagnosis.get("wrong"):
        error = diagnose_puzzles([(record, item)])[0]
        if error is not None:
            raise TsolveError(error)
    return item


def time_puzzle_answer(record: dict[str, Any]) -> str:
    """The answer dates in ISO form, comma-separated (``None`` when empty)."""
    dates = [str(d) for d in plain(expect_list(record.get("answers"), "answers"))]
    return ", ".join(dates) if dates else NONE
