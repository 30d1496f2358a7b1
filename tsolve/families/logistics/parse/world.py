"""The objects and initial-states descriptions of a logistics item."""

from __future__ import annotations

from typing import Any

from tsolve.families.logistics.model import World
from tsolve.families.logistics.parse.lexicon import IDS_RE, sentences

_LISTS = (
    ("cit", "cities"),
    ("airplane", "airplanes"),
    ("truck", "trucks"),
    ("package", "packages"),
)


def parse_world(value: Any) -> World:
    """The objects description: cities, which city each location is in, airports,
    trucks, airplanes, packages (in the order stated).

    Each sentence is told apart by a keyword ("in city", "airport", or the noun
    before its first comma) and its identifiers are read in order, which takes
    the benchmark's sentences and plain variants of them alike.
    """
    city_of: dict[str, str] = {}
    lists: dict[str, list[str]] = {name: [] for _, name in _LISTS}
    airports: list[str] = []
    for s in sentences(value, "objects_description"):
        low = s.lower()
        ids = IDS_RE.findall(low)
        if not ids:
            continue
        if " city" in low and (" in city" in low or " in the city" in low):
            for loc in ids[:-1]:
                city_of[loc] = ids[-1]
        elif "airport" in low:
            airports = ids
        else:
            head = low.split(",", 1)[0]
            for word, name in _LISTS:
                if word in head:
                    lists[name] = ids
                    break
    return World(
        cities=tuple(lists["cities"]),
        city_of=city_of,
        airports=tuple(airports),
        trucks=tuple(lists["trucks"]),
        airplanes=tuple(lists["airplanes"]),
        packages=tuple(lists["packages"]),
    )


def parse_initial(value: Any) -> dict[str, str]:
    """``{object: location}`` from "truck t1 is at the location l1_1." sentences
    (every name before the word "location" is at the first name after it)."""
    out: dict[str, str] = {}
    for s in sentences(value, "initial_states_description"):
        low = s.lower()
        k = low.find("location")
        if k < 0:
            continue
        where = IDS_RE.search(low, k)
        if where is None:
            continue
        for name in IDS_RE.findall(low, 0, k):
            out[name] = where.group(0)
    return out
