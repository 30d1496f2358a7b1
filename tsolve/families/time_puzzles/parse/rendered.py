"""tsolve's own fact sentences, read back by asking the facts how they render.

Nothing here restates a fact's wording: every pattern comes from a ``render``
call, so a new wording in a fact class is picked up without editing this
module.

* **The catalogue.** Every fact whose params come from a closed set: each
  value of the calendar and lunar kinds (every month, weekday set, nth
  weekday, ...) and each knowledge-base anchor (every person, president,
  sporting event, and historical event under every relation). Their
  renderings in both styles form an exact index, sentence -> fact.
* **Templates.** Facts with open values (a year, a decade, the dates an
  explicit sentence spells out, an event that is not in the knowledge base)
  are rendered once with sentinel values; the sentinels become capture groups.
  A match is turned back into params, the fact is rebuilt, and it is accepted
  only if it renders to the very sentence read: a template can never read a
  sentence into a fact that does not say it.

``tests/test_puzzle_text.py`` checks that every registered kind's renderings,
in both styles, read back as the same fact.
"""

from __future__ import annotations

import itertools
import re
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from tsolve.calendars import knowledge
from tsolve.encodings.facts import STYLES, Fact
from tsolve.encodings.facts.calendar_facts import (
    FROM_END_WORDS,
    SEASONS,
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
from tsolve.encodings.facts.knowledge_facts import (
    RELATION_LEVELS,
    SPORTS_LABELS,
    EventRelationFact,
    PersonAliveFact,
    SportsEventYearFact,
    UsPresidentFact,
    known_terms,
)
from tsolve.encodings.facts.lunar_facts import ANIMALS, ChineseZodiacFact, LunarMonthFact
from tsolve.encodings.facts.range_facts import DateRangeFact, YearRangeFact, YearRuleFact
from tsolve.encodings.facts.words import NTH_WORDS, WEEKDAYS
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.parse.sentences import Sentence, split_sentences

_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


def clean(sentence: str) -> str:
    """``sentence`` with straight quotes, single spaces and no final full stop."""
    return re.sub(r"\s+", " ", sentence.translate(_QUOTES)).strip().rstrip(".").rstrip()


def key(sentence: str) -> str:
    """What two sentences must share to say the same: :func:`clean`, case-folded."""
    return clean(sentence).casefold()


def renders_as(fact: Fact, sentence: str) -> str | None:
    """The style in which ``fact`` renders to ``sentence``, if any."""
    k = key(sentence)
    return next((s for s in STYLES if key(fact.render(s)) == k), None)  # type: ignore[arg-type]


# ------------------------------------------------------------ the catalogue


def _calendar_values() -> Iterator[Fact]:
    yield from (LeapYearFact(leap) for leap in (True, False))
    yield from (MonthFact(m) for m in range(1, 13))
    yield from (SeasonFact(s) for s in SEASONS)
    yield from (WeekdayFact(w) for w in WEEKDAYS)
    for k in range(2, 7):  # one weekday is the weekday kind (the same sentence)
        yield from (WeekdaysFact(c) for c in itertools.combinations(WEEKDAYS, k))
    yield from (WeekdayInMonthFact(w, n) for w in WEEKDAYS for n in (*NTH_WORDS, *FROM_END_WORDS))
    yield from (DayOfMonthFact(day=d) for d in range(1, 32))
    yield from (DayOfMonthFact(position=p) for p in ("first", "last"))
    yield from (DayOfMonthRangeFact(r, d) for r in ("before", "after") for d in range(1, 32))
    yield from (ChineseZodiacFact(a) for a in ANIMALS)
    yield from (LunarMonthFact(m, leap) for m in range(1, 13) for leap in (False, True, None))


def _knowledge_anchors() -> Iterator[Fact]:
    for p in knowledge.people():
        died = p.died.isoformat() if p.died else None
        yield PersonAliveFact(p.name, p.born.isoformat(), died, p.description)
    for pres in knowledge.presidents():
        yield UsPresidentFact(pres.name, known_terms(pres))
    for name, ev in sorted(knowledge.sports_events().items()):
        yield SportsEventYearFact(name, tuple(ev.years))
    for hev in knowledge.historical_events():
        for relation in RELATION_LEVELS:
            yield EventRelationFact(hev.name, hev.start.isoformat(), hev.end.isoformat(), relation)


@cache
def catalogue_index() -> dict[str, Fact | None]:
    """Sentence key -> the fact that renders to it, in either style; None for a
    sentence two different facts render to (ambiguous: read by neither)."""
    index: dict[str, Fact | None] = {}
    for fact in itertools.chain(_calendar_values(), _knowledge_anchors()):
        for style in STYLES:
            k = key(fact.render(style))  # type: ignore[arg-type]
            if k in index and index[k] != fact:
                index[k] = None
            else:
                index.setdefault(k, fact)
    return index


# ------------------------------------------------------------ templates

_D = ("4001-02-03", "4002-03-04", "4003-04-05", "4004-05-06", "4005-06-07", "4006-07-08")
_NAME = "Qqzx"


def _probes() -> Iterator[Fact]:
    """Facts with sentinel values in every open field."""
    yield YearFact(4321)
    yield DecadeFact(4320)
    yield YearRangeFact(4321, 4322)
    yield YearRangeFact(4300, 4309, century=True)
    yield YearRuleFact(4, 2, 4321, (4322, 4326))
    yield DateRangeFact(_D[0], _D[1], "included")
    yield DateRangeFact(_D[0], _D[1], "excluded")
    yield PersonAliveFact(_NAME, _D[0], _D[1])
    yield PersonAliveFact(_NAME, _D[0], None)
    yield UsPresidentFact(_NAME, ((_D[0], _D[1]), (_D[2], _D[3]), (_D[4], _D[5])))
    for event in SPORTS_LABELS:
        yield SportsEventYearFact(event, (4001, 4002, 4003))
    for relation in RELATION_LEVELS:
        yield EventRelationFact(_NAME, _D[0], _D[0], relation)
        yield EventRelationFact(_NAME, _D[0], _D[1], relation)


def _leaves(value: Any) -> list[str]:
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in _leaves(v)]
    return [] if value is None else [str(value)]


@dataclass(frozen=True)
class Template:
    """One probe's rendering in one style, its open fields as capture groups.
    ``aliases`` are open fields that held the same sentinel as another (a
    one-day event's ``end`` is its ``start``) and are read from that one."""

    probe: Fact
    style: str
    regex: re.Pattern[str]
    aliases: tuple[tuple[str, str], ...] = ()

    def read(self, sentence: str) -> Fact | None:
        """The fact this template reads ``sentence`` as, checked by rendering it."""
        m = self.regex.fullmatch(clean(sentence))
        if m is None:
            return None
        params = dict(self.probe.params)
        hints = _hints(type(self.probe))
        for name, text in m.groupdict().items():
            if len(split_sentences(Sentence(0, text))) > 1:
                return None  # a name that runs on into the next sentence
            params[name] = _value(text, hints[name])
        for alias, field in self.aliases:
            params[alias] = params[field]
        try:
            fact = type(self.probe).from_params(params)
        except TsolveError:
            return None
        return fact if key(fact.render(self.style)) == key(sentence) else None  # type: ignore[arg-type]


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _value(text: str, tp: Any) -> Any:
    """A captured piece of text as a value of the field type ``tp``."""
    args = typing.get_args(tp)
    if tp is int:
        return int(text) if text.isdigit() else text
    if args and args[-1] is Ellipsis:  # a list: its leaves, in order
        if args[0] is int:
            return [int(y) for y in re.findall(r"\d+", text)]
        n = len(typing.get_args(args[0])) or 1
        dates = _ISO.findall(text)
        return [dates[i : i + n] for i in range(0, len(dates), n)]
    return text


def _template(probe: Fact, style: str) -> Template | None:
    """The template of ``probe`` in ``style``; None when an open field does not
    show in the sentence (it could not be read back from it)."""
    text = clean(probe.render(style))  # type: ignore[arg-type]
    open_fields = {f: _leaves(_tupled(v)) for f, v in probe.params.items() if _sentinel(v)}
    owner: dict[tuple[str, ...], str] = {}
    aliases = []
    for field, leaf_list in open_fields.items():
        if tuple(leaf_list) in owner:
            aliases.append((field, owner[tuple(leaf_list)]))
        else:
            owner[tuple(leaf_list)] = field
    spans = []
    for leaves, field in owner.items():
        first = text.find(leaves[0])
        last = text.find(leaves[-1], max(first, 0))
        if first < 0 or last < 0:
            return None
        spans.append((first, last + len(leaves[-1]), field))
    spans.sort()
    scalar = {leaves[0]: field for leaves, field in owner.items() if len(leaves) == 1}
    pattern, at = "", 0
    for start, end, field in spans:
        if start < at:
            return None
        pattern += _literal(text[at:start], scalar) + f"(?P<{field}>.+?)"
        at = end
    pattern += _literal(text[at:], scalar)
    return Template(probe, style, re.compile(pattern, re.IGNORECASE), tuple(aliases))


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list | tuple) else value


def _sentinel(value: Any) -> bool:
    leaves = _leaves(_tupled(value))
    return bool(leaves) and all(leaf == _NAME or re.match(r"4\d{3}", leaf) for leaf in leaves)


_SENTINEL_WORD = re.compile(re.escape(_NAME) + r"|4\d{3}(?:-\d{2}-\d{2})?")


def _literal(text: str, scalar: dict[str, str]) -> str:
    """Fixed wording, escaped. A second mention of a one-valued field must
    repeat it; a number derived from a sentinel ("the years 4320 to 4329")
    matches any number (the rendering check decides)."""
    out, at = "", 0
    for m in _SENTINEL_WORD.finditer(text):
        field = scalar.get(m[0])
        out += re.escape(text[at : m.start()]) + (f"(?P={field})" if field else r"[\d-]+")
        at = m.end()
    return out + re.escape(text[at:])


@cache
def templates() -> tuple[Template, ...]:
    out: dict[str, Template] = {}
    for probe in _probes():
        for style in STYLES:
            t = _template(probe, style)
            if t is not None:
                out.setdefault(f"{type(probe).kind} {t.regex.pattern}", t)
    return tuple(out.values())


def read_rendered(sentence: str) -> Fact | None:
    """The fact whose rendering (in either style) ``sentence`` is, if any."""
    fact = catalogue_index().get(key(sentence))
    if fact is not None:
        return fact
    for t in templates():
        fact = t.read(sentence)
        if fact is not None:
            return fact
    return None


def kinds_covered() -> set[str]:
    """The kinds this module reads (the test holds it equal to ``FACT_TYPES``)."""
    listed = {f.kind for f in catalogue_index().values() if f is not None}
    return listed | {t.probe.kind for t in templates()}
