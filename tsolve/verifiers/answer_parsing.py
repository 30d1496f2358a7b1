"""Reading dates out of raw model text.

Models do not follow formats exactly: they bold the answer line, write
"My answer:", put the dates on the next line, or spell months out. The parser
accepts all of that, but it never guesses: text with no recognisable answer
line, or an answer line with neither dates nor an explicit "None", is a parse
failure that scores 0 and is flagged, not silently read as "no dates".

This module is also the one home of the answer markers every family's scorer
looks for (:data:`MARKER`, :data:`PLAIN_MARKER`, :data:`LOOSE_MARKER`) and of
the one function that finds the last of them (:func:`last_marker_end`).
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field

_MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ],
        1,
    )
    for name in names
}  # fmt: skip
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))

# The answer markers. Each family's prompt asks for its own, and a scorer
# reads exactly the marker its scores were defined with: widening one would
# change scores of outputs that are already graded.

MARKER = re.compile(r"my[\s*_`]*answer[\s*_`]*[:：]", re.IGNORECASE)
"""``MY ANSWER:``, also in markdown (``**MY ANSWER:**``): Time Puzzles and
relational puzzles (:func:`last_marker_end` has a fast path for it)."""

PLAIN_MARKER = re.compile(r"my\s+answer\s*[:：]", re.IGNORECASE)
"""``MY ANSWER:`` as SPAN asks for it: words apart, no markdown inside."""

# One run of whitespace at each position: the former ``answer\s*(?:is)?\s*[:-]``
# let two adjacent ``\s*`` split a long run of spaces every possible way, which
# is quadratic in the run's length ("Answer" + 100,000 spaces took 46 s).
LOOSE_MARKER = re.compile(r"answer\s*(?:is\s*)?[:：\-]", re.I)
"""``Answer:``, ``Final answer -``, ``the answer is:``: logistics (UnSeenTimeQA
asks for "Answer:"; "Final answer:" needs no prefix, as only the end is used)."""

DATE_RE = re.compile(
    rf"""
    (?P<iso>\b(?P<y1>\d{{4}})[-/.](?P<m1>\d{{1,2}})[-/.](?P<d1>\d{{1,2}})\b)
  | (?P<mdy>\b(?P<mon2>{_MONTH_RE})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{{4}})\b)
  | (?P<dmy>\b(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?
        (?P<mon3>{_MONTH_RE})\.?,?\s+(?P<y3>\d{{4}})\b)
    """,
    re.IGNORECASE | re.VERBOSE,
)

_NONE_RE = re.compile(
    r"^(none|no valid dates?|no dates?|no solutions?|no valid solutions?|n/?a|nothing|"
    r"there (is|are) no valid dates?|∅|\{\s*\}|\[\s*\])[.!]?$",
    re.IGNORECASE,
)
_DECOR = re.compile(r"[*_`#>\"']")


@dataclass
class ParsedAnswer:
    """``dates`` are ISO strings of valid dates; ``invalid`` holds date-like
    tokens that are not real dates (``2023-02-30``): they count as wrong answers.
    ``failed`` means nothing usable was found, with ``reason`` saying why."""

    dates: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    is_none: bool = False
    failed: bool = False
    reason: str = ""
    answer_text: str = ""


def last_marker_end(text: str, marker: re.Pattern[str] = MARKER) -> int | None:
    """Where the last ``marker`` of ``text`` ends, as ``marker.finditer`` finds
    them (None if there is none); the answer follows it.

    Model outputs are mostly reasoning, with the marker near the end, so for
    :data:`MARKER` and ASCII text the marker is looked for backwards from each
    "answer" (found by ``rfind``) instead of scanning the whole text with the
    regex. That gives the same match: each marker holds exactly one "answer",
    markers cannot start inside one another, and the one whose "answer" comes
    last is the one ``MARKER.finditer`` would find last. Non-ASCII text takes
    the plain scan (case-insensitive matching has Unicode cases a lower-cased
    ``rfind`` would miss, such as the long s in "anſwer"), and so do the other
    markers.
    """
    if marker is not MARKER or not text.isascii():
        ends = [m.end() for m in marker.finditer(text)]
        return ends[-1] if ends else None
    low = text.lower()
    end = len(low)
    while (k := low.rfind("answer", 0, end)) >= 0:
        j = k
        while j > 0 and (low[j - 1].isspace() or low[j - 1] in "*_`"):
            j -= 1
        if j >= 2 and low[j - 2 : j] == "my" and (m := MARKER.match(text, j - 2)) is not None:
            return m.end()
        end = k  # "answer" cannot overlap itself, so the next one ends before k
    return None


def _answer_text(text: str) -> str | None:
    at = last_marker_end(text)
    if at is None:
        return None
    rest = text[at:]
    lines: list[str] = []
    for line in rest.splitlines():
        if line.strip():
            lines.append(line)
        elif lines:
            break
    return "\n".join(lines).strip()


_ISO_LIST = re.compile(r"^\s*\d{4}-\d{2}-\d{2}(?:\s*,\s*\d{4}-\d{2}-\d{2})*\s*\.?\s*$")


def find_dates(text: str) -> tuple[list[str], list[str]]:
    """All date mentions in order: (valid ISO dates, invalid date-like tokens)."""
    if _ISO_LIST.match(text):  # the format the prompt asks for: skip the general scan
        dates = _iso_list_dates(text)
        if dates is not None:
            return dates, []
    return scan_dates(text)


def _iso_list_dates(text: str) -> list[str] | None:
    """The dates of a comma-separated list of ``YYYY-MM-DD`` (:data:`_ISO_LIST`
    matched it), each once, in order; None if one is not a real date (the
    general scan then says which). An ASCII date that ``fromisoformat``
    accepts is already in the form it would write back, so only non-ASCII
    digits (which ``\\d`` also matches) are written back."""
    tokens = [t.strip() for t in text.strip().rstrip(".").split(",")]
    try:
        if text.isascii():
            for t in tokens:
                _dt.date.fromisoformat(t)
        else:
            tokens = [_dt.date.fromisoformat(t).isoformat() for t in tokens]
    except ValueError:
        return None
    return list(dict.fromkeys(tokens))


def scan_dates(text: str) -> tuple[list[str], list[str]]:
    """:func:`find_dates` without its fast path: every ISO, ``Month D, YYYY``
    and ``D Month YYYY`` mention, read by :data:`DATE_RE`."""
    valid: list[str] = []
    invalid: list[str] = []
    for m in DATE_RE.finditer(text):
        if m.group("iso"):
            y, mo, d = int(m["y1"]), int(m["m1"]), int(m["d1"])
        elif m.group("mdy"):
            y, mo, d = int(m["y2"]), _MONTHS[m["mon2"].lower()], int(m["d2"])
        else:
            y, mo, d = int(m["y3"]), _MONTHS[m["mon3"].lower()], int(m["d3"])
        try:
            iso = _dt.date(y, mo, d).isoformat()
        except ValueError:
            invalid.append(m.group(0))
            continue
        if iso not in valid:
            valid.append(iso)
    return valid, invalid


def parse_answer(output: object) -> ParsedAnswer:
    """Parse the final ``MY ANSWER: ...`` of a model output (Time Puzzles, App. E)."""
    if not isinstance(output, str):
        return ParsedAnswer(failed=True, reason="output is not a string")
    answer = _answer_text(output)
    if answer is None:
        return ParsedAnswer(failed=True, reason="no 'MY ANSWER:' line")
    dates, invalid = find_dates(answer)
    if dates or invalid:
        return ParsedAnswer(dates=sorted(dates), invalid=invalid, answer_text=answer)
    plain = _DECOR.sub("", answer).strip().rstrip(".").strip()
    if _NONE_RE.match(plain) or _NONE_RE.match(plain + "."):
        return ParsedAnswer(is_none=True, answer_text=answer)
    return ParsedAnswer(failed=True, reason="answer line has no dates and is not 'None'",
                        answer_text=answer)  # fmt: skip
