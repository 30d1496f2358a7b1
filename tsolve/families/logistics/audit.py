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
(:mod:`tsolve.audit.forms`). :func:`explain` writes a proof as numbered lines
quoting the story's sentences (:mod:`tsolve.audit.explain`).

Readings that would contradict the benchmark's stated rules are not
considered: serial versus parallel execution (each item's domain description
states it), the "N hours" arithmetic itself (60·N minutes), or where a package
is while it is loaded (the domain description states it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tsolve.audit.base import AuditVerdict
from tsolve.audit.forms import FormMismatch, forms_verdict, mistyped
from tsolve.errors import TsolveError
from tsolve.families.logistics.event_graph import Dependencies, dependencies
from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.readings import (
    Reading,
    ScheduleReading,
    clock_text,
    readings_in_full,
)
from tsolve.families.logistics.timeline import NEVER, Place, Timeline
from tsolve.records.validation import bad

# --- the proof of an inconsistent gold ---------------------------------------------------

SHARED_RULES = {
    "own": "a package's step starts after its previous step ends",
    "arrival": "a vehicle's step at a stop starts after it arrives there",
    "move": "a vehicle's move starts after its previous move ends",
    "stop": "unloading comes before loading at a stop, never both at once (domain description)",
    "leave": "a vehicle leaves a stop after its loads and unloads there end",
    "serial": "steps run one at a time, in list order (domain description)",
}
"""The rules every reading shares, by key (a proof step cites them)."""

_READING_RULES = {
    "together": "timing:together: steps that run together start together, so each waits "
    "for what every member's package waits for",
    "group-end": "timing:group-end: a package's next step follows the end of its whole group",
    "own-step": "timing:own-step",
}
_BUSY_RULE = "timing:{t}: a package counts as being loaded or unloaded until its group ends"


def _step(scenario: Scenario, i: int) -> str:
    return f"#{i} {scenario.events[i].phrase()}"


def _rule(scenario: Scenario, deps: Dependencies, u: int, i: int) -> str | None:
    """The shared rule behind the edge ``u -> i``, or None when only the
    reading's own rule (its timing of steps that run together) puts it there."""
    if deps.execution == "serial":
        return "serial"
    a, b = scenario.events[u], scenario.events[i]
    if a.package is not None and a.package == b.package:
        return "own"
    if a.vehicle != b.vehicle:
        return None
    if a.kind == "move":
        return "move" if b.kind == "move" else "arrival"
    if b.kind == "move":
        return "leave"
    if a.kind != b.kind and a.location == b.location:
        return "stop"
    return None


def _because(
    scenario: Scenario,
    question: Question,
    sr: ScheduleReading,
    deps: Dependencies,
    i: int,
) -> tuple[str, int | None, bool]:
    """Why event ``i`` starts when it does under ``sr``, the event that holds
    it back, and whether the reason is shared by every reading."""
    sched = sr.resolution.schedule
    shift: dict[int, int] = {}
    for s in sr.question.shifts:
        shift[s.event] = shift.get(s.event, 0) + s.minutes
    n = shift.get(i, 0)
    # shifted_schedule pins a what-if's start at (its start before the what-if) + n;
    # later what-ifs never move earlier events, so its predecessors are where they were.
    planned = sched.start[i] - n
    binding = [u for u, gap in deps.preds[i] if sched.end[u] + gap == planned]
    # prefer a rule every reading shares
    binding.sort(key=lambda u: _rule(scenario, deps, u, i) is None)
    u = binding[0] if binding else None
    waits = "" if u is None else f" (in the plan it waits for #{u})"
    if n:
        what = "delayed" if n > 0 else "expedited"
        return f"what-if: {what} by {abs(n)} minutes from {clock_text(planned)}{waits}", u, True
    if sr.question.anchor is not None and sr.question.anchor[0] == i:
        # The stated start places the whole plan; its own chain shows where the rest falls.
        return f"the question states this start{waits}", u, True
    if u is not None:
        gap = dict(deps.preds[i])[u]
        when = f"{gap} minutes after" if gap else "when"
        rule = _rule(scenario, deps, u, i)
        if rule is None:
            return f"starts {when} #{u} ends ({_READING_RULES[sr.timing]})", u, False
        return f"starts {when} #{u} ends ({SHARED_RULES[rule]})", u, True
    if scenario.events[i].start is not None:
        return "the text states this start", None, True
    if sr.question.anchor is not None:
        a = sr.question.anchor[0]
        return f"first step of the plan (placed by the stated start of #{a})", None, True
    return "first step of the plan", None, True


def _chain(
    scenario: Scenario, question: Question, sr: ScheduleReading, events: Sequence[int]
) -> dict[int, tuple[str, bool]]:
    """The events that place the package's changes on the clock under
    ``sr``, each with why it starts then, back to where each chain begins."""
    deps = dependencies(scenario, None, sr.timing)
    reasons: dict[int, tuple[str, bool]] = {}
    todo = list(events)
    while todo:
        i = todo.pop()
        if i in reasons:
            continue
        why, u, shared = _because(scenario, question, sr, deps, i)
        reasons[i] = (why, shared)
        if u is not None:
            todo.append(u)
    return reasons


def _cited(question: Question, sr: ScheduleReading, scenario: Scenario) -> list[int]:
    """The events whose times the package's timeline under ``sr`` rests on."""
    tl = Timeline(scenario, sr.resolution.schedule, question.package)
    causes = {p.cause for p in tl.points if p.cause is not None}
    causes |= {s.event for s in sr.question.shifts}
    if sr.question.anchor is not None:
        causes.add(sr.question.anchor[0])
    return sorted(causes)


def _row(
    scenario: Scenario, sr: ScheduleReading, i: int, why: str, busy: bool = True
) -> dict[str, Any]:
    sched = sr.resolution.schedule
    row: dict[str, Any] = {
        "event": i,
        "step": scenario.events[i].phrase(),
        "start": clock_text(sched.start[i]),
        "end": clock_text(sched.end[i]),
        "minutes": scenario.events[i].duration,
        "because": why,
    }
    if busy and sched.busy_end[i] != sched.end[i]:
        row["busy_until"] = clock_text(sched.busy_end[i])
        row["busy_because"] = _BUSY_RULE.format(t=sr.timing)
    return row


def _segment_row(scenario: Scenario, a: int, b: int | None, p: Place) -> dict[str, Any]:
    return {
        "from": "the start" if a == NEVER else clock_text(a),
        "until": "the end" if b is None else clock_text(b),
        "state": p.state,
        "answers": list(p.answers),
        "because_of": None if p.cause is None else _step(scenario, p.cause),
    }


def _when(segs: list[tuple[int, int | None, Place]], test: Any) -> str | None:
    """ "from A to B and from C to D": the spans where ``test`` holds (adjacent
    segments merged), or None when it never holds."""
    spans: list[list[int | None]] = []
    for a, b, p in segs:
        if not test(p):
            continue
        if spans and spans[-1][1] == a:
            spans[-1][1] = b
        else:
            spans.append([a, b])
    if not spans:
        return None
    return " and ".join(
        f"from {'the start' if a == NEVER else clock_text(a)} "  # type: ignore[arg-type]
        f"to {'the end' if b is None else clock_text(b)}"
        for a, b in spans
    )


def _case(
    scenario: Scenario, question: Question, sr: ScheduleReading, r: Reading, gold: Sequence[str]
) -> dict[str, Any]:
    """One reading's case: the package's timeline, its state at the asked
    minute, and when (if ever) the gold would hold."""
    tl = Timeline(scenario, sr.resolution.schedule, question.package)
    segs = tl.segments()
    t = r.minute
    here = tl.at(t)
    until = next((a for a, _b, _p in segs if a > t), None)
    gold_set = set(gold)
    pkg = question.package
    names = _names(gold)
    spans = _when(segs, lambda p: set(p.answers) == gold_set)
    why = [
        f"{pkg}'s answer is {names} only {spans}" if spans else f"{pkg}'s answer is never {names}"
    ]
    for name in [g for g in gold if g not in here.answers]:
        where = _when(segs, lambda p, n=name: n in p.answers)
        why.append(
            f"{pkg} is at/in {name} only {where}" if where else f"{pkg} is never at/in {name}"
        )
    return {
        "reading": r.name,
        "note": r.note,
        "asked": clock_text(t),
        "answers": list(r.answers),
        "package_timeline": [_segment_row(scenario, a, b, p) for a, b, p in segs],
        "at_asked_minute": {
            "state": here.state,
            "answers": list(here.answers),
            "since": "the start" if here.since == NEVER else clock_text(here.since),
            "until": "the end" if until is None else clock_text(until),
        },
        "why_gold_is_impossible": why,
    }


def proof(
    scenario: Scenario,
    question: Question,
    found: Sequence[tuple[ScheduleReading, Reading]],
    gold: Sequence[str],
) -> dict[str, Any]:
    """The checkable proof that no reading gives ``gold``: a proof by cases.

    ``schedule`` holds the steps whose start and end are the same under
    every reading and are justified by a sentence or a shared rule
    (:data:`SHARED_RULES`); every time in it is a sum of stated durations
    from the question's stated start (or the text's stated times). Each of
    ``cases`` is one reading: the steps it times differently, each with
    the rule that puts it there (shared, or the reading's own, named), and
    the package's state at the asked minute, which is not the gold.
    """
    srs = list(dict.fromkeys(sr for sr, _r in found))
    chains = {sr: _chain(scenario, question, sr, _cited(question, sr, scenario)) for sr in srs}
    everywhere = set.intersection(*(set(c) for c in chains.values()))
    shared: list[int] = []
    for i in sorted(everywhere):
        times = {(sr.resolution.schedule.start[i], sr.resolution.schedule.end[i]) for sr in srs}
        whys = {chains[sr][i] for sr in srs}
        if len(times) == 1 and len(whys) == 1 and next(iter(whys))[1]:
            shared.append(i)
    first = srs[0]
    cases = []
    for sr, r in found:
        case = _case(scenario, question, sr, r, gold)
        sched = sr.resolution.schedule
        own = [i for i in sorted(chains[sr]) if i not in shared]
        case["schedule"] = [_row(scenario, sr, i, chains[sr][i][0]) for i in own]
        # a shared step whose package stays busy with its group: this reading's rule
        case["busy"] = [
            {
                "event": i,
                "busy_until": clock_text(sched.busy_end[i]),
                "because": _BUSY_RULE.format(t=sr.timing),
            }
            for i in shared
            if sched.busy_end[i] != sched.end[i]
        ]
        cases.append(case)
    rules = sorted(
        {
            k
            for sr in srs
            for why, ok in chains[sr].values()
            if ok
            for k, text in SHARED_RULES.items()
            if text in why
        }
    )
    return {
        "asked": cases[0]["asked"],
        "anchor": None
        if question.anchor is None
        else {
            "event": question.anchor[0],
            "step": scenario.events[question.anchor[0]].phrase(),
            "starts": clock_text(question.anchor[1]),
        },
        "what_if": [
            {"event": s.event, "step": scenario.events[s.event].phrase(), "minutes": s.minutes}
            for s in question.shifts
        ],
        "shared_rules": [SHARED_RULES[k] for k in rules],
        "schedule": [_row(scenario, first, i, chains[first][i][0], busy=False) for i in shared],
        "cases": cases,
        "gold": list(gold),
        "why_gold_is_impossible": [
            f"under '{c['reading']}': at {c['asked']} {question.package} is "
            f"{c['at_asked_minute']['state']} {_names(c['answers'])}; "
            + "; ".join(c["why_gold_is_impossible"])
            for c in cases
        ],
    }


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


def _names(answers: Sequence[str]) -> str:
    return "{" + ", ".join(answers) + "}"


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
    gold_set = set(gold)
    where = {"item": _where(record)} if _where(record) else {}
    right = [r for _sr, r in found if set(r.answers) == gold_set]
    wrong = [r for _sr, r in found if set(r.answers) != gold_set]
    if not right:
        pr = proof(scenario, question, found, gold)
        default = pr["cases"][0]
        summary = (
            f"gold {_names(gold)} is the answer of no reading: at {default['asked']} "
            f"{question.package} is {default['at_asked_minute']['state']} "
            f"{_names(default['answers'])} since {default['at_asked_minute']['since']}"
        )
        res = found[0][0].resolution
        if res.place.cause is not None:
            summary += f" (#{res.place.cause} {scenario.events[res.place.cause].phrase()})"
        others = sorted({_names(r.answers) for r in wrong} - {_names(res.answers)})
        if others:
            summary += f"; other readings give {', '.join(others)}"
        detail: dict[str, Any] = {
            "summary": summary,
            "answers": list(res.answers),
            "readings": [r.to_json() for _sr, r in found],
            "proof": pr,
            **where,
        }
        return AuditVerdict(rid, "logistics", "inconsistent", detail, names)
    if wrong:
        first = wrong[0]
        summary = (
            f"gold {_names(gold)} is the answer under {', '.join(r.name for r in right)}; "
            f"under {first.name} ({first.note}) it is {_names(first.answers)}"
        )
        if len(wrong) > 1:
            more = len(wrong) - 1
            rest = "readings disagree" if more > 1 else "reading disagrees"
            summary += f" (and {more} more {rest})"
        return AuditVerdict(
            rid,
            "logistics",
            "ambiguous",
            {
                "summary": summary,
                "gold_readings": [r.name for r in right],
                "other_readings": [r.to_json() for r in wrong],
                "reading": first.name,
                "answers": list(first.answers),
                "gold": list(gold),
                "readings": [r.to_json() for _sr, r in found],
                **where,
            },
            names,
        )
    return AuditVerdict(rid, "logistics", "ok", {}, names)


# --- the proof as numbered lines ---------------------------------------------------------


def event_sentences(record: dict[str, Any]) -> list[str]:
    """The sentence of each event, by event number: the sentences of
    ``events`` that name a truck or a plane, as the parser numbers them."""
    from tsolve.families.logistics.parse.lexicon import sentences

    try:
        found = sentences(record.get("events", []), "events")
    except TsolveError:
        return []
    return [s for s in found if "truck" in s.lower() or "plane" in s.lower()]


_EVENT_REF = re.compile(r"#(\d+)")


def _cause(text: Any) -> int | None:
    m = _EVENT_REF.search(text) if isinstance(text, str) else None
    return int(m[1]) if m else None


_STATED = ("the question states", "the text states")


def _stated_steps(record: dict[str, Any]) -> set[int]:
    """The steps whose sentence states their own start (easy and medium items)."""
    try:
        scenario, _question = parse_item(record)
    except TsolveError:
        return set()
    return {e.index for e in scenario.events if e.start is not None}


def _case_steps(
    case: dict[str, Any], shared: dict[int, dict[str, Any]], stated: set[int]
) -> list[tuple[int, str, str | None]]:
    """The steps that place a case's package state at the asked minute: the
    step that caused it and, back along "starts when #u ends", every step it
    waits for; then the step of the next change (to show it is still to
    come) and the step that one waits for. Each as ``(event, its times and
    why, how long the package stays busy with its group if longer)``. A start
    its sentence or the question states needs no steps before it."""
    rows = {**shared, **{row["event"]: row for row in case.get("schedule") or []}}
    busy = {b["event"]: b for b in case.get("busy") or []}
    here = case.get("at_asked_minute") or {}
    timeline = case.get("package_timeline") or []
    at = [k for k, seg in enumerate(timeline) if seg.get("from") == here.get("since")]
    chain: list[int] = []
    todo = [_cause(timeline[at[0]].get("because_of"))] if at else []
    while todo:
        i = todo.pop()
        if i is None or i in chain or i not in rows:
            continue
        chain.append(i)
        if i not in stated and not str(rows[i].get("because")).startswith(_STATED):
            todo.append(_cause(rows[i].get("because")))  # a stated start needs no chain
    if at and at[0] + 1 < len(timeline):
        nxt = _cause(timeline[at[0] + 1].get("because_of"))
        if nxt is not None and nxt in rows and nxt not in chain:
            chain.append(nxt)
            held = _cause(rows[nxt].get("because"))  # what it waits for, one step back
            if held is not None and held in rows and held not in chain:
                chain.append(held)
    out = []
    for i in sorted(chain):
        row = rows[i]
        why = "as its sentence states" if i in stated else row.get("because")
        line = f"{row.get('start')}–{row.get('end')}: {why}"
        until = row.get("busy_until") or (busy.get(i) or {}).get("busy_until")
        rule = row.get("busy_because") or (busy.get(i) or {}).get("because")
        out.append((i, line, f"busy until {until} ({rule})" if until else None))
    return out


def explain(detail: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """An ``inconsistent`` proof as lines a person can check (see
    :mod:`tsolve.audit.explain`): the question, then each step that places
    the package's state at the asked minute, quoting its sentence with the
    times it gets and why, then per reading where the package is at that
    minute and why the gold never holds then. An ``ambiguous`` verdict:
    which readings give the gold and what the others give."""
    from tsolve.audit.explain import quote

    proof = detail.get("proof")
    if not isinstance(proof, dict):
        others = detail.get("other_readings")
        if not isinstance(others, list):
            return []
        lines = [f"The gold {_names(detail.get('gold') or [])} is the answer under "
                 f"{', '.join(detail.get('gold_readings') or [])}."]  # fmt: skip
        for r in others:
            lines.append(f"Under {r.get('reading')} ({r.get('note')}) the answer is "
                         f"{_names(r.get('answers') or [])}.")  # fmt: skip
        return lines
    said = event_sentences(record)
    lines = [f"The question: {quote(record.get('question'))} asks for the place at "
             f"{proof.get('asked')}."]  # fmt: skip
    cases = proof.get("cases") or []
    shared = {row["event"]: row for row in proof.get("schedule") or []}
    # one line per step on any case's chain, quoting its sentence, with each
    # distinct timing and the readings that give it
    steps: dict[int, dict[str, list[str]]] = {}
    busy: dict[int, dict[str, list[str]]] = {}
    stated = _stated_steps(record)
    for case in cases:
        reading = str(case.get("reading"))
        for i, timing, held in _case_steps(case, shared, stated):
            steps.setdefault(i, {}).setdefault(timing, []).append(reading)
            if held is not None:
                busy.setdefault(i, {}).setdefault(held, []).append(reading)
    for i, timings in sorted(steps.items()):
        words = quote(said[i]) if i < len(said) else f"step #{i}"
        if len(timings) == 1 and len(next(iter(timings.values()))) == len(cases):
            line = f"{words} (#{i}) runs {next(iter(timings))}"
        else:
            parts = [f"under {', '.join(rs)} it runs {t}" for t, rs in timings.items()]
            line = f"{words} (#{i}): " + "; ".join(parts)
        for held, rs in (busy.get(i) or {}).items():
            line += f"; under {', '.join(rs)} the package stays {held}"
        lines.append(line + ".")
    verdicts: dict[str, list[str]] = {}  # the same conclusion under several readings: once
    for case in cases:
        here = case.get("at_asked_minute") or {}
        said_then = (
            f"at {case.get('asked')} the package is {here.get('state')} "
            f"{_names(here.get('answers') or [])} (from {here.get('since')} to "
            f"{here.get('until')}): " + "; ".join(case.get("why_gold_is_impossible") or [])
        )
        verdicts.setdefault(said_then, []).append(str(case.get("reading")))
    for said_then, readings in verdicts.items():
        lines.append(f"So under {', '.join(readings)}, {said_then}.")
    lines.append(f"No reading gives the gold {_names(proof.get('gold') or [])}.")
    return lines
