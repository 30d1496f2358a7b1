"""The words claims are made of, as regular-expression pieces.

Every piece is a non-capturing pattern, so the claim patterns of
:mod:`tsolve.claims.grammar` can wrap them in their own named groups and read
the matched text back with the ``read_*`` functions here. Month names of the
other calendars come from :mod:`tsolve.calendars.names` (the one table of
spellings), so a spelling the calendars accept is a spelling claims accept.

English month names and weekdays must be capitalised (``may 5`` is not a
date, ``May 5`` is); the words between them are matched case-insensitively.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from tsolve.calendars.names import month_numbers, normalise
from tsolve.encodings.facts.words import MONTHS, WEEKDAYS

# ------------------------------------------------------------ numbers

_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen")  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
         "seventy": 70, "eighty": 80, "ninety": 90}  # fmt: skip
_WORD_VALUES = {w: i for i, w in enumerate(_UNITS)} | _TENS | {"a": 1, "an": 1}
_WORD_NUMBER = (
    r"(?:(?:" + "|".join(_TENS) + r")(?:[\s-](?:" + "|".join(_UNITS[1:10]) + r"))?"
    r"|" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r"|an?(?=\s+(?:day|week)\b))"
)
#: A count of days or weeks: digits (``1,000`` allowed), English words up to 99,
#: or "a"/"an" before "day"/"week".
NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+|(?i:" + _WORD_NUMBER + r"))"


def read_number(text: str) -> int:
    """The value of a :data:`NUMBER` match."""
    t = text.strip().lower()
    if t[0].isdigit():
        return int(t.replace(",", ""))
    parts = re.split(r"[\s-]+", t)
    return sum(_WORD_VALUES[p] for p in parts)


# ------------------------------------------------------------ Gregorian

_MONTH_ABBR = {m[:3]: i for i, m in enumerate(MONTHS, start=1)} | {"Sept": 9}
_MONTH_WORDS = {m: i for i, m in enumerate(MONTHS, start=1)} | _MONTH_ABBR
#: An English month name, capitalised; an abbreviation may end with a dot.
MONTH = r"(?:" + "|".join(sorted(_MONTH_WORDS, key=len, reverse=True)) + r")\.?(?![\w'’])"
WEEKDAY = r"(?:" + "|".join(WEEKDAYS) + r")(?![\w'’])"
_DAY = r"(?:[0-3]?\d)(?:st|nd|rd|th)?"
YEAR = r"(?<![\d,.-])\d{4}(?![\d-])"
_COMMA = r",?\s+"

#: A Gregorian date with its year: ``March 6, 2023``, ``6 March 2023``,
#: ``the 6th of March, 2023``, ``2023-03-06``.
GREG_DATE = (
    r"(?:" + MONTH + r"\s+" + _DAY + _COMMA + YEAR
    + r"|(?:(?i:the)\s+)?" + _DAY + r"\s+(?:of\s+)?" + MONTH + _COMMA + YEAR
    + r"|(?<![\d-])\d{4}-\d{2}-\d{2}(?![\d-]))"
)  # fmt: skip
#: A Gregorian month and day without a year (``February 10``), for festival claims.
MONTH_DAY = (
    r"(?:" + MONTH + r"\s+" + _DAY + r"(?![\d,]*\s*\d{4})|" + _DAY + r"\s+(?:of\s+)?" + MONTH + ")"
)


@dataclass(frozen=True)
class Ymd:
    """A date as written: year, month, day (not yet known to exist)."""

    year: int
    month: int
    day: int

    def exists(self) -> bool:
        try:
            _dt.date(self.year, self.month, self.day)
        except ValueError:
            return False
        return True

    def ordinal(self) -> int:
        return _dt.date(self.year, self.month, self.day).toordinal()

    def text(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def read_month(word: str) -> int:
    """English month name or abbreviation -> 1..12."""
    return _MONTH_WORDS[word.rstrip(".")]


def read_greg(text: str, year: int | None = None) -> Ymd:
    """The date a :data:`GREG_DATE` (or, with ``year``, :data:`MONTH_DAY`) match names."""
    iso = _ISO.fullmatch(text.strip())
    if iso:
        return Ymd(int(iso[1]), int(iso[2]), int(iso[3]))
    month = next(_MONTH_WORDS[w] for w in re.findall(r"[A-Z][a-z]+", text) if w in _MONTH_WORDS)
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    if year is None:
        day, year = (numbers[0], numbers[1]) if len(numbers) == 2 else (numbers[0], numbers[-1])
    else:
        day = numbers[0]
    return Ymd(year, month, day)


def read_weekday(word: str) -> str:
    return word.strip().capitalize()


# ------------------------------------------------------------ other calendars

#: Calendars whose dates are written with month names (the Chinese calendar is
#: numbered and has its own patterns below).
NAMED_CALENDARS = ("hebrew", "islamic", "persian", "shaka")

_SEP = r"[\s'’ʼ‘`-]?"


def _flexible(key: str) -> str:
    """A pattern for a normalised month spelling that allows one separator
    (space, hyphen, apostrophe) between any two letters: ``dhulhijjah`` matches
    ``Dhu'l-Hijjah`` and ``Dhul Hijjah``; ``adarii`` matches ``Adar II``."""
    return _SEP.join(re.escape(c) for c in key)


def flexible_alternation(keys: Iterable[str]) -> str:
    """One pattern matching any of ``keys`` as :func:`_flexible` would (one
    optional separator between letters), the longest key first, written as
    a trie: ``nisan|nissan`` becomes ``n·i·s·(?:s·a·n|a·n)``.

    Why not ``|``.join: with a few hundred spellings that alternation took
    seconds to compile (7 s for the claim patterns) and made every scan try
    each spelling in turn at each word; the trie is compiled in a fraction of
    that and reads one letter per step."""
    trie: dict[str, Any] = {}
    for key in keys:
        node = trie
        for ch in key:
            node = node.setdefault(ch, {})
        node[""] = {}  # the end of a key

    def depth(node: dict[str, Any]) -> int:
        return max((1 + depth(v) for k, v in node.items() if k), default=0)

    def emit(node: dict[str, Any]) -> str:
        children = sorted((k for k in node if k), key=lambda k: (-depth(node[k]), k))
        branches = [re.escape(k) + after(node[k]) for k in children]
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return body

    def after(node: dict[str, Any]) -> str:
        """What may follow a letter whose trie node is ``node``."""
        if not any(node):
            return ""
        more = _SEP + emit(node)
        return "(?:" + more + ")?" if "" in node else more

    return emit(trie) if trie else "(?!)"


@cache
def _spellings() -> dict[str, tuple[str, int]]:
    """Normalised spelling -> (calendar, month), for the named calendars: the
    calendars' own table, then :mod:`tsolve.claims.transliterations`."""
    from tsolve.claims.transliterations import EXTRA_SPELLINGS

    out: dict[str, tuple[str, int]] = {}
    english = {normalise(w) for w in _MONTH_WORDS}
    for cal in NAMED_CALENDARS:
        for key, month in month_numbers(cal).items():
            if key not in english:
                out.setdefault(key, (cal, month))
    for cal in NAMED_CALENDARS:  # the usual transliterations (transliterations.py)
        for key, month in EXTRA_SPELLINGS[cal].items():
            if key not in english:
                out.setdefault(key, (cal, month))
    return out


@cache
def calendar_month() -> str:
    """A month name of one of :data:`NAMED_CALENDARS`, in any accepted spelling."""
    keys = sorted(_spellings(), key=len, reverse=True)
    return r"(?<![\w'’])(?i:" + flexible_alternation(keys) + r")(?![\w'’])"


def read_calendar_month(text: str) -> tuple[str, int]:
    """(calendar, month) of a :func:`calendar_month` match."""
    return _spellings()[normalise(text)]


#: Era marks that name a calendar: ``AH`` (Hijri), ``AM`` (Hebrew), ``SH``/``AP``
#: (Solar Hijri), ``Saka``/``SE`` (Shaka).
ERA = r"(?:A\.?H\.?|A\.?M\.?|S\.?H\.?|A\.?P\.?|Saka|Shaka|S\.?E\.?)(?![\w])"
_ERA_CALENDAR = {"ah": "islamic", "am": "hebrew", "sh": "persian", "ap": "persian",
                 "saka": "shaka", "shaka": "shaka", "se": "shaka"}  # fmt: skip

#: A calendar named in words: ``the Hebrew calendar``, ``Umm al-Qura``.
CALENDAR_WORDS = (
    r"(?i:(?:the\s+)?(?:tabular\s+islamic|umm\s+al[\s-]qura|solar\s+hijri|indian\s+national"
    r"|hebrew|jewish|islamic|hijri|muslim|persian|iranian|shaka|saka|chinese|lunar|gregorian)"
    r"(?:\s+(?:lunar\s+)?calendar)?)"
)
_WORD_CALENDAR = (
    ("tabular", "islamic"), ("umm", "islamic-umalqura"), ("solar", "persian"),
    ("indian", "shaka"), ("hebrew", "hebrew"), ("jewish", "hebrew"), ("islamic", "islamic*"),
    ("hijri", "islamic*"), ("muslim", "islamic*"), ("persian", "persian"),
    ("iranian", "persian"), ("shaka", "shaka"), ("saka", "shaka"), ("chinese", "chinese"),
    ("lunar", "chinese"), ("gregorian", "gregorian"),
)  # fmt: skip


def read_calendar_words(text: str) -> str:
    """The calendar a :data:`CALENDAR_WORDS` match names; ``islamic*`` means
    an Islamic calendar without saying which (tabular or Umm al-Qura)."""
    t = text.lower()
    return next(cal for word, cal in _WORD_CALENDAR if word in t)


def read_era(text: str) -> str:
    return _ERA_CALENDAR[re.sub(r"[^a-z]", "", text.lower())]


_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                  "ninth", "tenth", "eleventh", "twelfth")  # fmt: skip
_NTH = r"(?:\d{1,2}(?:st|nd|rd|th)?|(?i:" + "|".join(_ORDINAL_WORDS) + "))"


def read_nth(text: str) -> int:
    t = text.strip().lower()
    if t[0].isdigit():
        return int(re.match(r"\d+", t)[0])  # type: ignore[index]
    return _ORDINAL_WORDS.index(t) + 1


_CHINESE = (
    r"(?:(?i:the)\s+)?(?P<d>" + _NTH + r")\s+day\s+of\s+(?:the\s+)?(?P<l>(?i:leap)\s+)?"
    r"(?P<m>" + _NTH + r")\s+(?i:(?:chinese\s+)?(?:lunar\s+)?month),?\s+(?i:of|in)\s+(?:the\s+)?"
    r"(?i:(?:chinese\s+)?(?:lunar\s+)?(?:year\s+)?)(?P<y>\d{4})(?!\d)"
    r"|(?i:chinese\s+(?:lunar\s+)?|lunar\s+)(?i:date\s+)?(?P<y2>\d{4})-(?P<l2>L)?(?P<m2>\d{1,2})"
    r"-(?P<d2>\d{1,2})(?!\d)"
)  # fmt: skip
#: A Chinese lunar date: ``the 15th day of the 8th lunar month of 2024``,
#: ``the 1st day of the leap 2nd month of 2023``, ``Chinese date 2024-8-15``
#: (a leap month as ``2023-L2-15``). The year is the lunar year.
CHINESE_DATE = "(?:" + re.sub(r"\(\?P<\w+>", "(?:", _CHINESE) + ")"
_CHINESE_RE = re.compile(_CHINESE)


def read_chinese(text: str) -> tuple[int, int, int, bool]:
    """(lunar year, month, day, leap) of a :data:`CHINESE_DATE` match."""
    m = _CHINESE_RE.search(text)
    assert m is not None, text
    if m["y"]:
        return int(m["y"]), read_nth(m["m"]), read_nth(m["d"]), bool(m["l"])
    return int(m["y2"]), int(m["m2"]), int(m["d2"]), bool(m["l2"])


@cache
def named_date() -> str:
    """A date of a :data:`NAMED_CALENDARS` calendar: ``15 Nisan 5784``,
    ``Nisan 15, 5784``, ``the 1st of Ramadan 1445 AH``."""
    month = calendar_month()
    return (
        r"(?:(?:(?i:the)\s+)?" + _DAY + r"\s+(?:of\s+)?" + month + r",?\s+\d{1,4}"
        r"|" + month + r"\s+" + _DAY + r",?\s+\d{1,4})(?![\d-])(?:\s+" + ERA + r")?"
    )


def read_named(text: str) -> tuple[str, str, int, int, int, str | None]:
    """(calendar, month spelling, year, month, day, era calendar or None) of a
    :func:`named_date` match; the spelling is normalised (``adar``, ``adarii``)."""
    m = re.search(calendar_month(), text)
    assert m is not None, text
    cal, month = read_calendar_month(m[0])
    rest = text[: m.start()] + " " + text[m.end() :]
    numbers = [int(n) for n in re.findall(r"\d+", rest)]
    era = re.search(ERA + r"\s*$", text)
    return cal, normalise(m[0]), numbers[1], month, numbers[0], read_era(era[0]) if era else None
