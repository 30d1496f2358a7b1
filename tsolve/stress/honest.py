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

_FULL_WIDTH = str.maketrans("0123456789-", "０１２３４５６７８９－")
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
    "date in full-width digits": lambda d: d.translate(_FULL_WIDTH),
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
        return [", ".join(self.names)]

    @property
    def one_line(self) -> bool:
        return len(self.lines()) == 1

    @property
    def has_dates(self) -> bool:
        return bool(self.dates or self.tuples)


def gold_of(family: str, record: Record) -> Gold:
    """The gold parts of ``record``, read from its own gold fields."""
    answers = record.get("answers")
    if family == "time-puzzles":
        dates = tuple(str(d) for d in answers or [])
        return Gold(family, "MY ANSWER:", dates=dates, none=not dates)
    if family == "relational-puzzles":
        if not answers:
            return Gold(family, "MY ANSWER:", none=True)
        from tsolve.families.relational_puzzles.solve import relational_from_record

        puzzle = relational_from_record(record)
        if puzzle.asked is not None:
            return Gold(family, "MY ANSWER:", dates=tuple(str(d) for d in answers))
        events = [e.name for e in puzzle.events]
        rows = tuple(tuple(zip(events, (str(d) for d in row), strict=True)) for row in answers)
        return Gold(family, "MY ANSWER:", tuples=rows)
    if family == "span":
        if record.get("format") == "polar":
            return Gold(family, "MY ANSWER:", polar=str(record["answer"]))
        gold = dict(record["gold"])
        return Gold(family, "MY ANSWER:", calendar_text=str(gold["text"]), calendar_fields=gold)
    if family == "logistics":
        return Gold(family, "Answer:", names=tuple(str(a) for a in answers or []))
    raise ValueError(f"no honest styles for family {family!r}")


Style = Callable[[Gold], "str | None"]
"""``style(gold) -> model output``, or None when it does not apply."""


def _words(marker: str) -> str:
    return marker.rstrip(":").strip()


def _each(g: Gold, fmt: str, lines: list[str] | None = None) -> str:
    """Every answer line written by ``fmt`` (``{m}`` marker, ``{w}`` its
    words without the colon, ``{a}`` the line)."""
    return "\n".join(fmt.format(m=g.marker, w=_words(g.marker), a=a) for a in lines or g.lines())


def _under(g: Gold, head: str, lines: list[str] | None = None) -> str:
    """``head`` on its own line, the answer lines under it."""
    return head + "\n" + "\n".join(lines or g.lines())


REASONING = (
    "## Step 1: the facts\n\n- The first constraint narrows the range.\n"
    "- The second one rules out a few days.\n\n## Step 2: checking\n\nEvery constraint holds.\n\n"
)

_JUSTIFY = {
    "time-puzzles": "checked against every constraint",
    "relational-puzzles": "checked against every constraint",
    "span": "counting forward from the given date",
    "logistics": "after the last event before that moment",
}


def _justified(g: Gold, text: str) -> str | None:
    """``text`` followed by a short justification holding no second answer."""
    if g.polar:
        return None
    return _each(g, "{m} {a} (" + text + ")")


WRAPPERS: dict[str, Style] = {
    "marker": lambda g: _each(g, "{m} {a}"),
    "bold marker, colon inside": lambda g: _each(g, "**{m}** {a}"),
    "bold marker, colon outside": lambda g: _each(g, "**{w}**: {a}"),
    "italic marker": lambda g: _each(g, "*{w}*: {a}"),
    "underscore italic marker": lambda g: _each(g, "_{m}_ {a}"),
    "whole answer line bold": lambda g: _each(g, "**{m} {a}**"),
    "bold answer": lambda g: _each(g, "{m} **{a}**"),
    "heading '## MY ANSWER'": lambda g: _under(g, "## " + _words(g.marker)),
    "heading with colon and a blank line": lambda g: _under(g, "### " + g.marker + "\n"),
    "bold marker on its own line": lambda g: _under(g, "**" + g.marker + "**"),
    "marker, answer on the next line": lambda g: _under(g, g.marker),
    "list bullet before the marker": lambda g: _each(g, "- {m} {a}"),
    "quoted marker line": lambda g: _each(g, "> {m} {a}"),
    "marker in lower case": lambda g: _each(g, "{m} {a}").replace(g.marker, g.marker.lower()),
    "answer in backticks": lambda g: _each(g, "{m} `{a}`"),
    "answer in $\\boxed{}$ after the marker": lambda g: (
        _each(g, "{m} $\\boxed{{{a}}}$") if g.one_line else None
    ),
    "\\boxed{} alone after reasoning": lambda g: (
        REASONING + "$$\\boxed{" + g.lines()[0] + "}$$" if g.one_line else None
    ),
    "'Final answer:'": lambda g: _each(g, "Final answer: {a}"),
    "'**Final Answer:**'": lambda g: _each(g, "**Final Answer:** {a}"),
    "'The answer is ...'": lambda g: _each(g, "The answer is {a}.") if g.one_line else None,
    "'Answer:'": lambda g: _each(g, "Answer: {a}"),
    "markdown reasoning, then the marker": lambda g: REASONING + _each(g, "**{m}** {a}"),
    "answer with a full stop": lambda g: _each(g, "{m} {a}."),
    "justification in brackets": lambda g: _justified(g, _JUSTIFY[g.family]),
    "justification after a dash": lambda g: (
        None if g.polar else _each(g, "{m} {a} \u2014 " + _JUSTIFY[g.family] + ".")
    ),
    "justification on a later line": lambda g: (
        _each(g, "{m} {a}") + "\n\nThis follows from the reasoning above."
    ),
    "Windows line ends": lambda g: (REASONING + _each(g, "{m} {a}")).replace("\n", "\r\n"),
    "non-breaking space after the marker": lambda g: _each(g, "{m}\u00a0{a}"),
    "full-width colon": lambda g: _each(g, "{w}\uff1a{a}"),
}
"""Ways of writing the marker line around any answer."""


def _dated(date: DateStyle) -> Style:
    def style(g: Gold) -> str | None:
        return _each(g, "{m} {a}", g.lines(date)) if g.has_dates else None

    return style


def _list_under_marker(g: Gold) -> str | None:
    if g.tuples:
        return _under(g, g.marker, ["- " + a for a in g.lines()])
    if len(g.dates) < 1:
        return None
    return _under(g, g.marker, ["- " + d for d in g.dates])


def _dates_with_and(g: Gold) -> str | None:
    if len(g.dates) < 2:
        return None
    return f"{g.marker} {', '.join(g.dates[:-1])} and {g.dates[-1]}"


def _none_as(text: str) -> Style:
    return lambda g: f"{g.marker} {text}" if g.none else None


TIME_PUZZLES: dict[str, Style] = {
    **{name: _dated(fn) for name, fn in DATE_STYLES.items()},
    "dates as a list under the marker": _list_under_marker,
    "dates joined with 'and'": _dates_with_and,
    "None with a reason in brackets": _none_as("None (no date satisfies all constraints)"),
    "'No valid date exists.'": _none_as("No valid date exists."),
    "'There is no valid date.'": _none_as("There is no valid date."),
    "'None.' in bold": _none_as("**None.**"),
}


def _tuple_style(pair: str, join: str = "; ") -> Style:
    def style(g: Gold) -> str | None:
        return _each(g, "{m} {a}", g.lines(pair=pair, join=join)) if g.tuples else None

    return style


RELATIONAL: dict[str, Style] = {
    **TIME_PUZZLES,
    "pairs separated by commas": _tuple_style("{e} = {d}", ", "),
    "'event on date'": _tuple_style("{e} on {d}"),
    "'event: date'": _tuple_style("{e}: {d}"),
    "one marker, one combination per line": lambda g: _under(g, g.marker) if g.tuples else None,
    "written dates, pairs separated by commas": lambda g: (
        _each(g, "{m} {a}", g.lines(DATE_STYLES["date as 'December 29, 1933'"], join=", "))
        if g.tuples
        else None
    ),
}


def _polar(text: str) -> Style:
    return lambda g: f"{g.marker} {text.format(a=g.polar)}" if g.polar else None


def _calendar(render: Callable[[dict[str, Any]], str]) -> Style:
    def style(g: Gold) -> str | None:
        return f"{g.marker} {render(g.calendar_fields)}" if g.calendar_fields else None

    return style


def _numeric(f: dict[str, Any], dash: str = "-") -> str:
    month = f"L{f['month']}" if f.get("leap") else str(f["month"])
    return dash.join([str(f["year"]), month, str(f["day"])])


def _numeric_with(dash: str) -> Callable[[dict[str, Any]], str]:
    return lambda f: _numeric(f, dash)


def _gregorian_written(f: dict[str, Any]) -> str:
    return DATE_STYLES["date as 'December 29, 1933'"](str(f["gregorian"]))


_NOT = {"Yes": "they are equivalent", "No": "they are not the same day"}

SPAN: dict[str, Style] = {
    "'Yes, they are equivalent.'": lambda g: (
        f"{g.marker} {g.polar}, {_NOT[g.polar]}." if g.polar else None
    ),
    "Yes/No with a full stop and a reason": _polar("{a}. The two dates name the same day."),
    "Yes/No in bold": _polar("**{a}**"),
    "Yes/No after a dash reason": _polar("{a} \u2014 counting the days confirms it."),
    "content date with its Gregorian date in brackets": _calendar(
        lambda f: f"{f['text']} ({_gregorian_written(f)})"
    ),
    "content date with its ISO Gregorian date in brackets": _calendar(
        lambda f: f"{f['text']} (Gregorian {f['gregorian']})"
    ),
    "content date as Y-M-D": _calendar(_numeric),
    **{
        f"content date as Y-M-D with {name}": _calendar(_numeric_with(c))
        for name, c in DASHES.items()
    },
    "content date as Y-M-D in full-width digits": _calendar(
        lambda f: _numeric(f).translate(_FULL_WIDTH)
    ),
}


def _city(name: str) -> str | None:
    m = re.fullmatch(r"l(\d+)_\d+", name)
    return f"c{m[1]}" if m else None


def _logistics(render: Callable[[Gold], str | None]) -> Style:
    return lambda g: render(g) if g.names else None


def _names_with_city(g: Gold) -> str | None:
    parts = []
    for n in g.names:
        city = _city(n)
        parts.append(f"{n} (in city {city})" if city else n)
    return "Answer: " + ", ".join(parts)


def _names_with_kind(g: Gold) -> str:
    kinds = {"t": "truck", "a": "airplane", "l": "location"}
    return "Answer: " + " and ".join(f"{kinds.get(n[0], '')} {n}".strip() for n in g.names)


LOGISTICS: dict[str, Style] = {
    "'Answer: l1_1 (in city c1)'": _logistics(_names_with_city),
    "names with their kind ('truck t0')": _logistics(_names_with_kind),
    "'The package is at/in ...'": _logistics(
        lambda g: "Answer: The package is at " + " in ".join(g.names) + "."
    ),
    "'The answer is l1_1.' in bold": _logistics(
        lambda g: "**The answer is " + ", ".join(g.names) + ".**"
    ),
    "names with escaped underscores": _logistics(
        lambda g: "Answer: " + ", ".join(g.names).replace("_", "\\_")
    ),
}


FAMILY_STYLES: dict[str, dict[str, Style]] = {
    "time-puzzles": TIME_PUZZLES,
    "relational-puzzles": RELATIONAL,
    "span": SPAN,
    "logistics": LOGISTICS,
}


def styles(family: str) -> dict[str, Style]:
    """Every style for ``family``: the marker wrappers, then its own."""
    return {**WRAPPERS, **FAMILY_STYLES[family]}


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
