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


#: Where the world lists the names of its objects, cities and locations.
_NAMED = ("packages", "trucks", "airplanes", "airports", "cities")


def logistics_answer_fingerprint(record: dict[str, Any]) -> str:
    """The scenario and the question with every object, location and city
    renamed by where it first takes part (the asked package first, then the
    events in order, the initial states, the world's lists): the same events
    with the same durations, asked at the same minute, match whatever the
    objects are called. Names are all a renamed copy changes; the reasoning
    and the place in the story that the answer is are the same."""
    from tsolve.families.logistics.parse.item import parse_item

    try:
        scenario, question = parse_item(record)
    except Exception:  # an unreadable item still has its text
        return logistics_fingerprint(record)
    world_story = scenario.to_json()
    asked = question.to_json()
    world = world_story.get("world", {})
    names: set[str] = set()
    for key in _NAMED:
        names.update(n for n in world.get(key, ()) if isinstance(n, str))
    names.update(n for n in world.get("city_of", {}) if isinstance(n, str))
    labels: dict[str, str] = {}

    def label(value: Any) -> Any:
        """Every name in ``value`` as its label, in order of first sight."""
        if isinstance(value, str):
            if value in names and value not in labels:
                labels[value] = f"#{len(labels)}"
            return labels.get(value, value)
        if isinstance(value, list):
            return [label(v) for v in value]
        if isinstance(value, dict):
            return {label(k): label(v) for k, v in value.items()}
        return value

    canonical = {
        "question": label(asked),
        "events": label(world_story.get("events")),
        "initial": label(world_story.get("initial")),
        "world": label(world),
    }
    # Dicts keyed by a name are compared as sets of entries, not in text order.
    for part in ("initial",):
        if isinstance(canonical[part], dict):
            canonical[part] = sorted(canonical[part].items(), key=str)
    if isinstance(canonical["world"], dict):
        canonical["world"] = {
            k: sorted(v, key=str) if isinstance(v, list) else v
            for k, v in canonical["world"].items()
        }
    return digest(canonical)
