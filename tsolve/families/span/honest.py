"""A SPAN record's gold as the honest styles render it
(:mod:`tsolve.stress.honest`): Yes/No, or a date in the target calendar with
its fields (for the Y-M-D and Gregorian renderings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tsolve.contract.family import Record
from tsolve.stress.honest import DASHES, DATE_STYLES, FULL_WIDTH, Gold, Style


def span_gold(record: Record) -> Gold:
    """The family's ``honest_gold`` part: a polar record's answer, a content
    record's ``gold`` fields."""
    why = "counting forward from the given date"
    if record.get("format") == "polar":
        return Gold("span", "MY ANSWER:", polar=str(record["answer"]), justification=why)
    gold = dict(record["gold"])
    return Gold("span", "MY ANSWER:", calendar_text=str(gold["text"]), calendar_fields=gold,
                justification=why)  # fmt: skip


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

STYLES: dict[str, Style] = {
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
        lambda f: _numeric(f).translate(FULL_WIDTH)
    ),
}
