"""Time scopes as exact closed intervals of day numbers, with their precision.

A temporal expression names a *period*, not a point: "2019" is every day from
2019-01-01 to 2019-12-31, "March 2019" is 2019-03-01..2019-03-31, "Q3 2021" is
2021-07-01..2021-09-30. Two scopes are related by exact interval arithmetic on
proleptic Gregorian day numbers (``date.toordinal()``, as everywhere in
tsolve): they *overlap* when they share at least one day. So "2019" overlaps
"March 2019" (and "2019-03-05"), and "2018" does not overlap "March 2019".
No rounding to a common precision is ever done: precision only decides which
days an expression covers.

Open ends are explicit bounds, not missing values: "since 2015" is
2015-01-01..:data:`OPEN_END` and "before 2015" is
:data:`OPEN_START`..2014-12-31. The two bounds lie just outside the dates
``datetime.date`` can hold (day 0, and the day after 9999-12-31), so an open
end overlaps every date on its side and is never confused with a real date
such as 9999-12-31. In JSON an open end is written ``null`` (or left empty in
``"2015.."``).

Annotated scopes (JSON) use a small exact grammar, parsed by
:func:`parse_scope`: ``"2019"``, ``"2019-03"``, ``"2019-03-05"``,
``"2021-Q3"``, a range ``"A..B"`` of those with either side empty for an open
end, an object ``{"start": A, "end": B}`` (``null`` = open), or a list of them.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records.validation import bad

FIRST_DAY = 1
"""Day number of 0001-01-01, the first date ``datetime.date`` holds."""
LAST_DAY = _dt.date.max.toordinal()
"""Day number of 9999-12-31, the last date ``datetime.date`` holds."""
OPEN_START = FIRST_DAY - 1
"""The start of a scope with no lower bound (before every date)."""
OPEN_END = LAST_DAY + 1
"""The end of a scope with no upper bound (after every date)."""

PRECISIONS = ("day", "week", "month", "quarter", "half", "year", "decade", "century", "range")


@dataclass(frozen=True)
class Interval:
    """A closed interval ``[start, end]`` of day numbers.

    ``precision`` says what the expression named (``year`` for "2019",
    ``range`` for "2010..2014" or "since 2015"); it is for display and
    reports only, the overlap test uses the days."""

    start: int
    end: int
    precision: str = "day"

    def __post_init__(self) -> None:
        if not OPEN_START <= self.start <= self.end <= OPEN_END:
            raise TsolveError(f"interval: start {self.start} must be <= end {self.end}")

    @property
    def open_start(self) -> bool:
        return self.start == OPEN_START

    @property
    def open_end(self) -> bool:
        return self.end == OPEN_END

    def overlaps(self, other: Interval) -> bool:
        """True when the two intervals share at least one day."""
        return self.start <= other.end and other.start <= self.end

    def to_json(self) -> dict[str, Any]:
        return {
            "start": None if self.open_start else iso(self.start),
            "end": None if self.open_end else iso(self.end),
            "precision": self.precision,
        }

    def __str__(self) -> str:
        a = "" if self.open_start else iso(self.start)
        b = "" if self.open_end else iso(self.end)
        return a if a == b else f"{a}..{b}"


def iso(day: int) -> str:
    return _dt.date.fromordinal(day).isoformat()


def overlaps(a: Iterable[Interval], b: Sequence[Interval]) -> bool:
    """True when some interval of ``a`` shares a day with some interval of ``b``.

    Scopes hold a handful of intervals, so a plain double loop is exact and
    faster than building interval sets."""
    return any(x.start <= y.end and y.start <= x.end for x in a for y in b)


# ------------------------------------------------------------ period builders


def day(d: _dt.date) -> Interval:
    n = d.toordinal()
    return Interval(n, n, "day")


def month(year: int, m: int) -> Interval:
    """Month ``m`` of ``year``; a one-line :class:`TsolveError` for a year
    outside 1..9999 (what ``datetime.date`` holds: there is no year 0)."""
    if not 1 <= year <= 9999:
        raise TsolveError(f"year {year} is outside 1..9999")
    last = calendar.monthrange(year, m)[1]
    return Interval(_dt.date(year, m, 1).toordinal(), _dt.date(year, m, last).toordinal(), "month")


def months(year: int, first: int, last: int, precision: str) -> Interval:
    """Months ``first..last`` of ``year`` (a quarter or a half)."""
    a, b = month(year, first), month(year, last)
    return Interval(a.start, b.end, precision)


def years(first: int, last: int, precision: str = "year") -> Interval:
    """Whole years ``first..last`` (clipped to what ``datetime.date`` holds)."""
    first, last = max(first, 1), min(last, 9999)
    lo, hi = _dt.date(first, 1, 1), _dt.date(last, 12, 31)
    return Interval(lo.toordinal(), hi.toordinal(), precision)


def span(a: Interval, b: Interval) -> Interval:
    """From the start of ``a`` to the end of ``b`` ("2010..2014", "from March to June 2019")."""
    return Interval(a.start, b.end, "range")


def since(a: Interval) -> Interval:
    return Interval(a.start, OPEN_END, "range")


def until(a: Interval) -> Interval:
    return Interval(OPEN_START, a.end, "range")


def before(a: Interval) -> Interval:
    """Strictly before: up to the day before ``a`` starts ("before 2015" ends 2014-12-31)."""
    if a.start <= FIRST_DAY:
        raise TsolveError(f"interval: nothing lies before {a}")
    return Interval(OPEN_START, a.start - 1, "range")


def after(a: Interval) -> Interval:
    """Strictly after: from the day after ``a`` ends ("after 2015" starts 2016-01-01)."""
    if a.end >= LAST_DAY:
        raise TsolveError(f"interval: nothing lies after {a}")
    return Interval(a.end + 1, OPEN_END, "range")


# ------------------------------------------------------------ annotated scopes

_POINT = re.compile(r"^(\d{4})(?:-(?:(\d{2})(?:-(\d{2}))?|[Qq]([1-4])|[Hh]([12])))?$")


def parse_point(text: str, field: str) -> Interval:
    """``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD``, ``YYYY-Qn`` or ``YYYY-Hn`` -> its interval."""
    m = _POINT.match(text.strip())
    if not m:
        raise bad(field, "a date YYYY, YYYY-MM, YYYY-MM-DD, YYYY-Qn or YYYY-Hn", text)
    y = int(m[1])
    try:
        if y < 1:
            raise ValueError("year 0")
        if m[3]:
            return day(_dt.date(y, int(m[2]), int(m[3])))
        if m[2]:
            return month(y, int(m[2]))
    except ValueError:
        raise bad(field, "a valid calendar date", text) from None
    if m[4]:
        q = int(m[4])
        return months(y, 3 * q - 2, 3 * q, "quarter")
    if m[5]:
        h = int(m[5])
        return months(y, 6 * h - 5, 6 * h, "half")
    return years(y, y)


def _bounds(lo: Any, hi: Any, field: str) -> Interval:
    for name, v in (("start", lo), ("end", hi)):
        if v is not None and not isinstance(v, str):
            raise bad(f"{field}.{name}", "a date string or null", v)
    if lo is None and hi is None:
        raise bad(field, "at least one bound", "two open ends")
    a = parse_point(lo, f"{field}.start") if lo is not None else None
    b = parse_point(hi, f"{field}.end") if hi is not None else None
    if a is not None and b is not None:
        if b.end < a.start:
            raise bad(field, "a start no later than its end", f"{lo}..{hi}")
        if a == b:
            return a
        return span(a, b)
    return since(a) if a is not None else until(b)  # type: ignore[arg-type]


def parse_scope(value: Any, field: str = "scope") -> list[Interval]:
    """An annotated scope (string, ``{"start","end"}`` object or a list of
    them) -> its intervals, or a one-line error naming ``field`` and the value."""
    if isinstance(value, list):
        if not value:
            raise bad(field, "a non-empty list of scopes", value)
        if len(value) > 1000:
            raise bad(field, "at most 1000 intervals", f"{len(value)} items")
        out: list[Interval] = []
        for i, v in enumerate(value):
            if isinstance(v, list):
                raise bad(f"{field}[{i}]", "a string or an object", v)
            out.extend(parse_scope(v, f"{field}[{i}]"))
        return out
    if isinstance(value, dict):
        extra = set(value) - {"start", "end"}
        if extra:
            raise bad(field, "an object with only start and end", sorted(extra))
        return [_bounds(value.get("start"), value.get("end"), field)]
    if isinstance(value, str):
        if len(value) > 100:
            raise bad(field, "a scope of at most 100 characters", value)
        if ".." in value:
            lo, _, hi = value.partition("..")
            return [_bounds(lo.strip() or None, hi.strip() or None, field)]
        return [parse_point(value, field)]
    raise bad(field, "a scope string, an object or a list", value)


__all__ = ["FIRST_DAY", "LAST_DAY", "OPEN_END", "OPEN_START", "PRECISIONS", "Interval", "after",
           "before", "day", "month", "months", "overlaps", "parse_point", "parse_scope", "since",
           "span", "until", "years"]  # fmt: skip
