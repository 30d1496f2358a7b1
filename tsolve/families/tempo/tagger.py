"""A rule-based, deterministic temporal tagger: text -> findings with spans and intervals.

Why not a library: dateparser's ``search_dates`` (1.5.0) was the candidate. It
returns ``(substring, datetime)`` pairs: no character offsets (a repeated
substring cannot be located), and a *point*, with missing parts filled from
today ("2019" becomes 2019-<today's month and day>), so the precision that
decides overlap is lost; it has no decades, quarters, centuries or ranges, and
its output for a fixed text changes with the day it runs. The project's rule
is that a scope must be exact and reproducible, so the tagger is about 20
regular expressions in two passes and no dependency (no optional extra either: it
would give different answers from the default install).

Pass 1 finds *atoms*: full dates (ISO, "March 5, 2019", "5 March 2019"),
months ("March 2019", "2019-03"), quarters ("Q3 2021", "the third quarter of
2021"), halves ("H1 2020"), years, short year ranges ("2010–14"), decades
("the 1990s"), centuries ("the 19th century") and relative expressions ("last
year", "two years ago", "next month", "yesterday", "the past 3 years"), which
resolve only against a reference date. Overlapping candidates are resolved
longest first, so "March 2019" is one month, not a month and a year.

Pass 2 joins atoms with the words around them: "between A and B", "from A to
B", "A–B" / "A to B" (a range from the start of A to the end of B) and "since
/ from / until / till / through / by / before / prior to / after A" (open
ranges; see :mod:`tsolve.families.tempo.intervals` for the exact bounds). A joined
range is one finding, so a year inside a range is never reported twice.

Readings a careful reader could take two ways are flagged, never silently
decided: "the 1900s" (the decade 1900-1909 or the century 1900-1999),
centuries ("the 19th century": 1800-1899 as commonly meant, or 1801-1900
by strict counting), "2010-12"
(December 2010 or 2010-2012). The finding's interval is the first reading;
``alternatives`` holds the others. Numeric dates like 03/05/2019 are not
tagged at all (month-first and day-first readings differ).
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tsolve.bounded_scan import bounded_finditer
from tsolve.families.tempo import intervals as iv
from tsolve.families.tempo.intervals import Interval

MAX_TEXT = 1_000_000
#: The longest expression pass 1 reads, in characters. Every regex call sees a
#: bounded window (:func:`tsolve.bounded_scan.bounded_finditer`), so tagging
#: is linear in the text whatever it holds (the scaling check,
#: :mod:`tsolve.stress.scaling`).
MAX_EXPRESSION = 160
#: How far pass 2 looks around an atom for the words that join it ("between",
#: "and", "since the start of"): at most this many characters.
JOIN_REACH = 64


@dataclass(frozen=True)
class Finding:
    """One temporal expression: ``text == source[start:end]``.

    ``interval`` is None for a relative expression with no reference date."""

    start: int
    end: int
    text: str
    kind: str
    interval: Interval | None
    alternatives: tuple[Interval, ...] = ()
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "kind": self.kind,
            "interval": None if self.interval is None else self.interval.to_json(),
        }
        if self.alternatives:
            out["alternatives"] = [a.to_json() for a in self.alternatives]
        if self.note:
            out["note"] = self.note
        return out


# ------------------------------------------------------------------ vocabulary

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
MON = r"(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"  # noqa: E501
_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_NUMBERS = {w: i for i, w in enumerate(_NUMBER_WORDS.split(" "))}
_NUMBERS.update({"a": 1, "an": 1})
NUM = r"(?:\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + ")"
_ORDINAL_WORDS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
)
_ORDINALS = {w: i for i, w in enumerate(_ORDINAL_WORDS.split(" "))}
_ORDINALS["twenty-first"] = 21
_ORDINALS["twenty first"] = 21
ORD_WORD = "|".join(sorted(_ORDINALS, key=len, reverse=True))
YEAR = r"(1\d{3}|2\d{3})"  # bare years: 1000-2999
# A bare number is a year only when it is not part of a larger number, an
# amount or a percentage: "1,500", "$2000", "2000%" and "2019.5" are not years.
_YB = r"(?<![\w$£€.,/])"
_YA = r"(?![\w%/]|[.,]\d)"
# Prefix/suffix words that join atoms (pass 2).
_OPEN_BEFORE = re.compile(
    r"(?i)\b(since|from|starting(?: in)?|beginning(?: in)?|until|till|up to|through|by|"
    r"before|prior to|after)\s+(?:the\s+(end|start|beginning)\s+of\s+)?$"
)
_RANGE_START = re.compile(r"(?i)\b(between|from)\s+$")
_RANGE_GAP = {"between": re.compile(r"(?i)^\s+and\s+$"),
              "from": re.compile(r"(?i)^\s+(?:to|until|till|through|-|–|—)\s+$")}  # fmt: skip
_BARE_GAP = re.compile(r"(?i)^(?:\s*[-–—]\s*|\s+to\s+|\s+through\s+)$")


def _num(word: str) -> int:
    w = word.lower()
    return int(w) if w.isdigit() else _NUMBERS[w]


def _mon(word: str) -> int:
    return _MONTHS[word.lower().rstrip(".")]


@dataclass
class _Atom:
    start: int
    end: int
    kind: str
    interval: Interval | None
    alternatives: tuple[Interval, ...] = ()
    note: str = ""
    rank: int = 0  # tie-break among candidates of equal length: rule order


Rule = tuple[str, re.Pattern[str], Callable[[re.Match[str], _dt.date | None], Any]]
_RULES: list[Rule] = []


def _rule(kind: str, pattern: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        _RULES.append((kind, re.compile(pattern, re.IGNORECASE), fn))
        return fn

    return deco


def _date(y: int, m: int, d: int) -> Interval | None:
    try:
        return iv.day(_dt.date(y, m, d))
    except ValueError:
        return None


def _months(y: int, first: int, last: int, precision: str) -> Interval | None:
    """A quarter or half of year ``y``; None (not tagged) for a year outside
    1..9999: "Q3 0000" names no period of the proleptic Gregorian calendar
    tsolve uses (there is no year 0), exactly as "0000-05" is no month."""
    if not 1 <= y <= 9999:
        return None
    return iv.months(y, first, last, precision)


# ------------------------------------------------------------- absolute atoms


@_rule("date", r"(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?![\w-])")
def _iso_date(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    return _date(int(m[1]), int(m[2]), int(m[3]))


@_rule("date", rf"\b({MON})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
def _mdy(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    return _date(int(m[3]), _mon(m[1]), int(m[2]))


@_rule("date", rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({MON})\.?,?\s+(\d{{4}})\b")
def _dmy(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    return _date(int(m[3]), _mon(m[2]), int(m[1]))


@_rule("month", rf"\b({MON})\.?,?\s+(?:of\s+)?(\d{{4}})\b")
def _month_name(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    y = int(m[2])
    return iv.month(y, _mon(m[1])) if y >= 1 else None


@_rule("month", r"(?<![\w-])(\d{4})-(\d{2})(?![\w-])")
def _iso_month(m: re.Match[str], ref: _dt.date | None) -> Any:
    y, mm = int(m[1]), int(m[2])
    if not 1 <= mm <= 12 or y < 1:
        return None
    as_month = iv.month(y, mm)
    # "2010-12": December 2010, or the years 2010-2012 written with a hyphen.
    century = y - y % 100
    if century + mm > y:
        alt = iv.years(y, century + mm, "range")
        return as_month, (alt,), f"also read as the years {y}-{century + mm}"
    return as_month


@_rule("quarter", r"\bQ([1-4])(?:\s+of)?[\s,]*(\d{4})\b|\b(\d{4})[\s-]?Q([1-4])\b")
def _quarter(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    q, y = (int(m[1]), int(m[2])) if m[1] else (int(m[4]), int(m[3]))
    return _months(y, 3 * q - 2, 3 * q, "quarter")


@_rule(
    "quarter",
    r"\b(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?(\d{4})\b",
)
def _quarter_words(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    q = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3,
         "4th": 4}[m[1].lower()]  # fmt: skip
    return _months(int(m[2]), 3 * q - 2, 3 * q, "quarter")


@_rule(
    "half",
    r"\bH([12])(?:\s+of)?[\s,]*(\d{4})\b|\b(?:the\s+)?(first|second)\s+half\s+of\s+(\d{4})\b",
)
def _half(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    h, y = (int(m[1]), int(m[2])) if m[1] else (1 if m[3].lower() == "first" else 2, int(m[4]))
    return _months(y, 6 * h - 5, 6 * h, "half")


@_rule("year", _YB + YEAR + _YA)
def _year(m: re.Match[str], ref: _dt.date | None) -> Interval:
    y = int(m[1])
    return iv.years(y, y)


@_rule("range", _YB + r"(1\d{3}|2\d{3})\s*[-–—]\s*(\d{2})" + _YA)
def _short_range(m: re.Match[str], ref: _dt.date | None) -> Interval | None:
    a = int(m[1])
    b = a - a % 100 + int(m[2])
    return iv.years(a, b, "range") if b > a else None


@_rule("decade", r"\b(?:the\s+)?(\d{3}0)(?:'s|’s|s)\b")
def _decade(m: re.Match[str], ref: _dt.date | None) -> Any:
    y = int(m[1])
    if y < 1:
        return None
    decade = iv.years(y, y + 9, "decade")
    if y % 100 == 0:
        return decade, (iv.years(y, y + 99, "century"),), f"also read as the century {y}-{y + 99}"
    return decade


@_rule("century", rf"\b(?:the\s+)?(?:(\d{{1,2}})(?:st|nd|rd|th)|({ORD_WORD}))[\s-]+century\b")
def _century(m: re.Match[str], ref: _dt.date | None) -> Any:
    n = int(m[1]) if m[1] else _ORDINALS[m[2].lower()]
    if not 1 <= n <= 99:
        return None
    popular = iv.years(100 * (n - 1), 100 * n - 1, "century")  # the 1800s
    strict = iv.years(100 * (n - 1) + 1, 100 * n, "century")  # 1801-1900
    return popular, (strict,), f"strict counting: {100 * (n - 1) + 1}-{100 * n}"


# ------------------------------------------------------------- relative atoms

_UNIT = r"(years?|months?|weeks?|days?)"


def _shift_months(d: _dt.date, n: int) -> tuple[int, int]:
    k = d.year * 12 + (d.month - 1) + n
    return k // 12, k % 12 + 1


def _week(d: _dt.date) -> Interval:
    monday = d.toordinal() - d.weekday()
    return Interval(monday, monday + 6, "week")


def _unit_period(ref: _dt.date, unit: str, n: int) -> Interval:
    """The calendar year/month/week/day ``n`` units from ``ref`` (n < 0: past)."""
    u = unit.lower().rstrip("s")
    if u == "year":
        return iv.years(ref.year + n, ref.year + n)
    if u == "month":
        return iv.month(*_shift_months(ref, n))
    if u == "week":
        return _week(ref + _dt.timedelta(weeks=n))
    return iv.day(ref + _dt.timedelta(days=n))


def _back(ref: _dt.date, unit: str, n: int) -> int:
    """The day ``n`` units before ``ref`` (month ends clamp: Mar 31 - 1 month = Feb 28/29)."""
    u = unit.lower().rstrip("s")
    if u in ("year", "month"):
        y, mo = _shift_months(ref, -n * (12 if u == "year" else 1))
        return _dt.date(y, mo, min(ref.day, calendar.monthrange(y, mo)[1])).toordinal()
    return ref.toordinal() - n * (7 if u == "week" else 1)


def _relative(fn: Callable[[re.Match[str], _dt.date], Interval]) -> Callable[..., Any]:
    def run(m: re.Match[str], ref: _dt.date | None) -> Any:
        if ref is None:
            return "unresolved"
        try:
            return fn(m, ref)
        except (ValueError, OverflowError):
            return None

    return run


_rule("relative", r"\b(last|previous|this|current|next|coming)\s+(year|month|week)\b")(
    _relative(
        lambda m, ref: _unit_period(
            ref, m[2], {"last": -1, "previous": -1, "next": 1, "coming": 1}.get(m[1].lower(), 0)
        )
    )
)
_rule("relative", rf"\b({NUM})\s+{_UNIT}\s+ago\b")(
    _relative(lambda m, ref: _unit_period(ref, m[2], -_num(m[1])))
)
_rule("relative", r"\b(yesterday|today|tomorrow)\b")(
    _relative(
        lambda m, ref: iv.day(
            ref + _dt.timedelta(days={"yesterday": -1, "today": 0, "tomorrow": 1}[m[1].lower()])
        )
    )
)
_rule("relative", rf"\b(?:the\s+)?(?:past|last|previous)\s+({NUM})\s+{_UNIT}")(
    _relative(lambda m, ref: Interval(_back(ref, m[2], _num(m[1])), ref.toordinal(), "range"))
)


# ------------------------------------------------------------------- passes


def _atoms(text: str, ref: _dt.date | None) -> list[_Atom]:
    cands: list[_Atom] = []
    for rank, (kind, pat, fn) in enumerate(_RULES):
        for hit in bounded_finditer(pat, text, MAX_EXPRESSION):
            m = hit.match
            got = fn(m, ref)
            if got is None:
                continue
            alts: tuple[Interval, ...] = ()
            note = ""
            if got == "unresolved":
                got, note = None, "relative: needs a reference date"
            elif isinstance(got, tuple):
                got, alts, note = got
            cands.append(_Atom(hit.start, hit.end, kind, got, alts, note, rank))
    cands.sort(key=lambda a: (a.start - a.end, a.start, a.rank))
    # Chosen spans are disjoint, so a candidate fits when it clears its two
    # neighbours in start order (bisect: linear scans were quadratic on long texts).
    starts: list[int] = []
    chosen: list[_Atom] = []
    for a in cands:
        i = bisect_right(starts, a.start)
        if i > 0 and chosen[i - 1].end > a.start:
            continue
        if i < len(chosen) and chosen[i].start < a.end:
            continue
        starts.insert(i, a.start)
        chosen.insert(i, a)
    return chosen


def _edge_fits(word: str, edge: str | None) -> bool:
    """ "until the end of 2015" and "since the start of 2015" are exact (the
    same as "until 2015", "since 2015"); "since the end of 2015" is not (which
    day of the end?), so it is not joined and only "2015" is reported."""
    if edge is None:
        return True
    w = word.lower().split()[0]
    if w in ("since", "from", "starting", "beginning"):
        return edge.lower() in ("start", "beginning")
    if w in ("until", "till", "up", "through", "by"):
        return edge.lower() == "end"
    return False


def _open(word: str, a: Interval) -> Interval | None:
    w = word.lower().split()[0]
    try:
        if w in ("since", "from", "starting", "beginning"):
            return iv.since(a)
        if w in ("until", "till", "up", "through", "by"):
            return iv.until(a)
        if w in ("before", "prior"):
            return iv.before(a)
        return iv.after(a)
    except ValueError:
        return None


def tag(text: str, reference: _dt.date | None = None) -> list[Finding]:
    """Every temporal expression in ``text``, in order, non-overlapping.

    ``reference`` is the date relative expressions ("last year") count from;
    without it they are reported with ``interval=None``. The result depends
    only on ``(text, reference)``."""
    if len(text) > MAX_TEXT:
        from tsolve.records.validation import bad

        raise bad("text", f"at most {MAX_TEXT} characters", f"{len(text)} characters")
    atoms = _atoms(text, reference)
    out: list[Finding] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        prefix_start = out[-1].end if out else 0
        if a.start - prefix_start > JOIN_REACH:  # one more character, so \b sees a word edge
            prefix_start = a.start - JOIN_REACH - 1
        before = text[prefix_start : a.start]
        nxt = atoms[i + 1] if i + 1 < len(atoms) else None
        # "between A and B", "from A to B": one range finding.
        rs = _RANGE_START.search(before)
        if rs and nxt is not None and a.interval and nxt.interval:
            gap = text[a.end : min(nxt.start, a.end + JOIN_REACH + 1)]
            if (
                nxt.start - a.end <= JOIN_REACH
                and _RANGE_GAP[rs[1].lower()].match(gap)
                and nxt.interval.end >= a.interval.start
            ):
                start = prefix_start + rs.start()
                rng = iv.span(a.interval, nxt.interval)
                out.append(_finding(text, start, nxt.end, "range", rng))
                i += 2
                continue
        # "2010–2014", "2010 to 2014", "March 2019 - June 2019"
        if nxt is not None and a.interval and nxt.interval and a.kind != "relative":
            gap = text[a.end : min(nxt.start, a.end + JOIN_REACH + 1)]
            if (
                nxt.start - a.end <= JOIN_REACH
                and _BARE_GAP.match(gap)
                and nxt.interval.start > a.interval.end
            ):
                rng = iv.span(a.interval, nxt.interval)
                out.append(_finding(text, a.start, nxt.end, "range", rng))
                i += 2
                continue
        ob = _OPEN_BEFORE.search(before)
        if ob and a.interval and _edge_fits(ob[1], ob[2]):
            opened = _open(ob[1], a.interval)
            if opened is not None:
                out.append(_finding(text, prefix_start + ob.start(), a.end, "range", opened))
                i += 1
                continue
        out.append(Finding(a.start, a.end, text[a.start : a.end], a.kind, a.interval,
                           a.alternatives, a.note))  # fmt: skip
        i += 1
    return out


def _finding(text: str, start: int, end: int, kind: str, interval: Interval) -> Finding:
    return Finding(start, end, text[start:end], kind, interval)


def scope_of(text: str, reference: _dt.date | None = None) -> list[Interval]:
    """The time scope of a text: the intervals of its resolved findings."""
    return [f.interval for f in tag(text, reference) if f.interval is not None]


__all__ = ["Finding", "scope_of", "tag"]
