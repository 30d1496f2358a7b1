"""A whole benchmark item (its own fields) -> :class:`Scenario` and :class:`Question`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import CLOCK_RE
from tsolve.families.logistics.model import (
    DIFFICULTIES,
    EXECUTIONS,
    Difficulty,
    Event,
    Execution,
    Question,
    Scenario,
)
from tsolve.families.logistics.parse.events import events_and_dependencies
from tsolve.families.logistics.parse.lexicon import sentences
from tsolve.families.logistics.parse.question import parse_question
from tsolve.families.logistics.parse.world import parse_initial, parse_world
from tsolve.records.validation import expect_field, expect_list, expect_str, refuse_misnamed


def detect_execution(item: Mapping[str, Any]) -> Execution:
    """The item's ``execution`` field, or else the domain description: only the
    parallel items allow loading several packages "simultaneously"; with
    neither, serial."""
    ex = item.get("execution")
    if ex is not None:
        if ex not in EXECUTIONS:
            raise TsolveError(f"execution: unknown value {ex!r} (expected serial or parallel)")
        return ex
    domain = str(item.get("domain_description", "")).lower()
    return "parallel" if "simultaneous" in domain else "serial"


def detect_difficulty(item: Mapping[str, Any]) -> Difficulty:
    """The item's ``data_split``, or else its first event: easy states start and
    end, medium start and duration, hard duration only."""
    ds = item.get("data_split")
    if isinstance(ds, str) and ds in DIFFICULTIES:
        return ds
    for s in sentences(item.get("events", []), "events"):
        low = s.lower()
        if "truck" in low or "plane" in low:
            n = len(CLOCK_RE.findall(low))
            return "easy" if n >= 2 else ("medium" if n == 1 else "hard")
    raise TsolveError("events: no events found")


def gold_names(item: Mapping[str, Any], where: str | None = None) -> list[str]:
    """The item's label, ``answers``: a non-empty list of location and vehicle
    names. An item without the field (or with it misnamed, ``answerz``) is an
    error naming it: a scorer must neither skip it as unlabelled nor score it
    against the solved timeline instead. Errors start with ``where``
    (default: ``record <id>``; ``""`` for none)."""
    where = f"record {item.get('id')!r}" if where is None else where
    field = f"{where}: answers" if where else "answers"
    gold = expect_list(expect_field(item, "answers", where), field, 100, 1)
    return [expect_str(g, f"{field}[{k}]", 100) for k, g in enumerate(gold)]


def parse_scenario(item: Mapping[str, Any]) -> Scenario:
    """Objects, initial states and events of a benchmark item."""
    if "events" not in item:
        raise TsolveError("events: missing field")
    execution = detect_execution(item)
    events, deps = events_and_dependencies(item["events"], execution)
    world = parse_world(item.get("objects_description", []))
    initial = parse_initial(item.get("initial_states_description", []))
    _fill_initial(initial, events)
    return Scenario(
        world=world, initial=initial, events=events, execution=execution, dependencies=deps
    )


def _fill_initial(initial: dict[str, str], events: Iterable[Event]) -> None:
    """Objects whose start the text omits start where they are first used."""
    for _i, kind, vehicle, _vt, _dur, package, location, origin, _d, _s in events:
        if vehicle not in initial:  # where it stands for its first event (Event.place)
            initial[vehicle] = origin if kind == "move" else location  # type: ignore[assignment]
        if package is not None and package not in initial:
            initial[package] = location  # type: ignore[assignment]


#: Fields an item may leave out, each with a fallback (``execution`` from the
#: domain description, then serial; the world from the events): a misnamed
#: one must be an error, not its fallback.
OPTIONAL_FIELDS = ("execution", "domain_description", "objects_description",
                   "initial_states_description", "data_split", "question_type")  # fmt: skip
#: The other fields of benchmark items and generated records.
OTHER_FIELDS = ("id", "family", "events", "question", "answers", "depth", "split_id",
                "do_not_train", "source_file", "prompt", "scenario", "structured_question",
                "solution", "schedule", "generator")  # fmt: skip


def parse_item(item: Mapping[str, Any]) -> tuple[Scenario, Question]:
    """A benchmark item (its own fields) -> scenario and question."""
    if not isinstance(item, Mapping):
        raise TsolveError(f"item: expected a JSON object, got {type(item).__name__}")
    refuse_misnamed(item, OPTIONAL_FIELDS, known=OTHER_FIELDS)
    text = item.get("question")
    if isinstance(text, list) and text and all(isinstance(t, str) for t in text):
        text = " ".join(text)  # some releases wrap the question in a list
    if not isinstance(text, str) or not text.strip():
        raise TsolveError("question: missing or not a string")
    scenario = parse_scenario(item)
    qt = item.get("question_type")
    return scenario, parse_question(text, scenario, qt if isinstance(qt, str) else None)
