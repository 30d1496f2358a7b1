"""Reading dates out of raw model text.

Models do not follow formats exactly: they bold the answer line, write
"My answer:", put the dates on the next line, or spell months out. The parser
accepts all of that, but it never guesses: text with no recognisable answer
line, or an answer line with neither dates nor an explicit "None", is a parse
failure that scores 0 and is flagged, not silently read as "no dates".

This module is also the one home of the final-answer rule every family's
scorer uses (:func:`final_answer`, with the one marker rule
:data:`ANSWER_LINE`), of the folding of the answer text (:func:`plain_text`:
Unicode dashes, full-width digits) and of what counts as a justification
rather than a second answer (:func:`is_justification`).
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
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

# The answer markers each family's prompt asks for. In a sentence they are
# found by :func:`last_marker_end`; a final-answer line is found by the one
# rule every family shares, :data:`ANSWER_LINE`, whichever of them is passed.

MARKER = re.compile(r"my[\s*_`]*answer[\s*_`]*[:：]", re.IGNORECASE)
"""``MY ANSWER:``, also in markdown (``**MY ANSWER:**``): Time Puzzles and
relational puzzles (:func:`last_marker_end` has a fast path for it)."""

PLAIN_MARKER = re.compile(r"my\s+answer\s*[:：]", re.IGNORECASE)
"""``MY ANSWER:`` as the cross-calendar questions ask for it: words apart, no
markdown inside."""

# One run of whitespace at each position: the former ``answer\s*(?:is)?\s*[:-]``
# let two adjacent ``\s*`` split a long run of spaces every possible way, which
# is quadratic in the run's length ("Answer" + 100,000 spaces took 46 s).
LOOSE_MARKER = re.compile(r"answer\s*(?:is\s*)?[:：\-]", re.I)
"""``Answer:``, ``Final answer -``, ``the answer is:``: UnSeenTimeQA-style
timeline questions (they ask for "Answer:"; "Final answer:" needs no prefix,
as only the end is used)."""

DATE_RE = re.compile(
    rf"""
    (?P<iso>\b(?P<y1>\d{{4}})[-/.](?P<m1>\d{{1,2}})[-/.](?P<d1>\d{{1,2}})\b)
  | (?P<mdy>\b(?P<mon2>{_MONTH_RE})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{{4}})\b)
  | (?P<dmy>\b(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?
        (?P<mon3>{_MONTH_RE})\.?,?\s+(?P<y3>\d{{4}})\b)
    """,
    re.IGNORECASE | re.VERBOSE,
)

_NONE_PHRASE = re.compile(
    r"^(?:none|n/?a|nothing|∅|\{\s*\}|\[\s*\]|"
    r"(?:there\s+(?:is|are|exists?)\s+)?no\s+(?:valid\s+|such\s+|possible\s+|matching\s+)?"
    r"(?:dates?|days?|solutions?|combinations?)"
    r"(?:\s+(?:exists?|fits?|works?|is\s+possible|are\s+possible|remains?))?)"
    r"(?=$|[\s.!;:,(\[\-–—])",
    re.IGNORECASE,
)

HEDGE_WORDS = frozenset(
    ["or", "either", "maybe", "perhaps", "possibly", "probably", "likely", "unlikely",
     "unsure", "unknown", "unclear", "uncertain", "might", "guess", "sure", "idea", "know",
     "tell", "determine", "determined", "depends", "depending", "unless", "if", "but",
     "however", "though", "although", "alternatively"]
)  # fmt: skip
"""Words that turn what follows an answer into a hedge ("Yes, or maybe no",
"None, but possibly ..."), so that it is not read as a justification."""

_JUSTIFICATION_START = re.compile(r"^\s*(?:$|[.!;:,(\[\-–—])")


def is_justification(rest: str, answers: frozenset[str] = frozenset()) -> bool:
    """Is ``rest``, the text after an answer, only a justification of it: empty,
    or starting with punctuation (a comma, a full stop, a bracket, a dash)
    and holding no hedge word (:data:`HEDGE_WORDS`) and none of ``answers``
    (the words a second answer would be, such as "yes" and "no")?"""
    if not _JUSTIFICATION_START.match(rest):
        return False
    words = set(re.findall(r"[a-z]+", rest.lower()))
    return not (words & HEDGE_WORDS or words & answers)


def is_none_answer(text: str) -> bool:
    """Does the answer text say that nothing fits ("None", "No valid date
    exists.", "None (no date satisfies all constraints)"), with at most a
    justification after it (:func:`is_justification`)? The caller has checked
    that it names no date."""
    plain = _DECOR.sub("", text).strip()
    m = _NONE_PHRASE.match(plain)
    return m is not None and is_justification(plain[m.end() :])


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


# ------------------------------------------------------------ the final answer
#
# One extraction rule for every family (docs/scoring.md), used by ``tsolve
# verify``, the facade's ``score_answer`` and the Inspect scorer alike:
#
# 1. The answer is on the last line that *starts* with an answer marker
#    (:data:`ANSWER_LINE`, the same for every family; after spaces, markdown
#    and list bullets): the prompts ask for it "on a new line". A marker
#    inside a sentence (an echoed instruction such as 'respond with "MY
#    ANSWER: None"') is not one.
# 2. Without such a line, the last ``\boxed{...}`` of the output is the answer.
# 3. Without either, an output of one non-blank line is a *bare* answer (what
#    the facade's ``answer`` field holds); a family whose answer spans lines
#    (relational tuples) takes every line. Anything longer is a parse failure:
#    free text is never searched for an answer.

_LEAD = r"[ \t>#*_`\-•+]*"
_LINE_MARKERS: dict[str, re.Pattern[str]] = {}
_MD = r"[ \t*_`]"  # spaces and markdown emphasis, which may sit inside the marker

ANSWER_LINE = re.compile(
    _LEAD
    + rf"(?:(?:the|my){_MD}+)?(?:final{_MD}+)?answer"
    + rf"(?:{_MD}*[:：\-]|{_MD}+is\b{_MD}*[:：]?|[ \t*_`#]*$)",
    re.IGNORECASE,
)
"""The one marker rule of every family: a line starting (after spaces, a
quote, a heading's ``#``, a list bullet or markdown) with ``MY ANSWER:``,
``Answer:``, ``Final answer:``, ``The answer is`` (colon optional), markdown
around or inside the words (``**MY ANSWER**:``, ``**Final Answer:**``), or
such words alone on the line as a heading (``## MY ANSWER``), the answer
then on the next line. The families' prompts ask for different markers, but
a model following any of them, or the alternatives the docs list, writes one
of these; one rule means one output scores the same whatever family reads it."""


def _line_marker(marker: re.Pattern[str]) -> re.Pattern[str]:
    """``marker`` anchored at a line's start, after :data:`_LEAD`: for the
    families' markers (:data:`MARKER`, :data:`PLAIN_MARKER`,
    :data:`LOOSE_MARKER`) the one rule, :data:`ANSWER_LINE`."""
    if marker is MARKER or marker is PLAIN_MARKER or marker is LOOSE_MARKER:
        return ANSWER_LINE
    found = _LINE_MARKERS.get(marker.pattern)
    if found is None:
        found = re.compile(_LEAD + "(?:" + marker.pattern + ")", marker.flags)
        _LINE_MARKERS[marker.pattern] = found
    return found


_TEXT = re.compile(r"\\text\{([^{}]*)\}")
_BOXED = re.compile(r"\\boxed\s*\{")
_EDGE = " \t\r\f\v*_`\"'“”‘’$"  # str.strip: a regex "[...]+$" is quadratic in a long run


def _boxed_contents(text: str) -> list[tuple[int, str]]:
    """``(start, contents)`` of every ``\\boxed{...}`` whose braces close.
    The braces are matched in one pass (a stack), so a text of unclosed
    boxes costs linear time, not a scan to the end per box."""
    opens = list(_BOXED.finditer(text))
    if not opens:
        return []
    close: dict[int, int] = {}
    stack: list[int] = []
    for i in range(opens[0].end() - 1, len(text)):
        c = text[i]
        if c == "{":
            stack.append(i)
        elif c == "}" and stack:
            close[stack.pop()] = i
    out = []
    for m in opens:
        end = close.get(m.end() - 1)
        if end is not None:
            out.append((m.start(), text[m.end() : end]))
    return out


_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2212\ufe58\ufe63\uff0d", "-"))
"""Dashes models write inside dates (the non-breaking hyphen U+2011, the en
dash, the minus sign, ...), read as ``-``. The em dash is left alone: it
separates a justification from the answer, never parts of a date."""


def plain_text(text: str) -> str:
    """``text`` with compatibility characters folded (NFKC: full-width digits
    and letters, non-breaking spaces) and date dashes as ``-``; ASCII text is
    returned as it is."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", text).translate(_DASHES)


_BULLET = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+")


def clean_answer_line(line: str, *, bullet: bool = False) -> str:
    """An answer line without its wrapping: markdown emphasis, quotes, ``$``,
    ``\\boxed{}`` and ``\\text{}`` (one box on the line: its contents), with
    :func:`plain_text`'s folding; ``bullet``: a list bullet too (``- ``,
    ``1. ``), for the lines under a marker."""
    line = plain_text(line)
    if bullet:
        line = _BULLET.sub("", line, count=1)
    if "boxed" in line:
        boxes = _boxed_contents(line)
        if len(boxes) == 1:
            line = boxes[0][1]
    if "\\text" in line:
        line = _TEXT.sub(r"\1", line)
    return line.strip().strip(_EDGE)


@dataclass(frozen=True)
class FinalAnswer:
    """The answer line(s) of a model output (cleaned), or why there are none."""

    lines: tuple[str, ...] = ()
    reason: str = ""
    how: str = ""  # "marker", "boxed" or "bare"
    under: int = 0  # how many of ``lines`` (the last ones) stood under the marker line

    @property
    def failed(self) -> bool:
        return not self.lines

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def final_answer(
    output: object, marker: re.Pattern[str], *, block: bool = False, follow: bool = False
) -> FinalAnswer:
    """The final answer of ``output`` by the one rule above.

    ``block``: the answer is the run of marker lines ending at the last one
    (blank lines allowed between; relational tuples), and a bare answer may
    span lines. ``follow``: the non-blank lines right after the marker line
    belong to the answer (a list of dates under ``MY ANSWER:``); else only
    the next line does, and only when the marker line itself is empty."""
    if not isinstance(output, str):
        return FinalAnswer(reason="output is not a string")
    anchored = _line_marker(marker)
    if not block and output.isascii() and not any(c in output for c in _OTHER_BREAKS):
        found = _last_marker_line(output, anchored)
        if found is not None:  # only the marker line and what follows are split
            start, end = found
            lines = output[start:].splitlines()
            return _from_marker_lines(lines, {0: end - start}, block, follow)
    lines = output.splitlines()
    ends: dict[int, int] = {}
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        # Every marker holds "answer": most lines are skipped without the regex.
        m = anchored.match(line) if "answer" in line.lower() else None
        if m is not None:
            ends[i] = m.end()
            if not block:
                break
        elif block and ends and line.strip():
            break  # the block of marker lines ends here
    if ends:
        return _from_marker_lines(lines, ends, block, follow)
    boxes = _boxed_contents(output)
    if boxes:
        inner = clean_answer_line(boxes[-1][1])
        if not inner:
            return FinalAnswer(reason="empty \\boxed{}")
        return FinalAnswer((inner,), how="boxed")
    body = [clean_answer_line(ln) for ln in lines if ln.strip()]
    body = [b for b in body if b]
    if not body:
        return FinalAnswer(reason="empty output")
    if len(body) == 1 or block:
        return FinalAnswer(tuple(body), how="bare")
    return FinalAnswer(reason=f"no final answer line (a line starting with {_marker_name(marker)})")


_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")
"""The ASCII line breaks ``str.splitlines`` knows besides ``\\n`` (looked
for with ``in``, a fast search; a regex class scans ten times slower)."""


def _last_marker_line(text: str, anchored: re.Pattern[str]) -> tuple[int, int] | None:
    """``(line start, marker end)`` of the last line of ASCII ``text`` that
    starts with ``anchored``, found backwards from each "answer" (every
    marker holds one) instead of splitting the whole output into lines:
    outputs are mostly reasoning with the answer line at the end. The same
    line as the line-by-line scan finds (a property test checks it); only
    ASCII text without other line breaks (:data:`_OTHER_BREAKS`) takes this
    path, where lower-casing keeps offsets and ``\\n`` ends every line."""
    low = text.lower()
    end = len(low)
    while (k := low.rfind("answer", 0, end)) >= 0:
        start = text.rfind("\n", 0, k) + 1
        stop = text.find("\n", k)
        m = anchored.match(text, start, len(text) if stop < 0 else stop)
        if m is not None:
            return start, m.end()
        end = start  # the rest of this line holds no marker at its start
    return None


def _from_marker_lines(
    lines: list[str], ends: dict[int, int], block: bool, follow: bool
) -> FinalAnswer:
    """The answer from ``lines`` whose marker lines end their markers at
    ``ends`` (line index -> offset): see :func:`final_answer`."""
    last = max(ends)
    if block:
        picked = [clean_answer_line(lines[i][ends[i] :]) for i in sorted(ends)]
        picked = [p for p in picked if p]
    else:
        rest = clean_answer_line(lines[last][ends[last] :])
        picked = [rest] if rest else []
    marked = len(picked)
    if follow or not picked:
        # The lines under the last marker line: a list under "MY ANSWER:", or
        # the answer under a heading; one line only unless ``follow``.
        empty = not clean_answer_line(lines[last][ends[last] :])
        for line in lines[last + 1 :]:
            if not line.strip():
                if len(picked) > marked or not empty:
                    break
                continue
            picked.append(clean_answer_line(line, bullet=True))
            if not follow:
                break
    picked = [p for p in picked if p]
    if not picked:
        return FinalAnswer(reason="the answer line is empty")
    return FinalAnswer(tuple(picked), how="marker", under=len(picked) - marked)


def _marker_name(marker: re.Pattern[str]) -> str:
    return "'Answer:'" if marker is LOOSE_MARKER else "'MY ANSWER:'"


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


_NUMERIC = re.compile(r"(?<![\d/.\-])(\d{1,2})([/.\-])(\d{1,2})\2(\d{4})(?![\d/.\-])")
DATE_ORDERS = ("dmy", "mdy")
"""The locales a record may declare (``date_order``) for numeric dates."""


def read_numeric_dates(text: str, date_order: str | None = None) -> tuple[str, str]:
    """``text`` with each ``D/M/YYYY`` or ``M/D/YYYY`` date written as ISO, and
    the reason it cannot be ("" when it can): a form whose first two numbers
    are both month numbers (05/06/2014) is ambiguous unless ``date_order``
    says which comes first; one with a number above 12 is read the only way
    it can be."""
    reason = ""

    def one(m: re.Match[str]) -> str:
        nonlocal reason
        a, b, y = int(m[1]), int(m[3]), m[4]
        if date_order == "dmy" or (date_order is None and a > 12 >= b):
            day, month = a, b
        elif date_order == "mdy" or (date_order is None and b > 12 >= a) or a == b:
            month, day = a, b
        else:
            reason = (f"ambiguous numeric date {m[0]!r}: day and month order unknown "
                      "(write YYYY-MM-DD, or declare the record's date_order)")  # fmt: skip
            return m[0]
        return f"{y}-{month:02d}-{day:02d}"

    return _NUMERIC.sub(one, text), reason


_JOINERS = re.compile(r"^(?:[\s,;.&]|\band\b|\bor\b)*$", re.IGNORECASE)


def only_dates(text: str) -> bool:
    """Is ``text`` nothing but dates and separators (commas, "and", "or")?
    A bare answer, which has no marker to say where the answer starts, must
    be: "ANSWER 2020-01-01" or a sentence holding a date is not one."""
    return bool(_JOINERS.match(DATE_RE.sub(" ", text)))


def date_order(record: object) -> str | None:
    """A record's declared order of numeric dates (``date_order``: ``"dmy"``
    or ``"mdy"``), which lets ``05/06/2014`` be read; None when it declares none."""
    order = record.get("date_order") if isinstance(record, dict) else None
    return order if order in DATE_ORDERS else None


_NONE_WORD = re.compile(r"\bnone\b", re.IGNORECASE)
_TAIL_EDGE = " \t.,;:!?()[]-\u2013\u2014*_`\"'"


def gives_none_and_dates(answer: str) -> bool:
    """Does ``answer``, which names dates, also give ``None`` as an answer?

    A ``None`` before or between the dates does ("None, 2020-01-01",
    "2020-01-01, None, 2020-01-02"), and so does one after them that stands
    alone ("2020-01-01, None", "2020-01-01 (None)") or sits in a hedge
    ("2020-01-01 (or none)"). A ``None`` inside a justification after the
    last date does not: "2020-01-01 (None of the others fit)" answers
    2020-01-01, as "2020-01-01 (no other date fits)" does."""
    if not _NONE_WORD.search(answer):
        return False
    last = None
    for found in DATE_RE.finditer(answer):
        last = found
    if last is None or _NONE_WORD.search(answer, 0, last.end()):
        return True
    tail = answer[last.end() :]
    return not is_justification(tail) or bool(_NONE_WORD.fullmatch(tail.strip(_TAIL_EDGE)))


def parse_answer(output: object, date_order: str | None = None) -> ParsedAnswer:
    """Parse the final ``MY ANSWER: ...`` of a model output (Time Puzzles, App. E)
    by :func:`final_answer`'s rule: the dates of the answer line (and of the
    list lines right under it), or an explicit ``None``. A line giving both,
    an ambiguous numeric date, or neither, is a parse failure."""
    found = final_answer(output, MARKER, follow=True)
    if found.failed:
        return ParsedAnswer(failed=True, reason=found.reason)
    answer = found.text
    answer, ambiguous = read_numeric_dates(answer, date_order)
    if ambiguous:
        return ParsedAnswer(failed=True, reason=ambiguous, answer_text=answer)
    dates, invalid = find_dates(answer)
    if found.how == "bare" and (dates or invalid) and not only_dates(answer):
        return ParsedAnswer(failed=True, answer_text=answer, reason=(
            "an answer without a 'MY ANSWER:' line must be only dates (or None)"))  # fmt: skip
    if (dates or invalid) and gives_none_and_dates(answer):
        return ParsedAnswer(failed=True, reason="the answer gives both None and dates",
                            answer_text=answer)  # fmt: skip
    if dates or invalid:
        return ParsedAnswer(dates=sorted(dates), invalid=invalid, answer_text=answer)
    if is_none_answer(answer):
        return ParsedAnswer(is_none=True, answer_text=answer)
    return ParsedAnswer(failed=True, reason="answer line has no dates and is not 'None'",
                        answer_text=answer)  # fmt: skip
