"""A logistics record's gold as the honest styles render it
(:mod:`tsolve.stress.honest`): the location and vehicle names of its answer."""

from __future__ import annotations

import re
from collections.abc import Callable

from tsolve.contract.family import Record
from tsolve.stress.honest import Gold, Style


def logistics_gold(record: Record) -> Gold:
    """The family's ``honest_gold`` part: the record's ``answers``."""
    names = tuple(str(a) for a in record.get("answers") or [])
    return Gold("logistics", "Answer:", names=names,
                justification="after the last event before that moment")  # fmt: skip


def _city(name: str) -> str | None:
    m = re.fullmatch(r"l(\d+)_\d+", name)
    return f"c{m[1]}" if m else None


def _logistics(render: Callable[[Gold], str | None]) -> Style:
    return lambda g: render(g) if g.names else None


def _names_with_city(g: Gold) -> str | None:
    parts = []
    for n in g.names:
        city = _city(n)
        parts.append(f"{n} (in city {city})" if city else n)
    return "Answer: " + ", ".join(parts)


def _names_with_kind(g: Gold) -> str:
    kinds = {"t": "truck", "a": "airplane", "l": "location"}
    return "Answer: " + " and ".join(f"{kinds.get(n[0], '')} {n}".strip() for n in g.names)


STYLES: dict[str, Style] = {
    "'Answer: l1_1 (in city c1)'": _logistics(_names_with_city),
    "names with their kind ('truck t0')": _logistics(_names_with_kind),
    "'The package is at/in ...'": _logistics(
        lambda g: "Answer: The package is at " + " in ".join(g.names) + "."
    ),
    "'The answer is l1_1.' in bold": _logistics(
        lambda g: "**The answer is " + ", ".join(g.names) + ".**"
    ),
    "names with escaped underscores": _logistics(
        lambda g: "Answer: " + ", ".join(g.names).replace("_", "\\_")
    ),
}
