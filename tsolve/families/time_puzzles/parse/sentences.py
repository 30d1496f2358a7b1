"""A puzzle text as numbered sentences.

Each list item (``1. …``, ``- …``, ``* …``) and each other line is a unit; a
unit is then split at sentence ends. A fact sentence of tsolve's own may hold
inner dots ("Harry S. Truman", "Martin Luther King Jr."), so the reader first
tries a whole unit and splits it only when the whole does not read
(:func:`units`, :func:`split_sentences`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(r"^\s*(?:\(?\d{1,3}[.)]|[-*•])\s+")
# A sentence ends at . ! ? (and a closing quote or bracket), before a space and
# a capital, a digit or a quote; not after an initial ("S.") or a known abbreviation.
_END = re.compile(r"(?<=[.!?])[\"'”’)]?\s+(?=[A-Z0-9\"'“‘(])")
_ABBREVIATIONS = re.compile(
    r"(?:\b[A-Z]|\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Mt|No|vs|etc|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug"
    r"|Sep|Sept|Oct|Nov|Dec|U\.S|e\.g|i\.e))\.$"
)


@dataclass(frozen=True)
class Sentence:
    """A piece of the text: its 1-based ``line`` and its words (list marker removed)."""

    line: int
    text: str


def units(text: str) -> list[Sentence]:
    """Every non-blank line, list markers removed; a line that continues the
    previous one (no list marker, no blank line between, the previous one not
    ended by a full stop or colon) is joined to it."""
    out: list[Sentence] = []
    joinable = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            joinable = False
            continue
        item = _ITEM.match(line)
        body = line[item.end() :].strip() if item else line
        if joinable and not item and out:
            out[-1] = Sentence(out[-1].line, out[-1].text + " " + body)
        else:
            out.append(Sentence(number, body))
        joinable = not re.search(r"[.:!?]$", body)
    return out


def split_sentences(unit: Sentence) -> list[Sentence]:
    """``unit`` cut at its sentence ends (see the module docstring)."""
    pieces: list[str] = []
    start = 0
    for m in _END.finditer(unit.text):
        head = unit.text[start : m.start()]
        if _ABBREVIATIONS.search(head.rstrip("\"'”’)")):
            continue
        pieces.append(head.strip())
        start = m.end()
    pieces.append(unit.text[start:].strip())
    return [Sentence(unit.line, p) for p in pieces if p]
