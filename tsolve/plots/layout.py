"""Report figures at the size a paper prints them, with no text over text.

A figure drawn 15 inches wide and printed in a 7-inch column shrinks its
8-point labels to under 4 points; so the report's figures are drawn at print
size (:data:`NARROW`, one column, or :data:`WIDE`, the page) with fonts
no smaller than :data:`MIN_FONT`, and saved at :data:`DPI`. Where data decide
how crowded a panel is (how many bars, how many years), the layout is checked
after matplotlib has placed everything (:func:`declutter`): when a bar's
value is wider than its bar or runs into its neighbour's, the figure's bar
values are turned upright; group names that run into each other are set in
the smallest font; and on an axis of numbers (years: :func:`thin_ticks`), a
label that runs into the one before it is left out (the point it names
stays). matplotlib is imported by the caller's figure only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

#: A one-column figure's width, inches.
NARROW = 3.5

#: A page-wide figure's width, inches.
WIDE = 7.0

#: The smallest font a printed figure uses, points.
MIN_FONT = 6.0

#: Font sizes: panel titles, axis labels and ticks, legends, bar values.
TITLE_FONT = 8.0
LABEL_FONT = 7.0
LEGEND_FONT = 7.0
VALUE_FONT = 6.0

#: Resolution of a saved PNG: 7 inches are 1400 pixels.
DPI = 200

#: The ``gid`` of a bar's value text, so that :func:`declutter` finds them.
VALUE_GID = "bar-value"

#: The ``gid`` of an axes whose x labels may be thinned (:func:`thin_ticks`).
THIN_GID = "thin-x"

#: Least gap between two texts, pixels at :data:`DPI`.
GAP = 2.0

#: Most characters of a legend entry on one line (a longer one is wrapped).
LEGEND_CHARS = 26


def annotate_bars(ax: Any, bars: Any, values: Sequence[float], tops: Sequence[float]) -> None:
    """Write each bar's value (a percentage, rounded) just above ``tops``
    (its error bar's end), centred on the bar."""
    for bar, value, top in zip(bars, values, tops, strict=True):
        text = ax.annotate(f"{value:.0f}", (bar.get_x() + bar.get_width() / 2, top),
                           xytext=(0, 1.5), textcoords="offset points", ha="center",
                           va="bottom", fontsize=VALUE_FONT, color="#333333")  # fmt: skip
        text.set_gid(VALUE_GID)
        text.set_in_layout(False)  # inside the axes (room above 100 %): no margin to make
        text.bar = bar  # the bar it belongs to, for the width check


def wrap_label(text: str, width: int = LEGEND_CHARS) -> str:
    """A legend entry or tick label broken at spaces into lines of at most
    ``width`` characters (a longer word stays whole)."""
    import textwrap

    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines) or text


def thin_ticks(ax: Any) -> None:
    """Let :func:`declutter` leave out x labels of ``ax`` that would run
    into their neighbours: for an axis of numbers, where the rest still
    say where each point is."""
    ax.set_gid(THIN_GID)


def overlap(a: Any, b: Any, pad: float = 0.5) -> bool:
    """Whether two display boxes overlap by more than ``pad`` pixels (a
    negative ``pad``: come closer than that)."""
    return min(a.x1, b.x1) - max(a.x0, b.x0) > pad and min(a.y1, b.y1) - max(a.y0, b.y0) > pad


def any_overlap(boxes: Sequence[Any], pad: float = 0.5) -> bool:
    """Whether any two of ``boxes`` overlap (:func:`overlap`)."""
    return any(overlap(a, b, pad) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def declutter(fig: Any) -> None:
    """Lay ``fig`` out, then turn crowded bar values upright and leave out
    x tick labels that would run into their neighbours (see the module).
    Every text is made plain first (:func:`~tsolve.plots.output.plain_text`):
    a name from the user's data is never read as TeX, in this draw either."""
    from tsolve.plots.output import plain_text

    plain_text(fig)
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    per_axes = [[t for t in ax.texts if t.get_gid() == VALUE_GID and t.get_visible()]
                for ax in fig.axes]  # fmt: skip
    changed = any(_crowded(values, renderer) for values in per_axes)
    if changed:
        for t in (t for values in per_axes for t in values):
            t.set_rotation(90)  # one way for the whole figure
    for ax in fig.axes:
        if ax.get_gid() != THIN_GID:
            labels = visible_ticks(ax)
            if any_overlap([t.get_window_extent(renderer) for t in labels], -GAP):
                changed = True
                for t in labels:
                    t.set_fontsize(MIN_FONT)
    thin = [ax for ax in fig.axes if ax.get_gid() == THIN_GID]
    if thin and changed:
        fig.draw_without_rendering()  # the labels where they now are
    for ax in thin:
        _thin(visible_ticks(ax), renderer)


def _crowded(values: Sequence[Any], renderer: Any) -> bool:
    boxes = [t.get_window_extent(renderer) for t in values]
    wider = any(b.width > t.bar.get_window_extent(renderer).width * 1.15
                for t, b in zip(values, boxes, strict=True))  # fmt: skip
    return wider or any_overlap(boxes, -GAP)


def visible_ticks(ax: Any) -> list[Any]:
    """The x tick labels of ``ax`` that are drawn (on screen, not empty)."""
    lo, hi = sorted(ax.get_xlim())
    out = []
    for tick in ax.xaxis.get_major_ticks():
        label = tick.label1
        if label.get_visible() and label.get_text() and lo <= tick.get_loc() <= hi:
            out.append(label)
    return out


def _thin(labels: Iterable[Any], renderer: Any) -> None:
    """Hide each label that runs into the last one kept, left to right."""
    kept = None
    for label in sorted(labels, key=lambda t: t.get_window_extent(renderer).x0):
        box = label.get_window_extent(renderer)
        if kept is not None and overlap(kept, box, -GAP):
            label.set_visible(False)
            continue
        kept = box
