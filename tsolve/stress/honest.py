"""Honest answers written the way chat models write them: each must score 1.0.

The adversarial suite (:mod:`tsolve.stress.adversarial`) checks that no
trivial policy farms a score. This is its other half: a model that follows
the prompt's own instructions must not be marked down for the way it writes
a right answer. Every **style** here renders a record's gold answer, built
from the record's own gold fields (never from the parser's output), in one
form a chat model writes: markdown around or inside the marker, a heading,
a list, ``\\boxed{}``, written-out dates, Unicode dashes, full-width digits,
a short justification after the answer, the documented alternative markers.

A style returns None for an item it does not apply to (a date style on a
yes/no item); its false-negative rate is over the items it applies to.
:func:`run_styles` gives, per style, how many items it applied to and the
mean of every metric; ``tsolve stress --adversarial`` reports them beside
the adversarial policies, and each must reach 1.0 in the main metric and
the reward.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.contract.family import Record

DASHES = {
    "U+2010 hyphen": "\u2010",
    "U+2011 non-breaking hyphen": "\u2011",
    "U+2012 figure dash": "\u2012",
    "U+2013 en dash": "\u2013",
    "U+2212 minus sign": "\u2212",
}
"""Dashes chat models put into ISO dates instead of ``-``."""

FULL_WIDTH = str.maketrans("0123456789-", "０１２３４５６７８９－")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")

DateStyle = Callable[[str], str]
"""An ISO date (``YYYY-MM-DD``) written in one style."""


def _day(iso: str) -> _dt.date:
    return _dt.date.fromisoformat(iso)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _dashed(dash: str) -> DateStyle:
    return lambda d: d.replace("-", dash)


DATE_STYLES: dict[str, DateStyle] = {
    **{f"date with {name}": _dashed(c) for name, c in DASHES.items()},
    "date in full-width digits": lambda d: d.translate(FULL_WIDTH),
    "date as 'December 29, 1933'": lambda d: f"{_day(d):%B} {_day(d).day}, {_day(d).year}",
    "date as '29 December 1933'": lambda d: f"{_day(d).day} {_day(d):%B} {_day(d).year}",
    "date as '29th December 1933'": lambda d: (
        f"{_ordinal(_day(d).day)} {_day(d):%B} {_day(d).year}"
    ),
    "date as 'Dec. 29, 1933'": lambda d: f"{_day(d):%b}. {_day(d).day}, {_day(d).year}",
    "date with its weekday": lambda d: f"{_day(d):%A}, {_day(d):%B} {_day(d).day}, {_day(d).year}",
}
"""Ways of writing one Gregorian date, each from the ISO date alone."""


@dataclass(frozen=True)
class Gold:
    """A record's gold as the styles render it: the family, the marker its
    prompt asks for, and the answer's parts (from the record's gold fields)."""

    family: str
    marker: str  # "MY ANSWER:" or "Answer:"
    dates: tuple[str, ...] = ()  # time puzzles, one-event relational: ISO dates
    tuples: tuple[tuple[tuple[str, str], ...], ...] = ()  # relational: (event, date) rows
    polar: str = ""  # SPAN yes/no: "Yes" or "No"
    calendar_text: str = ""  # SPAN content: the date as the record words it
    calendar_fields: dict[str, Any] | None = None  # SPAN content: the gold fields
    names: tuple[str, ...] = ()  # logistics: location and vehicle names
    none: bool = False  # no date (combination) fits
    text: str = ""  # any other family: the gold answer's text, one line per answer line
    justification: str = "checked against the question"  # a reason holding no second answer

    def lines(self, date: DateStyle = str, pair: str = "{e} = {d}", join: str = "; ") -> list[str]:
        """The answer's lines with every date written by ``date`` and each
        relational pair by ``pair`` (``{e}`` the event, ``{d}`` the date)."""
        if self.none:
            return ["None"]
        if self.tuples:
            return [join.join(pair.format(e=e, d=date(d)) for e, d in row) for row in self.tuples]
        if self.dates:
            return [", ".join(date(d) for d in self.dates)]
        if self.polar:
            return [self.polar]
        if self.calendar_text:
            return [self.calendar_text]
        if self.text:
            return [ln for ln in self.text.splitlines() if ln.strip()] or [self.text]
        return [", ".join(self.names)]

    @property
    def one_line(self) -> bool:
        return len(self.lines()) == 1

    @property
    def has_dates(self) -> bool:
        return bool(self.dates or self.tuples)


def gold_of(family: str, record: Record) -> Gold:
    """The gold parts of ``record``, read from its own gold fields: the
    family's ``honest_gold`` part, else :func:`default_gold`."""
    from tsolve.contract import get_family
    from tsolve.contract.family import resolve

    fam = get_family(family)
    if fam.honest_gold is not None:
        gold: Gold = resolve(fam.honest_gold)(record)
        return gold
    return default_gold(family, record)


def default_gold(family: str, record: Record) -> Gold:
    """The gold of a family that declares no ``honest_gold``: the text of its
    ``answer`` part after its ``answer_marker`` (``MY ANSWER:`` when it has
    none), which the marker wrappers (:data:`WRAPPERS`) write in every style."""
    from tsolve.contract import get_family
    from tsolve.verifiers.gold_answers import gold_answer

    fam = get_family(family)
    return Gold(fam.name, fam.answer_marker or "MY ANSWER:", text=gold_answer(record, fam))


Style = Callable[[Gold], "str | None"]
"""``style(gold) -> model output``, or None when it does not apply."""


def _words(marker: str) -> str:
    return marker.rstrip(":").strip()


def each(g: Gold, fmt: str, lines: list[str] | None = None) -> str:
    """Every answer line written by ``fmt`` (``{m}`` marker, ``{w}`` its
    words without the colon, ``{a}`` the line)."""
    return "\n".join(fmt.format(m=g.marker, w=_words(g.marker), a=a) for a in lines or g.lines())


def under(g: Gold, head: str, lines: list[str] | None = None) -> str:
    """``head`` on its own line, the answer lines under it."""
    return head + "\n" + "\n".join(lines or g.lines())


REASONING = (
    "## Step 1: the facts\n\n- The first constraint narrows the range.\n"
    "- The second one rules out a few days.\n\n## Step 2: checking\n\nEvery constraint holds.\n\n"
)


def _justified(g: Gold, text: str) -> str | None:
    """``text`` followed by a short justification holding no second answer."""
    if g.polar:
        return None
    return each(g, "{m} {a} (" + text + ")")


WRAPPERS: dict[str, Style] = {
    "marker": lambda g: each(g, "{m} {a}"),
    "bold marker, colon inside": lambda g: each(g, "**{m}** {a}"),
    "bold marker, colon outside": lambda g: each(g, "**{w}**: {a}"),
    "italic marker": lambda g: each(g, "*{w}*: {a}"),
    "underscore italic marker": lambda g: each(g, "_{m}_ {a}"),
    "whole answer line bold": lambda g: each(g, "**{m} {a}**"),
    "bold answer": lambda g: each(g, "{m} **{a}**"),
    "heading '## MY ANSWER'": lambda g: under(g, "## " + _words(g.marker)),
    "heading with colon and a blank line": lambda g: under(g, "### " + g.marker + "\n"),
    "bold marker on its own line": lambda g: under(g, "**" + g.marker + "**"),
    "marker, answer on the next line": lambda g: under(g, g.marker),
    "list bullet before the marker": lambda g: each(g, "- {m} {a}"),
    "quoted marker line": lambda g: each(g, "> {m} {a}"),
    "marker in lower case": lambda g: each(g, "{m} {a}").replace(g.marker, g.marker.lower()),
    "answer in backticks": lambda g: each(g, "{m} `{a}`"),
    "answer in $\\boxed{}$ after the marker": lambda g: (
        each(g, "{m} $\\boxed{{{a}}}$") if g.one_line else None
    ),
    "\\boxed{} alone after reasoning": lambda g: (
        REASONING + "$$\\boxed{" + g.lines()[0] + "}$$" if g.one_line else None
    ),
    "'Final answer:'": lambda g: each(g, "Final answer: {a}"),
    "'**Final Answer:**'": lambda g: each(g, "**Final Answer:** {a}"),
    "'The answer is ...'": lambda g: each(g, "The answer is {a}.") if g.one_line else None,
    "'Answer:'": lambda g: each(g, "Answer: {a}"),
    "markdown reasoning, then the marker": lambda g: REASONING + each(g, "**{m}** {a}"),
    "answer with a full stop": lambda g: each(g, "{m} {a}."),
    "justification in brackets": lambda g: _justified(g, g.justification),
    "justification after a dash": lambda g: (
        None if g.polar else each(g, "{m} {a} \u2014 " + g.justification + ".")
    ),
    "justification on a later line": lambda g: (
        each(g, "{m} {a}") + "\n\nThis follows from the reasoning above."
    ),
    "Windows line ends": lambda g: (REASONING + each(g, "{m} {a}")).replace("\n", "\r\n"),
    "non-breaking space after the marker": lambda g: each(g, "{m}\u00a0{a}"),
    "full-width colon": lambda g: each(g, "{w}\uff1a{a}"),
}
"""Ways of writing the marker line around any answer."""


def dated(date: DateStyle) -> Style:
    def style(g: Gold) -> str | None:
        return each(g, "{m} {a}", g.lines(date)) if g.has_dates else None

    return style


def _list_under_marker(g: Gold) -> str | None:
    if g.tuples:
        return under(g, g.marker, ["- " + a for a in g.lines()])
    if len(g.dates) < 1:
        return None
    return under(g, g.marker, ["- " + d for d in g.dates])


def _dates_with_and(g: Gold) -> str | None:
    if len(g.dates) < 2:
        return None
    return f"{g.marker} {', '.join(g.dates[:-1])} and {g.dates[-1]}"


def _none_as(text: str) -> Style:
    return lambda g: f"{g.marker} {text}" if g.none else None


DATE_SET_STYLES: dict[str, Style] = {
    **{name: dated(fn) for name, fn in DATE_STYLES.items()},
    "dates as a list under the marker": _list_under_marker,
    "dates joined with 'and'": _dates_with_and,
    "None with a reason in brackets": _none_as("None (no date satisfies all constraints)"),
    "'No valid date exists.'": _none_as("No valid date exists."),
    "'There is no valid date.'": _none_as("There is no valid date."),
    "'None.' in bold": _none_as("**None.**"),
}


"""Styles of an answer that is a set of dates, or None (time puzzles, a
relational puzzle's one event): every date style, lists, 'and', the ways of
saying no date fits. A family whose answers are dates declares them among
its ``honest_styles``."""


def tuple_style(pair: str, join: str = "; ") -> Style:
    """A style writing each answer row's ``(event, date)`` pairs by ``pair``
    (``{e}`` the event, ``{d}`` the date), joined by ``join``; None for an
    answer without such rows."""

    def style(g: Gold) -> str | None:
        return each(g, "{m} {a}", g.lines(pair=pair, join=join)) if g.tuples else None

    return style


def family_styles(family: str) -> dict[str, Style]:
    """The family's own styles: its ``honest_styles`` part (default: none)."""
    from tsolve.contract import get_family
    from tsolve.contract.family import resolve

    part = get_family(family).honest_styles
    return dict(resolve(part)) if part is not None else {}


def styles(family: str) -> dict[str, Style]:
    """Every style for ``family``: the marker wrappers, then its own."""
    return {**WRAPPERS, **family_styles(family)}


def __getattr__(name: str) -> Any:
    # ``FAMILY_STYLES``, the built-in families' own styles by family, is a
    # view of their declarations, built on use.
    if name == "FAMILY_STYLES":
        from tsolve.contract import builtin_families

        return {f.name: family_styles(f.name) for f in builtin_families() if f.honest_styles}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class StyleResult:
    """One style on a set of records: how many it applied to, and the mean
    of each metric over those."""

    applied: int
    means: dict[str, float]


def run_styles(
    family: str,
    records: Sequence[Record],
    score: Callable[[Record, str], dict[str, float]],
) -> dict[str, StyleResult]:
    """Every style of ``family`` over ``records``, scored by ``score``."""
    golds = [gold_of(family, r) for r in records]
    out: dict[str, StyleResult] = {}
    for name, style in styles(family).items():
        rows = []
        for record, gold in zip(records, golds, strict=True):
            text = style(gold)
            if text is not None:
                rows.append(score(record, text))
        keys = dict.fromkeys(k for r in rows for k in r)
        means = {k: sum(r.get(k, 0.0) for r in rows) / len(rows) for k in keys} if rows else {}
        out[name] = StyleResult(len(rows), means)
    return out
