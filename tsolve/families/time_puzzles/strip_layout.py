"""What the calendar strip can show at its scale, as plain data (no matplotlib).

A strip spanning decades gives a day a fraction of a pixel. Two things then
go wrong, and this module decides what to do instead:

- answers days apart land on the same pixel, so they are grouped
  (:func:`zoom_groups`) and each group gets a day-scale panel of its own;
- a fact that holds on thousands of short runs of days (a weekday, a day of
  the month) paints a solid block that looks like "always", so such a row is
  found (:func:`is_dense`) and drawn as a hatched band with a note saying the
  pattern in words (:func:`pattern_note`); its actual days are in the panels.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import itertools
from collections.abc import Sequence

import numpy as np

#: answers at most this many days apart share a zoom panel
GROUP_GAP = 14
#: a zoom panel shows at least this many days (three weeks: weekly patterns show)
MIN_ZOOM_DAYS = 21
#: a row is dense when its runs of days repeat more often than every this many pixels
MIN_RUN_PERIOD_PX = 6.0

_ORDINAL_WORDS = ("first", "second", "third", "fourth")


def runs(days: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive days merged into (first, length) runs."""
    if len(days) == 0:
        return []
    arr = np.asarray(days)
    breaks = np.flatnonzero(np.diff(arr) != 1) + 1
    return [(int(g[0]), len(g)) for g in np.split(arr, breaks)]


def zoom_groups(
    answers: Sequence[int], first: int, last: int, merge_days: float = 0.0, limit: int = 12
) -> list[tuple[int, int]]:
    """Day-scale windows ``(first, last)``, one per group of answers that lie
    within :data:`GROUP_GAP` days of each other (chained), each padded to at
    least :data:`MIN_ZOOM_DAYS` days and kept inside ``[first, last]``, in
    date order. Past ``limit`` groups, the groups the overview cannot show
    apart (several answers, or another answer within ``merge_days``) come
    first, so every answer is still seen apart somewhere."""
    ordered = sorted(answers)
    groups: list[list[int]] = []
    for day in ordered:
        if groups and day - groups[-1][-1] <= GROUP_GAP:
            groups[-1].append(day)
        else:
            groups.append([day])
    if len(groups) > limit:

        def merged(k: int) -> bool:
            g = groups[k]
            near = [groups[j][-1] for j in (k - 1,) if j >= 0] + [
                groups[j][0] for j in (k + 1,) if j < len(groups)
            ]
            return len(g) > 1 or any(abs(d - g[0]) < merge_days for d in near)

        keep = sorted(range(len(groups)), key=lambda k: (not merged(k), k))[:limit]
        groups = [groups[k] for k in sorted(keep)]
    windows = []
    for g in groups:
        lo, hi = g[0], g[-1]
        pad = max(2, (MIN_ZOOM_DAYS - (hi - lo + 1) + 1) // 2)
        windows.append((max(first, lo - pad), min(last, hi + pad)))
    return windows


def is_dense(days: Sequence[int], first: int, last: int, width_px: float) -> bool:
    """Whether the row, drawn ``width_px`` wide over ``[first, last]``, cannot
    be read at that scale: its runs repeat more often than every
    :data:`MIN_RUN_PERIOD_PX` pixels (they merge into a block that reads as
    "every day"), or most of the gaps between them are under a pixel wide
    (the 1st to 29th of each month looks like every day)."""
    spans = runs(days)
    if len(spans) < 2:
        return False
    if width_px / len(spans) < MIN_RUN_PERIOD_PX:
        return True
    gaps = [b[0] - (a[0] + a[1]) for a, b in itertools.pairwise(spans)]
    px_per_day = width_px / (last - first + 1)
    return len(spans) >= 10 and float(np.median(gaps)) * px_per_day < 1.0


def envelope(days: Sequence[int], first: int, last: int, width_px: float) -> list[tuple[int, int]]:
    """The row's runs with gaps shorter than the dense threshold closed:
    where the pattern is, at the overview's scale, as (first, length) spans."""
    min_gap = MIN_RUN_PERIOD_PX * (last - first + 1) / width_px
    out: list[tuple[int, int]] = []
    for start, length in runs(days):
        if out and start - (out[-1][0] + out[-1][1]) < min_gap:
            out[-1] = (out[-1][0], start + length - out[-1][0])
        else:
            out.append((start, length))
    return out


def pattern_note(days: Sequence[int], first: int, last: int) -> str:
    """The days in words, when they are a calendar pattern over the window
    ("every Tuesday or Thursday", "the 1st to 29th of every month", "the
    second Friday of every month", "every May"), else how many days and runs."""
    window = np.arange(first, last + 1)
    dates = [_dt.date.fromordinal(int(d)) for d in window]
    held = np.isin(window, np.asarray(days, dtype=np.int64))
    weekday = np.array([d.weekday() for d in dates])
    dom = np.array([d.day for d in dates])
    month = np.array([d.month for d in dates])
    if held.any():
        wds = sorted(set(weekday[held].tolist()))
        if np.array_equal(held, np.isin(weekday, wds)):
            return "every " + _or([calendar.day_name[w] for w in wds])
        doms = sorted(set(dom[held].tolist()))
        if np.array_equal(held, np.isin(dom, doms)):
            return f"the {_day_set(doms)} of every month"
        nth = sorted(set(((dom[held] - 1) // 7).tolist()))
        one = len(wds) == 1 and len(nth) == 1 and nth[0] < 4
        if one and np.array_equal(held, (weekday == wds[0]) & ((dom - 1) // 7 == nth[0])):
            return f"the {_ORDINAL_WORDS[nth[0]]} {calendar.day_name[wds[0]]} of every month"
        months = sorted(set(month[held].tolist()))
        if np.array_equal(held, np.isin(month, months)):
            return "every " + _or([calendar.month_name[m] for m in months])
    share = 100 * int(held.sum()) / len(window)
    return f"{int(held.sum()):,} days ({share:.0f}%) in {len(runs(days)):,} runs"


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _nth(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _day_set(doms: list[int]) -> str:
    """Days of the month as "29th", "1st to 29th" or "1st, 15th or 30th"."""
    if len(doms) > 2 and doms == list(range(doms[0], doms[-1] + 1)):
        return f"{_nth(doms[0])} to {_nth(doms[-1])}"
    return _or([_nth(d) for d in doms])
