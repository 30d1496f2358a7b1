"""Plain wordings of the facts, as people write them: "It's a Monday.",
"The year is a leap year.", "The month is March.", "It happened in the
1990s.", "The day of the month is 13.", "It was during Obama's presidency."

A sentence is read either whole (``the month is March``) or as a subject
("it", "the date", "this day", ...) with a verb ("is", "was", "falls",
"happened", ...) and a predicate (``in March``, ``on a Monday``). Knowledge
anchors are read by name through :mod:`tsolve.families.time_puzzles.parse.anchors`.
Only what a fact kind can say exactly is read: "not a Monday" is the other six
weekdays, but "not in March" is no fact kind and stays unread.

A month with its year ("in March 2024", "in March of 1066") is one sentence
stating two facts, the month and the year (likewise "in March of the 1990s":
the month and the decade); it is the only compound read, since "March 2024"
is how people name a month. Without "of", the year must have four digits:
"in March 12" is a day of March, not the year 12, and stays unread. A
decade is read only where it cannot be a century or a two-digit shorthand:
"the 1990s", but not "the 1900s" (also the years 1900-1999) nor "the 90s"
(the 1990s or the 1890s, never the years 90-99), unless the sentence says
"decade" ("The decade is the 1900s").
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable

from tsolve.claims.lexicon import read_month
from tsolve.encodings.facts import Fact
from tsolve.encodings.facts.calendar_facts import (
    DayOfMonthFact,
    DayOfMonthRangeFact,
    DecadeFact,
    LeapYearFact,
    MonthFact,
    SeasonFact,
    WeekdayFact,
    WeekdayInMonthFact,
    WeekdaysFact,
    YearFact,
)
from tsolve.encodings.facts.lunar_facts import ANIMALS, ChineseZodiacFact, LunarMonthFact
from tsolve.encodings.facts.range_facts import DateRangeFact, YearRangeFact, YearRuleFact
from tsolve.encodings.facts.words import MONTHS, WEEKDAYS
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.parse import anchors
from tsolve.families.time_puzzles.parse.rendered import clean

Match = re.Match[str]
Builder = Callable[[Match], Fact | tuple[Fact, ...] | None]

_W = r"(?:" + "|".join(WEEKDAYS) + r")"
_WEEKDAY_LIST = (
    r"(?P<wds>(?:a\s+)?" + _W + r"(?:\s*(?:,\s*(?:or\s+)?|or\s+|/\s*)(?:a\s+|on\s+a\s+)?" + _W
    + r")*)"
)  # fmt: skip
_MONTH = r"(?P<m>" + "|".join(MONTHS) + r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?)"
_SEASON = r"(?P<s>spring|summer|autumn|fall|winter)"
_ORD = r"(?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?"
_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1,
        "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}  # fmt: skip
_NTH_WORD = r"(?P<n>" + "|".join(_NTH) + r")"
_LUNAR_NTH = (
    r"(?P<n>(?:[1-9]|1[0-2])(?:st|nd|rd|th)?|first|second|third|fourth|fifth|sixth|seventh"
    r"|eighth|ninth|tenth|eleventh|twelfth)"
)
_LUNAR_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                "ninth", "tenth", "eleventh", "twelfth")  # fmt: skip
_ANIMAL = r"(?P<a>" + "|".join(ANIMALS) + r")"
_OF_MONTH = r"\s+(?:day\s+)?of\s+(?:the|its|that|this)\s+month"
_IS = r"(?:is|was|will\s+be|must\s+be)"
#: "1990" but not "1900" (a century too) nor "90" (a two-digit shorthand).
_DECADE_S = r"(?P<dec>\d{1,2}[1-9]0)['’]?s"
#: A year after a month: four digits, or any after "of" ("March of 1066").
_MONTH_YEAR = (
    _MONTH + r"(?:\s*,?\s+(?P<y4>\d{4})|\s+of\s+(?:the\s+year\s+)?(?P<y>\d{1,4})"
    r"|\s+of\s+the\s+" + _DECADE_S + ")"
)


#: "the 2nd to last", "the second-to-last": a place counted from the month's end.
_NTH_BACK = r"(?P<b>" + "|".join(k for k in _NTH if k != "last") + r")[\s-]+to[\s-]+last"
#: Any decade of four digits, a century's first one too ("the 1900s"): only
#: in the Time Puzzles release's "The year is in the 1900s.", read with its
#: century reading (:class:`YearRangeFact`).
_DECADE_4 = r"(?P<dec>\d{3}0)['’]?s"
_MONTH_NAMES = "|".join(MONTHS)


def _day_pattern(i: int) -> str:
    """A day with its year, its groups numbered ``i``: "January 05, 1950",
    "5 January 1950", "1950-01-05"."""
    return (
        rf"(?:(?P<m{i}>{_MONTH_NAMES})\s+(?P<d{i}>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y{i}>\d{{4}})"
        rf"|(?P<e{i}>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<n{i}>{_MONTH_NAMES}),?\s+(?P<z{i}>\d{{4}})"
        rf"|(?P<iso{i}>\d{{4}}-\d{{2}}-\d{{2}}))"
    )


def _day_at(m: Match, i: int) -> str:
    """The ISO day that :func:`_day_pattern` ``i`` matched (a day that does not
    exist, "February 30", is a :class:`TsolveError`: not a fact)."""
    if m[f"iso{i}"]:
        text = m[f"iso{i}"]
        try:
            _dt.date.fromisoformat(text)
        except ValueError:
            raise TsolveError(f"no such day: {text}") from None
        return str(text)
    if m[f"m{i}"]:
        month, day, year = m[f"m{i}"], m[f"d{i}"], m[f"y{i}"]
    else:
        month, day, year = m[f"n{i}"], m[f"e{i}"], m[f"z{i}"]
    try:
        return _dt.date(int(year), read_month(month.capitalize()), int(day)).isoformat()
    except ValueError:
        raise TsolveError(f"no such day: {month} {day}, {year}") from None


def _date_range(m: Match) -> Fact:
    """Between A and B: the two days count when the words say so
    ("inclusive", "both days included"), not when they say "strictly" or
    "exclusive", and are unstated otherwise (a reading either way)."""
    tail = (m["tail"] or "").lower()
    if m["strict"] or "exclusive" in tail or "neither" in tail:
        ends = "excluded"
    elif tail:
        ends = "included"
    else:
        ends = "unstated"
    return DateRangeFact(_day_at(m, 1), _day_at(m, 2), ends)


def _year_rule(m: Match) -> Fact:
    excluded = tuple(sorted({int(y) for y in re.findall(r"\d+", m["x"] or "")}))
    return YearRuleFact(int(m["mod"]), int(m["rem"]), int(m["since"]), excluded)


def _year_decade(m: Match) -> Fact:
    """The year in "the 1980s" is the decade; "in the 1900s" also names
    a century, so it is the decade with the century as its reading."""
    dec = int(m["dec"])
    return YearRangeFact(dec, dec + 9, century=True) if dec % 100 == 0 else DecadeFact(dec)


def _weekdays(m: Match, negated: bool = False) -> Fact:
    named = {w for w in WEEKDAYS if re.search(w, m["wds"], re.IGNORECASE)}
    if negated:
        named = set(WEEKDAYS) - named
    chosen = tuple(w for w in WEEKDAYS if w in named)
    return WeekdayFact(chosen[0]) if len(chosen) == 1 else WeekdaysFact(chosen)


def _month(m: Match) -> Fact:
    return MonthFact(read_month(m["m"].capitalize()))


def _month_year(m: Match) -> tuple[Fact, ...]:
    """The month, and the year (or decade) it names: two facts."""
    year = m["y4"] or m["y"]
    when = YearFact(int(year)) if year else DecadeFact(int(m["dec"]))
    return (_month(m), when)


def _season(m: Match) -> Fact:
    s = m["s"].lower()
    return SeasonFact("autumn" if s == "fall" else s)


def _day(m: Match) -> Fact:
    return DayOfMonthFact(day=int(m["d"]))


def _range(m: Match) -> Fact:
    rel = m["rel"].lower()
    after = rel.startswith(("after", "later", "greater", "more"))
    return DayOfMonthRangeFact("after" if after else "before", int(m["d"]))


def _lunar(m: Match) -> Fact:
    n = m["n"].lower()
    month = int(re.match(r"\d+", n)[0]) if n[0].isdigit() else _LUNAR_WORDS.index(n) + 1  # type: ignore[index]
    return LunarMonthFact(month, bool(m.groupdict().get("leap")))


def _lunar_number(m: Match) -> Fact:
    """The 3rd month of the Chinese lunar calendar, as the Time Puzzles release
    means it: the month numbered 3 or the leap month of that number
    (``leap`` null; any number, so its "14th month" holds on no day); "the
    leap 3rd month ..." is the leap month alone."""
    n = m["n"].lower()
    month = int(n[:-2]) if n[0].isdigit() else _LUNAR_WORDS.index(n) + 1
    return LunarMonthFact(month, True if m["leap"] else None)


def _leap(m: Match) -> Fact:
    what = (m["what"] or "leap").lower()
    leap = what == "leap"
    return LeapYearFact(leap != bool(m.groupdict().get("neg")))


def _event(relation: str) -> Builder:
    def build(m: Match) -> Fact | None:
        return anchors.event(m["e"], relation)

    return build


def _president(m: Match) -> Fact | None:
    return anchors.president(m["p"])


def _person(m: Match) -> Fact | None:
    return anchors.person(m["who"])


def _sports(m: Match) -> Fact | None:
    return anchors.sports(m["sp"])


_SPORT = (
    r"(?P<sp>(?:summer|winter)\s+olympic(?:s|\s+games)?|(?:fifa\s+)?(?:football\s+)?world\s+cup)"
)

#: Whole sentences with a subject of their own.
SENTENCES: tuple[tuple[str, Builder], ...] = (
    (r"(?:the\s+)?year\s+" + _IS + r"\s+(?P<y>\d{1,4})", lambda m: YearFact(int(m["y"]))),
    (r"(?:the\s+year|it)\s+" + _IS + r"\s+(?P<neg>not\s+)?a\s+(?P<what>leap|common|non-?\s?leap)"
     r"\s+year", _leap),
    (r"the\s+month\s+" + _IS + r"\s+" + _MONTH, _month),
    (r"the\s+month\s+" + _IS + r"\s+" + _MONTH_YEAR, _month_year),
    (r"the\s+season\s+" + _IS + r"\s+" + _SEASON, _season),
    (r"the\s+(?:weekday|day\s+of\s+the\s+week)\s+" + _IS + r"\s+" + _WEEKDAY_LIST, _weekdays),
    (r"the\s+(?:day\s+of\s+the\s+month|day\s+number|day)\s+" + _IS + r"\s+(?:the\s+)?" + _ORD,
     _day),
    (r"the\s+day\s+of\s+the\s+month\s+" + _IS + r"\s+(?:strictly\s+)?(?P<rel>before|after"
     r"|earlier\s+than|later\s+than|less\s+than|greater\s+than|more\s+than)\s+(?:the\s+)?" + _ORD
     + r"(?:\s+\(strictly\))?", _range),
    (r"the\s+decade\s+" + _IS + r"\s+the\s+(?P<dec>\d{2,3}0)['’]?s",
     lambda m: DecadeFact(int(m["dec"]))),
    (r"the\s+year\s+" + _IS + r"\s+in\s+the\s+" + _DECADE_4, _year_decade),
    (r"the\s+year\s+" + _IS + r"\s+(?:within\s+the\s+range(?:\s+of)?\s+(?P<a>\d{1,4})\s+(?:to|-|–)"
     r"\s+(?P<b>\d{1,4})|between\s+(?P<c>\d{1,4})\s+and\s+(?P<d>\d{1,4}),?\s+(?:\(inclusive\)"
     r"|inclusive|both\s+included))",
     lambda m: YearRangeFact(int(m["a"] or m["c"]), int(m["b"] or m["d"]))),
    (r"the\s+year\s+satisfies\s+year\s*%\s*(?P<mod>\d{1,3})\s*==\s*(?P<rem>\d{1,3})\s*(?:,\s*|\s+and\s+)"
     r"year\s*>=\s*(?P<since>\d{1,4})(?:\s*,?\s+and\s+is\s+not\s+(?P<x>\d{1,4}"
     r"(?:\s*,\s*(?:or\s+)?\d{1,4}|\s+or\s+\d{1,4})*))?", _year_rule),
    (r"the\s+(?:chinese\s+)?zodiac\s+(?:animal|sign)\s+(?:of\s+the\s+year\s+)?" + _IS
     + r"\s+(?:the\s+)?" + _ANIMAL, lambda m: ChineseZodiacFact(m["a"].capitalize())),
    (r"the\s+(?:chinese\s+)?lunar\s+month\s+" + _IS + r"\s+(?:the\s+)?(?P<leap>leap\s+)?"
     + _LUNAR_NTH + r"(?:\s+(?:lunar\s+)?month)?", _lunar),
    (r"(?P<p>[A-Z][\w.' -]+?)\s+(?:was|is)\s+(?:the\s+)?(?:US\s+|U\.S\.\s+)?president"
     r"(?:\s+of\s+the\s+United\s+States)?(?:\s+(?:on\s+(?:this|that)\s+(?:date|day)|at\s+the\s+time"
     r"|then))?", _president),
    (r"(?P<who>[A-Z][\w.' -]+?)\s+(?:was|is)\s+(?:still\s+)?alive(?:\s+(?:on\s+(?:this|that)\s+"
     r"(?:date|day)|at\s+the\s+time|then))?", _person),
    (r"(?:the\s+)?" + _SPORT + r"\s+(?:were|was)\s+held\s+(?:that|in\s+that|in\s+the\s+same)\s+"
     r"year", _sports),
)  # fmt: skip

_SUBJECT = (
    r"(?:the\s+(?:date|day|answer|event|target\s+date|unknown\s+date|mystery\s+date"
    r"|date\s+we\s+are\s+looking\s+for)|this\s+(?:date|day)|that\s+(?:date|day)|it|we\s+are"
    r"|(?:he|she|they|i|we|you)\s+(?:was|were)\s+born)"
)
_VERB = (
    r"(?:is|was|will\s+be|must\s+be|falls|fell|happened|happens|occurred|occurs|took\s+place"
    r"|takes\s+place|lies)"
)

#: What follows "it is", "the date falls", "it happened", ...: the calendar
#: ones, which may also follow one another in one sentence ("on a Sunday in
#: the spring of 1952": :func:`read_paraphrases`).
CALENDAR_PREDICATES: tuple[tuple[str, Builder], ...] = (
    (r"not\s+(?:on\s+)?" + _WEEKDAY_LIST, lambda m: _weekdays(m, negated=True)),
    (r"(?:on\s+)?" + _WEEKDAY_LIST, _weekdays),
    (r"(?:on\s+)?a\s+weekend(?:\s+day)?", lambda m: WeekdaysFact(("Saturday", "Sunday"))),
    (r"(?:on\s+)?a\s+(?:weekday|working\s+day|workday)",
     lambda m: WeekdaysFact(WEEKDAYS[:5])),
    (r"(?:in|during)\s+(?:the\s+month\s+of\s+)?" + _MONTH, _month),
    (r"(?:(?:in|during)\s+(?:the\s+month\s+of\s+)?)?" + _MONTH_YEAR, _month_year),
    (r"(?:in|during)\s+(?:the\s+)?" + _SEASON + r"(?:\s+season)?", _season),
    (r"(?:in|during)\s+(?:the\s+year\s+)?(?P<y>\d{1,4})", lambda m: YearFact(int(m["y"]))),
    (r"(?:in|during|from)\s+the\s+" + _DECADE_S, lambda m: DecadeFact(int(m["dec"]))),
    (r"(?P<neg>not\s+)?(?:in\s+)?a\s+(?P<what>leap|common|non-?\s?leap)\s+year", _leap),
    (r"(?:on\s+)?the\s+" + _NTH_WORD + r"\s+(?P<wd>" + _W + r")\s+(?:of|in)\s+(?:the|its|that)"
     r"\s+month", lambda m: WeekdayInMonthFact(m["wd"].capitalize(), _NTH[m["n"].lower()])),
    (r"(?:on\s+)?the\s+(?P<pos>first|last)" + _OF_MONTH,
     lambda m: DayOfMonthFact(position=m["pos"].lower())),
    (r"(?:on\s+)?the\s+" + _ORD + _OF_MONTH, _day),
    (r"(?:on\s+a\s+day\s+)?(?P<rel>before|after|earlier\s+than|later\s+than)\s+the\s+" + _ORD
     + _OF_MONTH, _range),
    (r"in\s+(?:a|the)\s+(?:chinese\s+(?:zodiac\s+)?)?year\s+of\s+the\s+" + _ANIMAL,
     lambda m: ChineseZodiacFact(m["a"].capitalize())),
    (r"in\s+an?\s+" + _ANIMAL + r"\s+year", lambda m: ChineseZodiacFact(m["a"].capitalize())),
    (r"(?:in\s+)?the\s+(?P<leap>leap\s+)?(?P<n>\d{1,2}(?:st|nd|rd|th)|" + "|".join(_LUNAR_WORDS)
     + r")\s+month\s+of\s+the\s+(?:chinese\s+)?lunar\s+calendar", _lunar_number),
    (r"in\s+the\s+(?P<leap>leap\s+)?" + _LUNAR_NTH + r"\s+(?:chinese\s+)?lunar\s+month", _lunar),
    (r"(?:in|during)\s+(?:the\s+)?(?P<s>spring|summer|autumn|fall)\s+of\s+(?:the\s+year\s+)?"
     r"(?P<y>\d{4})", lambda m: (_season(m), YearFact(int(m["y"])))),
    (r"(?:in\s+)?" + _SEASON, _season),
    (_MONTH, _month),
    (r"(?:on\s+)?the\s+" + _NTH_BACK + r"\s+(?P<wd>" + _W + r")\s+(?:of|in)\s+(?:the|its|that)"
     r"\s+month", lambda m: WeekdayInMonthFact(m["wd"].capitalize(), -_NTH[m["b"].lower()])),
    (r"on\s+or\s+(?P<rel>before|after)\s+the\s+" + _ORD + r"(?:" + _OF_MONTH + r")?",
     lambda m: DayOfMonthRangeFact(m["rel"].lower(),
                                   int(m["d"]) + (1 if m["rel"].lower() == "before" else -1))),
    (r"(?:in\s+)?(?:the|a)\s+year\s+of\s+the\s+" + _ANIMAL + r"(?:\s+(?:according\s+to|in)\s+"
     r"(?:the\s+)?chinese\s+(?:lunar\s+)?(?:calendar|zodiac))?",
     lambda m: ChineseZodiacFact(m["a"].capitalize())),
    (r"(?P<strict>strictly\s+)?between\s+" + _day_pattern(1) + r"\s+and\s+" + _day_pattern(2)
     + r"(?P<tail>,?\s+(?:inclusive|exclusive|\(inclusive\)|\(exclusive\)|both\s+days\s+included"
     r"|\(neither\s+day\s+counts\)|neither\s+day\s+included))?", _date_range),
)  # fmt: skip

#: Predicates that name a knowledge-base anchor.
ANCHOR_PREDICATES: tuple[tuple[str, Builder], ...] = (
    (r"an?\s+(?:modern\s+)?" + _SPORT + r"\s+year", _sports),
    (r"(?:during|in)\s+(?:the\s+)?(?:presidency|administration|term)\s+of\s+(?P<p>.+)",
     _president),
    (r"(?:during|in)\s+(?P<p>.+?)['’]s\s+(?:presidency|administration|term)", _president),
    (r"(?:while|when)\s+(?P<p>.+?)\s+was\s+(?:the\s+)?(?:US\s+|U\.S\.\s+)?president"
     r"(?:\s+of\s+the\s+United\s+States)?", _president),
    (r"(?:during|in|within)\s+(?:the\s+)?(?:lifetime|life)\s+of\s+(?P<who>.+)", _person),
    (r"(?:during|in|within)\s+(?P<who>.+?)['’]s\s+(?:lifetime|life)", _person),
    (r"(?:while|when)\s+(?P<who>.+?)\s+was\s+(?:still\s+)?alive", _person),
    (r"in\s+(?:a|an|the)\s+(?:year\s+(?:of|with)\s+(?:a|an|the)\s+)?" + _SPORT
     + r"(?:\s+year)?", _sports),
    (r"in\s+a\s+year\s+(?:in\s+which|when)\s+(?:the\s+)?" + _SPORT + r"\s+(?:were|was)\s+held",
     _sports),
    (r"in\s+the\s+same\s+year\s+as\s+(?P<e>.+)", _event("same_year")),
    (r"in\s+the\s+same\s+month(?:\s+and\s+year|\s+of\s+the\s+same\s+year)?\s+as\s+(?P<e>.+)",
     _event("same_month")),
    (r"on\s+the\s+(?:same\s+)?day\s+(?:of|as)\s+(?P<e>.+)", _event("same_day")),
    (r"(?:on\s+)?(?:the|an)\s+anniversary\s+of\s+(?P<e>.+)", _event("anniversary")),
    # Also generator version 5's wording of multi-day events ("... as X began",
    # "in a month (of a year) in which X was under way"), so older prompts still read.
    (r"(?:has|had)\s+the\s+same\s+month\s+and\s+day\s+as\s+(?:the\s+(?:first\s+day|start)"
     r"\s+of\s+)?(?P<e>.+?)(?:\s+(?:began|started))?", _event("anniversary")),
    (r"in\s+a\s+month\s+\(of\s+a\s+year\)\s+in\s+which\s+(?P<e>.+?)\s+was\s+under\s+way",
     _event("same_month")),
    (r"before\s+(?P<e>.+?)(?:\s+(?:began|started|happened|took\s+place))?", _event("before")),
    (r"after\s+(?P<e>.+?)(?:\s+(?:ended|happened|took\s+place))?", _event("after")),
)  # fmt: skip

_CONTRACTIONS = (
    (r"\b(it|that|this)['’]s\b", r"\1 is"), (r"\bisn['’]t\b", "is not"),
    (r"\bwasn['’]t\b", "was not"), (r"\bwe['’]re\b", "we are"),
)  # fmt: skip


_COMPILED_SENTENCES = tuple((re.compile(p, re.IGNORECASE), b) for p, b in SENTENCES)
PREDICATES: tuple[tuple[str, Builder], ...] = CALENDAR_PREDICATES + ANCHOR_PREDICATES
_COMPILED_PREDICATES = tuple((re.compile(p, re.IGNORECASE), b) for p, b in PREDICATES)
_COMPILED_CALENDAR = _COMPILED_PREDICATES[: len(CALENDAR_PREDICATES)]
#: Where a predicate may end and the next begin: before "in", "on", "during".
_NEXT_PART = re.compile(r"\s+(?=(?:in|on|during)\b)", re.IGNORECASE)
_SUBJECT_VERB = re.compile(_SUBJECT + r"\s+(?:" + _VERB + r"\s+)?(?P<pred>.+)", re.IGNORECASE)


def _plain(sentence: str) -> str:
    text = clean(sentence).rstrip("!")
    for pattern, repl in _CONTRACTIONS:
        text = re.sub(pattern, repl, text, flags=re.IGNORECASE)
    return text


def read_paraphrases(sentence: str) -> tuple[Fact, ...]:
    """The facts ``sentence`` says in a plain wording, in the order it says
    them: one, two for a month with its year, none when it is not read (see
    the module docstring)."""
    text = _plain(sentence)
    for regex, build in _COMPILED_SENTENCES:
        facts = _built(regex.fullmatch(text), build)
        if facts:
            return facts
    sv = _SUBJECT_VERB.fullmatch(text)
    if sv is None:
        return ()
    pred = sv["pred"].strip().rstrip(",")
    for regex, build in _COMPILED_PREDICATES:
        facts = _built(regex.fullmatch(pred), build)
        if facts:
            return facts
    return _calendar_parts(pred, 3)


def _calendar_parts(pred: str, most: int) -> tuple[Fact, ...]:
    """``pred`` as two or more calendar predicates one after another ("in a
    leap year during the 1990s", "on a Sunday in the spring of 1952"), each
    read whole; at most ``most`` parts. A negated first part ("not on a Monday
    in March") is not split: the "not" could cover both."""
    if most < 2 or pred.lower().startswith("not "):
        return ()
    for cut in _NEXT_PART.finditer(pred):
        head, rest = pred[: cut.start()], pred[cut.end() :]
        first = _one_calendar(head)
        if not first:
            continue
        tail = _one_calendar(rest) or _calendar_parts(rest, most - 1)
        if tail:
            return first + tail
    return ()


def _one_calendar(pred: str) -> tuple[Fact, ...]:
    for regex, build in _COMPILED_CALENDAR:
        facts = _built(regex.fullmatch(pred), build)
        if facts:
            return facts
    return ()


def read_paraphrase(sentence: str) -> Fact | None:
    """The fact ``sentence`` says in a plain wording, or None, also when it
    says two (a month with its year: :func:`read_paraphrases`), since one of
    them alone would be a misreading."""
    facts = read_paraphrases(sentence)
    return facts[0] if len(facts) == 1 else None


def _built(m: Match | None, build: Builder) -> tuple[Fact, ...]:
    if m is None:
        return ()
    try:
        built = build(m)
    except TsolveError:  # a value the kind refuses (the 32nd, year 0): not a fact
        return ()
    if built is None:
        return ()
    return built if isinstance(built, tuple) else (built,)
