"""The question sentence: "[If X starts at T [and Y is delayed by N minutes],]
where is the package p [at T | N hours before/after T]?"."""

from __future__ import annotations

import re

from tsolve.errors import TsolveError
from tsolve.families.logistics.clock import CLOCK_RE, clock_from_match
from tsolve.families.logistics.model import QUESTION_TYPES, Question, QuestionType, Scenario, Shift
from tsolve.families.logistics.parse.events import parse_event_text
from tsolve.families.logistics.parse.lexicon import ID_GROUP, ID_PATTERN

_WHERE_RE = re.compile(
    r"where\s+is\s+(?:the\s+)?(?:package|product|parcel)?\s*" + ID_GROUP + r"\s*(.*)$", re.S
)
_OFFSET_RE = re.compile(r"(\d+)\s*(hours?|hrs?|minutes?|mins?)\b")
_CLAUSE_RE = re.compile(
    r"(?P<ev>[a-z].*?)\s*,?\s+(?:starts?\s+at\s+(?P<time>"
    + CLOCK_RE.pattern
    + r")|(?:is\s+|gets\s+)?(?P<dir>delayed|expedited|advanced)\s+by\s+"
    r"(?P<n>\d+)\s*(?P<unit>hours?|min\w*))"
)
_LEAD_RE = re.compile(r"^(?:\s|,|\bif\b|\band\b)+")
# The canonical event phrases of questions (fast path; anything else is read by parts).
_PHRASE_RE = re.compile(
    rf"(?P<un>un)?loading package (?P<p>{ID_PATTERN}) (?:into|from) (?P<vt>truck|airplane)"
    rf" (?P<v>{ID_PATTERN}) at location (?P<l>{ID_PATTERN})"
    rf"|(?:driving (?P<t>truck)|flying airplane) (?P<mv>{ID_PATTERN}) from location"
    rf" (?P<o>{ID_PATTERN}) to location (?P<d>{ID_PATTERN})"
)


def _phrase_key(phrase: str) -> tuple[str, str, str | None, str | None, str | None, str | None]:
    """The :attr:`EventText.key` of an event phrase in a question's condition."""
    m = _PHRASE_RE.fullmatch(phrase)
    if m is None:
        return parse_event_text(phrase, need_timing=False).key
    if m.group("p") is not None:
        kind = "unload" if m.group("un") else "load"
        return (kind, m.group("v"), m.group("p"), m.group("l"), None, None)
    return ("move", m.group("mv"), None, None, m.group("o"), m.group("d"))


def parse_question(text: str, scenario: Scenario, question_type: str | None = None) -> Question:
    """ "[If X starts at T [and Y is delayed by N minutes],] where is the package p
    [at T | N hours before/after T]?" -> :class:`Question`."""
    low = " ".join(text.lower().split())
    wm = _WHERE_RE.search(low)
    if not wm:
        raise TsolveError(f"question: cannot find 'where is the package ...' in {text!r}")
    package = wm.group(1)
    rest = wm.group(2)
    times = list(CLOCK_RE.finditer(rest))
    if not times:
        raise TsolveError(f"question: no clock time after the package in {text!r}")
    clock = clock_from_match(times[-1])
    offset = 0
    head = rest[: times[-1].start()]
    if "before" in head or "after" in head:
        total = 0
        for m in _OFFSET_RE.finditer(head):
            total += int(m.group(1)) * (60 if m.group(2).startswith("h") else 1)
        if total == 0 and not _OFFSET_RE.search(head):
            raise TsolveError(f"question: relative time without an amount in {text!r}")
        offset = -total if "before" in head else total
    anchor: tuple[int, int] | None = None
    shifts: list[Shift] = []
    prefix = low[: wm.start()]
    for m in _CLAUSE_RE.finditer(prefix):
        phrase = _LEAD_RE.sub("", m.group("ev"))
        idx = scenario.find(_phrase_key(phrase.strip()))
        if m.group("time"):
            anchor = (idx, clock_from_match(CLOCK_RE.search(m.group("time"))))  # type: ignore[arg-type]
        else:
            n = int(m.group("n")) * (60 if m.group("unit").startswith("h") else 1)
            shifts.append(Shift(idx, -n if m.group("dir") != "delayed" else n))
    if prefix.strip(" ,") and anchor is None and not shifts:
        raise TsolveError(f"question: cannot read the condition {prefix.strip()!r}")
    if question_type is None:
        question_type = (
            "hypothetical_time" if shifts else ("relative_time" if offset else "static_time")
        )
    if question_type not in QUESTION_TYPES:
        raise TsolveError(f"question_type: unknown value {question_type!r}")
    if package not in scenario.initial and not any(e.package == package for e in scenario.events):
        raise TsolveError(f"question: package {package!r} is not in the scenario")
    qt: QuestionType = question_type
    return Question(package, clock, offset, anchor, tuple(shifts), qt)
