"""Table 4 of the TicToc paper, and which sensitivity levels three final gaps allow.

Each scenario has a time sensitivity (low, medium, high), and its three final
gaps (small, medium, large elapsed time) were drawn from truncated normals
whose bounds depend on that sensitivity (Table 4). A trajectory's level is
therefore constrained by its gaps: level L is *consistent* when every gap lies
within L's truncation bounds for that gap. The inference is a constraint
model (a level variable, a month-convention variable, the observed gaps as
fixed variables, one constraint per gap) solved by a :mod:`tsolve.solver`
backend, which returns every (level, convention) pair the data allows.

Units. A second, minute, hour and day are 1, 60, 3,600 and 86,400 seconds
(timestamps are UTC, so a day has no daylight-saving reading). A *month* has
more than one reasonable reading, so each is a convention of the model:

* ``30d``: 30 days (the convention tsolve's own timestamp generator uses);
* ``mean``: the mean Gregorian month, 365.2425 / 12 = 30.436875 days;
* ``calendar``: calendar months counted from the previous message's time, with
  the day clamped to the month's end (31 January + 1 month = 28/29 February).

A trajectory gets a sensitivity only when every convention allows exactly
one level and they agree; otherwise the audit reports why.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tsolve.encodings.ir import And, Formula, In, IntervalSet, Or
from tsolve.families.tictoc.data import Sample
from tsolve.solver import Problem, get_backend

Sensitivity = Literal["low", "medium", "high"]
SENSITIVITIES: tuple[Sensitivity, ...] = ("low", "medium", "high")
GAP_NAMES = ("small", "medium", "large")

SECOND, MINUTE, HOUR, DAY = 1, 60, 3600, 86400
UNIT_SECONDS = {"second": SECOND, "minute": MINUTE, "hour": HOUR, "day": DAY}
MONTH_CONVENTIONS = ("30d", "mean", "calendar")
MEAN_MONTH_DAYS = 365.2425 / 12


@dataclass(frozen=True)
class GapSpec:
    """One cell of Table 4: TN(mean, sd, [low, high]) in ``unit``."""

    mean: float
    sd: float
    low: float
    high: float
    unit: str


def _spec(unit: str) -> GapSpec:
    return GapSpec(3, 1, 1, 6, unit)


TABLE4: dict[Sensitivity, tuple[GapSpec, GapSpec, GapSpec]] = {
    "low": (_spec("minute"), _spec("day"), _spec("month")),
    "medium": (_spec("minute"), _spec("hour"), _spec("day")),
    "high": (_spec("second"), _spec("minute"), _spec("hour")),
}
"""Table 4 (Appendix B.4): every cell is mean 3, sd 1, bounds [1, 6] of its unit."""

BoundsTable = dict[Sensitivity, tuple[GapSpec, GapSpec, GapSpec]]


def add_months(t: dt.datetime, months: int) -> dt.datetime:
    """``t`` plus calendar months, the day clamped to the target month's length."""
    y, m = divmod(t.month - 1 + months, 12)
    year, month = t.year + y, m + 1
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    last_day = (nxt - dt.timedelta(days=1)).day
    return t.replace(year=year, month=month, day=min(t.day, last_day))


def unit_span(unit: str, amount: float, convention: str, anchor: dt.datetime | None) -> float:
    """``amount`` of ``unit`` in seconds, months read by ``convention``."""
    if unit != "month":
        return amount * UNIT_SECONDS[unit]
    if convention == "30d":
        return amount * 30 * DAY
    if convention == "mean":
        return amount * MEAN_MONTH_DAYS * DAY
    if convention == "calendar":
        if anchor is None or amount != int(amount):
            raise ValueError("calendar months need an anchor time and a whole number of months")
        return (add_months(anchor, int(amount)) - anchor).total_seconds()
    raise ValueError(f"unknown month convention {convention!r}")


def bounds_ms(spec: GapSpec, convention: str, anchor: dt.datetime | None) -> tuple[int, int]:
    """A cell's truncation bounds in whole milliseconds (closed interval)."""
    lo = unit_span(spec.unit, spec.low, convention, anchor)
    hi = unit_span(spec.unit, spec.high, convention, anchor)
    return round(lo * 1000), round(hi * 1000)


@dataclass(frozen=True)
class Inference:
    """Every (level, convention) the gaps allow, and the verdict drawn from them."""

    readings: tuple[tuple[Sensitivity, str], ...]
    sensitivity: Sensitivity | None
    problem: str | None
    """None when one level fits under every convention; else why not."""
    outside: dict[Sensitivity, list[str]]
    """For each level, the gaps outside its bounds (first convention), for reports."""

    def levels(self, convention: str) -> list[Sensitivity]:
        return [lv for lv, c in self.readings if c == convention]


def build_problem(
    gaps_ms: Sequence[int],
    anchor: dt.datetime | None,
    table: BoundsTable = TABLE4,
    conventions: Sequence[str] = MONTH_CONVENTIONS,
) -> Problem:
    """The constraint model: ``level`` in 0..2 (``SENSITIVITIES`` order),
    ``conv`` indexes ``conventions``, ``g0..g2`` are fixed to the observed gaps,
    and constraint k says: gap k lies in the bounds of the chosen level and
    convention. Its solutions are the consistent (level, conv) pairs."""
    levels = list(table)
    domains = {"level": (0, len(levels) - 1), "conv": (0, len(conventions) - 1)}
    constraints: list[Formula] = []
    labels: list[str] = []
    for k, g in enumerate(gaps_ms):
        var = f"g{k}"
        domains[var] = (int(g), int(g))
        options: list[Formula] = []
        for li, level in enumerate(levels):
            for ci, conv in enumerate(conventions):
                lo, hi = bounds_ms(table[level][k], conv, anchor)
                options.append(
                    And((In("level", IntervalSet(((li, li),))),
                         In("conv", IntervalSet(((ci, ci),))),
                         In(var, IntervalSet(((lo, hi),)))))
                )  # fmt: skip
        constraints.append(Or(tuple(options)))
        labels.append(f"{GAP_NAMES[k]} gap within the level's Table 4 bounds")
    return Problem(tuple(constraints), domains, target="level", labels=tuple(labels),
                   outputs=("level", "conv"))  # fmt: skip


def infer_sensitivity(
    gaps_seconds: Sequence[float],
    anchor: dt.datetime | None = None,
    backend: str = "enumerator",
    table: BoundsTable = TABLE4,
    conventions: Sequence[str] = MONTH_CONVENTIONS,
) -> Inference:
    """The sensitivity levels consistent with the three final gaps.

    ``anchor`` (the previous message's time) is needed by the ``calendar``
    month convention. Gaps are compared in whole milliseconds."""
    if anchor is None:
        conventions = [c for c in conventions if c != "calendar"]
    levels = list(table)
    gaps_ms = [round(g * 1000) for g in gaps_seconds]
    res = get_backend(backend).solve(build_problem(gaps_ms, anchor, table, conventions))
    readings = tuple((levels[li], conventions[ci]) for li, ci in res.solutions)
    per_conv = {c: sorted({lv for lv, cc in readings if cc == c}) for c in conventions}
    outside = {
        level: [
            GAP_NAMES[k]
            for k, g in enumerate(gaps_ms)
            if not (lambda b: b[0] <= g <= b[1])(bounds_ms(table[level][k], conventions[0], anchor))
        ]
        for level in levels
    }
    distinct = {tuple(v) for v in per_conv.values()}
    if not readings:
        return Inference(readings, None, "fits no level", outside)
    if any(len(v) > 1 for v in per_conv.values()):
        several = sorted({lv for v in per_conv.values() if len(v) > 1 for lv in v})
        return Inference(readings, None, f"fits several levels ({', '.join(several)})", outside)
    if len(distinct) > 1:
        shown = "; ".join(f"{c}: {', '.join(v) or 'none'}" for c, v in per_conv.items())
        return Inference(
            readings, None, f"level depends on the month convention ({shown})", outside
        )
    return Inference(readings, readings[0][0], None, outside)


def infer_trajectories(
    samples: Sequence[Sample], backend: str = "enumerator"
) -> dict[str, Inference]:
    """One inference per trajectory id (its copies share their gaps; the audit
    checks that they do), from the first sample of each id."""
    out: dict[str, Inference] = {}
    for s in samples:
        if s.id not in out:
            out[s.id] = infer_sensitivity(s.final_gaps, s.anchor, backend)
    return out
