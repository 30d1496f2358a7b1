"""Logistics shortcut probes that do the timing but never track the package.

A logistics question is a test of tracking one package through the plan. A
policy can do all the timing right (read the stated times or fix the clock,
apply the what-if, find the asked minute) and still skip the tracking: it
answers with what the plan is doing at that minute, whichever package is
asked. If the generator asks mostly about minutes at which the asked package
is in the event in progress, that policy scores well, and a trained model
learns it instead of the tracking.

:func:`current_event` is that policy. It finds the last-listed event in
progress at the asked minute (the one the benchmark's depth counts to), or,
when none is, the one that ended last, and answers from it alone. Which of
that event's names it answers (its vehicle, its place, both; a move's origin
or destination) it learns per kind of event from the other seed's records,
as a trained model would: the form that was right most often there.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from tsolve.contract.family import Record
from tsolve.stress.shortcut_probes import Answer, Fit, Probe

FORMS = ("vehicle", "location", "location+vehicle", "origin", "destination",
         "destination+vehicle", "origin+vehicle")  # fmt: skip
"""The answers one event offers (a load's or unload's location is its
origin and destination too)."""

DEFAULT_FORMS: dict[tuple[str, bool], str] = {
    ("move", True): "vehicle",
    ("load", True): "location+vehicle",
    ("unload", True): "location+vehicle",
    ("move", False): "destination+vehicle",
    ("load", False): "location+vehicle",
    ("unload", False): "location",
}
"""What the package would be if it were in the event: the form used where
the training records say nothing."""


class Situation(NamedTuple):
    """The event a policy that skips the tracking reads at the asked minute."""

    kind: str  # load | unload | move
    in_progress: bool
    vehicle: str
    origin: str
    destination: str

    @property
    def key(self) -> tuple[str, bool]:
        return (self.kind, self.in_progress)

    def names(self, form: str) -> tuple[str, ...]:
        """The answer set ``form`` gives, location first as the benchmark writes it."""
        place = {"location": self.destination, "origin": self.origin,
                 "destination": self.destination}  # fmt: skip
        out: list[str] = []
        for part in form.split("+"):
            out.append(self.vehicle if part == "vehicle" else place[part])
        return tuple(dict.fromkeys(out))


def situation(record: Record, first: bool = False) -> Situation | None:
    """The event in progress at the record's asked minute (the last listed of
    those in progress; the first listed with ``first``), else the one that
    ended last before it; None when the
    record does not parse or the plan has not begun. The asked minute is
    found as the solver finds it: the timing is done, the package only names
    whose first event a hard item's clock is fixed at, as the text does."""
    from tsolve.families.logistics.parse.item import parse_item
    from tsolve.families.logistics.solve import answer_question

    try:
        scenario, question = parse_item(record)
        res = answer_question(scenario, question)
    except Exception:
        return None
    t, sched, events = res.minute, res.schedule, scenario.events
    running = [k for k in range(len(events)) if sched.start[k] <= t < sched.end[k]]
    if running:
        k, live = running[0 if first else -1], True
    else:
        ended = [k for k in range(len(events)) if sched.end[k] <= t]
        if not ended:
            return None
        k, live = max(ended, key=lambda i: (sched.end[i], i)), False
    e = events[k]
    if e.kind == "move":
        return Situation("move", live, str(e.vehicle), str(e.origin), str(e.destination))
    loc = str(e.location)
    return Situation(str(e.kind), live, str(e.vehicle), loc, loc)


def _gold_set(text: str) -> frozenset[str]:
    return frozenset(x.strip() for x in text.split(",") if x.strip())


def named_step(record: Record, first: bool = False) -> Situation | None:
    """The step the question names (a hard item's fixed step, which is the
    package's first; else a what-if's step), as a :class:`Situation` that
    has ended; None when the question names none or does not parse."""
    from tsolve.families.logistics.parse.item import parse_item

    try:
        scenario, question = parse_item(record)
    except Exception:
        return None
    if question.anchor is not None:
        k = question.anchor[0]
    elif question.shifts:
        k = question.shifts[0].event
    else:
        return None
    e = scenario.events[k]
    if e.kind == "move":
        return Situation("move", False, str(e.vehicle), str(e.origin), str(e.destination))
    loc = str(e.location)
    return Situation(str(e.kind), False, str(e.vehicle), loc, loc)


def named_step_policy(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """Answer from the step the question names (:func:`named_step`), in the
    form that was right most often on ``train`` for that kind of step: a
    package parked where it was first loaded, in the vehicle that loaded
    it, is this policy's; the timing is not even done. A question that
    names no step (easy and medium static and relative ones) gets the
    commonest answer of ``train``."""
    fitted = _fitted(train, golds, named_step)
    fallback = Counter(golds).most_common(1)[0][0] if golds else None

    def answer(record: Record) -> str | None:
        return fitted(record) or fallback

    return answer


def current_event(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """Answer from the event in progress at the asked minute (:func:`situation`),
    in the form that was right most often on ``train`` for that kind of event."""
    return _event_policy(train, golds, first=False)


def earlier_event(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """:func:`current_event` reading the first-listed event in progress: in a
    parallel plan, another vehicle's, which a package in another vehicle may be in."""
    return _event_policy(train, golds, first=True)


def _event_policy(train: Sequence[Record], golds: Sequence[str], first: bool) -> Answer:
    return _fitted(train, golds, lambda record: situation(record, first))


def _fitted(
    train: Sequence[Record], golds: Sequence[str], read: Callable[[Record], Situation | None]
) -> Answer:
    """Answer from the event ``read`` picks, in the form that paid most
    often on ``train`` for its kind of event."""
    wins: dict[tuple[str, bool], Counter[str]] = {}
    for record, gold in zip(train, golds, strict=True):
        s = read(record)
        if s is None:
            continue
        want = _gold_set(gold)
        tally = wins.setdefault(s.key, Counter())
        for form in FORMS:
            tally[form] += frozenset(s.names(form)) == want
    forms = dict(DEFAULT_FORMS)
    for key, tally in wins.items():
        best = max(FORMS, key=lambda f: (tally[f], f == DEFAULT_FORMS[key]))
        if tally[best] > 0:
            forms[key] = best

    def answer(record: Record) -> str | None:
        s = read(record)
        return None if s is None else ", ".join(s.names(forms[s.key]))

    return answer


def _event_vehicle(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The vehicle of the event in progress, alone: right whenever the asked
    package rides in a vehicle that is moving then."""

    def answer(record: Record) -> str | None:
        s = situation(record)
        return None if s is None else s.vehicle

    return answer


def _asked(record: Record) -> tuple[Any, Any, int] | None:
    """(scenario, schedule, asked minute) as the solver finds them, or None
    when the record does not parse."""
    from tsolve.families.logistics.parse.item import parse_item
    from tsolve.families.logistics.solve import answer_question

    try:
        scenario, question = parse_item(record)
        res = answer_question(scenario, question)
    except Exception:
        return None
    return scenario, res.schedule, res.minute


def states_on_the_way(record: Record) -> Counter[tuple[str, ...]] | None:
    """Every package tracked to the record's asked minute: how many share
    each answer, counting those between their first and last steps (where
    questions ask) when any are, else every package; None when the record
    does not parse. What a policy that tracks every package, and ignores
    which one is asked, has to choose from."""
    from tsolve.families.logistics.timeline import Timeline

    asked = _asked(record)
    if asked is None:
        return None
    scenario, sched, t = asked
    tally: Counter[tuple[str, ...]] = Counter()
    spare: Counter[tuple[str, ...]] = Counter()
    for p in scenario.world.packages:
        tl = Timeline(scenario, sched, p)
        where = tl.at(t).answers
        (tally if tl.position(t) in ("during", "between") else spare)[where] += 1
    return tally or spare or None


def _by_count(pick: Callable[[Sequence[int]], int]) -> Fit:
    """A policy answering the state whose share of the packages ``pick``
    chooses (ties: the first in name order)."""

    def fit(train: Sequence[Record], golds: Sequence[str]) -> Answer:
        def answer(record: Record) -> str | None:
            tally = states_on_the_way(record)
            if not tally:
                return None
            want = pick(list(tally.values()))
            return ", ".join(min(w for w, k in tally.items() if k == want))

        return answer

    return fit


commonest_state = _by_count(max)
"""The answer most packages on their way share: right whenever the asked
package is with the crowd, whichever package it is."""

rarest_state = _by_count(min)
"""The answer fewest packages on their way share: right whenever the asked
package is alone and the others travel together, whichever package it is."""


def tracking_floor(records: Sequence[Record]) -> float:
    """The mean of ``1 / k`` over ``records``, ``k`` the number of distinct
    answers among the packages on their way at the asked minute: what
    answering one of them at random scores, and the least that the best
    policy tracking every package, ignoring which is asked, must score,
    whatever the generator does (some rule of choice among ``k`` answers
    is right at least once in ``k``)."""
    ks = [len(t) for t in map(states_on_the_way, records) if t]
    return sum(1 / k for k in ks) / len(records) if records else 0.0


_VEHICLE = re.compile(r"\b(?:truck|airplane)\s+([a-z]\d+)\b", re.IGNORECASE)


def question_vehicle(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The vehicle the question names (a hard item's fixed step, a what-if's
    step), else the one the last event sentence names: the vehicle named
    nearest the question."""

    def answer(record: Record) -> str | None:
        named = _VEHICLE.findall(str(record.get("question", "")))
        if named:
            return str(named[0])
        events = record.get("events")
        lines = events if isinstance(events, list) else [str(events or "")]
        for line in reversed(lines):
            found = _VEHICLE.findall(str(line))
            if found:
                return str(found[-1])
        return None

    return answer


PROBES: tuple[Probe, ...] = (
    Probe("logistics", "current event", "heuristic", current_event,
          "the event in progress at the asked minute, answered in the form that paid on "
          "another seed; the package is never tracked"),
    Probe("logistics", "current event's vehicle", "heuristic", _event_vehicle,
          "the vehicle of the event in progress at the asked minute"),
    Probe("logistics", "earliest event in progress", "heuristic", earlier_event,
          "the current-event policy reading the first-listed event in progress instead"),
    Probe("logistics", "vehicle named nearest the question", "heuristic", question_vehicle,
          "the vehicle the question names, else the last event's"),
    Probe("logistics", "step the question names", "heuristic", named_step_policy,
          "the place and vehicle of the step the question names (a hard item's fixed step, "
          "a what-if's), in the form that paid on another seed; no timing"),
)  # fmt: skip
"""The probes of this module, found by :func:`tsolve.stress.shortcut_probes.probes_for`."""

DIAGNOSTIC_PROBES: tuple[Probe, ...] = (
    Probe("logistics", "commonest state", "heuristic", commonest_state,
          "every package tracked to the asked minute, answered with the state most share; "
          "which package is asked is ignored"),
    Probe("logistics", "rarest state", "heuristic", rarest_state,
          "every package tracked to the asked minute, answered with the state fewest share; "
          "which package is asked is ignored"),
)  # fmt: skip
"""Policies measured but not held to the bound (not in :data:`PROBES`).
They track every package, which is all of the task's reasoning but reading
the asked package's name, not less of it; and no generator can hold them to
the best constant answer. With ``k`` distinct answers among the packages on
their way at the asked minute, some rule of choice among them is right at
least once in ``k`` (:func:`tracking_floor`), and worlds of three to seven
packages give ``k`` of 2-5, a floor of about 0.35 against chances of
0.14-0.18. Making the asked package rarely the commonest only moves the
score to the rarest (docs/logistics.md, "Policies that track every package",
has both, per cell)."""
