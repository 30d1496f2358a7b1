"""The event sentence templates: rendered by the generator, matched by the parser.

The paper's Appendix C lists four templates per event type and difficulty.
The generator renders them (with the two corrections the real data also makes:
unloading is "unloaded from", and the hard difficulty's fourth load template
is the data's "for N minutes" form, since hard items never state times). The
parser uses the same table as a fast path
(:mod:`tsolve.families.logistics.parse.template_reader`): a sentence that is exactly
one template is read by its word positions.
The real data has a few more wordings and typos than the paper ("flys",
"starting at T, truck ..."); those are listed as parse-only variants, and
anything else falls back to the part-by-part reader in
:mod:`tsolve.families.logistics.parse.event_parts`, which is slower but takes any order
of words. Keeping one table means the generator can never write a sentence
the parser's fast path misreads: the tests render every template and read it
back.
"""

# The templates are data, one sentence a line, so they may run past 100 columns.
# ruff: noqa: E501
from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any, NamedTuple

# {p} package, {vt} truck/airplane, {v} vehicle, {l} location, {o}/{d} origin/
# destination, {s}/{e} start/end clock, {n} minutes, {ed} "loaded into"/
# "unloaded from", {ing} "loading"/"unloading", {prep} "into"/"from".
HANDLE: dict[str, tuple[str, ...]] = {
    "easy": (
        "at location {l}, package {p} is {ed} {vt} {v} starting at {s} and finishing at {e}.",
        "package {p} is {ed} {vt} {v} from {s} to {e} at location {l}.",
        "{ing} package {p} {prep} {vt} {v} at location {l} starts at {s} and ends at {e}.",
        "from {s} to {e} package {p} {ed} {vt} {v} at location {l}.",
    ),
    "medium": (
        "at location {l}, package {p} is {ed} {vt} {v} starting at {s} and continues for {n} minutes.",
        "package {p} is {ed} {vt} {v} from {s} at location {l} and takes {n} minutes to finish.",
        "{ing} package {p} {prep} {vt} {v} at location {l} starts at {s} and ends after {n} minutes.",
        "from {s} package {p} {ed} {vt} {v} at location {l} for {n} minutes.",
    ),
    "hard": (
        "at location {l}, package {p} is {ed} {vt} {v} and it takes {n} minutes to finish.",
        "package {p} is {ed} {vt} {v} at location {l} and it requires {n} minutes to complete.",
        "{ing} package {p} {prep} {vt} {v} at location {l} takes {n} minutes to finish.",
        "package {p} {ed} {vt} {v} at location {l} for {n} minutes.",
    ),
}
DRIVE: dict[str, tuple[str, ...]] = {
    "easy": (
        "from location {o}, truck {v} moves to location {d} starting at {s} and finishing at {e}.",
        "truck {v} operates from location {o} to location {d} from {s} to {e}.",
        "driving truck {v} from location {o} to location {d} starts at {s} and ends at {e}.",
        "from {s} to {e} truck {v} transports from location {o} to location {d}.",
    ),
    "medium": (
        "from location {o}, truck {v} moves to location {d} starting at {s} and continues for {n} minutes.",
        "truck {v} operates from location {o} to location {d} starting at {s} and takes {n} minutes.",
        "driving truck {v} from location {o} to location {d} starts at {s} and ends after {n} minutes.",
        "from {s}, truck {v} transports from location {o} to location {d} for {n} minutes.",
    ),
    "hard": (
        "from location {o}, truck {v} moves to location {d} and it takes {n} minutes to finish.",
        "truck {v} operates from location {o} to location {d} and it requires {n} minutes to complete.",
        "driving truck {v} from location {o} to location {d} takes {n} minutes to finish.",
        "truck {v} transports from location {o} to location {d} for {n} minutes.",
    ),
}
FLY: dict[str, tuple[str, ...]] = {
    "easy": (
        "from location {o}, airplane {v} transits to location {d} starting at {s} and finishing at {e}.",
        "airplane {v} flies from location {o} to location {d} from {s} to {e}.",
        "flying airplane {v} from location {o} to location {d} starts at {s} and ends at {e}.",
        "from {s} to {e} airplane {v} transits from location {o} to location {d}.",
    ),
    "medium": (
        "from location {o}, airplane {v} flies to location {d} starting at {s} and continues for {n} minutes.",
        "airplane {v} flies from location {o} to location {d} starting at {s} and takes {n} minutes.",
        "flying airplane {v} from location {o} to location {d} starts at {s} and ends after {n} minutes.",
        "from {s}, airplane {v} transits from location {o} to location {d} for {n} minutes.",
    ),
    "hard": (
        "from location {o}, airplane {v} transits to location {d} and it takes {n} minutes to finish.",
        "airplane {v} flies from location {o} to location {d} and it requires {n} minutes to complete.",
        "flying airplane {v} from location {o} to location {d} takes {n} minutes to finish.",
        "airplane {v} transits from location {o} to location {d} for {n} minutes.",
    ),
}

# Wordings of the real benchmark data that the paper does not list (parse only).
DATA_VARIANTS: tuple[tuple[str, str], ...] = (
    ("handle", "package {p} is {ed} {vt} {v} at location {l} for {n} minutes."),
    ("handle", "package {p} is {ed} {vt} {v} at location {l} and takes {n} minutes to finish."),
    (
        "truck",
        "starting at {s}, truck {v} operates from location {o} to location {d} for {n} minutes.",
    ),
    ("truck", "from {s} truck {v} transports from location {o} to location {d} for {n} minutes."),
    ("airplane", "airplane {v} flys from location {o} to location {d} from {s} to {e}."),
    ("airplane", "airplane {v} flys from location {o} to location {d} for {n} minutes."),
    (
        "airplane",
        "starting at {s}, airplane {v} flys from location {o} to location {d} for {n} minutes.",
    ),
    (
        "airplane",
        "starting at {s}, airplane {v} flies from location {o} to location {d} for {n} minutes.",
    ),
    (
        "airplane",
        "from {s} airplane {v} transits from location {o} to location {d} for {n} minutes.",
    ),
    (
        "airplane",
        "from location {o}, airplane {v} transits to location {d} starting at {s} and "
        "continues for {n} minutes.",
    ),
)


class WordTemplate(NamedTuple):
    """A template as word positions. A sentence matches when it has as many
    words and the literal words agree (one tuple comparison); the slots are
    then read by position (-1: the template has no such slot). ``source`` is
    "handle", "truck" or "airplane"."""

    source: str
    n_words: int
    literals: Callable[[list[str]], Any]  # itemgetter of the literal positions
    literal_words: tuple[str, ...]
    literal_pos: tuple[int, ...]
    v: int
    p: int
    l: int  # noqa: E741 - the location slot, named as in the templates
    o: int
    d: int
    ed: int  # "loaded"/"unloaded" or "loading"/"unloading"
    vt: int
    s: int  # start time word; the am/pm word follows
    e: int
    n: int


def _word_template(source: str, template: str) -> WordTemplate:
    literal_pos: list[int] = []
    literal_words: list[str] = []
    slots = dict.fromkeys(("v", "p", "l", "o", "d", "ed", "vt", "s", "e", "n"), -1)
    pos = 0
    for token in template.split(" "):
        if "{" not in token:
            literal_pos.append(pos)
            literal_words.append(token)
            pos += 1
            continue
        name = token[token.index("{") + 1 : token.index("}")]
        slots["ed" if name == "ing" else name] = pos
        # "loaded into" and "09:15 am" are two words; the second is read with the first
        pos += 2 if name in ("ed", "s", "e") else 1
    slots.pop("prep", None)
    getter = itemgetter(*literal_pos) if len(literal_pos) > 1 else (lambda w: (w[literal_pos[0]],))
    return WordTemplate(source, pos, getter, tuple(literal_words), tuple(literal_pos), **slots)


def _first(template: str) -> tuple[str, ...]:
    head = template.split(" ", 1)[0]
    return ("loading", "unloading") if head == "{ing}" else (head,)


def _build() -> dict[tuple[int, str], list[WordTemplate]]:
    table: dict[tuple[int, str], list[WordTemplate]] = {}
    items: list[tuple[str, str]] = []
    for source, group in (("handle", HANDLE), ("truck", DRIVE), ("airplane", FLY)):
        for templates in group.values():
            items += [(source, t) for t in templates]
    items += list(DATA_VARIANTS)
    seen: set[tuple[Any, ...]] = set()
    for source, t in items:
        wt = _word_template(source, t)
        # Templates that differ only in punctuation inside a word ("from {s}, truck"
        # and "from {s} truck") read the same words: keep the first, since a
        # later duplicate could never match a sentence the first did not.
        shape = (*wt[:2], *wt[3:])
        if shape in seen:
            continue
        seen.add(shape)
        for first in _first(t):
            table.setdefault((wt.n_words, first), []).append(wt)
    return table


BY_SHAPE: dict[tuple[int, str], list[WordTemplate]] = _build()
"""Word templates bucketed by (number of words, first word)."""
