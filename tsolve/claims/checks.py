"""One checker per kind of claim: a typed claim in, an :class:`Outcome` out.

Gregorian claims are judged on day numbers (proleptic Gregorian ordinals,
years 1..9999): weekdays and date differences through the IR's reference
semantics (the weekday fact's ``Mod`` atom, a ``Diff`` atom), which is what
every solver backend's ``check`` evaluates. Other calendars and festivals go
through :mod:`tsolve.calendars` (its tables, with their ranges: a date outside
a table is ``unknown``, never guessed).

A claim whose words allow several readings (an Islamic date without saying
which Islamic calendar, plain "Adar" in a Hebrew leap year) is true when some
reading makes it true; ``correct`` then lists the value under every reading.
"""

from __future__ import annotations

import calendar as _calendar
import datetime as _dt
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from tsolve.calendars.domain import MAX_ORDINAL, DateDomain
from tsolve.claims import grammar as g
from tsolve.claims.calendar_dates import (
    CALENDAR_LABELS,
    ISLAMIC,
    CalendarDate,
    DateRef,
    describe_day,
)
from tsolve.claims.lexicon import Ymd
from tsolve.claims.result import Outcome
from tsolve.encodings.facts.words import WEEKDAYS
from tsolve.encodings.ir import DATE_VAR, Diff, evaluate
from tsolve.errors import TsolveError


def _no_such_date(ymd: Ymd) -> Outcome:
    return Outcome("false", None, f"{ymd.text()} does not exist")


def _judged(holds: bool, correct: str) -> Outcome:
    """``true``, or ``false`` with the right value."""
    return Outcome("true") if holds else Outcome("false", correct)


# ------------------------------------------------------------ weekday


@cache
def _weekday_atoms() -> tuple[Any, ...]:
    from tsolve.encodings.facts.calendar_facts import WeekdayFact

    everywhere = DateDomain(1, MAX_ORDINAL)
    return tuple(WeekdayFact(w).constraint(everywhere) for w in WEEKDAYS)


def weekday_of(day: int) -> str:
    """The weekday whose fact holds on ``day`` (the solver's own semantics)."""
    env = {DATE_VAR: np.array([day], dtype=np.int64)}
    return next(
        w for w, atom in zip(WEEKDAYS, _weekday_atoms(), strict=True) if evaluate(atom, env)[0]
    )


def anchor_days(anchor: g.Anchor) -> list[tuple[str, int]] | Outcome:
    """(calendar, day number) of every reading of a date or a festival of a
    year, or the outcome that settles the claim without them: ``false`` for
    a date that does not exist, ``unknown`` outside the tables or for a
    festival tsolve has no rule for."""
    if isinstance(anchor, Ymd):
        if not anchor.exists():
            return _no_such_date(anchor)
        return [("gregorian", anchor.ordinal())]
    if anchor.name == "?":
        return Outcome("unknown", note="tsolve has no rule for this festival")
    year_cal = anchor.year_calendar
    if year_cal == "gregorian" and not 1900 <= anchor.year <= 2100:
        from tsolve.calendars.festivals import get_festival

        year_cal = get_festival(anchor.name).calendar  # "Rosh Hashanah 5784": its own year
    try:
        return festival_days(anchor.name, anchor.year, year_cal)
    except TsolveError as exc:
        return Outcome("unknown", note=str(exc))


def check_weekday(c: g.WeekdayClaim) -> Outcome:
    found = anchor_days(c.date)
    if isinstance(found, Outcome):
        return found
    days = [(cal, d + c.days) for cal, d in found]
    if not all(1 <= d <= MAX_ORDINAL for _, d in days):
        return Outcome("unknown", note="the day is outside years 1..9999")
    actual = [(cal, weekday_of(d)) for cal, d in days]
    if c.negated:
        return _judged(any(w != c.weekday for _, w in actual), _readings_text(actual))
    return _judged(any(w == c.weekday for _, w in actual), _readings_text(actual))


def _weekday_named(ymd: Ymd, weekday: str | None) -> Outcome | None:
    """``false`` (with the right weekday) when a claim names ``ymd``'s weekday
    wrongly, else None: "... is Tuesday, December 25, 2024" is false."""
    if weekday is None:
        return None
    actual = weekday_of(ymd.ordinal())
    if actual == weekday:
        return None
    return Outcome("false", actual, f"{ymd.text()} is a {actual}")


# ------------------------------------------------------------ leap years


def _year_length(calendar: str, year: int) -> int | None:
    """Days in ``year`` of ``calendar``, None when the table lacks part of it."""
    from tsolve.calendars.tables import spec, table

    months = table(calendar).months
    sel = months.year == year
    if int(sel.sum()) != len(spec(calendar).months_in_year(year)):
        return None
    t = table(calendar)
    first, last = (
        int(months.start[sel].min()),
        int((months.start[sel] + months.length[sel]).max()) - 1,
    )
    if first < t.first_day or last > t.last_day:
        return None
    return int(months.length[sel].sum())


@cache
def _length_threshold(calendar: str) -> float:
    """Halfway between the shortest and longest year: a year longer than this
    is a leap year (Hebrew and Chinese: 13 months; Islamic: 355 days;
    Persian and Shaka: 366 days)."""
    from tsolve.calendars.tables import table

    months = table(calendar).months
    years = np.unique(months.year)[1:-1]  # both ends may be partial
    lengths = [_year_length(calendar, int(y)) for y in years.tolist()]
    known = [n for n in lengths if n is not None]
    return (min(known) + max(known)) / 2


def check_leap_year(c: g.LeapYearClaim) -> Outcome:
    calendar = "islamic" if c.calendar == "islamic*" else c.calendar
    if calendar == "gregorian":
        if not 1 <= c.year <= 9999:
            return Outcome("unknown", note=f"year {c.year} is outside 1..9999")
        actual = _calendar.isleap(c.year)
    elif calendar == "islamic-umalqura":
        return Outcome("unknown", note="the Umm al-Qura calendar has no leap-year rule")
    else:
        length = _year_length(calendar, c.year)
        if length is None:
            return Outcome("unknown", note=f"{calendar} year {c.year} is outside tsolve's table")
        actual = length > _length_threshold(calendar)
    right = "a leap year" if actual else "not a leap year"
    return _judged(actual == c.leap, f"{c.year} is {right}")


# ------------------------------------------------------------ arithmetic


def check_shift(c: g.ShiftClaim) -> Outcome:
    found = anchor_days(c.start)
    if isinstance(found, Outcome):
        return found
    if not c.end.exists():
        return _no_such_date(c.end)
    b = c.end.ordinal()
    rights = [(cal, a + c.days) for cal, a in found]
    if not all(1 <= r <= MAX_ORDINAL for _, r in rights):
        return Outcome("unknown", note="the result is outside years 1..9999")
    starts = np.array([a for _, a in found], dtype=np.int64)
    env = {"end": np.full(starts.shape, b), "start": starts}
    holds = bool(evaluate(Diff("end", "start", c.days, c.days), env).any())
    if not holds:
        values = [(cal, _dt.date.fromordinal(r).isoformat()) for cal, r in rights]
        return Outcome("false", _readings_text(values))
    return _weekday_named(c.end, c.end_weekday) or Outcome("true")


def check_between(c: g.BetweenClaim) -> Outcome:
    for ymd in (c.a, c.b):
        if not ymd.exists():
            return _no_such_date(ymd)
    a, b = sorted((c.a.ordinal(), c.b.ordinal()))
    extra = 1 if c.inclusive else 0
    env = {"b": np.array([b]), "a": np.array([a])}
    holds = bool(evaluate(Diff("b", "a", c.days - extra, c.days - extra), env)[0])
    return _judged(holds, str(b - a + extra))


# ------------------------------------------------------------ month lengths


def _month_lengths(calendar: str, year: int, month: int) -> list[int]:
    """Lengths of the months a claim's month name may mean (several readings)."""
    from tsolve.calendars.tables import table

    idx = table(calendar).months
    sel = (idx.year == year) & (idx.month == month) & ~idx.leap
    return [int(n) for n in idx.length[sel].tolist()]


def check_month_length(c: g.MonthLengthClaim) -> Outcome:
    if c.calendar == "gregorian":
        if c.year is None:
            if c.month == 2:
                if c.days in (28, 29):
                    return Outcome("unknown", note="February has 28 or 29 days by year")
                return Outcome("false", "28 or 29")
            actual = _calendar.monthrange(2001, c.month)[1]
        elif not 1 <= c.year <= 9999:
            return Outcome("unknown", note=f"year {c.year} is outside 1..9999")
        else:
            actual = _calendar.monthrange(c.year, c.month)[1]
        return _judged(actual == c.days, str(actual))
    assert c.year is not None
    calendars = ISLAMIC if c.calendar == "islamic" else (c.calendar,)
    months = [c.month]
    if c.calendar == "hebrew" and c.spelling == "adar":
        months = [12, 13]
    found: list[tuple[str, int]] = []
    for cal in calendars:
        for month in months:
            found += [(cal, n) for n in _month_lengths(cal, c.year, month)]
    if not found:
        return Outcome(
            "unknown", note=f"{c.calendar} month {c.month} of {c.year} is not in tsolve's tables"
        )
    if any(n == c.days for _, n in found):
        return Outcome("true")
    return Outcome("false", _readings_text([(cal, str(n)) for cal, n in found]))


def _readings_text(values: list[tuple[str, str]]) -> str:
    """``value`` alone, or ``value (calendar) or value (calendar)``."""
    distinct = list(dict.fromkeys(v for _, v in values))
    if len(distinct) == 1:
        return distinct[0]
    return " or ".join(f"{v} ({CALENDAR_LABELS[cal]})" for cal, v in values)


# ------------------------------------------------------------ cross-calendar


def _year_in_table(reading: CalendarDate) -> bool:
    """Whether tsolve's table of the reading's calendar covers its year (so a
    date that fails to convert does not exist, rather than lies outside)."""
    if reading.calendar == "gregorian":
        return 1 <= reading.year <= 9999
    from tsolve.calendars.tables import table

    return bool((table(reading.calendar).months.year == reading.year).any())


def _days(ref: DateRef) -> tuple[list[tuple[CalendarDate, int]], list[str], list[str]]:
    """Each reading's day number; why the others have none, split into dates
    that do not exist and dates outside tsolve's tables."""
    found: list[tuple[CalendarDate, int]] = []
    missing: list[str] = []
    outside: list[str] = []
    for r in ref.readings:
        try:
            found.append((r, r.day_number()))
        except TsolveError as exc:
            (missing if _year_in_table(r) else outside).append(str(exc))
    return found, missing, outside


def check_conversion(c: g.ConversionClaim) -> Outcome:
    left, left_missing, left_outside = _days(c.left)
    right, right_missing, right_outside = _days(c.right)
    if any(dl == dr for _, dl in left for _, dr in right):
        return Outcome("true")
    if left_outside or right_outside:  # a reading tsolve cannot check might hold
        return Outcome("unknown", note=(left_outside + right_outside)[0])
    if not left or not right:  # no reading of one side exists
        return Outcome("false", None, (left_missing + right_missing)[0])
    values: list[tuple[str, str]] = []
    for reading, day in left:
        for cal in dict.fromkeys(r.calendar for r in c.right.readings):
            try:
                text = describe_day(cal, day)
            except TsolveError:  # the day is outside that calendar's table
                return Outcome("unknown", note=f"{describe_day('gregorian', day)} is outside "
                               f"the {cal} table")  # fmt: skip
            values.append((reading.calendar if len(left) > 1 else cal, text))
    return Outcome("false", _readings_text(values))


# ------------------------------------------------------------ festivals


def festival_days(key: str, year: int, year_calendar: str) -> list[tuple[str, int]]:
    """(calendar, day) of every occurrence of festival ``key`` in ``year``;
    Islamic festivals in both Islamic calendars. Raises :class:`TsolveError`
    outside the tables."""
    from tsolve.calendars.festivals import festival, festival_day, get_festival

    fest = get_festival(key)
    cals = ISLAMIC if fest.calendar == "islamic" else (fest.calendar,)
    out: list[tuple[str, int]] = []
    errors: list[str] = []
    for cal in cals:
        try:
            if year_calendar == "gregorian":
                if cal == "islamic-umalqura":
                    out += [(cal, d) for d in _umalqura_in_gregorian_year(key, year)]
                else:
                    out += [(cal, int(d)) for d in festival(key, year).tolist()]
            else:
                out.append((cal, festival_day(fest, year, cal)))
        except TsolveError as exc:
            errors.append(str(exc))
    if not out:
        raise TsolveError(errors[0] if errors else f"{key}: no date in {year}")
    return out


def _umalqura_in_gregorian_year(key: str, year: int) -> list[int]:
    from tsolve.calendars.conversion import dates_in
    from tsolve.calendars.festivals import festival_day, get_festival
    from tsolve.calendars.tables import table

    fest = get_festival(key)
    t = table("islamic-umalqura")
    lo, hi = _dt.date(year, 1, 1).toordinal(), _dt.date(year, 12, 31).toordinal()
    a, b = max(lo, t.first_day), min(hi, t.last_day)
    if a > b:
        raise TsolveError(f"{year} is outside the Umm al-Qura table {t.range_text()}")
    years = {int(y) for y in dates_in("islamic-umalqura", np.array([a, b])).year.tolist()}
    out = []
    for hy in sorted(years):
        try:
            d = festival_day(fest, hy, "islamic-umalqura")
        except TsolveError:
            continue
        if lo <= d <= hi:
            out.append(d)
    return out


def check_festival(c: g.FestivalClaim) -> Outcome:
    if c.name == "?":
        return Outcome("unknown", note="tsolve has no rule for this festival")
    if not c.date.exists():
        return _no_such_date(c.date)
    found = anchor_days(g.FestivalRef(c.name, c.year, c.year_calendar))
    if isinstance(found, Outcome):
        return found
    day = c.date.ordinal()
    if any(d == day for _, d in found):
        return _weekday_named(c.date, c.weekday) or Outcome("true")
    return Outcome(
        "false", _readings_text([(cal, describe_day("gregorian", d)) for cal, d in found])
    )


# ------------------------------------------------------------ dispatch

CHECKERS: dict[type, Callable[[Any], Outcome]] = {
    g.WeekdayClaim: check_weekday,
    g.LeapYearClaim: check_leap_year,
    g.ShiftClaim: check_shift,
    g.BetweenClaim: check_between,
    g.ConversionClaim: check_conversion,
    g.FestivalClaim: check_festival,
    g.MonthLengthClaim: check_month_length,
}


def check(claim: g.Claim) -> Outcome:
    """The verdict on one typed claim."""
    return CHECKERS[type(claim)](claim)
