"""What makes two logistics items the same item, for ``tsolve dataset overlap``:
the scenario and the question as read back from the English, so a generated
record and the benchmark form of the same item match."""

from __future__ import annotations

from typing import Any

from tsolve.generators.fingerprints import digest

LOGISTICS_TEXT_FIELDS = ("objects_description", "initial_states_description", "events",
                         "question")  # fmt: skip


def logistics_fingerprint(record: dict[str, Any]) -> str:
    """The scenario (world, initial states, events with their durations and
    times) and the question, as the item's English says them."""
    from tsolve.families.logistics.parse.item import parse_item

    try:
        scenario, question = parse_item(record)
    except Exception:  # an unreadable item still has its text
        return digest({k: record.get(k) for k in LOGISTICS_TEXT_FIELDS})
    return digest({"scenario": scenario.to_json(), "question": question.to_json()})
