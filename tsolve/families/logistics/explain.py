"""A logistics verdict as numbered lines a person can check (see
:mod:`tsolve.audit.explain`).

The lines follow the proof's structure (:mod:`tsolve.families.logistics.proof`):
which steps place the package's state at the asked minute is read from each
step's ``cause`` and kind, never from the proof's words. The structure is the
one the auditor attached to its JSON proof
(:class:`~tsolve.families.logistics.proof_text.RenderedProof`), or, for a
verdict read back from JSON, the proof built afresh from the record.
"""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.logistics.proof import Case, LogisticsProof, TimedStep, proof_of_record
from tsolve.families.logistics.proof_text import (
    BUSY_RULE,
    RenderedProof,
    because,
    names,
    since_text,
    until_of,
    until_text,
    why_gold_is_impossible,
)
from tsolve.families.logistics.readings import clock_text

AS_STATED = "as its sentence states"


def event_sentences(record: dict[str, Any]) -> list[str]:
    """The sentence of each event, by event number: the sentences of
    ``events`` that name a truck or a plane, as the parser numbers them."""
    from tsolve.families.logistics.parse.lexicon import sentences

    try:
        found = sentences(record.get("events", []), "events")
    except TsolveError:
        return []
    return [s for s in found if "truck" in s.lower() or "plane" in s.lower()]


def _chain(case: Case, rows: dict[int, TimedStep]) -> list[int]:
    """The steps that place ``case``'s state at the asked minute: the step
    that caused it and every step it waits for, back to a stated start; then
    the step of the next change (to show it is still to come) and the step
    that one waits for."""
    chain: list[int] = []
    todo = [case.at_asked_minute.cause]
    while todo:
        i = todo.pop()
        if i is None or i in chain or i not in rows:
            continue
        chain.append(i)
        if not rows[i].step.needs_no_chain:
            todo.append(rows[i].step.cause)
    nxt = case.segments[case.here + 1].cause if case.here + 1 < len(case.segments) else None
    if nxt is not None and nxt in rows and nxt not in chain:
        chain.append(nxt)
        held = rows[nxt].step.cause  # what it waits for, one step back
        if held is not None and held in rows and held not in chain:
            chain.append(held)
    return sorted(chain)


def case_steps(case: Case, shared: dict[int, TimedStep]) -> list[tuple[int, str, str | None]]:
    """Each step on ``case``'s chain as ``(event, its times and why, how
    long the package stays busy with its group if longer)``."""
    own = {t.event: t for t in case.steps}
    rows = {**shared, **own}
    busy = dict(case.busy)
    out = []
    for i in _chain(case, rows):
        t = rows[i]
        why = AS_STATED if t.step.sentence_states_start else because(t.step)
        line = f"{clock_text(t.start)}–{clock_text(t.end)}: {why}"
        until = t.busy_end if i in own and t.busy_end != t.end else busy.get(i)
        held = None
        if until is not None:
            held = f"busy until {clock_text(until)} ({BUSY_RULE.format(t=case.timing)})"
        out.append((i, line, held))
    return out


def _ambiguous_lines(detail: dict[str, Any]) -> list[str]:
    others = detail.get("other_readings")
    if not isinstance(others, list):
        return []
    lines = [f"The gold {names(detail.get('gold') or [])} is the answer under "
             f"{', '.join(detail.get('gold_readings') or [])}."]  # fmt: skip
    for r in others:
        lines.append(f"Under {r.get('reading')} ({r.get('note')}) the answer is "
                     f"{names(r.get('answers') or [])}.")  # fmt: skip
    return lines


def _step_lines(proof: LogisticsProof, said: list[str]) -> list[str]:
    """One line per step on any case's chain, quoting its sentence, with
    each distinct timing and the readings that give it."""
    from tsolve.audit.explain import quote

    shared = {t.event: t for t in proof.schedule}
    steps: dict[int, dict[str, list[str]]] = {}
    busy: dict[int, dict[str, list[str]]] = {}
    for case in proof.cases:
        for i, timing, held in case_steps(case, shared):
            steps.setdefault(i, {}).setdefault(timing, []).append(case.reading)
            if held is not None:
                busy.setdefault(i, {}).setdefault(held, []).append(case.reading)
    lines = []
    for i, timings in sorted(steps.items()):
        words = quote(said[i]) if i < len(said) else f"step #{i}"
        if len(timings) == 1 and len(next(iter(timings.values()))) == len(proof.cases):
            line = f"{words} (#{i}) runs {next(iter(timings))}"
        else:
            parts = [f"under {', '.join(rs)} it runs {t}" for t, rs in timings.items()]
            line = f"{words} (#{i}): " + "; ".join(parts)
        for held, rs in (busy.get(i) or {}).items():
            line += f"; under {', '.join(rs)} the package stays {held}"
        lines.append(line + ".")
    return lines


def proof_lines(proof: LogisticsProof, record: dict[str, Any]) -> list[str]:
    """The question, each step that places the package's state at the asked
    minute (quoting its sentence, with the times it gets and why), then per
    reading where the package is at that minute and why the gold never
    holds then."""
    from tsolve.audit.explain import quote

    lines = [f"The question: {quote(record.get('question'))} asks for the place at "
             f"{clock_text(proof.cases[0].asked)}."]  # fmt: skip
    lines += _step_lines(proof, event_sentences(record))
    verdicts: dict[str, list[str]] = {}  # the same conclusion under several readings: once
    for case in proof.cases:
        here = case.at_asked_minute
        said_then = (
            f"at {clock_text(case.asked)} the package is {here.state} {names(here.answers)} "
            f"(from {since_text(here.start)} to {until_text(until_of(case))}): "
            + "; ".join(why_gold_is_impossible(case, proof.package, proof.gold))
        )
        verdicts.setdefault(said_then, []).append(case.reading)
    for said_then, readings in verdicts.items():
        lines.append(f"So under {', '.join(readings)}, {said_then}.")
    lines.append(f"No reading gives the gold {names(proof.gold)}.")
    return lines


def explain(detail: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """An ``inconsistent`` proof as lines a person can check
    (:func:`proof_lines`); an ``ambiguous`` verdict: which readings give the
    gold and what the others give. ``[]`` when there is no proof to follow
    (the caller then writes the verdict's summary)."""
    proof = detail.get("proof")
    if not isinstance(proof, dict):
        return _ambiguous_lines(detail)
    structure = proof.structure if isinstance(proof, RenderedProof) else proof_of_record(record)
    return [] if structure is None else proof_lines(structure, record)


__all__ = ["AS_STATED", "case_steps", "event_sentences", "explain", "proof_lines"]
