"""Logistics' own shortcut probes for ``tsolve stress --shortcuts``
(:mod:`tsolve.stress.shortcut_probes`): the package's final or first place,
the place the prompt names most or the question names, a lookup by question
or by the package's first place, and an n-gram classifier. Its situation probes are in
:mod:`tsolve.families.logistics.tracking_probes`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tsolve.contract.family import Record
from tsolve.stress.shortcut_probes import Answer, Fit, Probe, commonest, learned_choice

_PLACE = re.compile(r"\bl\d+_\d+\b")


def _logistics_parse(record: Record) -> tuple[Any, Any] | None:
    from tsolve.families.logistics.parse.item import parse_item

    try:
        return parse_item(record)
    except Exception:
        return None


def _final_or_first(final: bool) -> Fit:
    def fit(train: Sequence[Record], golds: Sequence[str]) -> Answer:
        def answer(record: Record) -> str | None:
            parsed = _logistics_parse(record)
            if parsed is None:
                return None
            scenario, question = parsed
            place = scenario.initial.get(question.package)
            if final:
                for e in scenario.events:
                    if e.package == question.package:
                        place = e.vehicle if e.kind == "load" else e.location
            return place

        return answer

    return fit


def _commonest_place(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    def answer(record: Record) -> str | None:
        return commonest(_PLACE.findall(str(record.get("prompt", ""))), None)

    return answer


def _question_place(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The first location the question names, else its commonest in the story."""

    def answer(record: Record) -> str | None:
        named = _PLACE.findall(str(record.get("question", "")))
        if named:
            return str(named[0])
        return commonest(_PLACE.findall(str(record.get("prompt", ""))), None)

    return answer


def _logistics_lookup(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's answer to the same question text over the same story."""
    pairs = zip(train, golds, strict=True)
    known = {(str(r.get("question")), str(r.get("events"))): g for r, g in pairs}
    fallback = commonest(list(golds), None)

    def answer(record: Record) -> str | None:
        return known.get((str(record.get("question")), str(record.get("events"))), fallback)

    return answer


def _lookup_by_start(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's commonest answer for a package starting at the same
    place. A place's name says its city (``l1_2`` is in ``c1``), so this
    reads which airport, or which other city, the answer is likely in, with
    no tracking; version 8's answers were concentrated enough for it to
    score 0.09 over chance."""
    table: dict[str, Counter[str]] = {}
    for record, gold in zip(train, golds, strict=True):
        start = _start_place(record)
        if start is not None:
            table.setdefault(start, Counter())[gold] += 1
    fallback = commonest(list(golds), None)

    def answer(record: Record) -> str | None:
        seen = table.get(_start_place(record) or "")
        return seen.most_common(1)[0][0] if seen else fallback

    return answer


def _start_place(record: Record) -> str | None:
    parsed = _logistics_parse(record)
    if parsed is None:
        return None
    scenario, question = parsed
    place = scenario.initial.get(question.package)
    return None if place is None else str(place)


PROBES: tuple[Probe, ...] = (
    Probe("logistics", "final place", "heuristic", _final_or_first(True),
          "the package's place after its last listed event, every time ignored"),
    Probe("logistics", "first place", "heuristic", _final_or_first(False),
          "the package's initial place"),
    Probe("logistics", "commonest place named", "heuristic", _commonest_place,
          "the location the prompt names most often"),
    Probe("logistics", "place named in the question", "heuristic", _question_place,
          "the first location the question names"),
    Probe("logistics", "lookup by question", "memorisation", _logistics_lookup,
          "another seed's answer to the same question over the same story"),
    Probe("logistics", "lookup by first place", "memorisation", _lookup_by_start,
          "the other seed's commonest answer for a package starting at the same place"),
    Probe("logistics", "n-gram classifier", "learned", learned_choice(False),
          "logistic regression on the question's word n-grams"),
)  # fmt: skip
"""The family's own probes (its ``shortcut_probes`` part names these first)."""
