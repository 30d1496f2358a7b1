"""The readings of a logistics question that its text leaves open, each answered.

The benchmark's text states its domain rules (``docs/logistics.md``), but
some of what settles a question it does not state, and a careful reader may
take either side. Each such convention is a named *reading*; the default of
each (what :func:`~tsolve.families.logistics.solve.answer_question` does unless told
otherwise) is the side split 1's labels follow most often. This module
answers a question under every combination of the readings that apply to
it, so that

* the generator keeps only questions whose answer is the same under all of
  them (``docs/ground-truth.md``), and
* ``tsolve audit`` (:mod:`tsolve.families.logistics.audit`) can say which readings
  give the stored gold and which do not.

Two kinds of readings. Those that change the *schedule*, combined with
each other:

* ``timing:<t>`` (parallel plans): how steps that run together are timed:
  ``together`` (default), ``own-step`` or ``group-end``
  (:data:`tsolve.families.logistics.event_graph.TIMINGS`);
* ``what-if:<o>``: a what-if names a step the plan repeats word for word:
  ``anchored`` (default), ``first`` or ``every`` occurrence
  (:data:`tsolve.families.logistics.solve.OCCURRENCES`);
* ``anchor-before-what-if``: "If X starts at T and Y is delayed by N
  minutes" can fix X at T in the plan *before* the delay (the default fixes
  it after); the two differ only when Y holds X back;
* ``repeated-step``: the stated start names a step the plan repeats; the
  default takes the first, this reading a later one.

And those that change only the *asked minute* (applied on top of each
schedule reading):

* ``boundary``: the asked minute is exactly a minute at which the package's
  state changes. The default counts that minute in the new state (half-open
  intervals); the text never says so, and "at 11:51, when the 33-minute
  loading that started at 11:18 finishes" can be read as still loading.
* ``other-day``: the asked clock time occurs twice inside a plan longer than a
  day, or falls outside a plan that crosses midnight, where it can be on the
  day the plan begins (before it) or on the day it ends (after it).
* ``offset-from-stated-time``: "N hours before T" can mean N hours before *the
  occurrence of T inside the plan*, rather than the occurrence of the clock
  time T - N hours; the two differ only where the plan crosses a day.

A reading's name joins the non-default choices with ``+`` (``canonical``
when there are none), e.g. ``timing:own-step+boundary``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from tsolve.families.logistics.clock import DAY, format_clock
from tsolve.families.logistics.event_graph import (
    DEFAULT_TIMING,
    TIMINGS,
    Dependencies,
    Schedule,
    Timing,
    batches,
    dependencies,
    earliest_schedule,
    shifted_schedule,
)
from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.solve import (
    DEFAULT_OCCURRENCE,
    OCCURRENCES,
    Occurrence,
    Resolution,
    answer_question,
    occurrences,
    resolve_minute,
    what_if_steps,
)
from tsolve.families.logistics.timeline import Timeline

CANONICAL = "canonical"


@dataclass(frozen=True)
class Reading:
    """One reading of the question and the answer set it gives. ``name``
    joins its non-default choices with ``+`` (``canonical``: none)."""

    name: str
    answers: tuple[str, ...]
    minute: int
    note: str

    def to_json(self) -> dict[str, Any]:
        return {
            "reading": self.name,
            "answers": list(self.answers),
            "asked": clock_text(self.minute),
            "note": self.note,
        }


@dataclass(frozen=True)
class ScheduleReading:
    """A combination of the schedule readings, solved: its non-default
    ``choices`` (empty for the default), what they mean, and the resolution."""

    choices: tuple[str, ...]
    notes: tuple[str, ...]
    question: Question
    resolution: Resolution
    timing: Timing

    @property
    def name(self) -> str:
        return reading_name(self.choices)


def reading_name(choices: tuple[str, ...]) -> str:
    """The name of a combination of non-default choices."""
    return "+".join(choices) or CANONICAL


def clock_text(minute: int) -> str:
    """``HH:MM AM`` with the day made explicit when it is not the day of the
    clock the text fixes (minute 0 is the midnight before it; plans can run
    past midnight, and a proof must not hide it)."""
    days = minute // DAY
    return format_clock(minute) + (f" (day {days:+d})" if days else "")


def timings_of(scenario: Scenario) -> tuple[Timing, ...]:
    """The timings that can differ for ``scenario``: all of them for a
    parallel plan with steps that run together, else the default alone."""
    if scenario.execution != "parallel":
        return (DEFAULT_TIMING,)
    ids = batches(scenario.events)
    if len(set(ids)) == len(ids):
        return (DEFAULT_TIMING,)
    return TIMINGS


def occurrences_of(scenario: Scenario, question: Question) -> tuple[Occurrence, ...]:
    """The what-if occurrence readings that apply: all when a what-if names
    a step the plan repeats, else the default alone."""
    if any(len(occurrences(scenario, s.event)) > 1 for s in question.shifts):
        return OCCURRENCES
    return (DEFAULT_OCCURRENCE,)


def schedule_readings(
    scenario: Scenario,
    question: Question,
    depth: int | None = None,
    graph: Dependencies | None = None,
) -> list[ScheduleReading]:
    """Every combination of the schedule readings that apply, solved; the
    default combination first."""
    out: list[ScheduleReading] = []
    for timing in timings_of(scenario):
        deps = dependencies(scenario, graph, timing)
        t_choice = () if timing == DEFAULT_TIMING else (f"timing:{timing}",)
        t_note = () if timing == DEFAULT_TIMING else (_TIMING_NOTES[timing],)
        for occ in occurrences_of(scenario, question):
            q = what_if_steps(scenario, question, occ)
            choices = t_choice + (() if occ == DEFAULT_OCCURRENCE else (f"what-if:{occ}",))
            notes = t_note + (() if occ == DEFAULT_OCCURRENCE else (_OCCURRENCE_NOTES[occ],))
            res = answer_question(scenario, question, depth, deps, timing, occ)
            out.append(ScheduleReading(choices, notes, q, res, timing))
            out.extend(
                _anchor_readings(
                    scenario, question, q, depth, deps, (timing, occ), choices, notes, res
                )
            )
    return out


_TIMING_NOTES = {
    "own-step": "each step that runs with others starts when its own package, the vehicle "
    "and the stop allow, and its package's next step and state follow its own end",
    "group-end": "steps that run together start together, and each package's next step "
    "and state follow the end of the whole group",
}
_OCCURRENCE_NOTES = {
    "first": "the what-if moves the first occurrence of the step it names",
    "every": "the what-if moves every occurrence of the step it names",
}


def _anchor_readings(
    scenario: Scenario,
    stated: Question,
    question: Question,
    depth: int | None,
    deps: Dependencies,
    how: tuple[Timing, Occurrence],
    choices: tuple[str, ...],
    notes: tuple[str, ...],
    res: Resolution,
) -> Iterator[ScheduleReading]:
    """``anchor-before-what-if`` and ``repeated-step`` on top of one
    combination: ``stated`` is the question as parsed, ``question`` with its
    what-ifs on the occurrence the combination picks."""
    if question.anchor is None:
        return
    timing, occ = how
    a, clock = question.anchor
    # A what-if moves only its own step and later-listed ones (every dependency
    # points forward), so the two anchor readings differ only when a what-if
    # step comes no later than the anchor's.
    if any(s.event <= a for s in question.shifts):
        base = earliest_schedule(scenario, deps)
        shifts: dict[int, int] = {}
        for s in question.shifts:
            shifts[s.event] = shifts.get(s.event, 0) + s.minutes
        alt = shifted_schedule(scenario, shifts, base=base, graph=deps)
        alt = alt.shifted(clock - base.start[a])
        if alt != res.schedule:
            yield ScheduleReading(
                (*choices, "anchor-before-what-if"),
                (*notes, "the stated start holds in the plan before the what-if"),
                question,
                _resolved(scenario, question, depth, alt),
                timing,
            )
    for k in occurrences(scenario, a):
        if k == a:
            continue
        q = replace(stated, anchor=(k, clock))
        yield ScheduleReading(
            (*choices, "repeated-step"),
            (*notes, f"the stated start names step #{k}, which repeats step #{a}"),
            what_if_steps(scenario, q, occ),
            answer_question(scenario, q, depth, deps, timing, occ),
            timing,
        )


def _resolved(
    scenario: Scenario, question: Question, depth: int | None, sched: Schedule
) -> Resolution:
    m, others = resolve_minute(scenario, sched, question, depth)
    place = Timeline(scenario, sched, question.package).at(m)
    return Resolution(place.answers, m, place, sched, others)


def readings_in_full(
    scenario: Scenario,
    question: Question,
    depth: int | None = None,
    graph: Dependencies | None = None,
) -> list[tuple[ScheduleReading, Reading]]:
    """Every reading, each with the schedule reading it is built on (the
    auditor's proof needs the schedule); the default first."""
    return [
        (sr, r)
        for sr in schedule_readings(scenario, question, depth, graph)
        for r in _minute_readings(scenario, sr, depth)
    ]


def readings(
    scenario: Scenario,
    question: Question,
    depth: int | None = None,
    graph: Dependencies | None = None,
) -> tuple[Resolution, list[Reading]]:
    """The default readings' resolution, then every reading the text leaves
    open (the default first, named ``canonical``), each with its answer set.

    Only readings that apply to the item are returned (an item asked off a
    state boundary has no ``boundary`` reading).
    """
    found = schedule_readings(scenario, question, depth, graph)
    out: list[Reading] = []
    for sr in found:
        out.extend(_minute_readings(scenario, sr, depth))
    return found[0].resolution, out


def _minute_readings(scenario: Scenario, sr: ScheduleReading, depth: int | None) -> list[Reading]:
    """One schedule reading, then the asked-minute readings on top of it."""
    res, question = sr.resolution, sr.question
    tl = Timeline(scenario, res.schedule, question.package)
    t = res.minute

    def reading(extra: str | None, answers: tuple[str, ...], minute: int, note: str) -> Reading:
        choices = sr.choices if extra is None else (*sr.choices, extra)
        notes = "; ".join((*sr.notes, note)) if note else "; ".join(sr.notes)
        return Reading(reading_name(choices), answers, minute, notes)

    default_note = "" if sr.choices else "the default readings of docs/logistics.md"
    out = [reading(None, res.answers, t, default_note)]
    if any(p.since == t for p in tl.points):
        before = tl.at(t - 1)
        out.append(
            reading(
                "boundary",
                before.answers,
                t,
                f"the package's state changes exactly at {format_clock(t)}; "
                f"read as the last minute of the state that ends there ({before.state})",
            )
        )
    for alt in res.alternatives:
        out.append(
            reading(
                "other-day",
                tl.at(alt).answers,
                alt,
                f"{format_clock(alt)} also occurs on another day inside the plan",
            )
        )
    lo, hi = min(res.schedule.start), max(res.schedule.busy_end)
    if not lo <= t < hi:
        # Outside the plan. A clock time names a minute of a day the plan
        # occupies; when the plan crosses midnight there are two such days,
        # before the plan on the first and after it on the last.
        m = t % DAY
        for day in range(lo // DAY, (hi - 1) // DAY + 1):
            other = day * DAY + m
            if other != t and not lo <= other < hi:
                out.append(
                    reading(
                        "other-day",
                        tl.at(other).answers,
                        other,
                        f"{format_clock(t)} falls outside the plan, which crosses "
                        "midnight; the same clock time on its other day",
                    )
                )
    if question.offset:
        base, _ = resolve_minute(scenario, res.schedule, replace(question, offset=0), depth)
        t2 = base + question.offset
        if t2 != t:
            out.append(
                reading(
                    "offset-from-stated-time",
                    tl.at(t2).answers,
                    t2,
                    f"{abs(question.offset)} minutes "
                    f"{'after' if question.offset > 0 else 'before'} the occurrence of "
                    f"{format_clock(base)} inside the plan",
                )
            )
    return out


def unanimous(found: list[Reading]) -> bool:
    """True when every reading gives the same answer set."""
    return len({frozenset(r.answers) for r in found}) == 1
