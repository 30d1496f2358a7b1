"""A time puzzle on a calendar strip: one row per fact, the answers highlighted.

Each row shows the days on which one fact holds, inside a window around the
answers (the whole domain would be two centuries of hairlines); the last row
is the days where every fact holds, which is the answer set, and each answer
is also marked across all rows. Days come from each fact's IR (the
constraint the solver is given, :func:`tsolve.encodings.facts.fact_constraint`)
under the IR's reference semantics, and the answers from the record, which
the solver computed; so the last row is the intersection of the rows above.

A window of years gives a day less than a pixel, so answers days apart would
share one marker and a weekday's thousands of days would paint a solid
block. Such a strip gets a second row of day-scale panels, one per group of
nearby answers (:mod:`tsolve.families.time_puzzles.strip_layout`), with
every answer marked and dated; and a row too dense for the overview is
hatched there with its pattern in words ("every Tuesday or Friday"), its
actual days being drawn in the panels.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tsolve.calendars.domain import iso, to_ordinal
from tsolve.encodings.facts import fact_constraint
from tsolve.encodings.ir import DATE_VAR, evaluate
from tsolve.families.time_puzzles.solve import puzzle_from_record
from tsolve.families.time_puzzles.strip_layout import (
    envelope,
    is_dense,
    pattern_note,
    runs,
    zoom_groups,
)
from tsolve.plots.output import check_out, new_figure, save

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

_FACT_COLOUR = "#4c78a8"
_ANSWER_COLOUR = "#d62728"
_MARKER_COLOUR = "#8c1515"  # darker than the answer cells it sits on
_MIN_DAYS = 35  # narrower windows are padded to about five weeks
_CELL_DAYS = 120  # windows up to this long draw one outlined cell per day
_OVERVIEW_PX = 950.0  # about the overview's width in pixels (figure dpi), for density
_ZOOM_ROW_DAYS = 90  # a row of zoom panels shows at most this many days in all ...
_ZOOM_ROW_PANELS = 4  # ... in at most this many panels
_MAX_ZOOMS = 12  # more answer groups than this: only those the overview merges get panels
_MARKER = 7.0  # answer diamond size, points


@dataclass(frozen=True)
class CalendarStrip:
    """What to draw: the window ``[first, last]`` (day numbers), each fact's
    label and its true days inside the window, and the answers."""

    title: str
    first: int
    last: int
    rows: tuple[tuple[str, tuple[int, ...]], ...]
    answers: tuple[int, ...]

    @property
    def cells(self) -> bool:
        """Whether the window is short enough for one outlined cell per day."""
        return self.last - self.first + 1 <= _CELL_DAYS

    @property
    def zooms(self) -> tuple[tuple[int, int], ...]:
        """The day-scale panels ``(first, last)`` drawn under a long window:
        one per group of nearby answers (none when the window is in cells)."""
        if self.cells or not self.answers:
            return ()
        per_px = (self.last - self.first + 1) / _OVERVIEW_PX
        merge = per_px * _MARKER * 100 / 72  # a marker's width, in days
        return tuple(zoom_groups(self.answers, self.first, self.last, merge, _MAX_ZOOMS))

    def dense_rows(self) -> tuple[bool, ...]:
        """Per fact row: whether its runs are too close to see apart in the overview."""
        return tuple(
            is_dense(days, self.first, self.last, _OVERVIEW_PX) for _text, days in self.rows
        )


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
    return save(calendar_strip_figure(strip), path)


def calendar_strip_figure(strip: CalendarStrip) -> Figure:
    """The strip as a matplotlib figure: the overview, then (for a long
    window) rows of day-scale panels around the answers."""
    labels = [textwrap.fill(text, 58) for text, _days in strip.rows]
    labels.append("all facts: the answers")
    heights = [max(1, lab.count("\n") + 1) for lab in labels]
    n = len(labels)
    overview_h = 1.4 + 0.32 * sum(heights) + 0.2 * n
    zoom_rows = _pack(strip.zooms)
    zoom_h = 1.5 + 0.2 * n
    fig = new_figure(14, overview_h + zoom_h * len(zoom_rows))
    grid = fig.add_gridspec(1 + len(zoom_rows), 1,
                            height_ratios=[overview_h] + [zoom_h] * len(zoom_rows))  # fmt: skip
    ax = fig.add_subplot(grid[0])
    _draw_overview(ax, strip, labels)
    widest = max((sum(b - a + 1 for a, b in row) for row in zoom_rows), default=0)
    for k, row in enumerate(zoom_rows):
        ratios = [b - a + 1 for a, b in row]
        if sum(ratios) < widest:  # an empty filler keeps one scale across the rows
            ratios.append(widest - sum(ratios))
        sub = grid[k + 1].subgridspec(1, len(ratios), width_ratios=ratios)
        for j, window in enumerate(row):
            panel = fig.add_subplot(sub[j])
            _draw_zoom(panel, strip, window, n, first_in_row=j == 0)
            if len(zoom_rows) == 1:  # lines to lower rows would cross the panels above
                _connect(fig, ax, panel, window)
    return fig


def _draw_overview(ax: Axes, strip: CalendarStrip, labels: list[str]) -> None:
    n = len(labels)
    span = strip.last - strip.first + 1
    cells = strip.cells
    dense = strip.dense_rows()
    zoomed = bool(strip.zooms)
    for row, ((_text, days), crowded) in enumerate(zip(strip.rows, dense, strict=True)):
        if crowded:
            _draw_pattern(ax, row, strip, days, zoomed)
        else:
            _draw_days(ax, row, days, _FACT_COLOUR, cells)
    _draw_days(ax, n - 1, strip.answers, _ANSWER_COLOUR, cells)
    for day in strip.answers:
        if cells:
            ax.axvspan(day, day + 1, color=_ANSWER_COLOUR, alpha=0.18, linewidth=0)
        else:  # a day is under a pixel wide: a line and a marker keep it visible
            ax.axvline(day + 0.5, color=_ANSWER_COLOUR, alpha=0.45, linewidth=1.2)
    _draw_markers(ax, n - 1, strip.answers, _MARKER if not cells else 5.0)
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
    what = "a bar is a day the fact holds"
    if any(dense):
        what += "; hatched: days too close together to draw at this scale"
    if zoomed:
        what += "; below, each answer at day scale"
        hidden = len(strip.answers) - sum(
            sum(1 for a in strip.answers if lo <= a <= hi) for lo, hi in strip.zooms
        )
        if hidden > 0:
            what += f", but for {hidden} that are apart above"
    caption = textwrap.fill(f"{iso(strip.first)} to {iso(strip.last)} ({what})", 150)
    ax.set_xlabel(caption,
                  bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})  # fmt: skip


def _draw_pattern(
    ax: Axes, row: int, strip: CalendarStrip, days: tuple[int, ...], zoomed: bool
) -> None:
    """A dense row: a hatched band where its days are, and the pattern in words."""
    spans = envelope(days, strip.first, strip.last, _OVERVIEW_PX)
    ax.broken_barh(spans, (row - 0.35, 0.7), facecolors="#e8eff7", edgecolors=_FACT_COLOUR,
                   hatch="////", linewidth=0.6)  # fmt: skip
    note = pattern_note(days, strip.first, strip.last)
    if zoomed:
        note += " (days shown below)"
    ax.text(0.5, row, note, transform=ax.get_yaxis_transform(), ha="center", va="center",
            fontsize=8, color="#1f3b5c", zorder=5,
            bbox={"facecolor": "white", "edgecolor": _FACT_COLOUR, "pad": 2,
                  "linewidth": 0.6})  # fmt: skip


def _draw_zoom(
    ax: Axes, strip: CalendarStrip, window: tuple[int, int], n: int, first_in_row: bool
) -> None:
    """One day-scale panel: every row's days in ``window`` as cells, each answer
    shaded, marked and dated on the x axis."""
    lo, hi = window
    for row, (_text, days) in enumerate(strip.rows):
        _draw_days(ax, row, tuple(d for d in days if lo <= d <= hi), _FACT_COLOUR, True)
    inside = tuple(a for a in strip.answers if lo <= a <= hi)
    _draw_days(ax, n - 1, inside, _ANSWER_COLOUR, True)
    for day in inside:
        ax.axvspan(day, day + 1, color=_ANSWER_COLOUR, alpha=0.18, linewidth=0)
    _draw_markers(ax, n - 1, inside, 5.0)
    ax.set_xlim(lo, hi + 1)
    ax.set_ylim(n - 0.4, -0.6)
    tight = min((b - a for a, b in itertools.pairwise(inside)), default=99) < 4
    ax.set_xticks([d + 0.5 for d in inside],
                  [_dt.date.fromordinal(d).strftime("%a %d %b") for d in inside],
                  fontsize=7, rotation=90 if tight else 0)  # fmt: skip
    ax.set_yticks(range(n), [str(k) for k in range(1, n)] + ["answers"], fontsize=7)
    if not first_in_row:
        ax.tick_params(axis="y", labelleft=False)
    ax.set_title(_month_range(lo, hi), fontsize=9)


def _connect(fig: Figure, overview: Axes, panel: Axes, window: tuple[int, int]) -> None:
    """Lines from the window's place on the overview to the panel's top corners."""
    from matplotlib.patches import ConnectionPatch

    for x_data, x_panel in ((window[0], 0.0), (window[1] + 1, 1.0)):
        fig.add_artist(ConnectionPatch(
            xyA=(x_data, 0.0), coordsA=overview.get_xaxis_transform(),
            xyB=(x_panel, 1.0), coordsB=panel.transAxes,
            color=_ANSWER_COLOUR, alpha=0.35, linewidth=0.8, zorder=-1))  # fmt: skip


def _draw_markers(ax: Axes, row: int, days: tuple[int, ...], size: float) -> None:
    """One diamond per answer (one artist each, so each can be found apart)."""
    for day in days:
        ax.plot([day + 0.5], [row], "D", color=_MARKER_COLOUR, markersize=size,
                markeredgecolor="white", markeredgewidth=0.6, gid=f"answer {iso(day)}")  # fmt: skip


def _pack(windows: tuple[tuple[int, int], ...]) -> list[list[tuple[int, int]]]:
    """Zoom windows into balanced rows of at most :data:`_ZOOM_ROW_PANELS`
    panels and :data:`_ZOOM_ROW_DAYS` days, so a day stays wider than a marker."""
    if not windows:
        return []
    per_row = -(-len(windows) // -(-len(windows) // _ZOOM_ROW_PANELS))
    rows: list[list[tuple[int, int]]] = []
    total = 0
    for w in windows:
        days = w[1] - w[0] + 1
        if rows and len(rows[-1]) < per_row and total + days <= _ZOOM_ROW_DAYS:
            rows[-1].append(w)
            total += days
        else:
            rows.append([w])
            total = days
    return rows


def _month_range(lo: int, hi: int) -> str:
    a, b = _dt.date.fromordinal(lo), _dt.date.fromordinal(hi)
    if (a.year, a.month) == (b.year, b.month):
        return a.strftime("%B %Y")
    if a.year == b.year:
        return f"{a.strftime('%b')}–{b.strftime('%b %Y')}"
    return f"{a.strftime('%b %Y')}–{b.strftime('%b %Y')}"


def _draw_days(ax: Axes, row: int, days: tuple[int, ...], colour: str, cells: bool) -> None:
    """The days as bars on ``row``: one cell each for short windows, merged
    runs of consecutive days otherwise."""
    spans = [(d, 1) for d in days] if cells else runs(days)
    ax.broken_barh(spans, (row - 0.35, 0.7), facecolors=colour,
                   edgecolors="white" if cells else colour, linewidth=0.6)  # fmt: skip


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
