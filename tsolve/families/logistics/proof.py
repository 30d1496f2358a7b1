"""The proof that no reading gives a logistics gold, as data.

A proof by cases (``docs/ground-truth.md``) is built here as frozen
dataclasses: for each step it cites, *why* it starts when it does (a
:class:`ProofStep`: its kind, the event it waits for, the rule or the stated
fact behind it), the times each reading gives it, and per reading the
package's timeline and the segment holding the asked minute. The English,
the JSON proof of ``tsolve audit`` and the numbered lines of ``explain``
are renderings of it (:mod:`tsolve.families.logistics.proof_text`,
:mod:`tsolve.families.logistics.explain`); nothing reads a proof's chain
back from its words, so rewording a sentence changes no argument.

A new kind of event needs nothing here as long as :func:`rule_of` can name
the shared rule behind its edges; a new reason for a start is a new
:data:`StepKind` with its template in
:data:`~tsolve.families.logistics.proof_text.BECAUSE`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tsolve.errors import TsolveError
from tsolve.families.logistics.event_graph import Dependencies, dependencies
from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.readings import Reading, ScheduleReading
from tsolve.families.logistics.timeline import Timeline

SHARED_RULES = {
    "own": "a package's step starts after its previous step ends",
    "arrival": "a vehicle's step at a stop starts after it arrives there",
    "move": "a vehicle's move starts after its previous move ends",
    "stop": "unloading comes before loading at a stop, never both at once (domain description)",
    "leave": "a vehicle leaves a stop after its loads and unloads there end",
    "serial": "steps run one at a time, in list order (domain description)",
}
"""The rules every reading shares, by key (a proof step cites them)."""

StepKind = Literal["what-if", "question-start", "text-start", "after", "plan-start"]
"""Why a step starts when it does: a what-if of the question moves it; the
question states its start; its sentence states it; it starts after the step
it waits for ends; or it is where the plan begins."""

STATED_KINDS: frozenset[str] = frozenset({"question-start", "text-start"})
"""The kinds whose start is a stated fact: no step before them is needed."""


@dataclass(frozen=True)
class ProofStep:
    """Why event ``event`` starts when it does under one reading.

    ``cause`` is the event that places it: the one it waits for (for a
    what-if or a start the question states, the one it waits for in the
    plan), or for the first step of a plan placed by a stated start, the
    step whose start is stated. ``rule`` is the rule behind an ``after``
    edge: a key of :data:`SHARED_RULES`, or ``timing:<name>`` when only the
    reading's own timing puts the edge there. ``gap`` is the minutes
    between ``cause``'s end and this start; ``shift`` and ``planned`` are a
    what-if's minutes and the start it moves. ``sentence_states_start``: the
    event's own sentence states its start (easy and medium items)."""

    event: int
    kind: StepKind
    cause: int | None = None
    rule: str | None = None
    gap: int = 0
    shift: int = 0
    planned: int = 0
    sentence_states_start: bool = False

    @property
    def shared(self) -> bool:
        """Whether every reading shares the reason (only a reading's own
        timing rule is not shared)."""
        return self.kind != "after" or self.rule in SHARED_RULES

    @property
    def needs_no_chain(self) -> bool:
        """A start stated by the question or a sentence: nothing before it is needed."""
        return self.sentence_states_start or self.kind in STATED_KINDS


@dataclass(frozen=True)
class TimedStep:
    """A cited step with the times one reading gives it: ``busy_end`` is
    when its package stops counting as being loaded or unloaded (its
    group's end, under some timings)."""

    step: ProofStep
    start: int
    end: int
    busy_end: int
    duration: int

    @property
    def event(self) -> int:
        return self.step.event


@dataclass(frozen=True)
class Segment:
    """A stretch of the package's timeline: ``start`` is
    :data:`~tsolve.families.logistics.timeline.NEVER` for the initial state,
    ``end`` None for for ever; ``cause`` is the event that brought it about."""

    start: int
    end: int | None
    state: str
    answers: tuple[str, ...]
    cause: int | None


@dataclass(frozen=True)
class Case:
    """One reading's case: the package's timeline (``segments[here]`` holds
    the asked minute), the steps this reading times differently from the
    shared ones (``steps``), and the shared steps whose package it keeps
    busy longer (``busy``: event, until)."""

    reading: str
    note: str
    timing: str
    asked: int
    answers: tuple[str, ...]
    segments: tuple[Segment, ...]
    here: int
    steps: tuple[TimedStep, ...]
    busy: tuple[tuple[int, int], ...]

    @property
    def at_asked_minute(self) -> Segment:
        return self.segments[self.here]


@dataclass(frozen=True)
class LogisticsProof:
    """The checkable proof that no reading gives ``gold``.

    ``schedule`` holds the steps whose times and reasons every reading
    shares (times as the first reading gives them); ``rules`` the shared
    rules they cite; ``anchor`` the question's stated start (event,
    minute) and ``what_if`` its shifts (event, minutes); ``phrases`` each
    event's phrase, by event number."""

    package: str
    gold: tuple[str, ...]
    anchor: tuple[int, int] | None
    what_if: tuple[tuple[int, int], ...]
    rules: tuple[str, ...]
    schedule: tuple[TimedStep, ...]
    cases: tuple[Case, ...]
    phrases: tuple[str, ...]


def rule_of(scenario: Scenario, deps: Dependencies, u: int, i: int) -> str | None:
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


def _binding(
    scenario: Scenario, deps: Dependencies, sr: ScheduleReading, i: int, planned: int
) -> int | None:
    """The step ``i`` waits for in the plan (one with a shared rule if any)."""
    sched = sr.resolution.schedule
    binding = [u for u, gap in deps.preds[i] if sched.end[u] + gap == planned]
    binding.sort(key=lambda u: rule_of(scenario, deps, u, i) is None)
    return binding[0] if binding else None


def reason(scenario: Scenario, sr: ScheduleReading, deps: Dependencies, i: int) -> ProofStep:
    """Why event ``i`` starts when it does under ``sr``."""
    shift = sum(s.minutes for s in sr.question.shifts if s.event == i)
    # shifted_schedule pins a what-if's start at (its start before the what-if) + shift;
    # later what-ifs never move earlier events, so its predecessors are where they were.
    planned = sr.resolution.schedule.start[i] - shift
    u = _binding(scenario, deps, sr, i, planned)
    stated = scenario.events[i].start is not None
    anchor = sr.question.anchor
    if shift:
        return ProofStep(i, "what-if", u, shift=shift, planned=planned,
                         sentence_states_start=stated)  # fmt: skip
    if anchor is not None and anchor[0] == i:
        # The stated start places the whole plan; its own chain shows where the rest falls.
        return ProofStep(i, "question-start", u, sentence_states_start=stated)
    if u is not None:
        rule = rule_of(scenario, deps, u, i) or f"timing:{sr.timing}"
        gap = dict(deps.preds[i])[u]
        return ProofStep(i, "after", u, rule, gap, sentence_states_start=stated)
    if stated:
        return ProofStep(i, "text-start", sentence_states_start=True)
    return ProofStep(i, "plan-start", None if anchor is None else anchor[0])


def chain(scenario: Scenario, sr: ScheduleReading, events: Sequence[int]) -> dict[int, ProofStep]:
    """The steps that place ``events`` on the clock under ``sr``, each with
    why it starts then, back to where each chain begins."""
    deps = dependencies(scenario, None, sr.timing)
    steps: dict[int, ProofStep] = {}
    todo = list(events)
    while todo:
        i = todo.pop()
        if i in steps:
            continue
        steps[i] = step = reason(scenario, sr, deps, i)
        if step.cause is not None:
            todo.append(step.cause)
    return steps


def cited(question: Question, sr: ScheduleReading, scenario: Scenario) -> list[int]:
    """The events whose times the package's timeline under ``sr`` rests on."""
    tl = Timeline(scenario, sr.resolution.schedule, question.package)
    causes = {p.cause for p in tl.points if p.cause is not None}
    causes |= {s.event for s in sr.question.shifts}
    if sr.question.anchor is not None:
        causes.add(sr.question.anchor[0])
    return sorted(causes)


def _timed(scenario: Scenario, sr: ScheduleReading, step: ProofStep) -> TimedStep:
    sched, i = sr.resolution.schedule, step.event
    return TimedStep(step, sched.start[i], sched.end[i], sched.busy_end[i],
                     scenario.events[i].duration)  # fmt: skip


def _case(
    scenario: Scenario,
    question: Question,
    sr: ScheduleReading,
    r: Reading,
    steps: Sequence[ProofStep],
    shared: Sequence[int],
) -> Case:
    tl = Timeline(scenario, sr.resolution.schedule, question.package)
    segs = tuple(Segment(a, b, p.state, p.answers, p.cause) for a, b, p in tl.segments())
    here = max(k for k, s in enumerate(segs) if s.start <= r.minute)
    sched = sr.resolution.schedule
    busy = tuple((i, sched.busy_end[i]) for i in shared if sched.busy_end[i] != sched.end[i])
    timed = tuple(_timed(scenario, sr, s) for s in steps)
    return Case(r.name, r.note, sr.timing, r.minute, r.answers, segs, here, timed, busy)


def build_proof(
    scenario: Scenario,
    question: Question,
    found: Sequence[tuple[ScheduleReading, Reading]],
    gold: Sequence[str],
) -> LogisticsProof:
    """The proof by cases that no reading in ``found`` gives ``gold``.

    A step is shared when every reading cites it with the same times and
    the same reason, and that reason is shared by every reading; every
    other cited step belongs to its reading's case."""
    if not found:
        raise TsolveError("proof: no reading to argue from")
    srs = list(dict.fromkeys(sr for sr, _r in found))
    chains = {sr: chain(scenario, sr, cited(question, sr, scenario)) for sr in srs}
    everywhere = set.intersection(*(set(c) for c in chains.values()))
    shared = [i for i in sorted(everywhere) if _is_shared(srs, chains, i)]
    cases = tuple(
        _case(scenario, question, sr, r,
              [chains[sr][i] for i in sorted(chains[sr]) if i not in shared], shared)
        for sr, r in found
    )  # fmt: skip
    first = srs[0]
    return LogisticsProof(
        package=question.package,
        gold=tuple(gold),
        anchor=question.anchor,
        what_if=tuple((s.event, s.minutes) for s in question.shifts),
        rules=_rules_cited(chains.values()),
        schedule=tuple(_timed(scenario, first, chains[first][i]) for i in shared),
        cases=cases,
        phrases=tuple(e.phrase() for e in scenario.events),
    )


def _rules_cited(chains: Iterable[dict[int, ProofStep]]) -> tuple[str, ...]:
    """The shared rules the steps of every reading cite, by key, sorted."""
    return tuple(sorted({s.rule for c in chains for s in c.values() if s.rule in SHARED_RULES}))


def _is_shared(
    srs: Sequence[ScheduleReading], chains: dict[ScheduleReading, dict[int, ProofStep]], i: int
) -> bool:
    times = {(sr.resolution.schedule.start[i], sr.resolution.schedule.end[i]) for sr in srs}
    steps = {chains[sr][i] for sr in srs}
    return len(times) == 1 and len(steps) == 1 and next(iter(steps)).shared


def proof_of_record(record: dict[str, Any]) -> LogisticsProof | None:
    """The proof for a record whose gold no reading gives, built afresh
    from its text, or None when some reading gives it (or it cannot be read)."""
    from tsolve.families.logistics.parse.item import parse_item
    from tsolve.families.logistics.readings import readings_in_full

    gold = record.get("answers")
    depth = record.get("depth")
    if not isinstance(gold, list) or not gold or not all(isinstance(g, str) for g in gold):
        return None
    try:
        scenario, question = parse_item(record)
        found = readings_in_full(scenario, question, depth if isinstance(depth, int) else None)
    except TsolveError:
        return None
    if any(set(r.answers) == set(gold) for _sr, r in found):
        return None
    return build_proof(scenario, question, found, gold)


__all__ = [
    "SHARED_RULES",
    "STATED_KINDS",
    "Case",
    "LogisticsProof",
    "ProofStep",
    "Segment",
    "StepKind",
    "TimedStep",
    "build_proof",
    "chain",
    "cited",
    "proof_of_record",
    "reason",
    "rule_of",
]
