"""SPAN's tables (``tsolve report --table span-year / span-direction /
span-type-format``): accuracy by reference year, in bins when there are many
years (SPAN's Figure 2, Future-Date Degradation); converting from the
Gregorian calendar against converting to it, per other calendar and pooled
(Figure 5, Calendar Asymmetry Bias); by question type x answer format, with
both margins (Figures 3 and 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tsolve.contract.family import Lazy
from tsolve.plots.ordering import ordered
from tsolve.plots.paper_tables import (
    Grid,
    PaperTable,
    _acc,
    _base,
    _by_series,
    _cross,
    _family_rows,
    _groups,
    _is,
    _per_series,
    _pivot,
    _pool_rows,
    _stats,
    bin_label,
    year_bins,
)

TASK = "tsolve/span"

#: The SPAN paper's types and formats, in its order.
TYPE_ORDER = ("date", "festival")
FORMAT_ORDER = ("polar", "content")

GREGORIAN = "gregorian"


def _span_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in _family_rows(rows, TASK) if r["n"] > 0]


def _span_year(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    mine = [r for r in _span_rows(rows) if _is(r, reference_year="*")]
    bins = {key: year_bins([r["reference_year"] for r in group])  # one set of bins a model
            for key, group in _groups(mine, ("task", "model")).items()}  # fmt: skip
    for label, series in _by_series(mine):
        for lo, hi in bins[(series[0]["task"], series[0]["model"])]:
            inside = [r for r in series if lo <= r["reference_year"] <= hi]
            if not inside:
                continue
            out.append({**_base("span-year", series[0], label), "years": bin_label(lo, hi),
                        "year_from": lo, "year_to": hi, **_stats(_pool_rows(inside))})  # fmt: skip
    return out


def direction_parts(direction: str) -> tuple[str, str]:
    """``(other calendar, group)`` of a direction ``a->b``: the group is
    ``gregorian->others``, ``others->gregorian``, or the direction itself
    when neither side is Gregorian."""
    source, _, target = direction.partition("->")
    if source == GREGORIAN:
        return target, "gregorian->others"
    if target == GREGORIAN:
        return source, "others->gregorian"
    return direction, direction


def _span_direction(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for label, series in _by_series([r for r in _span_rows(rows) if _is(r, direction="*")]):
        by: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in series:
            calendar, group = direction_parts(str(r["direction"]))
            by.setdefault((calendar, group), []).append(r)
            by.setdefault(("all", group), []).append(r)
        for calendar in ordered([c for c, _ in by]):
            for group in ordered([g for c, g in by if c == calendar],
                                 ("gregorian->others", "others->gregorian")):  # fmt: skip
                part = by[(calendar, group)]
                direction = part[0]["direction"] if calendar != "all" else "all"
                out.append({**_base("span-direction", series[0], label), "calendar": calendar,
                            "group": group, "direction": direction,
                            **_stats(_pool_rows(part))})  # fmt: skip
    return out


def _span_type_format(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return _cross("span-type-format", _span_rows(rows), ("type", "format"),
                  (TYPE_ORDER, FORMAT_ORDER))  # fmt: skip


def _year_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return [_pivot(f"{title}  accuracy % by reference year (±1 s.e.)", rows, "years", "series",
                   _acc, "reference year")]  # fmt: skip


def _direction_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return _per_series(title, rows, "calendar", "group", "accuracy % by direction (±1 s.e.)")


def _type_grids(title: str, rows: list[dict[str, Any]]) -> list[Grid]:
    return _per_series(title, rows, "type", "format", "accuracy % by type x format (±1 s.e.)")


_FIGURES = "tsolve.families.span.paper_figures"

TABLES = (
    PaperTable("span-year", TASK, _span_year, _year_grids,
               panels=Lazy(f"{_FIGURES}:_year_panels"), wide=True, overview="years",
               note="; with many reference years a point is a bin of years, drawn at its first"),
    # seven calendars' names ("islamic-umalqura") do not fit under half a page
    PaperTable("span-direction", TASK, _span_direction, _direction_grids,
               panels=Lazy(f"{_FIGURES}:_direction_panels"), wide=True, columns=1,
               overview="direction", note="; 'all' pools every other calendar"),
    PaperTable("span-type-format", TASK, _span_type_format, _type_grids,
               panels=Lazy(f"{_FIGURES}:_type_format_panels"), overview="cross",
               note="; 'all' pools over the other field"),
)  # fmt: skip
"""The family's ``paper_tables`` part."""
