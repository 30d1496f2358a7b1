"""A time puzzle on a calendar strip: one row per fact, the answers highlighted.

Each row shows the days on which one fact holds, inside a window around the
answers (the whole domain would be two centuries of hairlines); the last row
is the days where every fact holds, which is the answer set, and each answer
is also marked across all rows. Days come from each fact's IR (the
constraint the solver is given, :func:`tsolve.encodings.facts.fact_constraint`)
under the IR's reference semantics, and the answers from the record, which
the solver computed; so the last row is the intersection of the rows above.
"""

from __future__ import annotations

import datetime as _dt
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tsolve.calendars.domain import iso, to_ordinal
from tsolve.encodings.facts import fact_constraint
from tsolve.encodings.ir import DATE_VAR, evaluate
from tsolve.families.time_puzzles.solve import puzzle_from_record
from tsolve.plots.output import check_out, new_figure, save

_FACT_COLOUR = "#4c78a8"
_ANSWER_COLOUR = "#d62728"
_MIN_DAYS = 35  # narrower windows are padded to about five weeks


@dataclass(frozen=True)
class CalendarStrip:
    """What to draw: the window ``[first, last]`` (day numbers), each fact's
    label and its true days inside the window, and the answers."""

    title: str
    first: int
    last: int
    rows: tuple[tuple[str, tuple[int, ...]], ...]
    answers: tuple[int, ...]


def calendar_strip(record: dict[str, Any]) -> CalendarStrip:
    """The strip of a time-puzzle record (see the module docstring)."""
    puzzle = puzzle_from_record(record)
    domain = puzzle.domain
    answers = tuple(to_ordinal(a, "answers") for a in record.get("answers", []))
    if answers:
        lo, hi = min(answers), max(answers)
    else:  # no answer: centre on the generator's hidden seed date, else the domain's start
        seed = (record.get("generator") or {}).get("seed_date")
        lo = hi = to_ordinal(seed, "generator.seed_date") if seed else domain.start
    pad = max((_MIN_DAYS - (hi - lo)) // 2, (hi - lo) // 10, 3)
    first, last = max(domain.start, lo - pad), min(domain.end, hi + pad)
    window = np.arange(first, last + 1, dtype=np.int64)
    rows = []
    for k, fact in enumerate(puzzle.facts, 1):
        holds = evaluate(fact_constraint(fact, domain), {DATE_VAR: window})
        days = tuple(int(d) for d in window[np.asarray(holds, dtype=bool)])
        rows.append((f"{k}. {fact.render(puzzle.style)}", days))  # type: ignore[arg-type]
    title = f"{record.get('id', 'puzzle')}: {len(answers)} answer{'s' if len(answers) != 1 else ''}"
    return CalendarStrip(title, first, last, tuple(rows), answers)


def draw_calendar_strip(strip: CalendarStrip, out: str | Path) -> Path:
    """Render ``strip`` to ``out`` (.png or .svg)."""
    path = check_out(out)
    labels = [textwrap.fill(text, 58) for text, _days in strip.rows]
    labels.append("all facts: the answers")
    heights = [max(1, lab.count("\n") + 1) for lab in labels]
    fig = new_figure(14, 1.4 + 0.32 * sum(heights) + 0.2 * len(labels))
    ax = fig.add_subplot()
    n = len(labels)
    span = strip.last - strip.first + 1
    cells = span <= 120  # short windows: one outlined cell per day
    for row, (_text, days) in enumerate(strip.rows):
        _draw_days(ax, row, days, _FACT_COLOUR, cells)
    _draw_days(ax, n - 1, strip.answers, _ANSWER_COLOUR, cells)
    for day in strip.answers:
        if cells:
            ax.axvspan(day, day + 1, color=_ANSWER_COLOUR, alpha=0.18, linewidth=0)
        else:  # a day is under a pixel wide: a line and a marker keep it visible
            ax.axvline(day + 0.5, color=_ANSWER_COLOUR, alpha=0.45, linewidth=1.2)
    if not cells and strip.answers:
        ax.plot([d + 0.5 for d in strip.answers], [n - 1] * len(strip.answers), "D",
                color=_ANSWER_COLOUR, markersize=7)  # fmt: skip
    ax.set_yticks(range(n), labels, fontsize=8)
    ax.get_yticklabels()[-1].set_fontweight("bold")
    ax.set_ylim(n - 0.4, -0.6)
    ax.set_xlim(strip.first, strip.last + 1)
    ticks = _date_ticks(strip.first, strip.last)
    ax.set_xticks([t + 0.5 for t in ticks], [_date_label(t, span) for t in ticks], fontsize=8)
    ax.grid(axis="x", color="#dddddd", linewidth=0.5)
    ax.set_axisbelow(True)
    shown = ", ".join(iso(a) for a in strip.answers[:6]) + (" …" if len(strip.answers) > 6 else "")
    ax.set_title(f"{strip.title}  {shown}".rstrip(), fontsize=11, loc="left")
    ax.set_xlabel(f"{iso(strip.first)} to {iso(strip.last)} (a bar is a day the fact holds)")
    return save(fig, path)


def _draw_days(ax: Any, row: int, days: tuple[int, ...], colour: str, cells: bool) -> None:
    """The days as bars on ``row``: one cell each for short windows, merged
    runs of consecutive days otherwise."""
    spans = [(d, 1) for d in days] if cells else _runs(days)
    ax.broken_barh(spans, (row - 0.35, 0.7), facecolors=colour,
                   edgecolors="white" if cells else colour, linewidth=0.6)  # fmt: skip


def _runs(days: tuple[int, ...]) -> list[tuple[int, int]]:
    """Consecutive days merged into (first, length) runs."""
    if not days:
        return []
    arr = np.asarray(days)
    breaks = np.flatnonzero(np.diff(arr) != 1) + 1
    return [(int(g[0]), len(g)) for g in np.split(arr, breaks)]


def _date_ticks(first: int, last: int) -> list[int]:
    """Day numbers of about 8-14 readable tick dates: days, month starts or years."""
    span = last - first + 1
    d0, d1 = _dt.date.fromordinal(first), _dt.date.fromordinal(last)
    if span <= 70:
        step = 7 if span > 21 else 2
        return list(range(first, last + 1, step))
    months = []
    y, m = d0.year, d0.month
    while _dt.date(y, m, 1) <= d1:
        if _dt.date(y, m, 1) >= d0:
            months.append(_dt.date(y, m, 1).toordinal())
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    every = max(1, -(-len(months) // 12))
    if every <= 6:
        return months[::every]
    years = [_dt.date(y, 1, 1).toordinal() for y in range(d0.year + 1, d1.year + 1)]
    return years[:: max(1, -(-len(years) // 12))]


def _date_label(day: int, span: int) -> str:
    d = _dt.date.fromordinal(day)
    if span <= 70:
        return d.strftime("%a %d %b\n%Y") if span > 21 else d.strftime("%a\n%d %b")
    return d.strftime("%b %Y") if span <= 6 * 366 else str(d.year)
