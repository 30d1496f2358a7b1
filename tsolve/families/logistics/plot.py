"""A logistics schedule as a Gantt chart: one lane per vehicle and package.

:func:`gantt_chart` computes the bars from the solver (the record's
structured fields, or the English of a benchmark item, through
:func:`tsolve.families.logistics.schedule.solve_record`), so the picture shows
exactly the schedule the answer comes from; :func:`draw_gantt` renders them.

Vehicle lanes hold the vehicle's events (loads, unloads, moves). A parallel
plan loads several packages at once, so a vehicle lane is split into as many
rows as it has events running at the same time. Package lanes hold the
package's states (at a location, being loaded, moving, parked in a vehicle,
being unloaded). A vertical line marks the minute asked about, and an event
moved by a what-if question is hatched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tsolve.families.logistics.clock import DAY, format_clock
from tsolve.families.logistics.schedule import schedule_json, solve_record
from tsolve.plots.ordering import natural_key
from tsolve.plots.output import check_out, new_figure, save

COLOURS = {
    "load": "#4c78a8",
    "unload": "#f58518",
    "move": "#54a24b",
    "loading": "#4c78a8",
    "unloading": "#f58518",
    "moving": "#54a24b",
    "parked": "#b5dba8",
    "at": "#e4e4e4",
}
_LEGEND = (
    ("load", "loading"),
    ("unload", "unloading"),
    ("move", "driving / flying"),
    ("parked", "in a parked vehicle"),
    ("at", "at a location"),
)


@dataclass(frozen=True)
class Bar:
    """One bar: ``lane`` is a vehicle or package name, ``row`` the sub-row in
    its lane, ``kind`` picks the colour (an event kind or a package state)."""

    lane: str
    row: int
    start: int
    end: int
    kind: str
    label: str
    event: int | None
    shifted: bool = False
    short: str = ""  # drawn when ``label`` does not fit the bar


@dataclass(frozen=True)
class GanttChart:
    """What to draw: lanes top to bottom with their row counts, the bars, the
    asked minute and package, and the answer."""

    title: str
    lanes: tuple[tuple[str, int], ...]  # (name, rows); vehicles first, then packages
    vehicles: int  # how many of the lanes are vehicles
    bars: tuple[Bar, ...]
    start: int
    end: int
    asked_minute: int
    asked_package: str
    answers: tuple[str, ...]


def gantt_chart(record: Mapping[str, Any]) -> GanttChart:
    """The bars of ``record``'s schedule (see the module docstring)."""
    scenario, question, res = solve_record(record)
    sched = schedule_json(scenario, res)
    shifted = {s.event for s in question.shifts}
    bars: list[Bar] = []
    lanes: list[tuple[str, int]] = []
    vehicles = sorted(scenario.world.trucks, key=natural_key) + sorted(
        scenario.world.airplanes, key=natural_key
    )
    vehicles += [v for v in sched["vehicles"] if v not in vehicles]
    for v in vehicles:
        rows = _rows([(e["start"], e["end"]) for e in sched["vehicles"].get(v, [])])
        for e, row in zip(sched["vehicles"].get(v, []), rows, strict=True):
            ev = scenario.events[e["event"]]
            short = ev.destination if ev.kind == "move" else ev.package
            bars.append(Bar(v, row, e["start"], e["end"], ev.kind, e["does"], e["event"],
                            e["event"] in shifted, str(short)))  # fmt: skip
        lanes.append((v, max(rows, default=0) + 1))
    starts = [e["start"] for e in sched["events"]]
    ends = [max(e["end"], e.get("busy_end", e["end"])) for e in sched["events"]]
    lo = min([*starts, res.minute])
    hi = max([*ends, res.minute + 1])
    pad = max(10, (hi - lo) // 40)
    lo, hi = lo - pad, hi + pad
    for p in sorted(sched["packages"], key=natural_key):
        states = sched["packages"][p]
        for s in states:
            a = lo if s["start"] is None else s["start"]
            b = hi if s["end"] is None else s["end"]
            short = s["where"][-1]  # the vehicle, when there is one
            bars.append(Bar(p, 0, a, b, s["state"], _state_label(s), s["event"], short=short))
        lanes.append((p, 1))
    title = f"where is {question.package} at {format_clock(res.minute)}? " + ", ".join(res.answers)
    if record.get("id") is not None:
        title = f"{record['id']}: {title}"
    for s in question.shifts:
        how = f"delayed {s.minutes}" if s.minutes > 0 else f"expedited {-s.minutes}"
        title += f"  (what-if: {scenario.events[s.event].phrase()} {how} min)"
    return GanttChart(title, tuple(lanes), len(vehicles), tuple(bars), lo, hi, res.minute,
                      question.package, res.answers)  # fmt: skip


def _rows(intervals: list[tuple[int, int]]) -> list[int]:
    """First-fit rows so that bars in one row never overlap (intervals are
    half-open and arrive sorted by start)."""
    free_at: list[int] = []  # per row, the minute it is free again
    out: list[int] = []
    for a, b in intervals:
        for r, t in enumerate(free_at):
            if t <= a:
                free_at[r] = max(b, a + 1)
                out.append(r)
                break
        else:
            free_at.append(max(b, a + 1))
            out.append(len(free_at) - 1)
    return out


def _state_label(state: Mapping[str, Any]) -> str:
    where = state["where"]
    kind = state["state"]
    if kind == "at":
        return str(where[0])
    if kind == "parked":
        return f"{where[1]} @ {where[0]}"
    if kind in ("loading", "unloading"):
        return f"{kind[:-3]} {where[1]}"
    return str(where[0])  # moving: the vehicle


def draw_gantt(chart: GanttChart, out: str | Path) -> Path:
    """Render ``chart`` to ``out`` (.png or .svg)."""
    path = check_out(out)
    n_rows = sum(rows for _lane, rows in chart.lanes)
    width = 15.0
    fig = new_figure(width, 1.6 + 0.34 * n_rows + 0.25 * len(chart.lanes))
    ax = fig.add_subplot()
    y_of: dict[tuple[str, int], float] = {}
    ticks: list[tuple[float, str]] = []
    y = 0.0
    separator = 0.0
    for k, (lane, rows) in enumerate(chart.lanes):
        if k == chart.vehicles:
            separator = y - 0.6
            y += 0.4
        top = y
        for r in range(rows):
            y_of[(lane, r)] = y + r
        y += rows + 0.35
        ticks.append(((top + y - 0.35 - 1) / 2, lane))
    if 0 < chart.vehicles < len(chart.lanes):
        ax.axhline(separator + 0.2, color="#888888", linewidth=0.8)
    span = chart.end - chart.start
    minutes_per_char = span / (width * 100 * 0.8) * 6.2  # ~6 px per character at 8 pt
    for bar in chart.bars:
        yy = y_of[(bar.lane, bar.row)]
        ax.broken_barh(
            [(bar.start, max(bar.end - bar.start, 0.5))],
            (yy - 0.4, 0.8),
            facecolors=COLOURS.get(bar.kind, "#999999"),
            edgecolors="black" if bar.shifted else "white",
            linewidth=1.2 if bar.shifted else 0.6,
            hatch="///" if bar.shifted else None,
        )
        fits = [t for t in (bar.label, bar.short) if t]
        fits = [t for t in fits if bar.end - bar.start >= minutes_per_char * (len(t) + 1)]
        if fits:
            dark = bar.kind in ("load", "unload", "move", "loading", "unloading", "moving")
            box = {"facecolor": "white", "edgecolor": "none", "pad": 1.5}  # readable on hatching
            ax.text((bar.start + bar.end) / 2, yy, fits[0], ha="center", va="center",
                    fontsize=8, color="white" if dark and not bar.shifted else "black",
                    clip_on=True, bbox=box if bar.shifted else None)  # fmt: skip
    ax.axvline(chart.asked_minute, color="#d62728", linewidth=1.6, linestyle="--", zorder=5)
    ax.annotate(
        f"asked: {chart.asked_package} at {format_clock(chart.asked_minute)}",
        (chart.asked_minute, -0.75), ha="center", va="center", fontsize=9, color="#d62728",
        bbox={"facecolor": "white", "edgecolor": "#d62728", "boxstyle": "round,pad=0.2"},
        annotation_clip=False, zorder=6,
    )  # fmt: skip
    ax.set_yticks([t for t, _ in ticks], [name for _, name in ticks])
    for label in ax.get_yticklabels():
        if label.get_text() == chart.asked_package:
            label.set_fontweight("bold")
            label.set_color("#d62728")
    ax.set_ylim(y - 0.35 + 0.1, -1.2)
    ax.set_xlim(chart.start, chart.end)
    step = _tick_step(span)
    first = chart.start + (-chart.start) % step
    xt = list(range(first, chart.end + 1, step))
    ax.set_xticks(xt, [format_clock(t % DAY) for t in xt], fontsize=8)
    ax.grid(axis="x", color="#cccccc", linewidth=0.5)
    ax.set_axisbelow(True)
    ax.set_title(chart.title, fontsize=11, loc="left")
    ax.set_xlabel("clock time")
    _legend(ax, any(b.shifted for b in chart.bars))
    return save(fig, path)


def _tick_step(span: int) -> int:
    """A clock-friendly tick step giving at most about 14 ticks."""
    for step in (15, 30, 60, 120, 180, 240, 360):
        if span / step <= 14:
            return step
    return 720


def _legend(ax: Any, shifted: bool) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = [Patch(facecolor=COLOURS[k], label=text) for k, text in _LEGEND]
    if shifted:
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="///",
                             label="moved by the what-if"))  # fmt: skip
    handles.append(Line2D([], [], color="#d62728", linestyle="--", label="minute asked"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.09), ncols=7,
              fontsize=8, frameon=False)  # fmt: skip


def show_item(source: str | Path, out: str | Path, item_id: str | None = None) -> Path:
    """Draw the Gantt chart of one item of ``source`` (JSON, JSON array or
    JSONL; tsolve's records or the benchmark's own items) to ``out``: the
    first item, or the first whose ``id`` reads ``item_id``. Unknown ids,
    unreadable items and bad extensions are one-line errors."""
    from tsolve.errors import TsolveError
    from tsolve.records import BadRow, iter_json_rows

    check_out(out)
    for position, row in enumerate(iter_json_rows(source)):
        if isinstance(row, BadRow):
            if item_id is None:
                raise TsolveError(str(row))
            continue
        iid = row.get("id", position + 1)
        if item_id is None or str(iid) == item_id:
            return draw_gantt(gantt_chart(row), out)
    if item_id is None:
        raise TsolveError(f"{source}: no items")
    raise TsolveError(f"id: no item with id {item_id!r} in {str(source)!r}")
