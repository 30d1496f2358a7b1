"""Answer "where is package p at time t" for a scenario: schedule, clock, timeline.

This is the one place where a question meets the schedule, so the answerer,
the generator's gold labels and the verifier's diagnosis cannot drift apart.
The steps:

1. the earliest-start schedule of the dependency graph (serial chain or
   parallel batches, :mod:`tsolve.families.logistics.event_graph`);
2. the what-if shifts, if any (a what-if naming a step the plan repeats word
   for word moves the occurrence :func:`what_if_steps` picks);
3. the clock: hard items fix it with "If X starts at HH:MM" (which holds in the
   what-if world, since the question states both conditions together); easy and
   medium items state their times;
4. the asked minute: the question names a clock time, which recurs every 24
   hours; the occurrence inside the plan's span is meant (see
   :func:`resolve_minute` for the rare plan longer than a day);
5. the package's timeline at that minute (:mod:`tsolve.families.logistics.timeline`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import networkx as nx

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import DAY
from tsolve.families.logistics.event_graph import (
    Dependencies,
    Schedule,
    Timing,
    dependencies,
    earliest_schedule,
    shifted_schedule,
)
from tsolve.families.logistics.model import Question, Scenario, Shift
from tsolve.families.logistics.timeline import Place, Timeline

Occurrence = Literal["anchored", "first", "every"]
OCCURRENCES: tuple[Occurrence, ...] = ("anchored", "first", "every")
DEFAULT_OCCURRENCE: Occurrence = "anchored"
"""Which occurrence of a repeated step a what-if moves (``docs/logistics.md``,
"Readings"): ``anchored``, the first at or after the question's stated start
(the first overall when the question states none, or none comes after it);
``first``, the first in the plan; ``every``, all of them. Split 1's labels
follow ``anchored`` wherever the three differ."""


def occurrences(scenario: Scenario, i: int) -> list[int]:
    """Every step whose words are those of step ``i`` (itself included), in
    list order: the steps a phrase naming step ``i`` can mean."""
    key = scenario.events[i].key
    return [e.index for e in scenario.events if e.key == key]


def what_if_steps(
    scenario: Scenario, question: Question, occurrence: Occurrence = DEFAULT_OCCURRENCE
) -> Question:
    """``question`` with each what-if moved to the occurrence ``occurrence``
    picks of the step it names (the parser names the first); unchanged when
    no what-if names a repeated step."""
    out: list[Shift] = []
    changed = False
    for s in question.shifts:
        if not 0 <= s.event < len(scenario.events):
            raise TsolveError(f"shift: no event with index {s.event}")
        twins = occurrences(scenario, s.event)
        if len(twins) == 1:
            out.append(s)
            continue
        changed = True
        if occurrence == "every":
            out.extend(replace(s, event=k) for k in twins)
        elif occurrence == "anchored" and question.anchor is not None:
            later = [k for k in twins if k >= question.anchor[0]]
            out.append(replace(s, event=later[0] if later else twins[0]))
        else:
            out.append(replace(s, event=twins[0]))
    return replace(question, shifts=tuple(out)) if changed else question


@dataclass(frozen=True)
class Resolution:
    """A solved question: the answer set and how it was reached."""

    answers: tuple[str, ...]
    minute: int
    place: Place
    schedule: Schedule
    alternatives: tuple[int, ...]  # other minutes inside the plan showing the same clock

    @property
    def ambiguous_day(self) -> bool:
        return bool(self.alternatives)


def question_schedule(
    scenario: Scenario,
    question: Question,
    graph: nx.DiGraph | Dependencies | None = None,
    timing: Timing | None = None,
) -> Schedule:
    """The schedule the question is about: shifted, then placed on the clock.
    ``question``'s shifts are taken as they are (:func:`answer_question`
    first picks the occurrence of a repeated step); ``timing`` is the
    parallel groups' timing (:mod:`tsolve.families.logistics.event_graph`)."""
    g = dependencies(scenario, graph, timing)
    sched = earliest_schedule(scenario, g)
    if question.shifts:
        shifts: dict[int, int] = {}
        for s in question.shifts:
            shifts[s.event] = shifts.get(s.event, 0) + s.minutes
        sched = shifted_schedule(scenario, shifts, base=sched, graph=g)
    if question.anchor is not None:
        i, clock = question.anchor
        if not 0 <= i < len(scenario.events):
            raise TsolveError(f"question.anchor: no event with index {i}")
        sched = sched.shifted(clock - sched.start[i])
    elif not scenario.stated_times:
        raise TsolveError(
            "question: events give durations only, so the question must fix the clock "
            "('If <event> starts at HH:MM, ...')"
        )
    return sched


def resolve_minute(
    scenario: Scenario,
    schedule: Schedule,
    question: Question,
    depth: int | None = None,
) -> tuple[int, tuple[int, ...]]:
    """The absolute minute asked about, and the other candidates.

    The question's clock time (plus any "N hours before/after") recurs every
    day; the one inside the plan's span [first start, last end) is meant. A plan
    can outlast a day, and then a clock time may occur twice inside it. The
    benchmark picks its question minute inside event ``first(p) + depth`` (§4.5:
    depth counts list positions from the package's first event), so when the
    item carries its ``depth`` that event decides; otherwise the occurrence while
    the package is still being handled, else the earliest.
    """
    m = (question.clock + question.offset) % DAY
    lo = min(schedule.start)
    hi = max(schedule.busy_end)
    first = lo + (m - lo) % DAY
    inside = list(range(first, hi, DAY))
    if not inside:
        before, after = first - DAY, first
        return (after if after - hi < lo - before else before), ()
    if len(inside) == 1:
        return inside[0], ()
    own = [e.index for e in scenario.events if e.package == question.package]
    pick: int | None = None
    if depth is not None and own and own[0] + depth < len(scenario.events):
        j = own[0] + depth
        a, b = schedule.start[j], max(schedule.end[j], schedule.start[j] + 1)
        pick = min(inside, key=lambda t: (0 if a <= t < b else min(abs(t - a), abs(t - b + 1)), t))
    elif own:
        a, b = schedule.start[own[0]], schedule.busy_end[own[-1]]
        active = [t for t in inside if a <= t < b]
        pick = active[0] if active else None
    if pick is None:
        pick = inside[0]
    return pick, tuple(t for t in inside if t != pick)


def answer_question(
    scenario: Scenario,
    question: Question,
    depth: int | None = None,
    graph: nx.DiGraph | Dependencies | None = None,
    timing: Timing | None = None,
    occurrence: Occurrence = DEFAULT_OCCURRENCE,
) -> Resolution:
    """Solve one question (see the module docstring for the steps) under
    the default readings, or the ``timing`` and ``occurrence`` given."""
    question = what_if_steps(scenario, question, occurrence)
    sched = question_schedule(scenario, question, graph, timing)
    minute, others = resolve_minute(scenario, sched, question, depth)
    place = Timeline(scenario, sched, question.package).at(minute)
    return Resolution(place.answers, minute, place, sched, others)
