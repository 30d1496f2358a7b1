"""A logistics proof in words: the JSON proof of ``tsolve audit`` rendered
from its structure (:mod:`tsolve.families.logistics.proof`).

Every sentence comes from a template here (:data:`BECAUSE` and the
constants beside it), filled from the structure; nothing reads these words
back, so a template can be reworded without changing any argument.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tsolve.families.logistics.proof import SHARED_RULES, Case, LogisticsProof, ProofStep, Segment
from tsolve.families.logistics.proof import TimedStep as Timed
from tsolve.families.logistics.readings import clock_text
from tsolve.families.logistics.timeline import NEVER

READING_RULES = {
    "timing:together": "timing:together: steps that run together start together, so each "
    "waits for what every member's package waits for",
    "timing:group-end": "timing:group-end: a package's next step follows the end of its "
    "whole group",
    "timing:own-step": "timing:own-step",
}
"""The rules only one timing of steps that run together holds, by
:attr:`~tsolve.families.logistics.proof.ProofStep.rule` key."""

BUSY_RULE = "timing:{t}: a package counts as being loaded or unloaded until its group ends"

BECAUSE = {
    "what-if": "what-if: {what} by {minutes} minutes from {planned}{waits}",
    "question-start": "the question states this start{waits}",
    "after": "starts {when} #{cause} ends ({rule})",
    "text-start": "the text states this start",
    "plan-start": "first step of the plan",
    "plan-start-placed": "first step of the plan (placed by the stated start of #{cause})",
}
"""Why a step starts when it does, by step kind (``{waits}``: :data:`WAITS`
when the step waits for another in the plan, else nothing)."""

WAITS = " (in the plan it waits for #{cause})"
START, END = "the start", "the end"


def rule_text(rule: str) -> str:
    """The words of a shared rule or of a reading's own rule, by key."""
    return SHARED_RULES.get(rule) or READING_RULES[rule]


def because(step: ProofStep) -> str:
    """Why ``step`` starts when it does, in words."""
    waits = "" if step.cause is None else WAITS.format(cause=step.cause)
    kind: str = step.kind
    if kind == "plan-start" and step.cause is not None:
        kind = "plan-start-placed"
    when = f"{step.gap} minutes after" if step.gap else "when"
    return BECAUSE[kind].format(
        what="delayed" if step.shift > 0 else "expedited",
        minutes=abs(step.shift),
        planned=clock_text(step.planned),
        waits=waits,
        cause=step.cause,
        when=when,
        rule=rule_text(step.rule) if step.rule else "",
    )


def since_text(minute: int) -> str:
    return START if minute == NEVER else clock_text(minute)


def until_text(minute: int | None) -> str:
    return END if minute is None else clock_text(minute)


def names(answers: Sequence[str]) -> str:
    return "{" + ", ".join(answers) + "}"


def step_text(proof: LogisticsProof, i: int) -> str:
    """``#i`` and the step's phrase."""
    return f"#{i} {proof.phrases[i]}"


def _when(segs: Sequence[Segment], test: Callable[[Segment], bool]) -> str | None:
    """ "from A to B and from C to D": the spans where ``test`` holds (adjacent
    segments merged), or None when it never holds."""
    spans: list[tuple[int, int | None]] = []
    for s in segs:
        if not test(s):
            continue
        if spans and spans[-1][1] == s.start:
            spans[-1] = (spans[-1][0], s.end)
        else:
            spans.append((s.start, s.end))
    if not spans:
        return None
    return " and ".join(f"from {since_text(a)} to {until_text(b)}" for a, b in spans)


def why_gold_is_impossible(case: Case, package: str, gold: Sequence[str]) -> list[str]:
    """When (if ever) the gold would hold under ``case``, and when each of
    its names the package is not at or in at the asked minute would."""
    gold_set = set(gold)
    spans = _when(case.segments, lambda s: set(s.answers) == gold_set)
    want = names(gold)
    why = [f"{package}'s answer is {want} only {spans}" if spans
           else f"{package}'s answer is never {want}"]  # fmt: skip
    for name in [g for g in gold if g not in case.at_asked_minute.answers]:
        where = _when(case.segments, lambda s, n=name: n in s.answers)  # type: ignore[misc]
        why.append(f"{package} is at/in {name} only {where}" if where
                   else f"{package} is never at/in {name}")  # fmt: skip
    return why


def until_of(case: Case) -> int | None:
    """When the asked minute's segment ends (None: for ever)."""
    nxt = case.here + 1
    return case.segments[nxt].start if nxt < len(case.segments) else None


def _row(proof: LogisticsProof, t: Timed, timing: str | None) -> dict[str, Any]:
    """A cited step with its times and why; ``timing`` given, with how long
    its package stays busy with its group when longer."""
    row: dict[str, Any] = {
        "event": t.event,
        "step": proof.phrases[t.event],
        "start": clock_text(t.start),
        "end": clock_text(t.end),
        "minutes": t.duration,
        "because": because(t.step),
    }
    if timing is not None and t.busy_end != t.end:
        row["busy_until"] = clock_text(t.busy_end)
        row["busy_because"] = BUSY_RULE.format(t=timing)
    return row


def _segment_row(proof: LogisticsProof, s: Segment) -> dict[str, Any]:
    return {
        "from": since_text(s.start),
        "until": until_text(s.end),
        "state": s.state,
        "answers": list(s.answers),
        "because_of": None if s.cause is None else step_text(proof, s.cause),
    }


def case_json(proof: LogisticsProof, case: Case) -> dict[str, Any]:
    """One reading's case as the JSON proof writes it."""
    here = case.at_asked_minute
    return {
        "reading": case.reading,
        "note": case.note,
        "asked": clock_text(case.asked),
        "answers": list(case.answers),
        "package_timeline": [_segment_row(proof, s) for s in case.segments],
        "at_asked_minute": {
            "state": here.state,
            "answers": list(here.answers),
            "since": since_text(here.start),
            "until": until_text(until_of(case)),
        },
        "why_gold_is_impossible": why_gold_is_impossible(case, proof.package, proof.gold),
        "schedule": [_row(proof, t, case.timing) for t in case.steps],
        "busy": [{"event": i, "busy_until": clock_text(until),
                  "because": BUSY_RULE.format(t=case.timing)} for i, until in case.busy],
    }  # fmt: skip


def case_summary(proof: LogisticsProof, case: Case) -> str:
    """Where the package is under ``case`` at the asked minute and why the gold fails."""
    return (
        f"under '{case.reading}': at {clock_text(case.asked)} {proof.package} is "
        f"{case.at_asked_minute.state} {names(case.answers)}; "
        + "; ".join(why_gold_is_impossible(case, proof.package, proof.gold))
    )


def proof_json(proof: LogisticsProof) -> dict[str, Any]:
    """The JSON proof of an ``inconsistent`` verdict (``detail["proof"]``)."""
    anchor = proof.anchor
    return {
        "asked": clock_text(proof.cases[0].asked),
        "anchor": None if anchor is None else {
            "event": anchor[0], "step": proof.phrases[anchor[0]], "starts": clock_text(anchor[1]),
        },
        "what_if": [{"event": i, "step": proof.phrases[i], "minutes": m}
                    for i, m in proof.what_if],
        "shared_rules": [SHARED_RULES[k] for k in proof.rules],
        "schedule": [_row(proof, t, None) for t in proof.schedule],
        "cases": [case_json(proof, c) for c in proof.cases],
        "gold": list(proof.gold),
        "why_gold_is_impossible": [case_summary(proof, c) for c in proof.cases],
    }  # fmt: skip


class RenderedProof(dict[str, Any]):
    """The JSON proof (a plain ``dict`` to every reader and serialiser) that
    keeps the structure it was rendered from, in ``structure``."""

    __slots__ = ("structure",)

    def __init__(self, structure: LogisticsProof) -> None:
        super().__init__(proof_json(structure))
        self.structure = structure


__all__ = [
    "BECAUSE",
    "BUSY_RULE",
    "READING_RULES",
    "WAITS",
    "RenderedProof",
    "because",
    "case_json",
    "case_summary",
    "names",
    "proof_json",
    "rule_text",
    "since_text",
    "step_text",
    "until_of",
    "until_text",
    "why_gold_is_impossible",
]
