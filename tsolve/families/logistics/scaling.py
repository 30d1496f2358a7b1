"""Logistics' surfaces for ``tsolve stress --scaling`` (:mod:`tsolve.stress.scaling`):
its question, event and answer readers, on a generated item grown by the text."""

from __future__ import annotations

from functools import cache
from typing import Any

from tsolve.stress.scaling import Surface, quiet


@cache
def _logistics_item() -> dict[str, Any]:
    """One generated logistics item (seed 1, record 0): the record the
    logistics surfaces grow."""
    from tsolve.contract.registry import get_family

    fam = get_family("logistics")
    return dict(fam.make_record(1, 0, fam.make_options({})))


def _logistics_question(text: str) -> object:
    from tsolve.families.logistics.parse.item import parse_item

    item = dict(_logistics_item())
    item["question"] = text + " " + str(item["question"])
    return parse_item(item)


def _logistics_events(text: str) -> object:
    from tsolve.families.logistics.parse.item import parse_item

    item = dict(_logistics_item())
    events = list(item["events"])
    events[0] = str(events[0]) + " " + text
    item["events"] = events
    return parse_item(item)


def _logistics_answer(text: str) -> object:
    from tsolve.families.logistics.parse.item import parse_scenario
    from tsolve.families.logistics.score import parse_model_answer

    return parse_model_answer(text, parse_scenario(_logistics_item()))


def scaling_surfaces() -> tuple[Surface, ...]:
    """The family's ``scaling_surfaces`` part."""
    return (
        Surface("logistics-question", quiet(_logistics_question),
                ("tsolve.families.logistics.parse.question", "tsolve.families.logistics.parse.item",
                 "tsolve.families.logistics.clock"),
                ("where is the package ", "at 10:00 ", "before ")),
        Surface("logistics-events", quiet(_logistics_events),
                tuple(f"tsolve.families.logistics.parse.{m}" for m in
                 ("events", "event_text", "event_parts", "template_reader", "item")),
                ("truck ", "from ", "10 minutes ")),
        Surface("logistics-answer", quiet(_logistics_answer),
                ("tsolve.families.logistics.score", "tsolve.verifiers.answer_parsing"),
                ("Answer: ", "l0_0 or ", "t0 ")),
    )  # fmt: skip
