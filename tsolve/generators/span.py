"""SPAN-style cross-calendar questions (the SPAN paper's templates, Table 1).

Given a Gregorian reference date, each record asks to move from that date (as
written in a *source* calendar) by an offset and to give the result in a
*target* calendar, one of which is Gregorian:

* **date-based**: an offset in days or weeks from the reference date;
* **festival-based**: a festival of the source calendar, a number of years
  before or after the reference date's source-calendar year;
* **content** questions ask for the date, **polar** questions ask whether a
  candidate date is it.

SPAN's polar questions were all "Yes". Here labels are balanced: a "No"
candidate is a near miss (a day or two off, the neighbouring month, the
neighbouring year, or the festival of the neighbouring year) that is a valid
date of the target calendar and provably not the answer (its day number
differs from the gold one).

Record ``i`` is a pure function of ``(seed, i)`` and the config: the cell
(direction, type, format) cycles with ``i`` so that every block of 40 records
covers all 10 directions x 2 types x 2 formats, the polar label alternates by
block (with a seeded coin per 80-record block), and all other choices come from
``numpy.random.default_rng([seed, i])``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import numpy as np

from tsolve.calendars.domain import iso, parse_iso
from tsolve.calendars.festivals import Festival, festival_day, festivals_of
from tsolve.calendars.tables import CalendarTable, month_name, table
from tsolve.errors import TsolveError

GENERATOR_NAME = "span"
GENERATOR_VERSION = "1"
FAMILY = "span"

OTHERS = ("chinese", "hebrew", "islamic", "persian", "shaka")
DIRECTIONS: tuple[tuple[str, str], ...] = tuple(
    [("gregorian", c) for c in OTHERS] + [(c, "gregorian") for c in OTHERS]
)
DISPLAY = {
    "gregorian": "Gregorian",
    "chinese": "Chinese lunar",
    "hebrew": "Hebrew",
    "islamic": "Islamic",
    "islamic-umalqura": "Islamic (Umm al-Qura)",
    "persian": "Persian",
    "shaka": "Shaka",
}

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


@dataclass(frozen=True)
class SpanConfig:
    """Generator options. The SPAN paper's offset ranges did not survive in the
    seed text, so these defaults are tsolve's: up to 100 days, 20 weeks, 10 years."""

    date: str = "2024-07-01"
    max_days: int = 100
    max_weeks: int = 20
    max_years: int = 10
    balanced: bool = True  # False: every polar gold label is "Yes", as in SPAN

    def __post_init__(self) -> None:
        parse_iso(self.date, "date")
        for name in ("max_days", "max_weeks", "max_years"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise TsolveError(f"{name.replace('_', '-')}: expected an integer >= 1, got {v!r}")

    def params_json(self) -> dict[str, Any]:
        return dict(_params(self))


@cache
def _params(cfg: SpanConfig) -> dict[str, Any]:
    return asdict(cfg)


# ----------------------------------------------------------------- rendering


def fields_of(cal: str, day: int) -> tuple[int, int, int, bool]:
    """(year, month, day, leap) of one day number in ``cal`` (scalar, fast path)."""
    t = table(cal)
    i = day - t.first_day
    if not 0 <= i < t.size:
        raise TsolveError(
            f"date: {iso(day)} is outside the {cal} calendar's range {t.range_text()}"
        )
    return int(t.year[i]), int(t.month[i]), int(t.day[i]), bool(t.leap[i])


def render(cal: str, y: int, m: int, d: int, leap: bool) -> str:
    """A date as the question writes it, with the calendar's month name."""
    name = month_name(cal, y, m, leap)
    if cal == "gregorian":
        return f"{name} {d}, {y}"
    if cal == "chinese":
        return f"day {d} of {name}, {y}"
    return f"{d} {name} {y}"


def date_json(cal: str, day: int) -> dict[str, Any]:
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


def question_text(
    src: str, tgt: str, ref_text: str, qtype: str, fmt: str, n: int, unit: str,
    sign: str, fest: Festival | None, candidate: str | None,
) -> str:  # fmt: skip
    """SPAN's Table 1 templates, filled in."""
    head = f"Today\u2019s date on the {DISPLAY[src]} calendar is \u201c{ref_text}\u201d."
    was, what = ("Was", "What was") if sign == "ago" else ("Is", "What is")
    if qtype == "festival":
        name = fest.name if fest else ""
        thing = (
            f"the {DISPLAY[tgt]} calendar date of the festival \u201c{name}\u201d {n} {unit} {sign}"
        )
    else:
        thing = f"the {DISPLAY[tgt]} calendar date {n} {unit} {sign}"
    if fmt == "content":
        return f"{head} {what} {thing}?"
    return f"{head} {was} {thing} equivalent to the date \u201c{candidate}\u201d?"


# ----------------------------------------------------------------- near misses


def _in(t: CalendarTable, day: int) -> bool:
    return t.first_day <= day <= t.last_day


def _shift_month(cal: str, day: int, step: int) -> int | None:
    """Same day-of-month in the neighbouring month (``step`` = +-1), if it exists."""
    t = table(cal)
    idx = t.months
    _, _, d, _ = fields_of(cal, day)
    pos = int(np.searchsorted(idx.start, day, side="right")) - 1 + step
    if not 0 <= pos < idx.start.size or d > int(idx.length[pos]):
        return None
    out = int(idx.start[pos]) + d - 1
    return out if _in(t, out) else None


def _shift_year(cal: str, day: int, step: int) -> int | None:
    """Same month and day in the neighbouring year of ``cal``, if it exists."""
    from tsolve.calendars.conversion import date_of

    y, m, d, lp = fields_of(cal, day)
    try:
        return date_of(cal, y + step, m, d, lp)
    except TsolveError:
        return None


def near_miss(
    rng: np.random.Generator, tgt: str, gold: int, unit: str, alt_festival: list[int]
) -> tuple[int, str]:
    """A valid target-calendar day that is *not* ``gold``, and how it was made."""
    t = table(tgt)
    kinds = ["day", "month", "year"] + (["week"] if unit == "weeks" else [])
    if alt_festival:
        kinds.append("festival-year")
    order = [kinds[k] for k in rng.permutation(len(kinds))]
    sign = 1 if rng.integers(2) else -1
    for kind in [*order, "day"]:
        cand: int | None
        if kind == "day":
            cand = gold + sign * int(rng.integers(1, 3))
            if not _in(t, cand):
                cand = gold - (cand - gold)
        elif kind == "week":
            cand = gold + 7 * sign
        elif kind == "month":
            cand = _shift_month(tgt, gold, sign) or _shift_month(tgt, gold, -sign)
        elif kind == "year":
            cand = _shift_year(tgt, gold, sign) or _shift_year(tgt, gold, -sign)
        else:
            cand = alt_festival[int(rng.integers(len(alt_festival)))]
        if cand is not None and cand != gold and _in(t, cand):
            return cand, kind
    raise AssertionError("unreachable: a day offset is always available")  # pragma: no cover


# ----------------------------------------------------------------- generation


def _cell(index: int) -> tuple[str, str, str, str]:
    """(source, target, type, format) of record ``index``: a 40-record cycle."""
    src, tgt = DIRECTIONS[index % 10]
    qtype = ("date", "festival")[(index // 10) % 2]
    fmt = ("polar", "content")[(index // 20) % 2]
    return src, tgt, qtype, fmt


def _label(seed: int, index: int) -> bool:
    """Polar gold label: alternates per 40-record block, phase drawn per 80 block
    (a hash bit, so the label never follows the block number alone)."""
    digest = hashlib.blake2b(f"span-label:{seed}:{index // 80}".encode(), digest_size=1).digest()
    return ((index // 40) + digest[0]) % 2 == 0


def span_id(seed: int, date: str, index: int) -> str:
    return f"span-{date}-{seed}-{index}"


def generate_question(
    seed: int = 0, index: int = 0, config: SpanConfig | None = None
) -> dict[str, Any]:
    """Record ``index`` of run ``seed`` (JSON-ready)."""
    cfg = config or SpanConfig()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TsolveError(f"seed: expected a non-negative integer, got {seed!r}")
    if index < 0:
        raise TsolveError(f"index: expected a non-negative integer, got {index!r}")
    ref = parse_iso(cfg.date, "date").toordinal()
    rng = np.random.default_rng([seed, index])
    src, tgt, qtype, fmt = _cell(index)
    ref_src = fields_of(src, ref)
    fields_of(tgt, ref)  # the reference date must be convertible both ways
    t_src, t_tgt = table(src), table(tgt)
    sign = "ago" if rng.integers(2) else "later"
    fest: Festival | None = None
    alt: list[int] = []
    if qtype == "date":
        unit = "days" if rng.integers(2) else "weeks"
        top = cfg.max_days if unit == "days" else cfg.max_weeks
        n = int(rng.integers(1, top + 1))
        step = 1 if unit == "days" else 7
        gold = ref + (-1 if sign == "ago" else 1) * n * step
        if not (_in(t_src, gold) and _in(t_tgt, gold)):
            sign = "later" if sign == "ago" else "ago"
            gold = ref + (-1 if sign == "ago" else 1) * n * step
        if not (_in(t_src, gold) and _in(t_tgt, gold)):
            raise TsolveError(f"date: {cfg.date} is too close to the calendar range's ends")
    else:
        unit = "years"
        options = festivals_of(src, span_only=False)
        fest = options[int(rng.integers(len(options)))]
        n = int(rng.integers(1, cfg.max_years + 1))
        gold_opt = _festival(fest, ref_src[0], n, sign, t_tgt)
        if gold_opt is None:
            sign = "later" if sign == "ago" else "ago"
            gold_opt = _festival(fest, ref_src[0], n, sign, t_tgt)
        if gold_opt is None:
            raise TsolveError(f"date: {cfg.date} is too close to the calendar range's ends")
        gold = gold_opt
        for dn in (-1, 1):
            other = _festival(fest, ref_src[0], n + dn, sign, t_tgt) if n + dn >= 0 else None
            if other is not None and other != gold:
                alt.append(other)

    ref_text = render(src, *ref_src)
    gold_json = date_json(tgt, gold)
    params: dict[str, Any] = {
        "source_calendar": src,
        "target_calendar": tgt,
        "reference_date": date_json(src, ref),
        "offset": n,
        "unit": unit,
        "sign": sign,
        "festival": None,
    }
    if fest is not None:
        params["festival"] = {"key": fest.key, "name": fest.name, "rule": fest.rule(),
                              "year": ref_src[0] + (-n if sign == "ago" else n)}  # fmt: skip
    candidate_text: str | None = None
    if fmt == "polar":
        yes = _label(seed, index) if cfg.balanced else True
        if yes:
            cand, how = gold, "gold"
        else:
            cand, how = near_miss(rng, tgt, gold, unit, alt)
        cand_json = date_json(tgt, cand)
        candidate_text = cand_json["text"]
        params["candidate"] = {**cand_json, "near_miss": how}
        answer = "Yes" if yes else "No"
    else:
        answer = gold_json["text"]
    question = question_text(src, tgt, ref_text, qtype, fmt, n, unit, sign, fest, candidate_text)
    instruction = ANSWER_INSTRUCTION[fmt].format(cal=DISPLAY[tgt], example=FORMAT_EXAMPLE[tgt])
    return {
        "id": span_id(seed, cfg.date, index),
        "family": FAMILY,
        "generator": {
            "name": GENERATOR_NAME,
            "version": GENERATOR_VERSION,
            "seed": seed,
            "index": index,
            "params": cfg.params_json(),
        },
        "question": question,
        "prompt": f"{question}\n\n{instruction}",
        "params": params,
        "answer": answer,
        "gold": gold_json,
        "direction": f"{src}->{tgt}",
        "type": qtype,
        "format": fmt,
    }


def _festival(fest: Festival, year: int, n: int, sign: str, t_tgt: CalendarTable) -> int | None:
    """The festival ``n`` years before/after source year ``year``, if in range."""
    y = year + (-n if sign == "ago" else n)
    try:
        day = festival_day(fest, y)
    except TsolveError:
        return None
    return day if _in(t_tgt, day) else None


def generate_questions(
    count: int, seed: int = 0, config: SpanConfig | None = None, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of run ``seed``, lazily."""
    if isinstance(count, bool) or count < 0:
        raise TsolveError(f"count: must be a non-negative integer, got {count!r}")
    cfg = config or SpanConfig()
    for i in range(start, start + count):
        yield generate_question(seed, i, cfg)
