"""Where a question's asked minute falls in the package's history, and the
benchmark's distribution of it, which the generator draws from.

A logistics question is only a test of timing if the answer depends on it.
Asked after the package's last change of state, it does not: the package's
place at the end of the plan, read off the event list with every time
ignored, is the answer. Asked before its first event, the initial state is.
UnSeenTimeQA's split 1 never asks there: every one of its 3,600 questions
falls while the package is being loaded or unloaded, moved, or waits in a
parked vehicle (:data:`SPLIT1_KINDS`, measured by
``python benchmarks/experiments/logistics_asked_minute.py``). The generator draws the
kind of minute it asks about from the same distribution, per difficulty,
execution and question type (:func:`draw_kind`).

That mix has a flaw of its own: at every minute split 1 asks about, the
package is in, or parked in, the vehicle of the event in progress, so a
policy that finds that event and answers with its vehicle or place, never
tracking the package, answers most questions (0.84 of split 1's easy items,
and every generator-version-5 record). The generator therefore draws, by
default (``asked_minute=tracked``), the package's *relation* to the event in
progress at the asked minute (:data:`RELATIONS`, :func:`relation_of`): with
that event's vehicle (``event``, with the split-1 kinds), lying at a location
that event does not name (``waiting``), or in another vehicle that no event
in progress names (``vehicle``; parallel plans only, as in a serial plan the
package is always with the vehicle that acts or lying somewhere), with the
weights of :data:`RELATION_WEIGHTS`.
``asked_minute=unseentimeqa`` keeps the split-1 mix alone (version 5's
records, byte for byte), for comparisons with the paper.

A minute's *kind* refines its :data:`~tsolve.families.logistics.timeline.Position`:
``before`` and ``after`` as they are, ``during`` by the package's state
(``loading``, ``unloading``, ``moving``), ``between`` by where it waits
(``parked`` in a vehicle, or lying ``at`` a location). The refinement is kept
because the kinds give answers of different shapes (a vehicle alone while
moving, a location and a vehicle otherwise), which a policy could learn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

from tsolve.families.logistics.model import Difficulty, Event, Execution, QuestionType
from tsolve.families.logistics.parse.item import detect_difficulty, parse_item
from tsolve.families.logistics.solve import answer_question
from tsolve.families.logistics.timeline import NEVER, Place, Position, Timeline

Kind = Literal["before", "loading", "unloading", "moving", "parked", "at", "after"]
KINDS: tuple[Kind, ...] = ("before", "loading", "unloading", "moving", "parked", "at", "after")
POSITION_OF: dict[Kind, Position] = {
    "before": "before",
    "loading": "during",
    "unloading": "during",
    "moving": "during",
    "parked": "between",
    "at": "between",
    "after": "after",
}

Stratum = tuple[Difficulty, Execution, QuestionType]

Relation = Literal["event", "waiting", "vehicle"]
RELATIONS: tuple[Relation, ...] = ("event", "waiting", "vehicle")

AskedMix = Literal["tracked", "unseentimeqa"]
ASKED_MIXES: tuple[AskedMix, ...] = ("tracked", "unseentimeqa")
"""The ``asked_minute`` option: ``tracked`` (the default) draws the package's
relation to the event in progress, ``unseentimeqa`` split 1's mix alone."""

#: Per execution, how often the asked package is with the vehicle of the
#: event in progress, waiting at a location that event does not name, or in
#: another vehicle that no event in progress names (it stands idle). The
#: first is what reading the event in progress answers without tracking the
#: package, so its share is held at or below the best constant answer's
#: (about 0.13-0.20 in the mixed plans the default draws from, where
#: packages wait at depots and airports and several vehicles are loaded at
#: once): one in seven, serial and parallel alike, dealt in shuffled blocks
#: (:func:`relation_block`; docs/logistics.md, "The event in progress").
RELATION_WEIGHTS: dict[Execution, dict[Relation, int]] = {
    "serial": {"event": 1, "waiting": 3, "vehicle": 3},
    "parallel": {"event": 1, "waiting": 3, "vehicle": 3},
}


#: UnSeenTimeQA split 1, 300 questions per stratum: how many ask a minute of
#: each kind (kinds not listed: none). Reproduced by
#: ``python benchmarks/experiments/logistics_asked_minute.py`` (its "split 1" table).
SPLIT1_KINDS: dict[Stratum, dict[Kind, int]] = {
    ("easy", "serial", "static_time"): {"loading": 40, "unloading": 77, "moving": 85, "parked": 98},
    ("easy", "serial", "relative_time"): {
        "loading": 24, "unloading": 45, "moving": 121, "parked": 110
    },
    ("easy", "serial", "hypothetical_time"): {
        "loading": 12, "unloading": 33, "moving": 124, "parked": 131
    },
    ("medium", "serial", "static_time"): {
        "loading": 34, "unloading": 70, "moving": 83, "parked": 113
    },
    ("medium", "serial", "relative_time"): {
        "loading": 43, "unloading": 59, "moving": 95, "parked": 103
    },
    ("medium", "serial", "hypothetical_time"): {
        "loading": 39, "unloading": 81, "moving": 99, "parked": 81
    },
    ("hard", "serial", "static_time"): {"moving": 138, "parked": 162},
    ("hard", "serial", "relative_time"): {"moving": 138, "parked": 162},
    ("hard", "serial", "hypothetical_time"): {"moving": 143, "parked": 157},
    ("hard", "parallel", "static_time"): {
        "loading": 46, "unloading": 38, "moving": 150, "parked": 66
    },
    ("hard", "parallel", "relative_time"): {
        "loading": 28, "unloading": 50, "moving": 160, "parked": 62
    },
    ("hard", "parallel", "hypothetical_time"): {
        "loading": 21, "unloading": 51, "moving": 173, "parked": 55
    },
}  # fmt: skip


def target_kinds(
    difficulty: Difficulty, execution: Execution, question_type: QuestionType
) -> dict[Kind, int]:
    """The split-1 weights the generator draws from for a stratum. Easy and
    medium *parallel* plans are tsolve's extension (split 1 has none); they
    take the weights of hard parallel, whose plans they share."""
    key: Stratum = (difficulty, execution, question_type)
    if key not in SPLIT1_KINDS:
        key = ("hard", execution, question_type)
    return SPLIT1_KINDS[key]


def draw_kind(
    rng: random.Random, difficulty: Difficulty, execution: Execution, question_type: QuestionType
) -> Kind:
    """A kind of asked minute, drawn with the split-1 weights of the stratum."""
    weights = target_kinds(difficulty, execution, question_type)
    kinds = [k for k in KINDS if weights.get(k)]
    return rng.choices(kinds, weights=[weights[k] for k in kinds])[0]


def draw_relation(rng: random.Random, execution: Execution) -> Relation:
    """The asked package's relation to the event in progress (:data:`RELATION_WEIGHTS`)."""
    weights = RELATION_WEIGHTS[execution]
    names = [r for r in RELATIONS if weights.get(r)]
    return rng.choices(names, weights=[weights[r] for r in names])[0]


def relation_block(weights: Mapping[Relation, int], rng: random.Random) -> list[Relation]:
    """One block of relations: each relation as many times as its weight,
    in the order ``rng`` shuffles them. Records drawn block by block hold
    the weights exactly in every block, so that a file's share of questions
    the event in progress answers is the weight's, not the weight give or
    take the sampling noise of independent draws (about 3 points on 300
    records, more than the bound a probe is held to leaves)."""
    block = [r for r in RELATIONS for _ in range(weights.get(r, 0))]
    rng.shuffle(block)
    return block


def relation_of(place: Place, kind: Kind, event: Event) -> Relation | None:
    """The relation of a package in ``place`` (a minute of ``kind``) to the
    ``event`` in progress; None when it is none of :data:`RELATIONS`: before
    its first or after its last change, or lying at a place ``event`` names
    (where the event alone would give the answer away)."""
    if kind in ("before", "after"):
        return None
    if place.vehicle is None:
        named = {event.location, event.origin, event.destination}
        return None if place.location in named else "waiting"
    return "event" if place.vehicle == event.vehicle else "vehicle"


def kind_at(timeline: Timeline, t: int) -> Kind:
    """The kind of minute ``t`` in ``timeline`` (see the module docstring)."""
    pos = timeline.position(t)
    if pos in ("before", "after"):
        return pos
    return timeline.at(t).state


def kind_of_segment(since: int, to: int | None, place: Place) -> Kind:
    """The kind of every minute strictly inside one of
    :meth:`Timeline.segments <tsolve.families.logistics.timeline.Timeline.segments>`
    (the first runs from the beginning of time, the last for ever)."""
    if since == NEVER:
        return "before"
    if to is None:
        return "after"
    return place.state


class AskedMinute(NamedTuple):
    """Where an item's asked minute falls: its stratum, position and kind."""

    stratum: Stratum
    position: Position
    kind: Kind


def asked_minute(item: Mapping[str, Any]) -> AskedMinute:
    """Classify a benchmark item's (or a generated record's) asked minute,
    reading only its text: parsed by the benchmark reader, answered under the
    default readings, the minute placed in the package's timeline. Raises
    :class:`~tsolve.errors.TsolveError` on an item that does not parse."""
    scenario, question = parse_item(item)
    depth = item.get("depth")
    res = answer_question(scenario, question, depth if isinstance(depth, int) else None)
    tl = Timeline(scenario, res.schedule, question.package)
    kind = kind_at(tl, res.minute)
    stratum: Stratum = (detect_difficulty(item), scenario.execution, question.question_type)
    return AskedMinute(stratum, POSITION_OF[kind], kind)
