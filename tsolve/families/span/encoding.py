"""A SPAN question as data, its wording, and its answer under each reading.

This is the one home of SPAN gold computation: the generator
(:mod:`tsolve.families.span.generate`) renders and accepts questions with it, the
auditor (:mod:`tsolve.families.span.audit`) re-derives stored golds with it, and the
scorer (:mod:`tsolve.families.span.score`) uses it to tell a prediction
that is right under another admissible reading. It sits below all three
because generators and verifiers/audit may not import each other.

**Readings.** A reader of a question may resolve four things differently
(``docs/span.md``, "Readings"); each is an *axis* with the generator's own
(canonical) value first:

* ``islamic``: ``tabular`` (arithmetical) or ``umm-al-qura``, where an Islamic
  calendar is involved;
* ``years``: a festival "N years later" counts years of the festival's own
  calendar (``source-calendar``) or takes the festival in the Gregorian year N
  years later (``gregorian``), for festivals of a non-Gregorian calendar;
* ``festival-day``: the festival's ``daytime`` date or its ``eve`` (the day
  before), for Hebrew and Islamic festivals, which begin at sundown;
* ``disputed-months``: the ``primary`` or ``alternative`` source for the month
  starts the libraries dispute (:mod:`tsolve.calendars.variants`).

Text rules an axis out by saying what it means; :func:`ruled_out_axes` checks
the record's own question text for the exact phrase the generator writes, so a
record's claims about itself are never trusted without the words being there.
Under a reading, a question's answer is the *set* of target-calendar dates
(year, month, day, leap) it denotes, compared as text would be: the empty set
or ``None`` means the reading gives no answer (e.g. the reference date does
not exist under it).
"""

from __future__ import annotations

import datetime as _dt
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tsolve.calendars.domain import iso
from tsolve.calendars.festivals import Festival, get_festival
from tsolve.calendars.tables import CALENDARS, check_calendar, month_name, table
from tsolve.calendars.variants import ALTERNATIVE, PRIMARY, Fields, disputes_of, view
from tsolve.errors import TsolveError
from tsolve.records.validation import (
    bad,
    expect_choice,
    expect_dict,
    expect_field,
    expect_int,
    expect_iso_date,
    optional,
    refuse_misnamed,
)

ISLAMIC = ("islamic", "islamic-umalqura")
SUNDOWN_CALENDARS = frozenset({"hebrew", *ISLAMIC})

DISPLAY = {
    "gregorian": "Gregorian",
    "chinese": "Chinese lunar",
    "hebrew": "Hebrew",
    "islamic": "tabular (arithmetical) Islamic",
    "islamic-umalqura": "Umm al-Qura Islamic",
    "persian": "Persian",
    "shaka": "Shaka",
}
"""How questions name each calendar. Both Islamic variants are named, so the
phrase ``<DISPLAY> calendar`` in a question rules the other variant out."""

DAYTIME_NOTE = (
    "(The festival begins at sundown; its date here is the date of its daytime, "
    "not of the evening before.)"
)

# ----------------------------------------------------------------- axes

ISLAMIC_AXIS, YEARS_AXIS, DAY_AXIS, MONTHS_AXIS = (
    "islamic", "years", "festival-day", "disputed-months",
)  # fmt: skip
TABULAR, UMM_AL_QURA = "tabular", "umm-al-qura"
SOURCE_YEARS, GREGORIAN_YEARS = "source-calendar", "gregorian"
DAYTIME, EVE = "daytime", "eve"
AXIS_VALUES: dict[str, tuple[str, str]] = {
    ISLAMIC_AXIS: (TABULAR, UMM_AL_QURA),
    YEARS_AXIS: (SOURCE_YEARS, GREGORIAN_YEARS),
    DAY_AXIS: (DAYTIME, EVE),
    MONTHS_AXIS: (PRIMARY, ALTERNATIVE),
}

Reading = tuple[tuple[str, str], ...]
"""A reading: ``((axis, value), ...)`` over the axes that apply, sorted by axis."""


def reading_name(reading: Reading, canonical: Reading) -> str:
    """``canonical``, or the axis values that differ from it, joined by ``+``
    (``islamic:umm-al-qura+years:gregorian``)."""
    base = dict(canonical)
    diff = [f"{a}:{v}" for a, v in reading if base.get(a) != v]
    return "+".join(diff) or "canonical"


# ----------------------------------------------------------------- the question


@dataclass(frozen=True)
class SpanQuestion:
    """What a SPAN record asks, independent of how it is worded."""

    source: str
    target: str
    reference: Fields  # the reference date as written, in the source calendar
    offset: int
    unit: str  # days | weeks | years
    sign: str  # ago | later
    festival: Festival | None
    fmt: str  # content | polar
    candidate: Fields | None  # polar only, in the target calendar

    @property
    def step(self) -> int:
        return -1 if self.sign == "ago" else 1

    @property
    def qtype(self) -> str:
        return "festival" if self.festival is not None else "date"

    def involved(self) -> set[str]:
        return {self.source, self.target}


def _fields(obj: Any, what: str) -> Fields:
    """A date object's fields, checked as the gold's are (:func:`check_span_record`):
    ``int()`` would take 2024.7 for 2024 and raise ``OverflowError`` on ``1e400``."""
    if not isinstance(obj, dict):
        raise TsolveError(f"params.{what}: expected a date object, got {type(obj).__name__}")
    if not all(k in obj for k in ("year", "month", "day")):
        raise TsolveError(f"params.{what}: needs integer year, month and day")
    return (
        expect_int(obj["year"], f"params.{what}.year", -10_000, 20_000),
        expect_int(obj["month"], f"params.{what}.month", 1, 14),
        expect_int(obj["day"], f"params.{what}.day", 1, 31),
        bool(obj.get("leap", False)),
    )


def question_of(record: dict[str, Any]) -> SpanQuestion:
    """The :class:`SpanQuestion` of a SPAN record (any generator version)."""
    p = record.get("params")
    if not isinstance(p, dict):
        raise TsolveError("params: a SPAN record needs a params object")
    src = check_calendar(str(p.get("source_calendar")), "params.source_calendar")
    tgt = check_calendar(str(p.get("target_calendar")), "params.target_calendar")
    unit = p.get("unit")
    if unit not in ("days", "weeks", "years"):
        raise TsolveError(f"params.unit: expected days, weeks or years, got {unit!r}")
    sign = p.get("sign")
    if sign not in ("ago", "later"):
        raise TsolveError(f"params.sign: expected ago or later, got {sign!r}")
    n = p.get("offset")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise TsolveError(f"params.offset: expected a non-negative integer, got {n!r}")
    fest = None
    if unit == "years":
        f = p.get("festival")
        if not isinstance(f, dict) or "key" not in f:
            raise TsolveError("params.festival: a year offset needs a festival")
        fest = get_festival(str(f["key"]))
        own = "islamic" if src in ISLAMIC else src
        if fest.calendar != own:
            raise TsolveError(f"params.festival: {fest.name} is not a {src} festival")
    fmt = record.get("format")
    if fmt not in ("content", "polar"):
        raise TsolveError(f"format: expected content or polar, got {fmt!r}")
    cand = _fields(p.get("candidate"), "candidate") if fmt == "polar" else None
    return SpanQuestion(src, tgt, _fields(p.get("reference_date"), "reference_date"), n, unit,
                        sign, fest, fmt, cand)  # fmt: skip


# ----------------------------------------------------------------- wording


def unit_text(n: int, unit: str) -> str:
    """``1 day``, ``2 days``: the unit agrees with the number."""
    return f"{n} {unit[:-1] if n == 1 else unit}"


def year_phrase(source: str, n: int, sign: str) -> str:
    """The words that fix year counting: the festival of the source-calendar
    year ``n`` years before/after the current one."""
    side = "before" if sign == "ago" else "after"
    return f"in the {DISPLAY[source]} year {unit_text(n, 'years')} {side} the current one"


def render(cal: str, y: int, m: int, d: int, leap: bool) -> str:
    """A date as questions write it, with the calendar's month name."""
    name = month_name(cal, y, m, leap)
    if cal == "gregorian":
        return f"{name} {d}, {y}"
    if cal == "chinese":
        return f"day {d} of {name}, {y}"
    return f"{d} {name} {y}"


def text_of(cal: str, f: Fields) -> str:
    """:func:`render` for dates read from a record, which may not exist: a month
    the calendar does not have is written ``year-month-day``."""
    try:
        return render(cal, *f)
    except (IndexError, KeyError, ValueError, TypeError):
        return f"{f[0]}-{'L' if f[3] else ''}{f[1]}-{f[2]} ({cal})"


def day_text(day: int) -> str:
    """ISO date of a day number, or ``day number N`` outside the proleptic range."""
    try:
        return iso(day)
    except (ValueError, OverflowError):
        return f"day number {day}"


def question_text(q: SpanQuestion, candidate_text: str | None) -> str:
    """The question, naming every convention a reader could otherwise choose."""
    ref_text = render(q.source, *q.reference)
    head = f"Today\u2019s date on the {DISPLAY[q.source]} calendar is \u201c{ref_text}\u201d."
    was, what = ("Was", "What was") if q.sign == "ago" else ("Is", "What is")
    tgt = DISPLAY[q.target]
    note = ""
    if q.festival is not None:
        thing = (
            f"the {tgt} calendar date of the festival \u201c{q.festival.name}\u201d "
            f"{year_phrase(q.source, q.offset, q.sign)}"
        )
        if q.source in SUNDOWN_CALENDARS:
            note = f" {DAYTIME_NOTE}"
    else:
        thing = f"the {tgt} calendar date {unit_text(q.offset, q.unit)} {q.sign}"
    if q.fmt == "content":
        return f"{head} {what} {thing}?{note}"
    return f"{head} {was} {thing} equivalent to the date \u201c{candidate_text}\u201d?{note}"


# ----------------------------------------------------------------- readings


def applicable_axes(q: SpanQuestion) -> list[str]:
    """The axes along which a reader of ``q`` could choose, whatever the text says."""
    out = []
    if q.involved() & set(ISLAMIC):
        out.append(ISLAMIC_AXIS)
    if q.festival is not None and q.source != "gregorian":
        out.append(YEARS_AXIS)
    if q.festival is not None and q.source in SUNDOWN_CALENDARS:
        out.append(DAY_AXIS)
    if q.involved() & {"chinese", *ISLAMIC}:
        out.append(MONTHS_AXIS)
    return sorted(out)


def canonical_reading(q: SpanQuestion) -> Reading:
    """The generator's reading: the named Islamic variant, source-calendar years,
    daytime dates, primary month starts."""
    out = []
    for axis in applicable_axes(q):
        value = AXIS_VALUES[axis][0]
        if axis == ISLAMIC_AXIS and "islamic-umalqura" in q.involved():
            value = UMM_AL_QURA
        out.append((axis, value))
    return tuple(out)


def ruled_out_axes(q: SpanQuestion, text: str) -> set[str]:
    """Axes whose canonical value the question text states in so many words."""
    out: set[str] = set()
    for cal in q.involved() & set(ISLAMIC):
        if f"{DISPLAY[cal]} calendar" in text:
            out.add(ISLAMIC_AXIS)
    if q.festival is not None and year_phrase(q.source, q.offset, q.sign) in text:
        out.add(YEARS_AXIS)
    if q.festival is not None and DAYTIME_NOTE in text:
        out.add(DAY_AXIS)
    return out & set(applicable_axes(q))


def all_readings(q: SpanQuestion) -> list[Reading]:
    """Every combination of the applicable axes' values, canonical first. The
    alternative month starts are left out where the reading's calendars have
    no disputed month (tabular Islamic): that reading is its primary twin."""
    canon = canonical_reading(q)
    axes = [a for a, _ in canon]
    choices = [(v0, *[v for v in AXIS_VALUES[a] if v != v0]) for a, v0 in canon]
    out = []
    for combo in itertools.product(*choices):
        r = tuple(zip(axes, combo, strict=True))
        d = dict(r)
        if d.get(MONTHS_AXIS) == ALTERNATIVE and not any(
            disputes_of(_calendar_under(c, d)) for c in q.involved()
        ):
            continue
        out.append(r)
    return out


def admissible_readings(q: SpanQuestion, text: str) -> list[Reading]:
    """The readings the text does not rule out (canonical first)."""
    fixed = ruled_out_axes(q, text)
    canon = dict(canonical_reading(q))
    return [r for r in all_readings(q) if all(v == canon[a] for a, v in r if a in fixed)]


def named_readings(q: SpanQuestion, text: str) -> list[tuple[Reading, str]]:
    """:func:`admissible_readings`, each with its :func:`reading_name`."""
    canon = canonical_reading(q)
    return [(r, reading_name(r, canon)) for r in admissible_readings(q, text)]


def ruled_out_readings(q: SpanQuestion, text: str) -> list[Reading]:
    """Readings only the text excludes: one per ruled-out axis, with the other
    axes canonical (what a reader who skipped the words would compute)."""
    canon = canonical_reading(q)
    out = []
    for axis in sorted(ruled_out_axes(q, text)):
        alt = dict(canon)
        alt[axis] = next(v for v in AXIS_VALUES[axis] if v != alt[axis])
        out.append(tuple(sorted(alt.items())))
    return out


def _calendar_under(cal: str, r: dict[str, str]) -> str:
    if cal in ISLAMIC and ISLAMIC_AXIS in r:
        return "islamic-umalqura" if r[ISLAMIC_AXIS] == UMM_AL_QURA else "islamic"
    return cal


def festival_days(fest: Festival, cal: str, year: int, variant: str = PRIMARY) -> int | None:
    """Day number of ``fest`` in ``year`` of calendar ``cal`` (None if out of range)."""
    return view(cal, variant).day_of(year, fest.month_in(year), fest.day, False)


def _festival_in_gregorian_year(fest: Festival, cal: str, year: int, variant: str) -> list[int]:
    """Every occurrence of ``fest`` (rule read in ``cal``) within Gregorian ``year``."""
    v = view(cal, variant)
    try:
        lo, hi = _dt.date(year, 1, 1).toordinal(), _dt.date(year, 12, 31).toordinal()
    except (ValueError, OverflowError):
        return []
    years = {f[0] for f in (v.fields(lo), v.fields(hi)) if f is not None}
    out = []
    for y in range(min(years, default=0), max(years, default=-1) + 1):
        d = festival_days(fest, cal, y, variant)
        if d is not None and lo <= d <= hi:
            out.append(d)
    return sorted(out)


def answer_days(q: SpanQuestion, reading: Reading) -> list[int] | None:
    """The day numbers ``q`` asks for under ``reading`` (None: undefined)."""
    r = dict(reading)
    variant = r.get(MONTHS_AXIS, PRIMARY)
    src = _calendar_under(q.source, r)
    ref = view(src, variant).day_of(*q.reference)
    if ref is None:
        return None
    if q.festival is None:
        return [ref + q.step * q.offset * (7 if q.unit == "weeks" else 1)]
    if q.offset > 10_000:  # no calendar here spans that many years: no answer
        return []
    if r.get(YEARS_AXIS, SOURCE_YEARS) == GREGORIAN_YEARS:
        year = _dt.date.fromordinal(ref).year + q.step * q.offset
        days = _festival_in_gregorian_year(q.festival, src, year, variant)
    else:
        d = festival_days(q.festival, src, q.reference[0] + q.step * q.offset, variant)
        days = [] if d is None else [d]
    if r.get(DAY_AXIS) == EVE:
        days = [d - 1 for d in days]
    return days


def answers_under(q: SpanQuestion, reading: Reading) -> frozenset[Fields] | None:
    """The target-calendar dates ``q`` asks for under ``reading``, as written
    (None: the reading leaves the question without an answer)."""
    days = answer_days(q, reading)
    if days is None:
        return None
    r = dict(reading)
    tv = view(_calendar_under(q.target, r), r.get(MONTHS_AXIS, PRIMARY))
    out = [tv.fields(d) for d in days]
    if any(f is None for f in out):
        return None
    return frozenset(f for f in out if f is not None)


def label_under(q: SpanQuestion, reading: Reading) -> str | None:
    """The polar label under ``reading``: Yes iff the candidate is an answer."""
    ans = answers_under(q, reading)
    if ans is None or q.candidate is None:
        return None
    return "Yes" if q.candidate in ans else "No"


def describe(q: SpanQuestion, reading: Reading, dates: Iterable[Fields] | None) -> list[str]:
    """Dates of a reading's answer as text in the target calendar it reads."""
    if dates is None:
        return []
    cal = _calendar_under(q.target, dict(reading))
    return [text_of(cal, f) for f in sorted(dates)]


# ----------------------------------------------------------------- date objects


def fields_of(cal: str, day: int) -> Fields:
    """(year, month, day, leap) of a day number in ``cal`` (scalar, fast path)."""
    t = table(cal)
    i = day - t.first_day
    if not 0 <= i < t.size:
        raise TsolveError(
            f"date: {iso(day)} is outside the {cal} calendar's range {t.range_text()}"
        )
    return int(t.year[i]), int(t.month[i]), int(t.day[i]), bool(t.leap[i])


def date_json(cal: str, day: int) -> dict[str, Any]:
    """A date object of a record: ``{calendar, year, month, month_name, day,
    [leap], text, gregorian}``."""
    y, m, d, lp = fields_of(cal, day)
    out: dict[str, Any] = {
        "calendar": cal,
        "year": y,
        "month": m,
        "month_name": month_name(cal, y, m, lp),
        "day": d,
    }
    if cal == "chinese":
        out["leap"] = lp
    out["text"] = render(cal, y, m, d, lp)
    out["gregorian"] = iso(day)
    return out


def check_span_record(record: dict[str, Any]) -> None:
    """The fields the scorer reads, type- and range-checked (one error model,
    :mod:`tsolve.records.validation`): a polar item needs ``answer`` Yes/No, a content
    item a ``gold`` date of a known calendar. The one check of a stored SPAN
    record, here below both the scorer and the auditor, so that neither reads
    a gold month of ``1e400`` as a number."""
    rid = f"record {record.get('id')!r}"
    fmt = expect_choice(expect_field(record, "format", rid), f"{rid}: format", ("content", "polar"))
    if fmt == "polar":
        expect_choice(expect_field(record, "answer", rid), f"{rid}: answer", ("Yes", "No"))
        if record.get("gold") is None:
            # A polar item is scored on its label alone, but a field spelled
            # like "gold" is a misnamed one, not an absent one.
            refuse_misnamed(record, ("gold",), rid)
            return
    gold = expect_dict(expect_field(record, "gold", rid), f"{rid}: gold")
    expect_choice(gold.get("calendar"), f"{rid}: gold.calendar", CALENDARS)
    expect_int(gold.get("year"), f"{rid}: gold.year", -10_000, 20_000)
    expect_int(gold.get("month"), f"{rid}: gold.month", 1, 14)
    expect_int(gold.get("day"), f"{rid}: gold.day", 1, 31)
    if not isinstance(gold.get("leap") or False, bool):  # None: absent (an Arrow filler)
        raise bad(f"{rid}: gold.leap", "true or false", gold.get("leap"))
    optional(gold.get("gregorian"), expect_iso_date, f"{rid}: gold.gregorian")
