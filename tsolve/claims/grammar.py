"""Which sentences are claims: one pattern per way of making each kind of claim.

A pattern is a regular expression over the lexicon's pieces and a reader that
turns its match into a typed claim (or None when the match is not a claim
after all, e.g. a hedged count: "about 45 days"). The patterns are listed in
priority order: when two claims cover the same span, or one lies inside
another, the earlier (or the enclosing) one is kept.

What is recognised, with examples, is documented in docs/claims.md; keep the
two in step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from tsolve.calendars.festivals import FESTIVALS
from tsolve.calendars.names import normalise
from tsolve.claims import calendar_dates as cd
from tsolve.claims import lexicon as lx
from tsolve.claims.calendar_dates import DateRef
from tsolve.claims.lexicon import Ymd

# ------------------------------------------------------------ typed claims


@dataclass(frozen=True)
class FestivalRef:
    """Festival ``name`` (tsolve's key, ``"?"`` when tsolve has no rule for it)
    of ``year`` (of ``year_calendar``): a day named by a festival, with one
    reading per calendar the festival may be kept in."""

    name: str
    year: int
    year_calendar: str


#: What a date claim may start from: a written date or a festival of a year.
Anchor = Ymd | FestivalRef


@dataclass(frozen=True)
class WeekdayClaim:
    """``date`` plus ``days`` (negative: before) is (not) a ``weekday``."""

    date: Anchor
    weekday: str
    negated: bool = False
    days: int = 0


@dataclass(frozen=True)
class LeapYearClaim:
    year: int
    leap: bool
    calendar: str = "gregorian"


@dataclass(frozen=True)
class ShiftClaim:
    """``start`` plus ``days`` (negative: before) is ``end`` (a ``end_weekday``
    when the claim names one: "... is Wednesday, January 15, 2025")."""

    start: Anchor
    days: int
    end: Ymd
    end_weekday: str | None = None


@dataclass(frozen=True)
class BetweenClaim:
    """There are ``days`` days from ``a`` to ``b`` (``inclusive``: counting both)."""

    a: Ymd
    b: Ymd
    days: int
    inclusive: bool = False


@dataclass(frozen=True)
class ConversionClaim:
    """``left`` and ``right`` name the same day; ``right`` is the asserted side."""

    left: DateRef
    right: DateRef


@dataclass(frozen=True)
class FestivalClaim:
    """Festival ``name`` of ``year`` (of ``year_calendar``) falls on ``date``."""

    name: str
    year: int
    year_calendar: str
    date: Ymd
    weekday: str | None = None  # "falls on Wednesday, December 25, 2024"


@dataclass(frozen=True)
class MonthLengthClaim:
    calendar: str
    month: int
    year: int | None
    days: int
    spelling: str = ""


Claim = (
    WeekdayClaim | LeapYearClaim | ShiftClaim | BetweenClaim | ConversionClaim
    | FestivalClaim | MonthLengthClaim
)  # fmt: skip

# ------------------------------------------------------------ connectives

_IS = r"(?i:is|was|will\s+be|would\s+be)"
_FALLS = (
    r"(?i:is\s+on|was\s+on|will\s+be\s+on|would\s+be\s+on|falls\s+on|fell\s+on|will\s+fall\s+on"
    r"|lands\s+on|landed\s+on|is|was|will\s+be|would\s+be)"
)
_NOT_FALLS = r"(?i:is\s+not|isn't|was\s+not|wasn't|will\s+not\s+be|won't\s+be|does\s+not\s+fall\s+on|did\s+not\s+fall\s+on|doesn't\s+fall\s+on|didn't\s+fall\s+on)"  # noqa: E501
_EQUIV = (
    r"(?i:corresponds\s+to|corresponded\s+to|will\s+correspond\s+to|is\s+equivalent\s+to"
    r"|was\s+equivalent\s+to|is\s+the\s+same\s+(?:day|date)\s+as|equals|falls\s+on|fell\s+on"
    r"|is\s+on|was\s+on|is|was|will\s+be|=)"
)
_UNIT = r"(?P<unit>(?i:days?|weeks?))"
_N = r"(?P<n>" + lx.NUMBER + r")"
#: A count in an offset, where "the day after X" counts one day.
_N_SHIFT = r"(?P<n>" + lx.NUMBER + r"|(?i:the)(?=\s+(?i:day)\s))"
_INCLUSIVE = (
    r"(?P<incl>\s*,?\s*\(?(?i:inclusive(?:ly)?|counting\s+both(?:\s+(?:ends|days|dates))?)\)?)?"
)
_HEDGE = re.compile(
    r"(?i:about|around|approximately|roughly|nearly|almost|over|under|more\s+than|less\s+than"
    r"|at\s+least|at\s+most|some|~)\s*$"
)


def _g(name: str) -> str:
    return f"(?P<{name}>{lx.GREG_DATE})"


def _units(m: re.Match[str]) -> int | None:
    """The number of days a ``n``/``unit`` pair counts, None if hedged."""
    if _HEDGE.search(m.string[max(0, m.start("n") - 20) : m.start("n")]):
        return None
    n = 1 if m["n"].lower() == "the" else lx.read_number(m["n"])
    unit = (m["unit"] or "days").lower()
    return n * 7 if unit.startswith("week") else n


# ------------------------------------------------------------ weekday


def _weekday(m: re.Match[str]) -> WeekdayClaim:
    return WeekdayClaim(lx.read_greg(m["date"]), lx.read_weekday(m["wd"]), bool(m["neg"]))


def _anchor(m: re.Match[str], date_group: str = "a") -> Anchor:
    """The written date, or the festival of a year, a match starts from."""
    if m.groupdict().get("f"):
        era = m.groupdict().get("era")
        key = festival_spellings()[normalise(m["f"])]
        return FestivalRef(key, int(m["y"]), lx.read_era(era) if era else "gregorian")
    return lx.read_greg(m[date_group])


def _offset_weekday(m: re.Match[str]) -> WeekdayClaim | None:
    """ "X is a W" where X is a festival of a year or "N days after" a date or
    festival."""
    days = _signed(m) if m.groupdict().get("n") else 0
    if days is None:
        return None
    return WeekdayClaim(_anchor(m), lx.read_weekday(m["wd"]), bool(m["neg"]), days)


_A = r"(?:(?i:a|an|on\s+a)\s+)?"
WEEKDAY_PATTERNS = (
    _g("date") + r",?\s+(?:(?P<neg>" + _NOT_FALLS + r")|" + _FALLS + r")\s+" + _A
    + r"(?P<wd>" + lx.WEEKDAY + r")",
    _g("date") + r",\s+(?i:a|which\s+(?:is|was|will\s+be|falls\s+on|fell\s+on)"
    + r"(?:\s+(?:a|an|on\s+a))?)\s+(?P<wd>" + lx.WEEKDAY + r")(?P<neg>(?!))?",
    r"(?P<wd>" + lx.WEEKDAY + r"),?\s+" + _g("date") + r"(?P<neg>(?!))?",
    _g("date") + r"\s*\((?:(?i:a)\s+)?(?P<wd>" + lx.WEEKDAY + r")\)(?P<neg>(?!))?",
    r"(?i:the\s+(?:day\s+of\s+the\s+week|weekday)\s+(?:of|for|on))\s+" + _g("date") + r",?\s+"
    + _IS
    + r"\s+" + _A + r"(?P<wd>" + lx.WEEKDAY + r")(?P<neg>(?!))?",
)  # fmt: skip

# ------------------------------------------------------------ leap years

_YEAR_ADJ = (
    r"(?P<adj>(?i:hebrew|jewish|islamic|hijri|persian|iranian|chinese|lunar|shaka|saka|gregorian))"
)
_LEAP_VERB = (
    r"(?:(?P<neg>(?i:is\s+not|isn't|was\s+not|wasn't|will\s+not\s+be|won't\s+be))"
    r"|(?i:is|was|will\s+be|would\s+be))"
)


def _leap(m: re.Match[str]) -> LeapYearClaim:
    what = m["what"].lower()
    leap = "leap" in what and "non" not in what
    if m["neg"]:
        leap = not leap
    calendar = "gregorian"
    for words in (m["adj"], m["cw"]):
        if words:
            calendar = lx.read_calendar_words(words)
    if m["era"]:
        calendar = lx.read_era(m["era"])
    return LeapYearClaim(int(m["year"]), leap, calendar)


def _leap_days(m: re.Match[str]) -> LeapYearClaim:
    return LeapYearClaim(int(m["year"]), m["n"] == "366")


LEAP_PATTERNS = (
    r"(?:(?i:the\s+)?" + _YEAR_ADJ + r"\s+(?i:year)\s+|(?i:the\s+year)\s+)?(?P<year>" + lx.YEAR
    + r")(?:\s+(?P<era>" + lx.ERA + r"))?,?\s+" + _LEAP_VERB + r"\s+(?i:a\s+)?"
    r"(?P<what>(?i:leap\s+year|common\s+year|non-?\s?leap\s+year))"
    r"(?:\s+(?i:in|of)\s+(?P<cw>" + lx.CALENDAR_WORDS + r"))?",
    r"(?:(?i:the\s+year)\s+)?(?P<year>" + lx.YEAR + r")\s+(?i:has|had|will\s+have)\s+"
    r"(?P<n>365|366)\s+(?i:days)",
)  # fmt: skip

# ------------------------------------------------------------ arithmetic

_AFTER = r"(?P<dir>(?i:after|from|later\s+than|past|before|earlier\s+than|prior\s+to))"
_RESULT = r"(?:" + _FALLS + r"|(?i:gives|gave|yields|brings\s+us\s+to|takes\s+us\s+to))"


def _signed(m: re.Match[str], key: str = "dir") -> int | None:
    days = _units(m)
    if days is None:
        return None
    word = m[key].lower()
    return (
        -days if word.startswith(("before", "earlier", "prior", "minus", "-", "subtract")) else days
    )


def _shift(m: re.Match[str]) -> ShiftClaim | None:
    days = _signed(m)
    if days is None:
        return None
    wd = m.groupdict().get("bwd")
    end_weekday = lx.read_weekday(wd) if wd else None
    return ShiftClaim(_anchor(m), days, lx.read_greg(m["b"]), end_weekday)


def _between(m: re.Match[str]) -> BetweenClaim | None:
    days = _units(m)
    if days is None:
        return None
    incl = bool(m.groupdict().get("incl"))
    return BetweenClaim(lx.read_greg(m["a"]), lx.read_greg(m["b"]), days, incl)


_B_SIDE = r"(?:(?P<bwd>" + lx.WEEKDAY + r"),?\s+)?" + _g("b")
SHIFT_PATTERNS = (
    _N_SHIFT + r"\s+" + _UNIT + r"\s+" + _AFTER + r"\s+" + _g("a") + r",?\s+" + _RESULT + r"\s+"
    + _B_SIDE,
    _g("a") + r"\s+(?P<dir>\+|-|(?i:plus|minus))\s+" + _N + r"\s+" + _UNIT + r"\s+(?:"
    + _IS + r"|=|(?i:equals|gives))\s+" + _g("b"),
    r"(?P<dir>(?i:adding|add|subtracting|subtract))\s+" + _N + r"\s+" + _UNIT
    + r"\s+(?i:to|from)\s+" + _g("a") + r",?\s+(?i:gives|gave|yields|results\s+in|is|lands\s+on)\s+"
    + _g("b"),
    _g("b") + r",?\s+" + _IS + r"\s+" + _N_SHIFT + r"\s+" + _UNIT
    + r"\s+(?P<dir>(?i:after|later\s+than|before|earlier\s+than))\s+" + _g("a"),
)  # fmt: skip


BETWEEN_PATTERNS = (
    r"(?i:there\s+(?:are|were|is|will\s+be))\s+" + _N + r"\s+" + _UNIT
    + r"\s+(?i:between)\s+" + _g("a") + r"\s+(?i:and)\s+" + _g("b") + _INCLUSIVE,
    _g("a") + r"\s+(?i:and)\s+" + _g("b") + r"\s+(?i:are|were)\s+" + _N + r"\s+" + _UNIT
    + r"\s+(?i:apart)",
    r"(?i:the\s+number\s+of\s+days\s+(?:between|from))\s+" + _g("a") + r"\s+(?i:and|to|until)\s+"
    + _g("b") + r"" + _INCLUSIVE + r",?\s+" + _IS + r"\s+" + _N + r"(?:\s+" + _UNIT + r")?",
    r"(?i:it\s+is|it's|it\s+was|there\s+are|there\s+were|that\s+is|that's)\s+" + _N + r"\s+"
    + _UNIT + r"\s+(?i:from)\s+" + _g("a") + r"\s+(?i:to|until|till)\s+" + _g("b") + _INCLUSIVE,
    r"(?i:from)\s+" + _g("a") + r"\s+(?i:to|until|till)\s+" + _g("b") + r",?\s+"
    r"(?i:is|was|are|were|there\s+are|there\s+were)\s+" + _N + r"\s+" + _UNIT + _INCLUSIVE,
    r"(?i:between)\s+" + _g("a") + r"\s+(?i:and)\s+" + _g("b")
    + r",?\s+(?i:there\s+(?:are|were))\s+" + _N + r"\s+" + _UNIT + _INCLUSIVE,
)  # fmt: skip

# ------------------------------------------------------------ month lengths


def _month_length(m: re.Match[str]) -> MonthLengthClaim | None:
    if _HEDGE.search(m.string[max(0, m.start("n") - 20) : m.start("n")]):
        return None
    year = int(m["y"]) if m["y"] else None
    days = lx.read_number(m["n"])
    if m.groupdict().get("cm"):
        cal, month = lx.read_calendar_month(m["cm"])
        if year is None:
            return None
        return MonthLengthClaim(cal, month, year, days, normalise(m["cm"]))
    return MonthLengthClaim("gregorian", lx.read_month(m["m"]), year, days)


_HAS = r"(?i:has|had|will\s+have|contains|contained|has\s+got)"
_LONG = r"(?:" + _HAS + r"|" + _IS + r")\s+" + _N + r"\s+(?i:days)(?:\s+(?i:long))?"
MONTH_LENGTH_PATTERNS = (
    r"(?<![\w-])(?P<m>" + lx.MONTH + r")(?:\s+(?:(?i:of|in)\s+)?(?P<y>" + lx.YEAR + r"))?,?\s+"
    + _LONG,
    r"(?i:there\s+(?:are|were|will\s+be))\s+" + _N + r"\s+(?i:days\s+in)\s+(?P<m>" + lx.MONTH
    + r")(?:\s+(?:(?i:of)\s+)?(?P<y>" + lx.YEAR + r"))?",
    r"(?P<cm>" + lx.calendar_month() + r")\s+(?P<y>\d{4})(?:\s+" + lx.ERA + r")?,?\s+" + _LONG,
    r"(?i:there\s+(?:are|were|will\s+be))\s+" + _N + r"\s+(?i:days\s+in)\s+(?P<cm>"
    + lx.calendar_month() + r")\s+(?:(?i:of)\s+)?(?P<y>\d{4})",
)  # fmt: skip

# ------------------------------------------------------------ cross-calendar

_QUAL = (
    r"(?:\s+(?i:in|on|of)\s+(?P<{0}>"
    + lx.CALENDAR_WORDS
    + r")|\s*\((?P<{0}p>"
    + lx.CALENDAR_WORDS
    + r")\))?"
)
_OTHER = (
    r"(?:(?i:the\s+)?"
    + lx.CALENDAR_WORDS
    + r"\s+(?i:date)\s+)?(?P<o>"
    + lx.named_date()
    + r"|"
    + lx.CHINESE_DATE
    + r")"
    + _QUAL.format("oq")
)
_GREG_SIDE = (
    r"(?:(?i:the\s+gregorian\s+date)\s+)?"
    + _g("g")
    + r"(?:\s+(?i:CE|AD)(?!\w))?"
    + _QUAL.format("gq")
)


def _qualifier(m: re.Match[str]) -> str | None:
    for key in ("oq", "oqp", "gq", "gqp"):
        if m.groupdict().get(key):
            cal = lx.read_calendar_words(m[key])
            if cal not in ("gregorian",):
                return cal
    return None


def _to_gregorian(m: re.Match[str]) -> ConversionClaim:
    return ConversionClaim(cd.other(m["o"], _qualifier(m)), cd.gregorian(m["g"]))


def _from_gregorian(m: re.Match[str]) -> ConversionClaim:
    return ConversionClaim(cd.gregorian(m["g"]), cd.other(m["o"], _qualifier(m)))


CONVERSION_TO_GREGORIAN = _OTHER + r",?\s+" + _EQUIV + r"\s+" + _GREG_SIDE
CONVERSION_FROM_GREGORIAN = _GREG_SIDE + r",?\s+" + _EQUIV + r"\s+" + _OTHER

# ------------------------------------------------------------ festivals

#: Festivals people name in claims that tsolve has no rule for, or whose date
#: depends on the country: recognised, so that their claims are reported as
#: ``unknown`` rather than missed.
UNSUPPORTED_FESTIVALS = (
    "Diwali", "Deepavali", "Holi", "Easter", "Easter Sunday", "Good Friday", "Thanksgiving",
    "Christmas Eve", "New Year's Eve", "Vesak", "Navratri", "Dussehra", "Pongal",
    "Makar Sankranti", "Songkran", "Mother's Day", "Father's Day", "Shavuot", "Sukkot",
    "Tu BiShvat", "Lag BaOmer", "Ashura", "Mawlid", "Yalda", "Qingming Festival", "Qingming",
    "Double Ninth Festival", "Laba Festival", "Losar", "Tet", "Seollal", "Raksha Bandhan",
    "Ganesh Chaturthi", "Janmashtami", "Ram Navami", "Onam", "Labor Day", "Labour Day",
    "Children's Day", "Chinese New Year's Eve", "Tisha B'Av", "Simchat Torah",
)  # fmt: skip


@cache
def festival_spellings() -> dict[str, str]:
    """Normalised spelling -> festival key (tsolve's) or ``"?"`` (unsupported)."""
    out: dict[str, str] = {normalise(n): "?" for n in UNSUPPORTED_FESTIVALS}
    for f in FESTIVALS:
        for n in (f.key, f.name, *f.aliases):
            out.setdefault(normalise(n), f.key)
    return out


@cache
def _festival_name() -> str:
    keys = sorted(festival_spellings(), key=len, reverse=True)
    return (
        r"(?<![\w'’])(?<!\d\s)(?i:" + lx.flexible_alternation(keys) + r")(?![\w'’])(?!\s+(?i:eve))"
    )


def _festival(m: re.Match[str]) -> FestivalClaim | None:
    key = festival_spellings()[normalise(m["f"])]
    year_text = m["y"]
    if m.groupdict().get("d") and re.search(r"\d{4}", m["d"]):
        date = lx.read_greg(m["d"])
    elif year_text:
        date = lx.read_greg(m["d"], int(year_text))
    else:
        return None
    era = m.groupdict().get("era")
    year_cal = lx.read_era(era) if era else "gregorian"
    year = int(year_text) if year_text else date.year
    wd = m.groupdict().get("fwd")
    return FestivalClaim(key, year, year_cal, date, lx.read_weekday(wd) if wd else None)


_FEST_VERB = (
    r"(?:" + _FALLS + r"|(?i:is\s+celebrated\s+on|was\s+celebrated\s+on|will\s+be\s+celebrated\s+on"
    r"|is\s+observed\s+on|was\s+observed\s+on|will\s+be\s+observed\s+on))"
)
_FEST_DATE = (
    r"(?:(?i:on)\s+)?(?:(?P<fwd>"
    + lx.WEEKDAY
    + r"),?\s+)?(?P<d>"
    + lx.GREG_DATE
    + r"|"
    + lx.MONTH_DAY
    + r")"
)


@cache
def festival_patterns() -> tuple[str, ...]:
    name = r"(?:(?i:the)\s+)?(?P<f>" + _festival_name() + r")"
    year = r"(?P<y>" + lx.YEAR + r")(?:\s+(?P<era>" + lx.ERA + r"))?"
    return (
        name + r"(?:,?\s+(?:(?i:of|in)\s+)?" + year + r")?,?\s+" + _FEST_VERB + r"\s+" + _FEST_DATE,
        r"(?i:in)\s+" + year + r",\s+" + name + r"\s+" + _FEST_VERB + r"\s+" + _FEST_DATE,
        r"(?P<d>" + lx.GREG_DATE + r"),?\s+" + _IS + r"\s+(?:(?i:the\s+(?:date|day)\s+of)\s+)?"
        + name + r"(?:\s+(?P<y>" + lx.YEAR + r"))?(?P<era>(?!))?",
    )  # fmt: skip


@cache
def anchor_patterns() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Claims about a festival of a year, and offsets from one: (weekday
    patterns, date-arithmetic patterns). "Christmas 2024 falls on a
    Wednesday", "Three weeks after Christmas 2024 is January 15, 2025", "the
    day after Passover 2024 is a Wednesday". The year is required: without it
    the festival names no day."""
    fest = (
        r"(?:(?i:the)\s+)?(?P<f>" + _festival_name() + r"),?\s+(?:(?i:of|in)\s+)?(?P<y>"
        + lx.YEAR + r")(?:\s+(?P<era>" + lx.ERA + r"))?"
    )  # fmt: skip
    verb = r"(?:(?P<neg>" + _NOT_FALLS + r")|" + _FALLS + r")\s+" + _A
    wd = r"(?P<wd>" + lx.WEEKDAY + r")"
    offset = _N_SHIFT + r"\s+" + _UNIT + r"\s+" + _AFTER + r"\s+"
    weekday = (
        fest + r",?\s+" + verb + wd,
        offset + r"(?:" + _g("a") + r"|" + fest + r"),?\s+" + verb + wd,
    )
    shift = (
        offset + fest + r",?\s+" + _RESULT + r"\s+" + _B_SIDE,
        _g("b") + r",?\s+" + _IS + r"\s+" + _N_SHIFT + r"\s+" + _UNIT
        + r"\s+(?P<dir>(?i:after|later\s+than|before|earlier\s+than))\s+" + fest,
    )  # fmt: skip
    return weekday, shift


# ------------------------------------------------------------ the pattern table

Reader = Callable[[re.Match[str]], "Claim | None"]

#: Every claim starts a word. Besides being true of every form above, this
#: keeps scans fast: inside a run of digits, letters or spaces only the run's
#: first character can start a match, so a scan does not retry each position
#: of the run (the window bound of :mod:`tsolve.bounded_scan` is what makes
#: the work linear; this is what makes it cheap).
WORD_START = r"(?<!\w)(?=\w)"

#: The longest claim read, in characters (``bounded_finditer``'s window). The
#: longest form above, with long dates and qualifiers, is about 150.
MAX_CLAIM = 240


@dataclass(frozen=True)
class ClaimPattern:
    kind: str
    regex: re.Pattern[str]
    read: Reader


@cache
def patterns() -> tuple[ClaimPattern, ...]:
    """Every claim pattern, in priority order (see the module docstring)."""
    anchored_weekday, anchored_shift = anchor_patterns()
    table: list[tuple[str, tuple[str, ...], Reader]] = [
        ("cross-calendar", (CONVERSION_TO_GREGORIAN,), _to_gregorian),
        ("cross-calendar", (CONVERSION_FROM_GREGORIAN,), _from_gregorian),
        ("date-arithmetic", anchored_shift, _shift),
        ("weekday", anchored_weekday, _offset_weekday),
        ("festival", festival_patterns(), _festival),
        ("date-arithmetic", SHIFT_PATTERNS, _shift),
        ("date-arithmetic", BETWEEN_PATTERNS, _between),
        ("month-length", MONTH_LENGTH_PATTERNS, _month_length),
        ("leap-year", LEAP_PATTERNS[:1], _leap),
        ("leap-year", LEAP_PATTERNS[1:], _leap_days),
        ("weekday", WEEKDAY_PATTERNS, _weekday),
    ]
    return tuple(
        ClaimPattern(kind, re.compile(WORD_START + p), read)
        for kind, pats, read in table
        for p in pats
    )
