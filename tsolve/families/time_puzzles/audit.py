"""Audit Time Puzzles records: is the stored gold the same under every reading?

For any record (also from generator version 1, which has no ``readings``):

1. the canonical answer set is re-solved from the record's own facts. If it
   differs from the stored ``answers``, every combination of the facts'
   readings is searched for one that gives the stored gold: if one does, the
   record is ``ambiguous`` (``detail.gold_readings`` names it); if none does,
   it is ``inconsistent``, with a proof that rests on no single reading's
   convention: a stored date that breaks a fact under *every* reading of that
   fact, a date left out of the gold that satisfies every fact under every
   reading, or else the cases (each combination and the date it gets wrong);
2. the lower and upper problems (every fact true under all / some of its
   readings, :mod:`tsolve.encodings.facts.readings`) are solved; equal counts
   prove every combination of readings gives the gold (``ok``); otherwise the
   record is ``ambiguous`` and ``detail`` names each single reading that
   changes the answer set and what it gives.

The readings come from the *current* knowledge base, so an old record is also
checked against what is known today (reading ``knowledge-<as-of>``).

First of all, :func:`gold_form_mismatches` compares ``answers`` with the
record's stored counts of them; a disagreement is ``inconsistent``
(:mod:`tsolve.audit.forms`).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np

from tsolve.audit.base import AuditVerdict
from tsolve.audit.forms import (
    FormMismatch,
    count_mismatches,
    forms_verdict,
    served_answer_mismatch,
)
from tsolve.calendars.domain import iso
from tsolve.encodings.facts.base import domain_view
from tsolve.encodings.facts.readings import fact_readings
from tsolve.families.time_puzzles.solve import (
    Puzzle,
    bound_problems,
    build_problem,
    puzzle_from_record,
    puzzle_readings,
    reading_problem,
    stored_answers,
)
from tsolve.solver import get_backend

FAMILY = "time-puzzles"
# How many dates of a differing answer set a report lists.
SHOW = 20


CANONICAL = "canonical"
# How many combinations of readings an inconsistency proof lists as cases.
CASES = 20


def _option_masks(puzzle: Puzzle) -> list[list[tuple[str, np.ndarray]]]:
    """Per fact, its readings (canonical first) as truth masks over the domain."""
    view = domain_view(puzzle.domain)
    out = []
    for f in puzzle.facts:
        opts = [(CANONICAL, np.asarray(f.holds(view), dtype=bool))]
        opts += [(r.name, np.asarray(r.fact.holds(view), dtype=bool))
                 for r in fact_readings(f, puzzle.style)]  # fmt: skip
        out.append(opts)
    return out


def _reading_giving(puzzle: Puzzle, options: list[list[tuple[str, np.ndarray]]],
                    stored: list[str]) -> list[str] | None:  # fmt: skip
    """A combination of per-fact readings whose answer set is exactly ``stored``
    (as ``"fact N: reading"`` names; ``[]`` means all canonical), or None.

    Depth-first over the facts with their readings; a branch whose running
    intersection has already lost a stored date is cut, since later facts only
    shrink it. Puzzles have a handful of facts with two or three readings, so
    the search is small; it is exact, which is what lets a miss be called
    ``inconsistent``.
    """
    dom = puzzle.domain
    try:
        idx = np.array([_dt.date.fromisoformat(d).toordinal() - dom.start for d in stored],
                       dtype=np.int64)  # fmt: skip
    except ValueError:
        return None
    if idx.size and (idx.min() < 0 or idx.max() > dom.end - dom.start):
        return None
    want = len(stored)

    def walk(i: int, cur: np.ndarray | None, chosen: list[str]) -> list[str] | None:
        if i == len(options):
            assert cur is not None
            return chosen if int(cur.sum()) == want else None
        for name, mask in options[i]:
            nxt = mask if cur is None else cur & mask
            if idx.size and not bool(nxt[idx].all()):
                continue
            label = [] if name == CANONICAL else [f"fact {i + 1}: {name}"]
            found = walk(i + 1, nxt, chosen + label)
            if found is not None:
                return found
        return None

    return walk(0, None, [])


def _inconsistency(puzzle: Puzzle, options: list[list[tuple[str, np.ndarray]]],
                   stored: list[str]) -> dict[str, Any]:  # fmt: skip
    """The proof that no combination of readings gives ``stored``.

    Every step cites a fact under *all* its readings, so the proof holds for
    every reader, not only for the generator's conventions.
    """
    dom = puzzle.domain
    gold = set(stored)
    for d in stored:
        day = _dt.date.fromisoformat(d).toordinal()
        if not dom.start <= day <= dom.end:
            return {"date": d, "violates": None,
                    "proof": f"stored answer {d} is outside the domain "
                             f"{iso(dom.start)}..{iso(dom.end)}"}  # fmt: skip
        k = day - dom.start
        for i, (f, opts) in enumerate(zip(puzzle.facts, options, strict=True)):
            if not any(bool(m[k]) for _, m in opts):
                text = f.render(puzzle.style)  # type: ignore[arg-type]
                return {"date": d, "violates": {"index": i, "kind": f.kind, "text": text},
                        "readings": [n for n, _ in opts],
                        "proof": f"stored answer {d} violates fact {i + 1} under every "
                                 f"reading of it: {text}"}  # fmt: skip
    lower = None
    for opts in options:
        every = np.logical_and.reduce([m for _, m in opts])
        lower = every if lower is None else lower & every
    if lower is not None:
        for k in np.flatnonzero(lower)[: len(gold) + 1]:
            d = iso(dom.start + int(k))
            if d not in gold:
                return {"date": d, "violates": None,
                        "proof": f"{d} satisfies every fact under every reading but is not "
                                 "among the stored answers"}  # fmt: skip
    # No single date settles it: the proof is by cases, one per combination.
    return {
        "date": None,
        "violates": None,
        "proof": "no combination of the facts' readings gives exactly the stored answers",
        "cases": _cases(puzzle, options, gold),
    }


def _cases(puzzle: Puzzle, options: list[list[tuple[str, np.ndarray]]],
           gold: set[str]) -> list[dict[str, Any]]:  # fmt: skip
    """The first :data:`CASES` combinations and a date each gets wrong."""
    import itertools

    dom = puzzle.domain
    out: list[dict[str, Any]] = []
    for combo in itertools.product(*options):
        mask = np.logical_and.reduce([m for _, m in combo])
        got = {iso(dom.start + int(k)) for k in np.flatnonzero(mask)[: len(gold) + 1]}
        wrong = sorted(got - gold) or sorted(gold - got)
        if not wrong:  # this combination gives the gold: not a case against it
            continue
        names = [f"fact {i + 1}: {n}" for i, (n, _) in enumerate(combo) if n != CANONICAL]
        out.append({"readings": names or [CANONICAL],
                    "date": wrong[0], "in_answers": wrong[0] in got})  # fmt: skip
        if len(out) >= CASES:
            break
    return out


COUNTS = ("solution_count", "solver.count", "difficulty.sizes_by_information_gain[-1]")
"""The stored counts of a puzzle's answer set: ``M`` (what reports group by),
the solver's count, and the candidate set left after the last fact."""


def gold_form_mismatches(record: dict[str, Any]) -> list[FormMismatch]:
    """Where a puzzle's stored forms of its gold disagree: ``answers`` (what
    the facade serves and the scorer reads) against every stored count of
    them and, for a puzzle with answers, a stored ``contradiction`` (the
    certificate that no date fits)."""
    answers = sorted(set(stored_answers(record)))
    out = count_mismatches(record, answers, COUNTS)
    if answers and isinstance(record.get("contradiction"), dict):
        out.append(FormMismatch("contradiction", "no date satisfies every fact",
                                "answers", answers))  # fmt: skip
    return out


def audit_puzzle(record: dict[str, Any], backend: str = "cpsat") -> AuditVerdict:
    """The verdict on one Time Puzzles record (module docstring). A record
    imported from the Time Puzzles release is judged on its published answers
    (:mod:`tsolve.families.time_puzzles.release_audit`)."""
    if isinstance(record, dict) and "published_answers" in record:
        from tsolve.families.time_puzzles.release_audit import audit_release_record

        return audit_release_record(record)
    puzzle = puzzle_from_record(record)
    mismatches = gold_form_mismatches(record)
    if not mismatches and (served := served_answer_mismatch(record, FAMILY)) is not None:
        mismatches = [served]
    if mismatches:
        return forms_verdict(puzzle.id, FAMILY, mismatches)
    stored = sorted(set(stored_answers(record)))  # the gold is a set: a repeated date is one answer
    names = puzzle_readings(puzzle)
    be = get_backend(backend)
    cap = len(stored) + 1
    canon = be.solve(build_problem(puzzle.facts, puzzle.domain), cap)
    canonical = [iso(d) for d in canon.solutions]
    if canonical != stored:
        options = _option_masks(puzzle)
        giving = _reading_giving(puzzle, options, stored)
        if giving is None:
            proof = _inconsistency(puzzle, options, stored)
            return AuditVerdict(puzzle.id, FAMILY, "inconsistent", proof, names)
        sides = {"reading": " + ".join(giving), "answers": canonical,
                 "gold_readings": [" + ".join(giving)], "other_readings": [CANONICAL]}  # fmt: skip
        return AuditVerdict(puzzle.id, FAMILY, "ambiguous", sides, names)
    lower, upper = bound_problems(puzzle)
    lo = be.solve(lower, cap)
    hi = be.solve(upper, cap)
    if lo.count == hi.count == len(stored):
        return AuditVerdict(puzzle.id, FAMILY, "ok", {}, names)
    # Which single readings change the gold, and to what.
    gold = set(stored)
    changed: list[dict[str, Any]] = []
    for name in names[1:]:
        res = be.solve(reading_problem(puzzle, name), len(stored) + SHOW)
        answers = [iso(d) for d in res.solutions]
        if set(answers) != gold:
            changed.append({
                "reading": name,
                "answers": answers,
                "complete": bool(res.complete or res.count < len(stored) + SHOW),
                "added": [d for d in answers if d not in gold],
                "removed": [d for d in stored if d not in set(answers)],
            })  # fmt: skip
    upper_all = be.solve(upper, len(stored) + SHOW)
    lower_all = be.solve(lower, cap)
    detail: dict[str, Any] = {
        "reading": changed[0]["reading"] if changed else "combined",
        "answers": changed[0]["answers"] if changed else [iso(d) for d in upper_all.solutions],
        "readings": changed,
        "lower": [iso(d) for d in lower_all.solutions],
        "upper_extra": [iso(d) for d in upper_all.solutions if iso(d) not in gold],
    }
    return AuditVerdict(puzzle.id, FAMILY, "ambiguous", detail, names)


def audit_time_puzzle(record: dict[str, Any]) -> AuditVerdict:
    """The registered auditor (CP-SAT)."""
    return audit_puzzle(record)


# --- the proof as numbered lines ---------------------------------------------------------

SHOW_CASES = 5
"""How many cases of a proof by cases the numbered lines show."""


def _fact_texts(record: dict[str, Any]) -> list[str]:
    facts = record.get("facts")
    if not isinstance(facts, list):
        return []
    return [str(f.get("text", "")) if isinstance(f, dict) else "" for f in facts]


def explain(detail: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """A verdict's argument as lines quoting the puzzle's facts (see
    :mod:`tsolve.audit.explain`)."""
    from tsolve.audit.explain import quote

    facts = _fact_texts(record)
    published = "published_answers" in record  # an imported release judges its own answers
    stored = record.get("published_answers" if published else "answers")
    which = "published" if published else "stored"
    lines = [f"The {which} answers are {quote(', '.join(map(str, stored)) or 'None')}."
             if isinstance(stored, list) else "The record stores no answers."]  # fmt: skip
    if "proof" not in detail:  # ambiguous
        for r in detail.get("readings") or [detail]:
            got = ", ".join(map(str, r.get("answers") or [])) or "None"
            lines.append(f"Under reading {r.get('reading')} the facts give {quote(got)}.")
        if detail.get("gold_readings"):
            lines.append(f"The {which} answers are what {', '.join(detail['gold_readings'])} "
                         "gives.")  # fmt: skip
        return lines
    violated = detail.get("violates")
    date = detail.get("date")
    if isinstance(violated, dict):
        k = int(violated.get("index", 0))
        text = facts[k] if k < len(facts) and facts[k] else violated.get("text")
        lines.append(f"Fact {k + 1} says {quote(text)}.")
        readings = ", ".join(detail.get("readings") or ["canonical"])
        lines.append(f"{date} breaks it under every reading of it ({readings}), so it is "
                     "no answer.")  # fmt: skip
        if detail.get("why"):  # the calendar's word for it (release_audit)
            lines.append(f"{detail['why']}.")
        return lines
    if date is not None and "satisfies every fact" in str(detail.get("proof")):
        for k, text in enumerate(facts):
            lines.append(f"Fact {k + 1}, {quote(text)}, holds on {date} under every reading.")
        lines.append(f"So {date} is an answer, and the stored answers leave it out.")
        return lines
    cases = detail.get("cases")
    if isinstance(cases, list):
        lines.append("No combination of the facts' readings gives exactly the stored answers:")
        for c in cases[:SHOW_CASES]:
            under = " + ".join(c.get("readings") or [CANONICAL])
            if c.get("in_answers"):
                lines.append(f"under {under} the facts also give {c.get('date')}, which the "
                             "stored answers lack")  # fmt: skip
            else:
                lines.append(f"under {under} the stored answer {c.get('date')} is no answer")
        if len(cases) > SHOW_CASES:
            lines.append(f"(and {len(cases) - SHOW_CASES} more cases; --format json lists them)")
        return lines
    lines.append(str(detail.get("proof")))
    return lines
