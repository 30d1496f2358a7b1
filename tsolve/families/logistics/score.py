"""Grade a model's answer to a logistics question, and say what it missed.

The benchmark asks models to end with "Answer: ...". The answer is read by
the rule every family shares (:func:`tsolve.verifiers.answer_parsing.final_answer`):
the last line *starting* with "Answer:" (also "Final answer:", "The answer
is:", markdown, escaped underscores, prose around the names), else a
one-line bare answer, which must be names only. The location and vehicle
names of that line are the answer; package and city names are dropped (models
restate the package, and name the city of a location: "l1_1 (in city c1)";
neither is ever an answer). Nothing else of the output is searched, and nothing
recognisable means ``parse_failed`` and a score of 0.

The question allows one location and one vehicle ("the location, the
vehicle it is in, or both while it is being loaded or unloaded"). An answer
naming more ("l0_0 or l0_1", every name of the scenario) is an over-answer:
0 in every metric, ``diagnosis["over_answer"]`` says so.

Scoring is the exact set match the issue asks for. The paper counted any
one gold name as correct; that is reported as ``partial``, which stays
**gameable** even with the over-answer rule (naming a location and a vehicle
collects a point whenever either is right), so it is never a reward
(:data:`tsolve.verifiers.rewards.GAMEABLE`). The labels are the
record's ``answers``; the truth for the diagnosis comes from the solved
timeline, so a wrong answer can be explained: where the package really was,
since when and because of which event, and which event the model most likely
missed (an ignored what-if, an ignored "N hours before/after", parallel events
taken as serial, or the state change between the minute the prediction would
have been right and the minute asked).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from tsolve.contract.item import ItemScore
from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import format_clock
from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.parse.item import detect_difficulty, gold_names
from tsolve.families.logistics.schedule import solve_record
from tsolve.families.logistics.solve import Resolution, answer_question
from tsolve.families.logistics.timeline import NEVER, Timeline
from tsolve.verifiers.answer_parsing import LOOSE_MARKER, final_answer

_NAME_RE = re.compile(r"(?<![a-z0-9_])([a-z]+\d+(?:_\d+)*)(?![a-z0-9_])")
_VEHICLE_OR_PLACE_RE = re.compile(r"^(?:l\d+_\d+|t\d+|a\d+)$")


_BARE_WORDS = frozenset(
    [
        "and",
        "or",
        "in",
        "at",
        "on",
        "the",
        "truck",
        "airplane",
        "plane",
        "location",
        "package",
        "city",
    ]
)


def parse_model_answer(output: str, scenario: Scenario) -> list[str] | None:
    """The location/vehicle names of the answer line, in order of appearance,
    or None when it names none (or is a bare answer with other words)."""
    names, _reason = read_model_answer(output, scenario)
    return names


def read_model_answer(output: object, scenario: Scenario) -> tuple[list[str] | None, str]:
    """``(names, "")``, or ``(None, why nothing was read)``: see the module
    docstring for the rule."""
    known, never, _vehicles = scenario_names(scenario)
    return read_answer_names(output, known, never)


def scenario_names(scenario: Scenario) -> tuple[set[str], set[str], set[str]]:
    """``(known, never, vehicles)``: the names an answer may give, those it
    never gives (the package asked about, which models restate, and cities:
    a package is at a location or in a vehicle, so "l1_1 (in city c1)" names
    one place), and the vehicles. All the answer reader needs of a scenario."""
    known = set(scenario.world.city_of) | set(scenario.world.trucks) | set(scenario.world.airplanes)
    known |= {e.vehicle for e in scenario.events}
    known |= {e.location or "" for e in scenario.events} | {
        e.destination or "" for e in scenario.events
    }
    never = set(scenario.world.packages) | {e.package or "" for e in scenario.events}
    never |= set(scenario.world.cities) - known
    vehicles = set(scenario.world.trucks) | set(scenario.world.airplanes)
    vehicles |= {e.vehicle for e in scenario.events}
    return known, never, vehicles


def read_answer_names(
    output: object, known: set[str], never: set[str]
) -> tuple[list[str] | None, str]:
    """:func:`read_model_answer` given :func:`scenario_names`' first two sets."""
    if not isinstance(output, str):
        return None, "output is not a string"
    text = output.replace("\\_", "_").replace("*", " ").replace("`", " ")
    found = final_answer(text, LOOSE_MARKER)
    if found.failed:
        return None, found.reason
    line = found.text.lower()
    out: list[str] = []
    for name in _NAME_RE.findall(line):
        if name in never or name in out:
            continue
        if name in known or _VEHICLE_OR_PLACE_RE.match(name):
            out.append(name)
    if not out:
        return None, "no location or vehicle on the answer line"
    if found.how == "bare":
        words = set(re.sub(r"[^a-z]+", " ", _NAME_RE.sub(" ", line)).split()) - _BARE_WORDS
        if words:
            return None, "an answer without an 'Answer:' line must be names only"
    return out, ""


def over_answer(names: list[str], scenario: Scenario) -> str | None:
    """Why ``names`` name more than the question allows (one location and
    one vehicle), or None."""
    return over_answer_names(names, scenario_names(scenario)[2])


def over_answer_names(names: list[str], vehicles: set[str]) -> str | None:
    """:func:`over_answer` given the scenario's vehicles."""
    moving = [n for n in names if n in vehicles or re.fullmatch(r"[ta]\d+", n)]
    places = [n for n in names if n not in moving]
    if len(moving) > 1 or len(places) > 1:
        return (f"{len(places)} locations and {len(moving)} vehicles: the question allows "
                "one location and one vehicle")  # fmt: skip
    return None


def _describe(scenario: Scenario, index: int | None) -> str | None:
    return scenario.events[index].phrase() if index is not None else None


def _diagnose(
    scenario: Scenario, question: Question, res: Resolution, predicted: list[str]
) -> dict[str, Any]:
    """Where the package really was and the event the model probably missed."""
    place = res.place
    out: dict[str, Any] = {
        "truth": list(res.answers),
        "asked": format_clock(res.minute),
        "state": place.state,
        "since": None if place.since == NEVER else format_clock(place.since),
        "because_of": _describe(scenario, place.cause),
        "predicted": predicted,
    }
    want = set(predicted)
    miss: dict[str, Any] | None = None
    if question.shifts:
        plain = answer_question(scenario, replace(question, shifts=()))
        if set(plain.answers) == want:
            s = question.shifts[0]
            miss = {
                "event": s.event,
                "phrase": _describe(scenario, s.event),
                "why": "ignored the what-if",
            }
    if miss is None and question.offset:
        plain = answer_question(scenario, replace(question, offset=0))
        if set(plain.answers) == want:
            miss = {"event": None, "phrase": None, "why": "ignored the relative offset"}
    if miss is None and scenario.execution == "parallel":
        serial = replace(scenario, execution="serial")
        try:
            alt = answer_question(serial, question)
        except TsolveError:
            alt = None
        if alt is not None and set(alt.answers) == want:
            miss = {"event": None, "phrase": None, "why": "ran parallel events back to back"}
    if miss is None:
        miss = _nearest_match(scenario, question, res, want)
    out["probable_miss"] = miss
    return out


def _nearest_match(
    scenario: Scenario, question: Question, res: Resolution, want: set[str]
) -> dict[str, Any] | None:
    """The state change separating the asked minute from the nearest minute at
    which the prediction would have been right."""
    tl = Timeline(scenario, res.schedule, question.package)
    segs = tl.segments()
    t = res.minute
    best: tuple[int, int] | None = None  # (distance, segment index)
    for k, (a, b, p) in enumerate(segs):
        if set(p.answers) != want:
            continue
        dist = (t - (b - 1)) if b is not None and b <= t else max(0, a - t)
        if best is None or dist < best[0]:
            best = (dist, k)
    if best is None:
        return {"event": None, "phrase": None, "why": "the package is never there"}
    k = best[1]
    a, b, _p = segs[k]
    if b is not None and b <= t:  # prediction was right earlier: missed what happened next
        nxt = segs[k + 1][2]
        return {
            "event": nxt.cause,
            "phrase": _describe(scenario, nxt.cause),
            "why": f"missed the change this event makes at {format_clock(nxt.since)}",
        }
    cause = segs[k][2].cause
    return {
        "event": cause,
        "phrase": _describe(scenario, cause),
        "why": f"jumped ahead: the predicted state only begins at {format_clock(a)}",
    }


def score_logistics(record: dict[str, Any], output: str, *, diagnose: bool = True) -> ItemScore:
    """Exact-set-match accuracy (and the paper's ``partial``), both 0 for an
    over-answer, with a symbolic diagnosis (see module docstring);
    ``diagnose=False`` skips the search for the event the model missed."""
    gold_list = gold_names(record)
    scenario, question, res = solve_record(record)
    gold_set = set(gold_list)
    groups: dict[str, str | list[str]] = {
        "difficulty": detect_difficulty(record),
        "execution": scenario.execution,
        "question_type": question.question_type,
    }
    rid = str(record.get("id"))
    predicted, reason = read_model_answer(output, scenario)
    if predicted is None:
        return ItemScore(
            id=rid,
            family="logistics",
            metrics={"accuracy": 0.0, "partial": 0.0},
            parsed=None,
            parse_failed=True,
            diagnosis={"truth": gold_list, "reason": reason},
            groups=groups,
        )
    too_many = over_answer(predicted, scenario)
    ok = set(predicted) == gold_set and too_many is None
    diagnosis: dict[str, Any] = {}
    if too_many is not None:
        diagnosis["over_answer"] = too_many
    if set(res.answers) != gold_set:
        diagnosis["label_disagrees_with_timeline"] = list(res.answers)
    if not ok and diagnose:
        diagnosis.update(_diagnose(scenario, question, res, predicted))
    return ItemScore(
        id=rid,
        family="logistics",
        metrics={
            "accuracy": float(ok),
            "partial": float(too_many is None and bool(set(predicted) & gold_set)),
        },
        parsed=predicted,
        parse_failed=False,
        diagnosis=diagnosis,
        groups=groups,
    )


def logistics_answer(record: dict[str, Any]) -> str:
    """The gold location and vehicle names, comma-separated."""
    return ", ".join(gold_names(record))
