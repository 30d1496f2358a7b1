"""New UnSeenTimeQA-style records: random world, own plan, solved question.

Record ``i`` of a run is a pure function of ``(seed, i)``: all randomness comes
from :func:`tsolve.generators.seeding.record_rng` (the key every family uses, hashed
with SHA-512, independent of ``PYTHONHASHSEED``), so shards made on different
machines concatenate to the same bytes.

How a question is made (``depth`` as in the paper's §4.5, the list distance
from the package's first event to the event in progress at the asked minute):

* draw the kind of minute to ask about (the package loading, unloading,
  moving, or parked in a vehicle) from UnSeenTimeQA split 1's mix for the
  stratum (:mod:`.asked_minute`), and the depth, once per record;
* choose a package ``p`` whose first event ``f`` has an event ``j = f + depth``
  no later than its last event, ``j`` being an event of the vehicle ``p`` is
  in or at then (split 1: the first always, the second in all but 3 of
  its 3,600 questions);
* hard items fix the clock at ``f`` ("If <f> starts at HH:MM"); hypothetical
  items delay or expedite an event between ``f`` and ``j``;
* pick a minute of that kind inside event ``j`` in the question's schedule, and
  require ``j`` to be the last-listed event in progress then (the benchmark's
  reading of depth in parallel plans);
* never a minute at which the package changes state (the half-open
  convention would decide the answer, or the kind); reject it if its clock
  time occurs twice inside the plan (a plan can outlast a day), and reject
  the question if any other
  reading its text leaves open (:mod:`tsolve.families.logistics.readings`: "N
  hours before T" counted from T's occurrence in the plan, a what-if naming a
  step the plan repeats, ...) gives another answer, so every emitted question
  has one answer under any reasonable reading;
* answer it with :func:`tsolve.families.logistics.solve.answer_question`, render the
  English, parse it back and answer again: a record is emitted only if its own
  text reproduces its answer.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import DAY, format_clock
from tsolve.families.logistics.event_graph import (
    Dependencies,
    Schedule,
    batches,
    dependencies_of,
    earliest_schedule,
)
from tsolve.families.logistics.generate import wording
from tsolve.families.logistics.generate.asked_minute import Kind, draw_kind, kind_of_segment
from tsolve.families.logistics.generate.planner import Layout, plan, random_layout
from tsolve.families.logistics.generate.prompt import render_prompt
from tsolve.families.logistics.model import (
    DIFFICULTIES,
    EXECUTIONS,
    Difficulty,
    Event,
    Execution,
    Question,
    QuestionType,
    Scenario,
    Shift,
)
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.readings import readings, timings_of, unanimous
from tsolve.families.logistics.rules import check_plan
from tsolve.families.logistics.schedule import schedule_json
from tsolve.families.logistics.solve import Resolution, answer_question, question_schedule
from tsolve.families.logistics.timeline import Timeline
from tsolve.generators.seeding import generator_stamp, options_fingerprint, record_rng, run_records

GENERATOR_NAME = "logistics"
# 1.1: questions with two readings are redrawn. 2: the generator is named
# after its family, and draws from tsolve.generators.seeding (the key every family uses).
# 3: records carry the computed ``schedule`` and the model's ``prompt`` (the
# version is part of the random key, so every record is drawn anew).
# 4: the readings checked before a question is kept include how steps that run
# together are timed (together / own-step / group-end) and which occurrence of a
# repeated step a what-if moves (docs/logistics.md, "Readings"); parallel
# questions on which the timings disagree are redrawn.
# 5: the asked minute's kind (loading, unloading, moving, parked; never
# before the package's first event or after its last) is drawn from
# UnSeenTimeQA split 1's mix per stratum, and the asked event lies inside the
# package's own span of events (logistics/generate/asked_minute.py).
GENERATOR_VERSION = "5"
# Ids carry the options' fingerprint (``logistics-5-2-9f1c0e``), so that
# runs with different options never share an id.
QuestionKind = Literal["static", "relative", "hypothetical"]
QUESTION_KINDS: tuple[QuestionKind, ...] = ("static", "relative", "hypothetical")
DEPTH_RANGE = (6, 20)
MAX_DEPTH = 40
_SCENARIO_TRIES = 160
_FIXED_TRIES = 30
_KIND_TRIES = 100
_QUESTION_TRIES = 25
_TIMINGS_PER_PLAN = 4


@dataclass(frozen=True)
class GenerateParams:
    """What to generate. ``depth=None`` draws it per record from 6..20, the
    benchmark's range."""

    difficulty: Difficulty = "hard"
    execution: Execution = "serial"
    question: QuestionKind = "static"
    depth: int | None = None

    def __post_init__(self) -> None:
        if self.difficulty not in DIFFICULTIES:
            raise TsolveError(f"difficulty: unknown value {self.difficulty!r} (easy, medium, hard)")
        if self.execution not in EXECUTIONS:
            raise TsolveError(f"execution: unknown value {self.execution!r} (serial, parallel)")
        if self.question not in QUESTION_KINDS:
            raise TsolveError(
                f"question: unknown value {self.question!r} (static, relative, hypothetical)"
            )
        if self.depth is not None and not 1 <= self.depth <= MAX_DEPTH:
            raise TsolveError(f"depth: must be between 1 and {MAX_DEPTH}, got {self.depth}")
        if self.depth == 1 and self.difficulty == "hard" and self.question == "hypothetical":
            raise TsolveError("depth: hard hypothetical questions need depth >= 2")

    @property
    def question_type(self) -> QuestionType:
        return f"{self.question}_time"  # type: ignore[return-value]

    def to_json(self) -> dict[str, Any]:
        """The config as written into each record's ``generator.params``. Every
        family's config has this shape: a frozen dataclass, validated when
        built, with ``to_json``."""
        return {
            "difficulty": self.difficulty,
            "execution": self.execution,
            "question": self.question,
            "depth": self.depth,
        }


def generate_records(
    count: int, seed: int, params: GenerateParams, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of the run ``(seed, params)``, made
    as they are read. A negative ``start`` or ``count`` raises at once, before
    any output is opened."""
    return run_records(generate_record, count, seed, params, start)


def generate_record(seed: int, index: int, params: GenerateParams) -> dict[str, Any]:
    """Record ``index`` of run ``seed`` (see the module docstring)."""
    rng = record_rng(GENERATOR_NAME, GENERATOR_VERSION, seed, index)
    # The kind of asked minute and the depth are drawn once, before any retry,
    # so that retries cannot skew their mix towards what is easy to find.
    # After _FIXED_TRIES tries the depth is drawn anew for each (it is not in
    # the prompt, while the kind shapes the answer), and after _KIND_TRIES
    # (after _FIXED_TRIES when the options fix the depth) the kind too: no scenario
    # offers some pairs (an unloading one step after the package's first
    # event), and parked minutes are rare in parallel plans (about 1 hard
    # parallel record in 300 gets that far; docs/logistics.md has the
    # resulting mix against split 1's).
    kind = draw_kind(rng, params.difficulty, params.execution, params.question_type)
    depth = _draw_depth(rng, params)
    for attempt in range(_SCENARIO_TRIES):
        if attempt >= _FIXED_TRIES:
            depth = _draw_depth(rng, params)
            if params.depth is not None or attempt >= _KIND_TRIES:
                kind = draw_kind(rng, params.difficulty, params.execution, params.question_type)
        planned = _plan(rng, params, depth, kind)
        if planned is None:
            continue
        # In a parallel plan the durations decide which events overlap, so a
        # plan whose list offers the kind gets a few draws of them.
        for _ in range(_TIMINGS_PER_PLAN if params.execution == "parallel" else 1):
            scenario = _timed(rng, params, *planned)
            record = _question_record(rng, scenario, params, depth, kind)
            if record is not None:
                record["id"] = record_id(seed, index, params)
                record["generator"] = generator_stamp(
                    GENERATOR_NAME, GENERATOR_VERSION, seed, index, params.to_json()
                )
                return _ordered(record)
    raise TsolveError(
        f"depth: could not build a scenario with a depth-{depth} question "
        f"in {_SCENARIO_TRIES} tries (seed {seed}, index {index})"
    )


def _draw_depth(rng: random.Random, params: GenerateParams) -> int:
    return params.depth if params.depth is not None else rng.randint(*DEPTH_RANGE)


def record_id(seed: int, index: int, params: GenerateParams) -> str:
    """``logistics-5-2-9f1c0e``: seed, index and the fingerprint of the options
    (:func:`tsolve.generators.seeding.options_fingerprint`), so runs made with other
    difficulty, execution, question kind or depth can share a file."""
    return f"logistics-{seed}-{index}-{options_fingerprint(params.to_json())}"


def _plan(
    rng: random.Random, params: GenerateParams, depth: int, kind: Kind
) -> tuple[Layout, list[Event]] | None:
    """A random world and its plan, untimed, or None when no package's event
    ``first + depth`` can hold a minute of ``kind``: that much follows from
    the list alone (:func:`_list_kind`), before any durations are drawn."""
    size = (3, 6) if depth <= 20 else (5, 8)
    layout = random_layout(rng, packages=size)
    steps = plan(layout, rng)
    if len(steps) <= depth:
        return None
    lasts = _last_events(steps)
    group = batches(tuple(steps)) if params.execution == "parallel" else None
    if not any(
        f + depth <= lasts[p] and _list_kind(steps, group, p, f + depth) == kind
        for p, f in _first_events(steps).items()
    ):
        return None
    return layout, steps


def _timed(
    rng: random.Random, params: GenerateParams, layout: Layout, steps: list[Event]
) -> Scenario:
    """The plan with random durations (and, for easy and medium, stated times)."""
    durations = [rng.randint(2, 90) for _ in steps]
    hard = Scenario(
        world=layout.world,
        initial=layout.initial,
        events=tuple(s._replace(duration=d) for s, d in zip(steps, durations, strict=True)),
        execution=params.execution,
        goals=layout.goals,
    )
    check_plan(hard)
    if params.difficulty == "hard":
        return hard
    # Easy and medium state their times: the schedule itself, with the short
    # gaps the benchmark leaves between serial events.
    clock0 = rng.randrange(DAY)
    if params.execution == "serial":
        starts, t = [], clock0
        for e in hard.events:
            starts.append(t)
            t += e.duration + rng.randint(2, 7)
    else:
        sched = earliest_schedule(hard)
        starts = [clock0 + s for s in sched.start]
    events = tuple(e._replace(start=s) for e, s in zip(hard.events, starts, strict=True))
    return Scenario(hard.world, hard.initial, events, hard.execution, hard.goals)


def _first_events(events: Any) -> dict[str, int]:
    firsts: dict[str, int] = {}
    for k, e in enumerate(events):
        if e.package is not None:
            firsts.setdefault(e.package, k)
    return firsts


def _last_events(events: Any) -> dict[str, int]:
    lasts: dict[str, int] = {}
    for k, e in enumerate(events):
        if e.package is not None:
            lasts[e.package] = k
    return lasts


def _minutes_of_kind(
    sched: Schedule, timeline: Timeline, j: int, kind: Kind, vehicle: str
) -> list[int]:
    """The minutes inside event ``j`` (an event of ``vehicle``) at which the
    package's minute is of ``kind`` and the package is in or at ``vehicle``
    (every split-1 question asks about the vehicle the package is with: the
    event its depth counts to is that vehicle's), no later-listed event is in
    progress (depth then reads the same whichever in-progress event one
    counts), and no change point of the package falls (there the half-open
    convention alone would decide its state, and with it the answer or the
    kind)."""
    a, b = sched.start[j], sched.end[j]
    later = [
        (s, e)
        for s, e in zip(sched.start[j + 1 :], sched.end[j + 1 :], strict=True)
        if s < b and e > a
    ]
    out: list[int] = []
    for since, to, place in timeline.segments():
        if place.vehicle != vehicle or kind_of_segment(since, to, place) != kind:
            continue
        lo, hi = max(a, since + 1), b if to is None else min(b, to)
        out.extend(t for t in range(lo, hi) if not any(s <= t < e for s, e in later))
    return out


def _list_kind(
    events: list[Event], group: tuple[int, ...] | None, package: str, j: int
) -> Kind | None:
    """The kind of the package's minutes inside event ``j``, read off the
    list: its own load or unload; a move of the vehicle it is in; a step of
    that vehicle in the same parallel group as its own last step (``group``,
    the batch ids of a parallel plan: the package is busy until the group
    ends); else waiting parked in that vehicle. None when event ``j`` is not
    an event of a vehicle the package is in or at. A package's own steps,
    and a vehicle's, happen in list order, which is why the list tells. In a
    serial plan this is the kind of every minute of event ``j``; in a
    parallel one, of those not taken by a later-listed event."""
    e = events[j]
    if e.package == package:
        return "loading" if e.kind == "load" else "unloading"
    last = next((x for x in reversed(events[:j]) if x.package == package), None)
    if last is None or last.kind == "unload" or e.vehicle != last.vehicle:
        return None
    if e.kind == "move":
        return "moving"
    if group is not None and group[j] == group[last.index]:
        return "loading"
    return "parked"


def _askable(
    scenario: Scenario, graph: Dependencies, firsts: dict[str, int], depth: int, kind: Kind
) -> list[str]:
    """The packages whose event ``first + depth`` holds a minute of ``kind``
    in the plan's own schedule. A question's clock only shifts that schedule,
    so for static and relative questions this is exact; a what-if can change
    it, and the question is checked again after its shift."""
    base = earliest_schedule(scenario, graph)
    return [
        p
        for p in sorted(firsts)
        if _minutes_of_kind(
            base,
            Timeline(scenario, base, p),
            firsts[p] + depth,
            kind,
            scenario.events[firsts[p] + depth].vehicle,
        )
    ]


def _question_record(
    rng: random.Random, scenario: Scenario, params: GenerateParams, depth: int, kind: Kind
) -> dict[str, Any] | None:
    events = scenario.events
    hard = params.difficulty == "hard"
    lasts = _last_events(events)
    firsts = {p: f for p, f in _first_events(events).items() if f + depth <= lasts[p]}
    if not firsts:
        return None
    graph = dependencies_of(scenario)
    askable = _askable(scenario, graph, firsts, depth, kind)
    if not askable:
        return None
    other_graphs = [dependencies_of(scenario, t) for t in timings_of(scenario)[1:]]
    for _ in range(_QUESTION_TRIES):
        package = rng.choice(askable)
        f = firsts[package]
        j = f + depth
        anchor = (f, rng.randrange(DAY)) if hard else None
        shifts: tuple[Shift, ...] = ()
        if params.question == "hypothetical":
            lo = f + 1 if hard else f
            if lo >= j:
                continue
            amount = rng.randint(10, 90) if rng.random() < 0.65 else -rng.randint(2, 30)
            shifts = (Shift(rng.randrange(lo, j), amount),)
        named = [f] if hard else []
        named += [s.event for s in shifts]
        if any(scenario.find(events[k].key) != k for k in named):
            continue  # the phrase would name an earlier, identical step
        probe = Question(package, 0, 0, anchor, shifts, params.question_type)
        sched = question_schedule(scenario, probe, graph)
        timeline = Timeline(scenario, sched, package)
        minutes = _minutes_of_kind(sched, timeline, j, kind, events[j].vehicle)
        for other in other_graphs:
            # The full check of every reading comes below; dropping here the
            # minutes the other timings answer differently saves most redraws.
            alt = Timeline(scenario, question_schedule(scenario, probe, other), package)
            minutes = [m for m in minutes if alt.at(m).answers == timeline.at(m).answers]
        if not minutes:
            continue
        t = rng.choice(minutes)
        offset = 0
        if params.question == "relative":
            hours = rng.randint(2, 5)
            offset = hours * 60 * (1 if rng.random() < 0.5 else -1)
        question = Question(
            package, (t - offset) % DAY, offset, anchor, shifts, params.question_type
        )
        res, found = readings(scenario, question, depth, graph)
        if res.minute != t or res.ambiguous_day or not unanimous(found):
            continue  # another reading of the text (docs/ground-truth.md) gives another answer
        return _render(rng, scenario, question, params, depth, res)
    return None


def _render(
    rng: random.Random,
    scenario: Scenario,
    q: Question,
    params: GenerateParams,
    depth: int,
    res: Resolution,
) -> dict[str, Any] | None:
    events = scenario.events
    starts = [e.start if e.start is not None else 0 for e in events]
    sentences = [
        wording.render_event(e, params.difficulty, s, rng)
        for e, s in zip(events, starts, strict=True)
    ]
    if q.offset:
        hours = abs(q.offset) // 60
        rel = "after" if q.offset > 0 else "before"
        minute_text = f"{hours} hours {rel} {format_clock(q.clock)}"
    else:
        minute_text = f"at {format_clock(q.clock)}"
    anchor = (events[q.anchor[0]], q.anchor[1]) if q.anchor else None
    shift = (events[q.shifts[0].event], q.shifts[0].minutes) if q.shifts else None
    record: dict[str, Any] = {
        "data_split": params.difficulty,
        "execution": params.execution,
        "question_type": params.question_type,
        "domain_description": wording.DOMAIN[params.execution],
        "objects_description": wording.render_objects(scenario.world),
        "initial_states_description": wording.render_initial(
            scenario.world, dict(scenario.initial), rng
        ),
        "events": [wording.HEADER, *sentences],
        "question": wording.render_question(q.package, minute_text, anchor, shift),
        "answers": list(res.answers),
        "depth": depth,
    }
    record["prompt"] = render_prompt(record)
    # The text must stand on its own: read it back and answer it again.
    sc2, q2 = parse_item(record)
    again = answer_question(sc2, q2)
    if again.answers != res.answers or again.ambiguous_day:
        raise TsolveError(  # pragma: no cover - a renderer/parser bug, never user input
            f"generator: rendered record does not reproduce its answer "
            f"({again.answers} != {res.answers})"
        )
    record["scenario"] = scenario.to_json()
    record["structured_question"] = q.to_json()
    record["solution"] = {
        "minute": res.minute,
        "clock": format_clock(res.minute),
        "state": res.place.state,
        "event": res.place.cause,
    }
    record["schedule"] = schedule_json(scenario, res)
    return record


#: The fields an UnSeenTimeQA item has: a generated record cut down to these
#: is what the benchmark itself ships (and what ``tsolve logistics answer``
#: reads from English alone).
BENCHMARK_FIELDS = (
    "domain_description",
    "objects_description",
    "initial_states_description",
    "events",
    "question",
    "answers",
    "depth",
    "data_split",
    "execution",
    "question_type",
)


def benchmark_item(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as the benchmark's own item: its :data:`BENCHMARK_FIELDS` only."""
    return {f: record[f] for f in BENCHMARK_FIELDS}


_ORDER = (
    "id",
    "family",
    "data_split",
    "execution",
    "question_type",
    "domain_description",
    "objects_description",
    "initial_states_description",
    "events",
    "question",
    "prompt",
    "answers",
    "depth",
    "scenario",
    "structured_question",
    "solution",
    "schedule",
    "generator",
)


def _ordered(record: dict[str, Any]) -> dict[str, Any]:
    record["family"] = "logistics"
    return {k: record[k] for k in _ORDER if k in record}
