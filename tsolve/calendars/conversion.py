"""Vectorised conversion between the calendars, in both directions.

*To* a calendar is a table lookup (:meth:`CalendarTable.fields`). *From* a
calendar goes through its month index: a dense lookup array maps
``(year, month, leap)`` to the month's first day and length, so validating and
converting a million dates is a handful of NumPy operations too. Dates that do
not exist (the 30th of a 29-day month, a leap month the year does not have,
Adar II in a common Hebrew year) are rejected with a one-line
:class:`TsolveError` naming the first offending date, never silently shifted.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, overload

import numpy as np

from tsolve.calendars.domain import EPOCH_ORDINAL, parse_iso
from tsolve.calendars.names import parse_month
from tsolve.calendars.tables import CALENDARS, check_calendar, month_name, spec, table
from tsolve.errors import TsolveError
from tsolve.records.validation import shown


@dataclass(frozen=True, eq=False)
class CalendarDates:
    """Dates in one calendar, as parallel arrays (plus their day numbers)."""

    calendar: str
    days: np.ndarray  # int64 ordinals
    year: np.ndarray
    month: np.ndarray
    day: np.ndarray
    leap: np.ndarray

    def __len__(self) -> int:
        return int(self.days.size)

    def month_names(self) -> list[str]:
        return [
            month_name(self.calendar, int(y), int(m), bool(lp))
            for y, m, lp in zip(
                self.year.ravel(), self.month.ravel(), self.leap.ravel(), strict=True
            )
        ]

    def item(self, i: int) -> dict[str, Any]:
        """The ``i``-th date as the JSON object the CLI prints."""
        y, m, d, lp = (int(self.year.flat[i]), int(self.month.flat[i]),
                       int(self.day.flat[i]), bool(self.leap.flat[i]))  # fmt: skip
        out: dict[str, Any] = {
            "year": y,
            "month": m,
            "month_name": month_name(self.calendar, y, m, lp),
            "day": d,
        }
        if self.calendar == "chinese":
            out["leap"] = lp
        return out

    def text(self, i: int) -> str:
        """``Y-M-D`` (Chinese leap months as ``Y-L4-D``) of the ``i``-th date."""
        return format_date(
            self.calendar, int(self.year.flat[i]), int(self.month.flat[i]),
            int(self.day.flat[i]), bool(self.leap.flat[i]),
        )  # fmt: skip


# ------------------------------------------------------------------ inputs


def as_days(values: Any, field: str = "date") -> np.ndarray:
    """Day numbers (int64 ordinals) from ordinals, ``datetime64``, dates or ISO strings."""
    if isinstance(values, (str, _dt.date, int, np.integer, np.datetime64)):
        values = [values]
    arr = np.asarray(values)
    if np.issubdtype(arr.dtype, np.datetime64):
        return arr.astype("datetime64[D]").astype(np.int64) + EPOCH_ORDINAL
    if np.issubdtype(arr.dtype, np.integer):
        return arr.astype(np.int64)
    if arr.dtype == bool:
        raise TsolveError(f"{field}: booleans are not day numbers")
    if arr.dtype.kind in "OUS":
        out = np.empty(arr.shape, dtype=np.int64)
        for i, v in enumerate(arr.ravel()):
            if isinstance(v, _dt.date):
                out.flat[i] = v.toordinal()
            elif isinstance(v, (int, np.integer)) and not isinstance(v, bool):
                out.flat[i] = int(v)
            else:
                out.flat[i] = parse_iso(str(v), field).toordinal()
        return out
    raise TsolveError(f"{field}: cannot read dates of type {arr.dtype}")


_DATE = re.compile(r"^\s*(-?\d+)\s*-\s*(.+?)\s*-\s*(\d{1,2})\s*$")


def parse_date(text: str, calendar: str, field: str = "date") -> tuple[int, int, int, bool]:
    """``Y-M-D`` in ``calendar`` -> (year, month, day, leap), validated.

    ``M`` may be a number or a month name (``5784-Adar II-14``); a Chinese leap
    month is written ``L4`` (``2023-L2-15``). Gregorian input is strict ISO.
    """
    cal = check_calendar(calendar)
    if cal == "gregorian":
        g = parse_iso(text, field)
        return g.year, g.month, g.day, False
    m = _DATE.match(str(text))
    if not m:
        hint = " (leap month: Y-L4-D)" if cal == "chinese" else ""
        raise TsolveError(f"{field}: {shown(text)} is not a {cal} date in Y-M-D form{hint}")
    month, leap = parse_month(cal, m[2], field)
    y, d = int(m[1]), int(m[3])
    to_days(cal, np.array([y]), np.array([month]), np.array([d]), np.array([leap]), field=field)
    return y, month, d, leap


def format_date(calendar: str, year: int, month: int, day: int, leap: bool = False) -> str:
    """The inverse of :func:`parse_date` with numeric months."""
    return f"{year}-{'L' if leap else ''}{month}-{day}"


# --------------------------------------------------------- from a calendar


@dataclass(frozen=True, eq=False)
class _MonthLookup:
    y0: int
    lut: np.ndarray  # [year - y0, month, leap] -> month-index position, -1 if none
    start: np.ndarray
    length: np.ndarray


@cache
def _month_lookup(calendar: str) -> _MonthLookup:
    idx = table(calendar).months
    y0 = int(idx.year.min())
    lut = np.full((int(idx.year.max()) - y0 + 1, 14, 2), -1, dtype=np.int32)
    lut[idx.year - y0, idx.month, idx.leap.astype(np.int64)] = np.arange(idx.year.size)
    return _MonthLookup(y0, lut, idx.start, idx.length.astype(np.int64))


def to_days(
    calendar: str,
    year: Any,
    month: Any,
    day: Any,
    leap: Any = None,
    field: str = "date",
) -> np.ndarray:
    """Day numbers of dates given in ``calendar``; every date is validated."""
    cal = check_calendar(calendar)
    y = np.asarray(year, dtype=np.int64)
    m = np.asarray(month, dtype=np.int64)
    d = np.asarray(day, dtype=np.int64)
    lp = np.zeros(y.shape, dtype=bool) if leap is None else np.asarray(leap, dtype=bool)
    y, m, d, lp = np.broadcast_arrays(y, m, d, lp)
    look = _month_lookup(cal)
    tab = table(cal)
    n_years = look.lut.shape[0]
    yi = y - look.y0
    ok = (yi >= 0) & (yi < n_years) & (m >= 1) & (m <= 13)
    pos = np.full(y.shape, -1, dtype=np.int64)
    pos[ok] = look.lut[yi[ok], m[ok], lp[ok].astype(np.int64)]
    ok &= pos >= 0
    safe = np.where(ok, pos, 0)
    ok &= (d >= 1) & (d <= look.length[safe])
    out = look.start[safe] + d - 1
    ok &= (out >= tab.first_day) & (out <= tab.last_day)
    if not ok.all():
        i = int(np.flatnonzero(~ok.ravel())[0])
        raise TsolveError(
            _explain(cal, int(y.flat[i]), int(m.flat[i]), int(d.flat[i]), bool(lp.flat[i]), field)
        )
    return out.astype(np.int64)


def _explain(cal: str, y: int, m: int, d: int, leap: bool, field: str) -> str:
    """Why ``(y, m, d, leap)`` is not a valid date of ``cal`` (one line)."""
    text = format_date(cal, y, m, d, leap)
    tab = table(cal)
    look = _month_lookup(cal)
    where = f"{field}: {cal} date {text}"
    if leap and cal != "chinese":
        return f"{where}: only the chinese calendar has leap months"
    max_month = 13 if cal == "hebrew" else 12
    if not 1 <= m <= max_month:
        return f"{where}: month must be 1..{max_month}"
    if not 0 <= y - look.y0 < look.lut.shape[0]:
        return f"{where} is outside the {cal} calendar's range {tab.range_text()}"
    pos = int(look.lut[y - look.y0, m, int(leap)])
    if pos < 0:
        if cal == "hebrew" and m == 13:
            return f"{where}: {y} is a common year, it has no Adar II (month 13)"
        if cal == "chinese" and leap:
            months = spec(cal).months_in_year(y)
            leaps = [mm for mm, lp in months if lp]
            has = f"its leap month is {leaps[0]}" if leaps else "it has no leap month"
            return f"{where}: lunar year {y} has no leap month {m} ({has})"
        return f"{where} is outside the {cal} calendar's range {tab.range_text()}"
    length = int(look.length[pos])
    if not 1 <= d <= length:
        name = month_name(cal, y, m, leap)
        return f"{where}: {name} {y} has {length} days"
    return f"{where} is outside the {cal} calendar's range {tab.range_text()}"


# ------------------------------------------------------------------ public


def dates_in(calendar: str, days: np.ndarray) -> CalendarDates:
    """Day numbers -> :class:`CalendarDates` in ``calendar``."""
    cal = check_calendar(calendar)
    y, m, d, lp = table(cal).fields(days)
    return CalendarDates(cal, days, y, m, d, lp)


@overload
def convert(days: Any, to: str, from_: str = "gregorian") -> CalendarDates: ...
@overload
def convert(
    days: Any, to: Sequence[str] | None, from_: str = "gregorian"
) -> dict[str, CalendarDates]: ...


def convert(
    days: Any, to: str | Sequence[str] | None = None, from_: str = "gregorian"
) -> CalendarDates | dict[str, CalendarDates]:
    """Convert dates between calendars.

    ``days``: with ``from_="gregorian"``, an array of day numbers (ordinals),
    a ``datetime64[D]`` array, dates or ISO strings. With another ``from_``, a
    :class:`CalendarDates` or a tuple ``(year, month, day[, leap])`` of arrays in
    that calendar, validated.

    ``to``: one calendar name -> :class:`CalendarDates`; a sequence of names (or
    ``None`` for all of :data:`CALENDARS`) -> ``{name: CalendarDates}``.
    """
    src = check_calendar(from_, "from")
    if src == "gregorian" and not isinstance(days, (tuple, CalendarDates)):
        ords = as_days(days)
    elif isinstance(days, CalendarDates):
        ords = days.days
    elif isinstance(days, tuple) and len(days) in (3, 4):
        ords = to_days(src, *days)
    else:
        raise TsolveError(
            f"from: dates in the {src} calendar are given as (year, month, day[, leap]) arrays"
        )
    if isinstance(to, str):
        return dates_in(to, ords)
    names: Iterable[str] = CALENDARS if to is None else to
    return {check_calendar(c, "to"): dates_in(c, ords) for c in names}


def calendar_list(text: str | None, field: str = "to") -> list[str] | None:
    """Comma-separated calendar names (``"hebrew,islamic"``), each checked and
    normalised; None when ``text`` is None or empty, meaning every calendar."""
    if not text:
        return None
    names = [check_calendar(t, field) for t in text.split(",") if t.strip()]
    if not names:
        raise TsolveError(f"{field}: {text!r} names no calendar")
    return names


def conversion_items(
    days: np.ndarray, to: Sequence[str] | None = None
) -> list[dict[str, dict[str, Any] | None]]:
    """Each day in each calendar: one ``{calendar: CalendarDates.item}`` object per day.

    ``to=None`` asks for every calendar of :data:`CALENDARS`, and a calendar
    whose range does not hold a day gives None for it (the Umm al-Qura table
    starts in 1924; a table of 1910 dates still shows the others). Calendars
    named in ``to`` were asked for on purpose: a day outside one of their
    ranges is a one-line :class:`TsolveError` naming the day and the range.
    """
    days = np.asarray(days, dtype=np.int64)
    names = list(CALENDARS) if to is None else [check_calendar(c, "to") for c in to]
    out: list[dict[str, dict[str, Any] | None]] = [{} for _ in range(days.size)]
    for cal in names:
        if to is None:
            tab = table(cal)
            inside = (days >= tab.first_day) & (days <= tab.last_day)
        else:
            inside = np.ones(days.shape, dtype=bool)
        found = dates_in(cal, days[inside])  # a named calendar: raises for a day outside
        pos = np.cumsum(inside) - 1  # each day's place among the days inside
        for i in range(days.size):
            out[i][cal] = found.item(int(pos[i])) if inside[i] else None
    return out


def date_of(calendar: str, year: int, month: int, day: int, leap: bool = False) -> int:
    """Day number of one date in ``calendar`` (validated).

    Scalar fast path with plain ints; anything unusual goes through
    :func:`to_days`, which also writes the error message.
    """
    if calendar in _SCALAR_OK:
        look = _month_lookup(calendar)
        yi = int(year) - look.y0
        m, d, lp = int(month), int(day), int(bool(leap))
        if 0 <= yi < look.lut.shape[0] and 1 <= m <= 13:
            pos = int(look.lut[yi, m, lp])
            if pos >= 0 and 1 <= d <= int(look.length[pos]):
                out = int(look.start[pos]) + d - 1
                tab = table(calendar)
                if tab.first_day <= out <= tab.last_day:
                    return out
    return int(to_days(calendar, [year], [month], [day], [leap])[0])


_SCALAR_OK = frozenset(CALENDARS)
