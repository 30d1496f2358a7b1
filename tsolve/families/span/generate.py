"""SPAN-style cross-calendar questions (the SPAN paper's templates, Table 1).

Each record has a Gregorian reference date ("today"), drawn from a window of
dates (by default the SPAN paper's 1960-2060, so that no one "today" can be
assumed) or the same for a whole one-date run, and asks to move from that
date (as written in a *source* calendar) by an offset and to give the result
in a *target* calendar, one of which is Gregorian:

* **date-based**: an offset in days or weeks from the reference date;
* **festival-based**: a festival of the source calendar in the source-calendar
  year N years before or after the current one;
* **content** questions ask for the date, **polar** questions ask whether a
  candidate date is it.

**Gold under every reading.** The text names what it means: the Islamic
variant (tabular or Umm al-Qura), that festival years count in the source
calendar, that a festival beginning at sundown means its daytime date. What
the text cannot name (a month start the calendar sources dispute) is checked:
an item is accepted only if every reading its text leaves open gives the same
gold (:mod:`tsolve.families.span.encoding`), and the record lists those
readings. See ``docs/span.md``.

**Hard negatives.** SPAN's polar questions were all "Yes". Here labels are
balanced, and a "No" candidate is a near miss that needs the real calendar to
reject (a day or two off, the other Islamic variant's date, the other leap
month, the date under the year counting the text rules out, the neighbouring
month or year), provably not the answer under every admissible reading,
and drawn where a gold lies for a rough (table-free) conversion: the gold of
the same question asked 19k years away, moved back by the cycle
(:func:`_matched`).
Where no wrong date can (Shaka, tabular Islamic: :data:`ROUGH_EXACT`; Persian
and Umm al-Qura, placed within a day once the month is known:
:data:`ROUGH_PLACED`), a balanced run asks no yes/no question.

Record ``i`` is a pure function of ``(seed, i)`` and the config
(``docs/formats.md``, "Content, seeds and ids"):

* **Cells in seeded blocks.** Records come in blocks that hold every cell
  (direction x type x format), in an order shuffled by ``(seed, block)``
  (:func:`_cell`): ``2 x D`` content cells once and ``2 x P`` yes/no cells
  twice, D the run's directions (12, or 10 outside the Umm al-Qura range)
  and P those of them a yes/no item may ask (:func:`polar_directions`: 4 of
  12 in a balanced run, Chinese and Hebrew both ways). No position in a
  file says which cell a record is.
* **Balanced labels in every cell over ten blocks.** Each yes/no cell's 20
  records in every :data:`LABEL_BLOCKS` blocks (400 records by default)
  hold as many "Yes" as "No", at positions drawn at random among them
  (:func:`_label`): any whole ten blocks are balanced cell by cell, and no
  record's label says another's.
* **Questions from a window.** Each record draws its question uniformly from
  those its cell can ask from its own reference date (:func:`drawn_question`);
  records share a question only by sharing a date and a draw.
* **Window runs say when festival-years run out.** A window gives each
  direction its festivals x the years the window and ``max_years`` reach
  (Shaka: one festival, about 121 years by default); a run asking more than
  :data:`FESTIVAL_SHARE` of them would fail its last records' redraws, so
  :func:`domain_warnings` says so first.
* **One-date runs: no repeats, and seeds do not share questions.** The
  questions a cell (direction, type, format) can ask from the date are enumerated
  once (every offset, unit, sign and festival whose gold is the same under
  every reading) and put in an order drawn from the config alone. The k-th
  record of that cell in run ``seed`` asks question ``(seed * band + k) mod
  N``: a run never repeats a question while it has at most N records of a
  cell, and runs of distinct seeds never share one while each has at most
  10 blocks (:func:`seed_band`: 10 questions of a content cell, 20 of a
  yes/no cell, which a block holds twice) and ``(seed + 1) x band <= N``.
  Some cells are small (Shaka has one festival: 20 questions with
  ``max_years`` 10), so :func:`domain_warnings` says, in one line, when a
  run goes beyond that.
* The "No" candidate (a near miss) comes from the NumPy generator of
  :func:`tsolve.generators.seeding.record_np_rng` (the key every family uses).
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import cache, lru_cache, partial
from typing import Any

import numpy as np

from tsolve.calendars.domain import parse_iso
from tsolve.calendars.festivals import Festival, festivals_of
from tsolve.calendars.tables import table
from tsolve.calendars.variants import Fields, disputed_days, is_disputed, view
from tsolve.errors import TsolveError
from tsolve.families.span.encoding import (
    DAY_AXIS,
    DISPLAY,
    GREGORIAN_YEARS,
    ISLAMIC_AXIS,
    TABULAR,
    UMM_AL_QURA,
    YEARS_AXIS,
    SpanQuestion,
    admissible_readings,
    answers_under,
    applicable_axes,
    canonical_reading,
    date_json,
    festival_days,
    fields_of,
    question_text,
    reading_name,
    render,
    ruled_out_readings,
)
from tsolve.families.span.polar_baseline import approx_day, approx_days, rough_answer
from tsolve.generators.options import parse_date_range
from tsolve.generators.seeding import (
    current_redraw,
    generator_stamp,
    options_fingerprint,
    record_np_rng,
    record_rng,
    run_records,
)

GENERATOR_NAME = "span"
# 2: Islamic variant named (Umm al-Qura added as a direction), festival year
# counting and daytime dates stated, readings checked, hard negatives, "1 day".
# 3: randomness from tsolve.generators.seeding (the key every family uses), not [seed, i].
# 4: formats, directions and labels interleaved record by record (balanced in
# every window); each cell's questions enumerated and handed out by seed band
# (no repeats within a run or across seeds); ids carry the options' fingerprint.
# 5: each record's reference date drawn from a window (default the SPAN paper's
# 1960-2060), its question drawn from that date; --date keeps one-date runs.
# 6: near misses drawn as far from a rough (table-free) conversion as a gold
# is; cells and labels balanced in blocks of 4 x D records in a seeded order;
# no answer-determining value in the id or beside the prompt (the candidate's
# kind and Gregorian date, the festival's year are gold fields: gold_detail).
# 7: the random keys carry the options' salt and a redraw attempt (generators/seeding.py).
# 8: no yes/no items between Gregorian and a calendar a formula converts to the
# day (Shaka, tabular Islamic): no wrong date hides there from a rough
# conversion; a near miss and a gold matched with the roles of question and
# twin swapped, to 0.02 days, not 0.2, where the distances are a few exact
# values (Persian, Chinese).
# 9: no yes/no items to or from Persian or Umm al-Qura either (a rough
# conversion corrected by the month places their dates within a day); each
# yes/no cell twice a block, once "Yes" and once "No" (every direction and
# type balanced, not only the block).
# 10: a yes/no cell's labels balanced over ten blocks, not in each block: a
# cell's two records in a block were always opposite, so one told the other
# (0.75 for a reader of whole blocks), and two yes/no records of one block
# were opposite 8 times in 15 (a lag rule 0.545).
GENERATOR_VERSION = "10"
FAMILY = "span"

OTHERS = ("chinese", "hebrew", "islamic", "islamic-umalqura", "persian", "shaka")
DIRECTIONS: tuple[tuple[str, str], ...] = tuple(
    [("gregorian", c) for c in OTHERS] + [(c, "gregorian") for c in OTHERS]
)
# Blocks' worth of questions per cell that each seed owns before its band
# meets the next seed's (:func:`seed_band`): runs of up to 10 blocks (400
# records by default) of distinct seeds share no question where the cell's
# domain holds their bands.
SEED_BAND = 10

ANSWER_INSTRUCTION = {
    "content": (
        'End your response on a new line with "MY ANSWER: " followed by the date in the '
        "{cal} calendar, with the month name (for example \u201c{example}\u201d)."
    ),
    "polar": 'End your response on a new line with "MY ANSWER: Yes" or "MY ANSWER: No".',
}
# Format examples only: fixed dates unrelated to any question, so the prompt
# never gives away the reference date's conversion.
FORMAT_EXAMPLE = {
    "gregorian": "March 5, 1950",
    "chinese": "day 5 of Month 3, 1950 (a leap month is written \u2018Leap Month 3\u2019)",
    "hebrew": "5 Tevet 5710",
    "islamic": "5 Rabi al-Awwal 1369",
    "islamic-umalqura": "5 Rabi al-Awwal 1369",
    "persian": "5 Dey 1328",
    "shaka": "5 Pausha 1871",
}

# Near-miss kinds, in the order (weighted, drawn per record) that names a
# candidate several kinds would give. Which candidate is drawn is decided by
# the rough conversion (:func:`near_miss`), not by the kind.
NEAR_MISS_WEIGHTS = {
    "day": 6.0,
    "week": 3.0,
    "islamic-variant": 6.0,
    "year-counting": 0.75,
    "leap-month": 4.0,  # rarely available (a leap month near the answer)
    "month": 0.5,
    "year": 0.5,
    "festival-year": 0.25,
}


#: How many days either side of the gold a near miss may lie. A rough
#: conversion errs by less than this in every direction (the Chinese leap
#: month is the widest), so the candidate whose rough distance matches a gold
#: one is always among them.
MATCH_SPAN = 60

DEFAULT_DATE_RANGE = "1960-01-01..2060-12-31"
"""The reference dates a run draws from unless told otherwise: the SPAN
paper's evaluation range (July 1 of every fifth year from 1960 to 2060), as a
window of every day of those years."""


FORMATS = ("polar", "content")

ROUGH_EXACT = ("islamic", "shaka")
"""Calendars a table-free formula converts exactly to the day: the Shaka
calendar is a fixed relabelling of the Gregorian one (fixed month lengths,
the Gregorian leap rule), the tabular Islamic calendar a 30-year arithmetic
cycle whose mean-length estimate is never a day off. A wrong date in them
can never lie where a gold lies in a rough conversion: the candidate's rough
distance, read with the month it falls in, gives the label. So a balanced run
asks no yes/no question between Gregorian and these calendars (content
questions keep every direction); ``balanced=False``, SPAN's all-"Yes" mode,
has no near misses and keeps them."""

ROUGH_PLACED = ("islamic-umalqura", "persian")
"""Calendars a rough conversion places within a day once it is corrected by
the month (an offset per month learnt from other records): Persian months
have fixed lengths and only Nowruz's day needs a table; Umm al-Qura months
are within a day or two of the tabular ones. On 1960-2060, the rough error
of a date from 2010-2060, predicted from its month by the commonest error
of 1960-2009, is within one day for 100 % of Persian and 99.8 % of Umm
al-Qura dates, against 11 % of Hebrew and 12 % of Chinese ones
(``docs/span.md``). A near miss is at least a day off, so it cannot lie
where a gold lies in such a conversion, whatever it is matched to."""

NO_YES_NO = (*ROUGH_EXACT, *ROUGH_PLACED)
"""Calendars a balanced run asks no yes/no question to or from
(:data:`ROUGH_EXACT`, :data:`ROUGH_PLACED`); content questions keep every
direction."""

POLAR_COPIES = 2
"""Records of each yes/no cell in a block of a balanced run (their labels:
:func:`_label`)."""

TYPES = ("date", "festival")


@dataclass(frozen=True)
class SpanConfig:
    """Generator options. The SPAN paper's offset ranges did not survive in the
    seed text, so these defaults are tsolve's: up to 100 days, 20 weeks, 10 years.

    The reference date ("today") of each record is drawn from the window
    ``date_range`` (default :data:`DEFAULT_DATE_RANGE`); ``date`` fixes one
    reference date for the whole run, the paper's one-date runs. Give at most
    one of the two. Built, a config is canonical: a one-day window is held as
    ``date``, every other window as ``date_range`` text, so the two spellings of
    one run make the same records."""

    date: str | None = None
    max_days: int = 100
    max_weeks: int = 20
    max_years: int = 10
    balanced: bool = True  # False: every polar gold label is "Yes", as in SPAN
    date_range: str | None = None
    format: str | None = None  # polar | content: only that format (default both)
    type: str | None = None  # date | festival: only that type (default both)

    def __post_init__(self) -> None:
        if self.date is not None and self.date_range is not None:
            raise TsolveError(
                f"date-range: give --date {self.date} (one reference date) or --date-range "
                f"{self.date_range} (a window), not both"
            )
        if self.date is not None:
            object.__setattr__(self, "date", parse_iso(self.date, "date").isoformat())
        else:
            given = DEFAULT_DATE_RANGE if self.date_range is None else self.date_range
            text = parse_date_range(given, "date-range")
            lo, _, hi = text.partition("..")
            if lo == hi:
                object.__setattr__(self, "date", lo)
                object.__setattr__(self, "date_range", None)
            else:
                object.__setattr__(self, "date_range", text)
        for name, values in (("format", FORMATS), ("type", TYPES)):
            v = getattr(self, name)
            if v is not None and v not in values:
                raise TsolveError(f"{name}: expected {' or '.join(values)}, got {v!r}")
        for name in ("max_days", "max_weeks", "max_years"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise TsolveError(f"{name.replace('_', '-')}: expected an integer >= 1, got {v!r}")

    def to_json(self) -> dict[str, Any]:
        """The config as written into each record's ``generator.params``. Every
        family's config has this shape: a frozen dataclass, validated when
        built, with ``to_json``."""
        return dict(_params(self))

    def formats(self) -> tuple[str, ...]:
        """The formats of the run's records (both unless one is asked for)."""
        return FORMATS if self.format is None else (self.format,)

    def types(self) -> tuple[str, ...]:
        """The question types of the run's records (both unless one is asked for)."""
        return TYPES if self.type is None else (self.type,)

    def window_text(self) -> str:
        """The reference dates of the run, as text: ``2024-07-01`` or
        ``1960-01-01..2060-12-31``."""
        return self.date if self.date is not None else str(self.date_range)


@cache
def _params(cfg: SpanConfig) -> dict[str, Any]:
    out = asdict(cfg)
    for name in ("format", "type"):  # left out unset, so earlier runs keep their fingerprint
        if out[name] is None:
            del out[name]
    return out


# ----------------------------------------------------------------- plan and bounds


#: The first day a SPAN question may touch: the calendars' first day when this
#: generator's version-5 records were made. The tables now reach back to 1800
#: (docs/calendars.md), but a wider range would move which offsets near 1900
#: flip sign (``ago`` <-> ``later``) and change those records.
SPAN_FIRST_DAY = _dt.date(1900, 1, 31).toordinal()


@cache
def span_range(cal: str) -> tuple[int, int]:
    """The days of ``cal`` a SPAN question may touch: its table's range from
    :data:`SPAN_FIRST_DAY` on."""
    t = table(cal)
    return max(t.first_day, SPAN_FIRST_DAY), t.last_day


def _in(cal: str, day: int) -> bool:
    lo, hi = span_range(cal)
    return lo <= day <= hi


def directions_for(ref: int) -> tuple[tuple[str, str], ...]:
    """The directions a reference day supports: all 12, less Umm al-Qura's two
    outside its range (1924-08-01..2077-11-16)."""
    return tuple((s, t) for s, t in DIRECTIONS if _in(s, ref) and _in(t, ref))


def _festival_ok(fest: Festival, src: str, tgt: str, year: int) -> bool:
    d = festival_days(fest, src, year)
    return d is not None and _in(tgt, d)


def _largest(ok: Callable[[int], bool], top: int) -> int:
    """The largest n in 0..top with ok(n) (ok is monotone: true, then false)."""
    lo, hi = 0, top
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


@cache
def window_days(cfg: SpanConfig) -> tuple[int, int]:
    """First and last day number of the run's reference dates (equal for a
    one-date run)."""
    if cfg.date is not None:
        day = parse_iso(cfg.date, "date").toordinal()
        return day, day
    lo, _, hi = str(cfg.date_range).partition("..")
    return parse_iso(lo, "date-range").toordinal(), parse_iso(hi, "date-range").toordinal()


def _option_text(cfg: SpanConfig) -> str:
    """How the command line names the run's reference dates, for errors."""
    return f"--date {cfg.date}" if cfg.date is not None else f"--date-range {cfg.date_range}"


DISPUTED_CALENDARS = ("chinese", "islamic-umalqura")
"""Calendars with month starts the sources dispute (:mod:`tsolve.calendars.variants`)."""


@cache
def _allowed_days(cfg: SpanConfig) -> tuple[tuple[int, int], ...]:
    """The window as closed intervals of day numbers, less the days in a month
    whose start the calendar sources dispute: every Chinese (or Umm al-Qura)
    question asked from such a day would be ambiguous, so no run asks from one."""
    lo, hi = window_days(cfg)
    cuts = sorted((a, b) for c in DISPUTED_CALENDARS for a, b in disputed_days(c)
                  if b >= lo and a <= hi)  # fmt: skip
    out: list[tuple[int, int]] = []
    start = lo
    for a, b in cuts:
        if a > start:
            out.append((start, min(a - 1, hi)))
        start = max(start, b + 1)
    if start <= hi:
        out.append((start, hi))
    return tuple(out)


REFERENCE_STREAM = "span-reference-date"
"""The name whose :func:`tsolve.generators.seeding.record_rng` draws a record's
reference date: a stream of its own, so the date never depends on how many
draws the question took."""


def reference_day(cfg: SpanConfig, seed: int, index: int) -> int:
    """Day number of record ``index``'s reference date ("today") in run
    ``seed``: uniform over the window's days (:func:`_allowed_days`), a pure
    function of ``(seed, index)`` and the config; the one date of a one-date run."""
    lo, hi = window_days(cfg)
    if lo == hi:
        return lo
    rng = record_rng(REFERENCE_STREAM, GENERATOR_VERSION, seed, index, _fingerprint(cfg))
    return _allowed_day(cfg, rng.randrange(_allowed_count(cfg)))


@cache
def _allowed_count(cfg: SpanConfig) -> int:
    return sum(b - a + 1 for a, b in _allowed_days(cfg))


def _allowed_day(cfg: SpanConfig, k: int) -> int:
    """The ``k``-th day (from 0) of the window's :func:`_allowed_days`."""
    for a, b in _allowed_days(cfg):
        if k <= b - a:
            return a + k
        k -= b - a + 1
    raise AssertionError("unreachable: k is below the window's length")  # pragma: no cover


@cache
def plan(cfg: SpanConfig) -> tuple[tuple[str, str], ...]:
    """The directions of a run, after checking that its reference dates are in
    the calendars' range and that every offset the config allows stays in
    range for one of the two signs from every one of them (one-line error
    otherwise, before any record is written).

    A window's directions are those whose two calendars cover all of it (the
    Umm al-Qura pair only inside 1924-08-01..2077-11-16)."""
    lo, hi = window_days(cfg)
    option = "date" if lo == hi else "date-range"
    for end in (lo, hi):
        if not _in("gregorian", end):
            a, b = (_dt.date.fromordinal(d).isoformat() for d in span_range("gregorian"))
            raise TsolveError(f"{option}: {_dt.date.fromordinal(end)} is outside the calendars' "
                              f"range {a}..{b}")  # fmt: skip
    dirs = tuple(d for d in directions_for(lo) if d in directions_for(hi))
    if not _allowed_days(cfg):
        cal = next(c for c in DISPUTED_CALENDARS
                   if any(a <= lo and hi <= b for a, b in disputed_days(c)))  # fmt: skip
        if lo == hi:
            raise TsolveError(
                f"date: {cfg.date} falls in a {cal} month whose first day the calendar "
                "sources dispute (docs/calendars.md); choose another reference date"
            )
        raise TsolveError(
            f"date-range: every day of {cfg.date_range} falls in a {cal} month whose first "
            "day the calendar sources dispute (docs/calendars.md); widen the window"
        )
    # Where no sign fits, the offending reference dates form one stretch around
    # the middle of the two calendars' common range, so the window's ends and
    # its day nearest each such middle are the ones to check.
    refs = {lo, hi}
    for src, tgt in dirs:
        first = max(span_range(src)[0], span_range(tgt)[0])
        last = min(span_range(src)[1], span_range(tgt)[1])
        refs.add(min(max((first + last) // 2, lo), hi))
    for ref in sorted(refs):
        _check_offsets(cfg, ref, dirs)
    return dirs


def _check_offsets(cfg: SpanConfig, ref: int, dirs: tuple[tuple[str, str], ...]) -> None:
    """One-line error if some offset the config allows leaves the calendars'
    range both ways from reference day ``ref``, naming the largest that fits."""
    # Each check is monotone in the offset, so the largest workable value is
    # found by bisection; the error names the tightest one over all directions.
    worst: dict[str, tuple[int, str]] = {}

    def note(option: str, top: int, fits: Callable[[int], bool], what: str) -> None:
        if not fits(top):
            best = _largest(fits, top)
            if best < worst.get(option, (top + 1, ""))[0]:
                worst[option] = (best, what)

    for src, tgt in dirs:
        lo = max(span_range(src)[0], span_range(tgt)[0])
        hi = min(span_range(src)[1], span_range(tgt)[1])
        for name, top, step in (("max-days", cfg.max_days, 1), ("max-weeks", cfg.max_weeks, 7)):

            def fits(n: int, step: int = step, lo: int = lo, hi: int = hi) -> bool:
                return ref - n * step >= lo or ref + n * step <= hi

            note(name, top, fits, f"the {src}->{tgt} answer falls outside the calendars' range")
        year = fields_of(src, ref)[0]
        for fest in festivals_of(src):

            def fits_y(n: int, fest: Festival = fest, src: str = src, tgt: str = tgt,
                       year: int = year) -> bool:  # fmt: skip
                return n == 0 or any(_festival_ok(fest, src, tgt, year + s * n) for s in (-1, 1))

            note("max-years", cfg.max_years, fits_y,
                 f"{fest.name} ({src}->{tgt}) falls outside the calendars' range")  # fmt: skip
    where = _option_text(cfg)
    if cfg.date is None:
        where += f" (from {_dt.date.fromordinal(ref)})"
    for option in ("max-days", "max-weeks", "max-years"):
        if option in worst:
            best, what = worst[option]
            value = getattr(cfg, option.replace("-", "_"))
            raise TsolveError(f"{option}: {value} is too large for {where}: {what} "
                              f"both ways; at most {best} here")  # fmt: skip


# ----------------------------------------------------------------- near misses


def _shift_month(cal: str, day: int, step: int) -> int | None:
    """Same day-of-month in the neighbouring month (``step`` = +-1), if it exists."""
    idx = table(cal).months
    _, _, d, _ = fields_of(cal, day)
    pos = int(np.searchsorted(idx.start, day, side="right")) - 1 + step
    if not 0 <= pos < idx.start.size or d > int(idx.length[pos]):
        return None
    out = int(idx.start[pos]) + d - 1
    return out if _in(cal, out) else None


def _mid_year(cal: str, gregorian_year: int) -> int | None:
    """The ``cal`` year that holds 1 July of ``gregorian_year`` (the year a reader
    who maps year numbers by a fixed offset would name)."""
    try:
        f = view(cal).fields(_dt.date(gregorian_year, 7, 1).toordinal())
    except ValueError:
        return None
    return None if f is None else f[0]


def _straddle_year(q: SpanQuestion, gold: int, sign: int) -> int | None:
    """Same month and day in the year a reader gets wrong where the other
    calendar's year straddles the Gregorian one; else the neighbouring year."""
    tgt = q.target
    y, m, d, lp = fields_of(tgt, gold)
    greg = _dt.date.fromordinal(gold).year
    if tgt != "gregorian":
        naive = _mid_year(tgt, greg)
        wrong = naive if naive is not None and naive != y else y + sign
    else:
        src_year = fields_of(q.source, gold)[0]
        naive_g = [g for g in (greg - 1, greg + 1) if _mid_year(q.source, g) == src_year]
        wrong = naive_g[0] if naive_g and _mid_year(q.source, greg) != src_year else y + sign
    return view(tgt).day_of(wrong, m, d, lp)


def _other_reading_day(q: SpanQuestion, axis: str, value: str) -> int | None:
    """The gold date under one other reading of ``axis``, written in the
    canonical target calendar (a near miss only the text rules out)."""
    r = dict(canonical_reading(q))
    if axis not in r:
        return None
    r[axis] = value
    ans = answers_under(q, tuple(sorted(r.items())))
    if not ans or len(ans) != 1:
        return None
    (f,) = ans
    return view(q.target).day_of(*f)


def _leap_flip(tgt: str, gold: int) -> int | None:
    """The other reading of a leap month: Chinese leap <-> regular month of the
    same number, Hebrew Adar I <-> Adar II, same day."""
    y, m, d, lp = fields_of(tgt, gold)
    if tgt == "chinese":
        return view(tgt).day_of(y, m, d, not lp)
    if tgt == "hebrew" and m in (12, 13):
        return view(tgt).day_of(y, 25 - m, d)
    return None


def rough_estimate(q: SpanQuestion) -> float:
    """Where a table-free conversion (:mod:`tsolve.families.span.polar_baseline`)
    places the answer to ``q``."""
    key = q.festival.key if q.festival is not None else None
    return rough_answer(q.source, q.reference, q.offset, q.unit, q.sign, key)


def rough_gap(q: SpanQuestion, day: int, estimate: float | None = None) -> float:
    """How far day ``day`` (written in the target calendar) lies from where a
    table-free conversion places the answer to ``q`` (``estimate``, computed
    when not given): what a reader without the calendar's tables can measure
    about a candidate."""
    est = rough_estimate(q) if estimate is None else estimate
    return approx_day(q.target, *fields_of(q.target, day)) - est


_SPAN_OFFSETS = np.array([k for k in range(-MATCH_SPAN, MATCH_SPAN + 1) if k], dtype=np.int64)


def rough_gaps(q: SpanQuestion, days: np.ndarray) -> np.ndarray:
    """:func:`rough_gap` of many target-calendar days at once (the same floats)."""
    t = table(q.target)
    i = days - t.first_day
    at = approx_days(q.target, t.year[i], t.month[i], t.day[i], t.leap[i])
    return at - rough_estimate(q)


CYCLE_YEARS = 19
"""Years between a reference date and its twin's (:func:`twin_reference`):
the Metonic cycle, after which Hebrew and Chinese dates fall on nearly the
same Gregorian day (235 lunations are 6,939.69 days, 19 Gregorian years
6,939 or 6,940), so a question asked from either has nearly the same rough
error."""


def twin_reference(
    cfg: SpanConfig, rng: np.random.Generator, src: str, ref: int
) -> tuple[int, int | None]:
    """A reference day for a polar item's :func:`twin`: the same date of the
    source calendar ``k x`` :data:`CYCLE_YEARS` years away (k drawn among
    those that keep it in the window's :func:`_allowed_days`; a one-date run's
    twins come from the default window), else, where none does, a day drawn
    as a record's is.

    The twin's gold is what a gold looks like to a rough conversion of this
    question: a rough error depends on where the date falls in the leap
    cycle, which a reader who knows the calendar's shape (and a learned
    probe, from the year mod 19) can tell, so a twin from any year would
    show a near miss at an error no gold of this question has. Version 8 drew
    it from any year, and the calendar probe scored 0.65 on Hebrew->Gregorian
    festival items."""
    wide = cfg if cfg.date is None else SpanConfig()
    first = 1 if rng.integers(2) else -1
    for k in rng.permutation(np.arange(1, 7)):
        for sign in (first, -first):
            years = sign * int(k) * CYCLE_YEARS
            day = cycle_shift(src, ref, years)
            if day is not None and _allowed(wide, day):
                return day, years
    return _allowed_day(wide, int(rng.integers(_allowed_count(wide)))), None


#: Days in 235 mean lunations (19 lunisolar years): how far a Gregorian day
#: is moved for a twin 19 years away (:func:`cycle_shift`).
CYCLE_DAYS = 235 * 29.530589


def cycle_shift(cal: str, day: int, years: int) -> int | None:
    """``day`` moved by ``years`` (a multiple of :data:`CYCLE_YEARS`) years of
    the lunar cycle, if in the calendars' range: a Chinese or Hebrew date to
    the same month, day and leap flag that many years on; a Gregorian day by
    as many mean lunations in days (235 per 19 years), not to the same
    Gregorian date, which would add the Gregorian leap days' phase (a day,
    told by the year mod 4) to what separates a near miss from the gold."""
    if cal == "gregorian":
        out: int | None = day + round(years / CYCLE_YEARS * CYCLE_DAYS)
    else:
        y, m, d, lp = fields_of(cal, day)
        out = view(cal).day_of(y + years, m, d, lp)
    return out if out is not None and _in(cal, out) else None


def _allowed(cfg: SpanConfig, day: int) -> bool:
    """Whether ``day`` is one of the window's :func:`_allowed_days`."""
    return any(a <= day <= b for a, b in _allowed_days(cfg))


def twin(q: SpanQuestion, ref: int) -> tuple[SpanQuestion, int] | None:
    """``q`` asked from reference day ``ref`` instead (the same cell, offset,
    unit, sign and festival), with its gold; None where that leaves the
    calendars' range."""
    if not _in(q.source, ref):
        return None
    ref_f = fields_of(q.source, ref)
    if q.festival is None:
        day: int | None = ref + q.step * q.offset * (7 if q.unit == "weeks" else 1)
    else:
        day = festival_days(q.festival, q.source, ref_f[0] + q.step * q.offset)
    if day is None or not _in(q.target, day):
        return None
    return SpanQuestion(**{**q.__dict__, "reference": ref_f}), day


def near_miss(
    rng: np.random.Generator,
    q: SpanQuestion,
    gold: int,
    accept: Callable[[int], bool],
    target: float | None = None,
) -> tuple[int, str]:
    """A valid target-calendar day that ``accept`` allows (it is not the answer
    under any admissible reading), and the kind of near miss it is.

    With ``target`` (a gold's rough distance, :func:`_matched`), the candidate
    is the day within :data:`MATCH_SPAN` days of the gold whose rough distance
    (:func:`rough_gap`) is nearest ``target``: a "No" candidate then lies as
    far from a rough conversion as a "Yes" one does, so only the exact
    conversion tells them apart. It is named by the first kind (in a weighted
    order drawn per record) that gives the same day: a day or two off, a week,
    the other Islamic variant, the other leap month, the other year counting,
    the neighbouring month or year, the festival's neighbouring year; else
    ``shifted`` (days off that no rule names)."""
    named = _named_kinds(rng, q, gold)
    if target is None:
        for cand, kind in named.items():
            if accept(cand):
                return cand, kind
    else:
        found = closest_day(rng, q, gold, accept, target)
        if found is not None:
            return found, _kind_of(named, found, gold)
    for cand in (gold + 2, gold - 2, gold + 1, gold + 3, gold - 3):  # pragma: no cover
        if _in(q.target, cand) and accept(cand):
            return cand, "day"
    raise TsolveError("date: no near miss for this question")  # pragma: no cover


def _kind_of(named: dict[int, str], cand: int, gold: int) -> str:
    """The kind of near miss ``cand`` is: the first kind that names it, else
    ``day`` (two days off at most) or ``shifted``."""
    return named.get(cand, "day" if abs(cand - gold) <= 2 else "shifted")


def closest_day(
    rng: np.random.Generator,
    q: SpanQuestion,
    gold: int,
    accept: Callable[[int], bool],
    target: float,
) -> int | None:
    """The day within :data:`MATCH_SPAN` days of the gold, allowed by
    ``accept``, whose rough distance is nearest ``target`` (ties broken at
    random); None if no day there is allowed."""
    lo, hi = span_range(q.target)
    ks = _SPAN_OFFSETS[(gold + _SPAN_OFFSETS >= lo) & (gold + _SPAN_OFFSETS <= hi)]
    days = gold + ks
    ties = rng.random(days.size)
    gaps = np.abs(rough_gaps(q, days) - target)
    for i in np.lexsort((ties, gaps)):
        if accept(int(days[i])):
            return int(days[i])
    return None


def _named_kinds(rng: np.random.Generator, q: SpanQuestion, gold: int) -> dict[int, str]:
    """The near misses each kind gives for ``q`` (in a weighted order drawn
    per record), each day with the first kind that names it."""
    sign = 1 if rng.integers(2) else -1
    eve_banned = DAY_AXIS in applicable_axes(q)

    def day_off() -> int | None:
        offs = [o for o in (-2, -1, 1, 2) if not (eve_banned and o == -1)]
        return gold + offs[int(rng.integers(len(offs)))]

    other_variant = UMM_AL_QURA if "islamic" in q.involved() else TABULAR
    makers: dict[str, Callable[[], int | None]] = {
        "day": day_off,
        "week": lambda: gold + 7 * sign if q.unit == "weeks" else None,
        "islamic-variant": lambda: _other_reading_day(q, ISLAMIC_AXIS, other_variant),
        "year-counting": lambda: _other_reading_day(q, YEARS_AXIS, GREGORIAN_YEARS),
        "leap-month": lambda: _leap_flip(q.target, gold),
        "month": lambda: _shift_month(q.target, gold, sign) or _shift_month(q.target, gold, -sign),
        "year": lambda: _straddle_year(q, gold, sign),
        "festival-year": lambda: (
            festival_days(q.festival, q.source, q.reference[0] + q.step * (q.offset + sign))
            if q.festival is not None else None
        ),
    }  # fmt: skip
    kinds = list(NEAR_MISS_WEIGHTS)
    w = np.array([NEAR_MISS_WEIGHTS[k] for k in kinds])
    keys = rng.random(len(kinds)) ** (1.0 / w)  # weighted order without replacement
    order = [kinds[i] for i in np.argsort(-keys, kind="stable")]
    named: dict[int, str] = {}
    for kind in order:
        cand = makers[kind]()
        if cand is not None and cand != gold and _in(q.target, cand):
            named.setdefault(cand, kind)
    return named


# ----------------------------------------------------------------- generation


@lru_cache(maxsize=64)
def _block_order(seed: int, block: int, size: int) -> tuple[int, ...]:
    """The cells of block ``block`` of run ``seed`` in their seeded order
    (each record of the block asks for it: kept for a few blocks)."""
    order = list(range(size))
    random.Random(f"span-block:{seed}:{block}:{size}").shuffle(order)
    return tuple(order)


Cell = tuple[str, str, str, str]
"""(source, target, type, format) of a record."""


def polar_directions(
    cfg: SpanConfig, dirs: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    """The directions of ``dirs`` a run asks yes/no questions in: all of them
    unless labels are balanced, else those without a :data:`NO_YES_NO`
    calendar (Chinese and Hebrew, both ways)."""
    if not cfg.balanced:
        return dirs
    return tuple(d for d in dirs if not set(d) & set(NO_YES_NO))


def copies(cfg: SpanConfig, fmt: str) -> int:
    """How many records of one cell a block holds: :data:`POLAR_COPIES` for a
    yes/no cell of a balanced run (one "Yes", one "No"), else one."""
    return POLAR_COPIES if fmt == "polar" and cfg.balanced else 1


@cache
def run_cells(cfg: SpanConfig, dirs: tuple[tuple[str, str], ...]) -> tuple[Cell, ...]:
    """Every cell of a run, direction by direction, then type, then format.
    Yes/no cells only in :func:`polar_directions`."""
    polar = polar_directions(cfg, dirs)
    return tuple((s, t, qt, f) for s, t in dirs for qt in cfg.types() for f in cfg.formats()
                 if f != "polar" or (s, t) in polar)  # fmt: skip


@cache
def run_slots(cfg: SpanConfig, dirs: tuple[tuple[str, str], ...]) -> tuple[tuple[Cell, int], ...]:
    """The records of one block, before its shuffle: each cell of
    :func:`run_cells` with its copy number (:func:`copies` of them)."""
    return tuple((c, j) for c in run_cells(cfg, dirs) for j in range(copies(cfg, c[3])))


def _cell(
    index: int, dirs: tuple[tuple[str, str], ...], seed: int = 0, cfg: SpanConfig | None = None
) -> tuple[str, str, str, str, int]:
    """(source, target, type, format, k) of record ``index`` of run ``seed``.
    Records come in blocks of :func:`run_slots` (40 by default: 24 content
    cells, 8 yes/no cells twice): each block holds every direction x type x
    format, in an order shuffled by ``(seed, block)``, so no position in the
    file says which cell a record is. ``k`` counts the earlier records of the
    same cell in the run: ``block x copies + copy``."""
    cfg = cfg or SpanConfig()
    slots = run_slots(cfg, dirs)
    block, pos = divmod(index, len(slots))
    (src, tgt, qtype, fmt), copy = slots[_block_order(seed, block, len(slots))[pos]]
    return src, tgt, qtype, fmt, block * copies(cfg, fmt) + copy


LABEL_BLOCKS = 10
"""Blocks over which each yes/no cell's labels are balanced: a cell's
``2 x LABEL_BLOCKS`` records there hold as many "Yes" as "No"."""


@lru_cache(maxsize=1024)
def _cell_labels(seed: int, group: int, cell: Cell) -> tuple[bool, ...]:
    """The labels of ``cell``'s ``2 x LABEL_BLOCKS`` yes/no records in label
    group ``group`` (blocks ``group x LABEL_BLOCKS`` on), in their order:
    half "Yes", which half drawn by ``(seed, group, cell)``."""
    size = POLAR_COPIES * LABEL_BLOCKS
    labels = [k < size // 2 for k in range(size)]
    src, tgt, qtype, _fmt = cell
    random.Random(f"span-labels:{seed}:{group}:{src}->{tgt}:{qtype}").shuffle(labels)
    return tuple(labels)


def _label(seed: int, k: int, cell: Cell) -> bool:
    """Polar gold label of the ``k``-th yes/no record of ``cell`` in run
    ``seed`` (balanced runs). Each cell holds as many "Yes" as "No" in every
    :data:`LABEL_BLOCKS` blocks, spread over them at random
    (:func:`_cell_labels`), not one of each per block: with one of each, a
    cell's earlier record in a block told its other one's label, and a block
    balanced as a whole made any two of its yes/no records opposite 8 times
    in 15, which a rule "the opposite of record i - lag" read. The block's
    order being shuffled, no position tells a label either."""
    group, pos = divmod(k, POLAR_COPIES * LABEL_BLOCKS)
    return _cell_labels(seed, group, cell)[pos]


def content_options(cfg: SpanConfig) -> dict[str, Any]:
    """The options that shape a record's content (all of them, for SPAN)."""
    return cfg.to_json()


def span_id(seed: int, cfg: SpanConfig, index: int) -> str:
    """``span-5-3-1a2b3c``: the seed, the index, then the options' fingerprint
    (:func:`tsolve.generators.seeding.options_fingerprint`). Nothing of the
    question: an id travels beside the prompt, and the reference date's
    Gregorian form is a step of the conversion asked."""
    return f"span-{seed}-{index}-{_fingerprint(cfg)}"


@cache
def _fingerprint(cfg: SpanConfig) -> str:
    return options_fingerprint(content_options(cfg))


Candidate = tuple[SpanQuestion, int, tuple[str, ...]]


def _slots(cfg: SpanConfig, src: str, qtype: str) -> int:
    """How many questions one cell can ask from one reference date, before
    range and readings are checked: every unit, offset and sign (date), or
    every festival, year offset and sign (festival)."""
    if qtype == "date":
        return 2 * (cfg.max_days + cfg.max_weeks)
    return 2 * cfg.max_years * len(festivals_of(src))


def _question_at(
    cfg: SpanConfig, src: str, tgt: str, qtype: str, fmt: str, ref: int, slot: int
) -> Candidate | None:
    """Question ``slot`` of a cell from reference day ``ref`` (slots run over
    days then weeks, or festivals, then offsets, then ago/later), with its
    gold and reading names; None where its answer leaves the calendars' range
    or differs between readings (:func:`_accepted`)."""
    found = _slot_question(cfg, src, tgt, qtype, fmt, ref, slot)
    if found is None:
        return None
    readings = _accepted(*found)
    return None if readings is None else (*found, tuple(readings))


def _slot_question(
    cfg: SpanConfig, src: str, tgt: str, qtype: str, fmt: str, ref: int, slot: int
) -> tuple[SpanQuestion, int] | None:
    """Question ``slot`` of a cell and its gold, before its readings are
    checked; None where its answer leaves the calendars' range."""
    ref_src = fields_of(src, ref)
    sign, sgn = (("ago", -1), ("later", 1))[slot % 2]
    m = slot // 2
    if qtype == "date":
        unit, n, step = ("days", m + 1, 1) if m < cfg.max_days else (
            "weeks", m - cfg.max_days + 1, 7)  # fmt: skip
        gold = ref + sgn * n * step
        if not (_in(src, gold) and _in(tgt, gold)):
            return None
        q = SpanQuestion(src, tgt, ref_src, n, unit, sign, None, fmt, None)
    else:
        fest = festivals_of(src)[m // cfg.max_years]
        n = m % cfg.max_years + 1
        year = ref_src[0] + sgn * n
        day = festival_days(fest, src, year)
        if day is None or not _in(tgt, day):  # what _festival_ok checks
            return None
        gold = day
        q = SpanQuestion(src, tgt, ref_src, n, "years", sign, fest, fmt, None)
    return q, gold


@cache
def cell_questions(
    cfg: SpanConfig, src: str, tgt: str, qtype: str, fmt: str
) -> tuple[Candidate, ...]:
    """Every question of one cell of a one-date run, with its gold day and
    reading names, in an order drawn from the config and the cell alone
    (never the seed): date questions for every offset, unit and sign that
    stays in range, festival questions for every festival, year offset and
    sign, each kept only if every admissible reading gives the same gold
    (:func:`_accepted`)."""
    ref = window_days(cfg)[0]
    found = (
        _question_at(cfg, src, tgt, qtype, fmt, ref, k) for k in range(_slots(cfg, src, qtype))
    )
    out = [c for c in found if c is not None]
    fp = _fingerprint(cfg)
    random.Random(f"span-cell:{fp}:{src}:{tgt}:{qtype}:{fmt}").shuffle(out)
    return tuple(out)


#: Random draws of a question before the slots are scanned in order.
QUESTION_DRAWS = 32


def drawn_question(
    cfg: SpanConfig, rng: np.random.Generator, ref: int, src: str, tgt: str, qtype: str, fmt: str
) -> Candidate:
    """A question of one cell from reference day ``ref``, uniform over the
    accepted ones (a uniform slot, redrawn while it is not accepted): how a
    run over a window picks each record's question, where enumerating every
    cell from every reference date would cost far more than the record."""
    size = _slots(cfg, src, qtype)
    slot = 0
    for _ in range(QUESTION_DRAWS):
        slot = int(rng.integers(size))
        found = _question_at(cfg, src, tgt, qtype, fmt, ref, slot)
        if found is not None:
            return found
    for k in range(1, size):  # rare: scan the rest in order, so any accepted one is found
        found = _question_at(cfg, src, tgt, qtype, fmt, ref, (slot + k) % size)
        if found is not None:
            return found
    raise TsolveError(
        f"date-range: no {src}->{tgt} {qtype} question from {_dt.date.fromordinal(ref)} has "
        "the same gold under every reading (disputed month starts); choose another window"
    )


def question_slot(seed: int, k: int, size: int, band: int = SEED_BAND) -> int:
    """Which of a cell's ``size`` questions the ``k``-th record of that cell in
    run ``seed`` asks: seed ``s`` owns the ``band`` questions from ``s *
    band`` (:func:`seed_band`)."""
    return (seed * band + k) % size


def seed_band(cfg: SpanConfig, fmt: str) -> int:
    """Questions of one cell a seed owns: :data:`SEED_BAND` blocks' worth
    (a yes/no cell of a balanced run has two records a block)."""
    return SEED_BAND * copies(cfg, fmt)


def _cell_blocks(
    seed: int, start: int, stop: int, dirs: tuple[tuple[str, str], ...], cfg: SpanConfig
) -> dict[tuple[str, str, str, str], tuple[int, int]]:
    """Per cell met in records ``start .. stop-1``, its first and last ``k``
    (each block holds every cell, :func:`copies` times, so its ``k`` runs
    over them all). Only the two end blocks can be partial; those are read
    record by record."""
    cycle = len(run_slots(cfg, dirs))
    first, last = start // cycle, (stop - 1) // cycle
    out: dict[tuple[str, str, str, str], tuple[int, int]] = {}
    edge = [i for b in sorted({first, last}) for i in range(b * cycle, (b + 1) * cycle)
            if start <= i < stop]  # fmt: skip
    for i in edge:
        src, tgt, qtype, fmt, k = _cell(i, dirs, seed, cfg)
        lo, hi = out.get((src, tgt, qtype, fmt), (k, k))
        out[(src, tgt, qtype, fmt)] = (min(lo, k), max(hi, k))
    if last - first > 1:  # full blocks between: every cell, from first + 1 to last - 1
        for key in run_cells(cfg, dirs):
            c = copies(cfg, key[3])
            lo, hi = out.get(key, ((first + 1) * c, last * c - 1))
            out[key] = (min(lo, (first + 1) * c), max(hi, last * c - 1))
    return out


def domain_warnings(seed: int, start: int, count: int, cfg: SpanConfig) -> list[str]:
    """One line if records ``start .. start+count-1`` of run ``seed`` go beyond
    what the config's question domain can keep distinct: the run itself repeats
    a question (a cell has more records than questions), or its questions may
    be another seed's (its band wraps or overflows). Empty when neither."""
    if count <= 0:
        return []
    if cfg.date is None:
        return _window_festival_warnings(seed, start + count, cfg)
    dirs = plan(cfg)
    cycle = len(run_slots(cfg, dirs))
    stop = start + count
    repeats: list[tuple[int, str]] = []
    shared: list[tuple[int, str, int]] = []
    for (src, tgt, qtype, fmt), (k_lo, k_hi) in _cell_blocks(seed, start, stop, dirs, cfg).items():
        size = len(cell_questions(cfg, src, tgt, qtype, fmt))
        what = f"{src}->{tgt} {qtype} {fmt} questions"
        if k_hi - k_lo + 1 > size:
            repeats.append((size, what))
        elif k_hi >= seed_band(cfg, fmt) or (seed + 1) * seed_band(cfg, fmt) > size:
            shared.append((size, what, seed_band(cfg, fmt)))
    if repeats:
        size, what = min(repeats)
        return [f"span: the {size} {what} from {cfg.date} are fewer than this run's records of "
                "that kind, so the run repeats questions (raise --max-days/--max-weeks/"
                "--max-years or make fewer records)"]  # fmt: skip
    if shared:
        size, what, band = min(shared)
        return [f"span: there are only {size} {what} from {cfg.date}; seed {seed} with these "
                f"records may share questions with other seeds (distinct seeds are disjoint "
                f"for seeds below {max(size // band, 1)} and runs of at most "
                f"{SEED_BAND * cycle} records)"]  # fmt: skip
    return []


#: Share of a direction's festival-years a window run may ask before its
#: last draws repeat: a record whose 33 draws all hit one of the ``d`` asked
#: of ``N`` fails with probability ``(d / N) ** 33``, 0.06 % at 0.8, 58 % at
#: 120 of 121 (Shaka, one festival, in a 4,800-record default run).
FESTIVAL_SHARE = 0.8


def _window_festival_warnings(seed: int, stop: int, cfg: SpanConfig) -> list[str]:
    """One line if a window run of records ``0 .. stop-1`` asks some
    direction's festival questions (either format: a yes/no item and a
    content item about one festival-year are one answer) more often than
    :data:`FESTIVAL_SHARE` of the festival-years its window reaches."""
    if "festival" not in cfg.types():
        return []
    dirs = plan(cfg)
    asked: dict[tuple[str, str], int] = {}
    for (src, tgt, qtype, _fmt), (k_lo, k_hi) in _cell_blocks(seed, 0, stop, dirs, cfg).items():
        if qtype == "festival":
            asked[(src, tgt)] = asked.get((src, tgt), 0) + k_hi - k_lo + 1
    lo, hi = window_days(cfg)
    worst: tuple[float, str] | None = None
    for (src, tgt), n in asked.items():
        first, last = fields_of(src, max(lo, span_range(src)[0]))[0], fields_of(src, hi)[0]
        years = range(first - cfg.max_years, last + cfg.max_years + 1)
        reach = sum(_festival_ok(f, src, tgt, y) for f in festivals_of(src) for y in years)
        if reach and n > FESTIVAL_SHARE * reach and (worst is None or n / reach > worst[0]):
            worst = (n / reach, f"{n} {src}->{tgt} festival questions of the {reach} "
                                "festival-years the window reaches")  # fmt: skip
    if worst is None:
        return []
    return [
        f"span: records 0..{stop - 1} ask {worst[1]}, so the last ones may repeat in every "
        "draw and fail (raise --max-years, widen --date-range or make fewer records)"
    ]


def _accepted(q: SpanQuestion, gold: int) -> list[str] | None:
    """Names of the admissible readings if all give the gold, else None."""
    want = frozenset({fields_of(q.target, gold)})
    canon = canonical_reading(q)
    readings = admissible_readings(q, question_text(q, ""))
    if answers_under(q, canon) != want:  # pragma: no cover - a bug, not a user error
        raise AssertionError(f"canonical answer of {q} is not the drawn gold")
    if any(answers_under(q, r) != want for r in readings):
        return None
    if is_disputed_anywhere(q, gold):
        return None
    return [reading_name(r, canon) for r in readings]


def is_disputed_anywhere(q: SpanQuestion, gold: int) -> bool:
    """Whether the gold date lands on a disputed day of a calendar involved
    (even where both readings happen to agree on its fields)."""
    return any(_in(c, gold) and is_disputed(c, gold) for c in q.involved())


def generate_question(
    seed: int = 0, index: int = 0, config: SpanConfig | None = None
) -> dict[str, Any]:
    """Record ``index`` of run ``seed`` (JSON-ready)."""
    cfg = config or SpanConfig()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TsolveError(f"seed: expected a non-negative integer, got {seed!r}")
    if index < 0:
        raise TsolveError(f"index: expected a non-negative integer, got {index!r}")
    dirs = plan(cfg)
    ref = reference_day(cfg, seed, index)
    rng = record_np_rng(GENERATOR_NAME, GENERATOR_VERSION, seed, index, _fingerprint(cfg))
    src, tgt, qtype, fmt, k = _cell(index, dirs, seed, cfg)
    if cfg.date is None:
        q, gold, reading_names = drawn_question(cfg, rng, ref, src, tgt, qtype, fmt)
    else:
        questions = cell_questions(cfg, src, tgt, qtype, fmt)
        if not questions:
            raise TsolveError(
                f"date: no {src}->{tgt} {qtype} question from {cfg.date} has the same gold "
                "under every reading (disputed month starts); choose another reference date"
            )
        slot = question_slot(seed, k, len(questions), seed_band(cfg, fmt))
        if current_redraw():
            # A redraw (the record repeats another: a yes/no item and a content
            # item of one date may ask the same conversion) takes a question at
            # random from the cell; the attempt is in the generator's key.
            slot = int(rng.integers(len(questions)))
        q, gold, reading_names = questions[slot]
    readings = list(reading_names)
    yes = fmt != "polar" or not cfg.balanced or _label(seed, k, (src, tgt, qtype, fmt))
    cand, how = gold, "gold"
    if fmt == "polar" and cfg.balanced:
        q, gold, readings, cand, how = _matched(cfg, rng, ref, (q, gold, readings), yes)

    gold_json = date_json(tgt, gold)
    # What restates the gold, kept out of ``params`` (which restates the prompt).
    detail: dict[str, Any] = {"near_miss": None, "candidate_gregorian": None,
                              "festival_year": None}  # fmt: skip
    params: dict[str, Any] = {
        "source_calendar": src,
        "target_calendar": tgt,
        "reference_date": date_json(src, ref),
        "offset": q.offset,
        "unit": q.unit,
        "sign": q.sign,
        "festival": None,
    }
    if q.festival is not None:
        fest = q.festival
        params["festival"] = {
            "key": fest.key, "name": fest.name, "calendar": src,
            "rule": fest.rule().replace(fest.calendar, src, 1),
        }  # fmt: skip
        detail["festival_year"] = q.reference[0] + q.step * q.offset
    candidate_text: str | None = None
    if fmt == "polar":
        cand_json = date_json(tgt, cand)
        candidate_text = cand_json["text"]
        detail["near_miss"] = how
        detail["candidate_gregorian"] = cand_json.pop("gregorian")
        params["candidate"] = cand_json
        answer = "Yes" if yes else "No"
        q = SpanQuestion(**{**q.__dict__, "candidate": fields_of(tgt, cand)})
    else:
        answer = gold_json["text"]
    question = question_text(q, candidate_text)
    instruction = ANSWER_INSTRUCTION[fmt].format(cal=DISPLAY[tgt], example=FORMAT_EXAMPLE[tgt])
    return {
        "id": span_id(seed, cfg, index),
        "family": FAMILY,
        "generator": generator_stamp(GENERATOR_NAME, GENERATOR_VERSION, seed, index, cfg.to_json()),
        "question": question,
        "prompt": f"{question}\n\n{instruction}",
        "params": params,
        "answer": answer,
        "gold": gold_json,
        "gold_detail": detail,
        "direction": f"{src}->{tgt}",
        "type": qtype,
        "format": fmt,
        "readings": readings,
        "readings_ruled_out": [
            reading_name(r, canonical_reading(q)) for r in ruled_out_readings(q, question)
        ],
    }


#: A polar item redraws its twin (and, over a window, its question) up to
#: this many times until a near miss lies within :data:`MATCH_TOLERANCE`
#: days of a gold's rough distance (:func:`_matched`; else it keeps its
#: closest draw).
MATCH_DRAWS = 24
#: The fraction of a day in a candidate's rough distance is fixed by what the
#: record shows, the same for a gold and a near miss: between Gregorian
#: candidates of one question it is the question's own (its estimate's
#: fraction), between candidates of another calendar it is their month's and
#: year's. Only whole days are drawn, and the nearest day to any distance is
#: within half a day of it; versions 6-8 asked for 0.2 and 0.02 days, which a
#: twin's fraction rarely allowed.
MATCH_TOLERANCE = 0.5


def _matched(
    cfg: SpanConfig,
    rng: np.random.Generator,
    ref: int,
    first: tuple[SpanQuestion, int, list[str]],
    yes: bool,
) -> tuple[SpanQuestion, int, list[str], int, str]:
    """The question, gold, readings, candidate and its kind of a polar item.

    Both labels pair the record's question ``q`` with a :func:`twin` ``t``
    (the same question asked from the same source-calendar date a multiple
    of 19 years away, :func:`twin_reference`) and keep ``q`` only if a near
    miss of one lies, in a rough conversion, where the other's gold lies
    (within :data:`MATCH_TOLERANCE` days):

    * a "No" item needs a near miss of ``q`` at the rough distance of
      ``t``'s gold, and shows that near miss;
    * a "Yes" item needs a near miss of ``t`` at the rough distance of
      ``q``'s gold, and shows ``q``'s gold.

    The two are one draw with the roles of ``q`` and ``t`` swapped, so the
    rough distance of the shown date has nearly the same distribution under
    both labels, and the twin being in the same place of the leap cycle,
    that distribution is the one of golds of this question, not of any year
    (the near miss is a day or two off where only the calendar's tables
    tell the day). The twin is redrawn, and over a window the question too
    (from the same cell and reference date; a one-date run keeps its
    question, which its seed band fixed), while none is kept, else the
    closest draw is kept."""
    best: tuple[float, tuple[SpanQuestion, int, list[str], int | None]] | None = None
    q, gold, readings = first
    cell = (q.source, q.target, q.qtype, q.fmt)
    size = _slots(cfg, q.source, q.qtype)
    for attempt in range(MATCH_DRAWS):
        if attempt and cfg.date is None:  # a uniform slot; readings checked only if kept
            drawn = _slot_question(cfg, *cell, ref, int(rng.integers(size)))
            if drawn is None:
                continue
            q, gold = drawn
        twin_ref, years = twin_reference(cfg, rng, q.source, ref)
        other = twin(q, twin_ref)
        miss, cand = float("inf"), None
        if other is not None and years is not None:
            # The other's gold moved back (or this gold moved on) by the
            # cycle: the date a reader who knows that dates recur every 19
            # years would name, a day or two off where only the tables tell.
            t_q, t_gold = other
            if yes:
                t_cand = cycle_shift(q.target, gold, years)
                if _cycle_miss(t_q, t_gold, t_cand):
                    miss = 0.0
            else:
                cand = cycle_shift(q.target, t_gold, -years)
                if _cycle_miss(q, gold, cand):
                    miss = 0.0
                else:
                    cand = None
        elif other is not None and yes:
            t_q, t_gold = other
            target = rough_gap(q, gold)
            t_cand = closest_day(rng, t_q, t_gold, partial(_rejectable, t_q, t_gold), target)
            if t_cand is not None:
                miss = abs(rough_gap(t_q, t_cand) - target)
        elif other is not None:
            target = rough_gap(*other)
            cand = closest_day(rng, q, gold, partial(_rejectable, q, gold), target)
            if cand is not None:
                miss = abs(rough_gap(q, cand) - target)
        if best is not None and miss >= best[0]:
            continue
        if attempt and cfg.date is None:
            names = _accepted(q, gold)
            if names is None:
                continue
            readings = names
        best = (miss, (q, gold, readings, cand))
        if miss <= MATCH_TOLERANCE:
            break
    assert best is not None
    q, gold, readings, cand = best[1]
    if yes:
        return q, gold, readings, gold, "gold"
    accept = partial(_rejectable, q, gold)
    if cand is None:  # no twin in range, or no day near the gold allowed: any near miss
        return q, gold, readings, *near_miss(rng, q, gold, accept)
    return q, gold, readings, cand, _kind_of(_named_kinds(rng, q, gold), cand, gold)


#: How far a near miss moved by the cycle may lie from the gold: where the
#: leap months of two cycles fall differently, a Chinese date 19 years on is
#: a month off, which a rough conversion tells; those twins are redrawn.
CYCLE_SLACK = 3


def _cycle_miss(q: SpanQuestion, gold: int, cand: int | None) -> bool:
    """Whether ``cand`` (a twin's gold moved by the cycle) may be shown as a
    near miss of ``q``: rejectable, and within :data:`CYCLE_SLACK` days."""
    return cand is not None and abs(cand - gold) <= CYCLE_SLACK and _rejectable(q, gold, cand)


def _rejectable(q: SpanQuestion, gold: int, cand: int) -> bool:
    """A "No" candidate must be a different date as written, not on a disputed
    day, and not the eve of a sundown festival. Every admissible reading of an
    accepted question gives exactly the gold (:func:`_accepted`), so a date
    that differs from it as written is "No" under all of them (the stress
    invariants recheck this label by label)."""
    f: Fields = fields_of(q.target, cand)
    if f == fields_of(q.target, gold) or is_disputed_anywhere(q, cand):
        return False
    return not (DAY_AXIS in applicable_axes(q) and cand == gold - 1)


def generate_questions(
    count: int, seed: int = 0, config: SpanConfig | None = None, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of run ``seed``, lazily. The config's
    bounds are checked before the first record."""
    cfg = config or SpanConfig()
    plan(cfg)
    return run_records(generate_question, count, seed, cfg, start)


__all__ = [
    "DIRECTIONS",
    "DISPLAY",
    "GENERATOR_VERSION",
    "SpanConfig",
    "cell_questions",
    "date_json",
    "directions_for",
    "domain_warnings",
    "fields_of",
    "generate_question",
    "generate_questions",
    "plan",
    "render",
]
