"""A table-free baseline for SPAN polar questions: how easy are the "No" items?

The estimator knows each calendar only by its epoch and mean month and year
lengths, never a table or a leap rule: it places the reference date, moves by
the offset (or places the festival in its year), places the candidate date the
same way, and answers "Yes" when the two are within 14 days. A benchmark whose
near misses are all a month or more off lets it score far above chance; good
near misses hold it near 50 %. ``benchmarks/span_polar_baseline.py`` runs it on
a file; ``tsolve stress span --shortcuts`` runs it as a probe (the "table-free
estimator", held to the bound of ``docs/scoring.md`` over chance 0.50), and the
generator's tests hold it to 0.53 on a default run's 192 yes/no items.

It reads the structured ``params`` of a record (any generator version) rather
than the text: the point is the information it uses, not parsing.
"""

from __future__ import annotations

import collections
import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from tsolve.calendars.festivals import Festival, get_festival

LUNATION = 29.530589
TOLERANCE_DAYS = 14
ISLAMIC_EPOCH = 227014  # ordinal of the day before 1 Muharram AH 1 (16 July 622 Julian)
HEBREW_ANCHOR = (5785, _dt.date(2024, 10, 3).toordinal())  # 1 Tishrei 5785


def approx_day(cal: str, year: int, month: int, day: int, leap: bool = False) -> float:
    """Approximate day number of a date, from mean lengths only."""
    if cal == "gregorian":
        return float(_dt.date(year, month, day).toordinal())
    if cal in ("islamic", "islamic-umalqura"):
        return ISLAMIC_EPOCH + (year - 1) * 354.36667 + (month - 1) * LUNATION + day
    if cal == "hebrew":
        # months from Tishrei; Nisan..Elul come after a leap month 7 years in 19
        pos = {12: 5.0, 13: 6.0}.get(month, month - 7 if month >= 7 else month + 5 + 7 / 19)
        y0, o0 = HEBREW_ANCHOR
        return o0 + (year - y0) * 365.2468 + pos * LUNATION + day - 1
    if cal == "chinese":
        pos = (month - 1) * (1 + 7 / 19 / 12) + (1 if leap else 0)
        return _dt.date(year, 2, 5).toordinal() + pos * LUNATION + day - 1
    if cal == "persian":
        return _dt.date(year + 621, 3, 21).toordinal() + (month - 1) * 30.44 + day - 1
    if cal == "shaka":
        return _dt.date(year + 78, 3, 22).toordinal() + (month - 1) * 30.44 + day - 1
    raise ValueError(f"unknown calendar {cal!r}")


def _ordinals(years: np.ndarray, month: int, day: int) -> np.ndarray:
    """Day numbers of ``month/day`` (Gregorian) of each year in ``years``."""
    uniq, back = np.unique(years, return_inverse=True)
    found = np.array([_dt.date(int(y), month, day).toordinal() for y in uniq], dtype=np.int64)
    return found[back]


def approx_days(
    cal: str, year: np.ndarray, month: np.ndarray, day: np.ndarray, leap: np.ndarray
) -> np.ndarray:
    """:func:`approx_day` of many dates of one calendar at once (the same
    arithmetic in the same order, so the same floats): how a generator
    measures the rough distance of every candidate near a gold in one step."""
    y = np.asarray(year, dtype=np.int64)
    m = np.asarray(month, dtype=np.int64)
    d = np.asarray(day, dtype=np.int64)
    if cal == "gregorian":
        return (_ordinals(y, 1, 1) + _day_of_year(y, m, d) - 1).astype(np.float64)
    if cal in ("islamic", "islamic-umalqura"):
        return ISLAMIC_EPOCH + (y - 1) * 354.36667 + (m - 1) * LUNATION + d
    if cal == "hebrew":
        pos = np.where(m >= 7, (m - 7).astype(np.float64), m + 5 + 7 / 19)
        pos = np.where(m == 12, 5.0, np.where(m == 13, 6.0, pos))
        y0, o0 = HEBREW_ANCHOR
        return o0 + (y - y0) * 365.2468 + pos * LUNATION + d - 1
    if cal == "chinese":
        pos = (m - 1) * (1 + 7 / 19 / 12) + np.asarray(leap, dtype=bool).astype(np.int64)
        return _ordinals(y, 2, 5) + pos * LUNATION + d - 1
    if cal == "persian":
        return _ordinals(y + 621, 3, 21) + (m - 1) * 30.44 + d - 1
    if cal == "shaka":
        return _ordinals(y + 78, 3, 22) + (m - 1) * 30.44 + d - 1
    raise ValueError(f"unknown calendar {cal!r}")


_CUMULATIVE = np.array([0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334], dtype=np.int64)


def _day_of_year(y: np.ndarray, m: np.ndarray, d: np.ndarray) -> np.ndarray:
    leap = ((y % 4 == 0) & (y % 100 != 0)) | (y % 400 == 0)
    return _CUMULATIVE[m - 1] + d + ((m > 2) & leap)


def _fields(obj: dict[str, Any]) -> tuple[int, int, int, bool]:
    return int(obj["year"]), int(obj["month"]), int(obj["day"]), bool(obj.get("leap", False))


@cache
def _festival(key: str) -> Festival:
    return get_festival(key)


def rough_answer(
    src: str,
    reference: tuple[int, int, int, bool],
    offset: int,
    unit: str,
    sign: str,
    festival_key: str | None,
) -> float:
    """Where the estimator places a question's answer: the reference date placed
    from mean lengths, moved by the offset, or the festival placed the same way
    in its source-calendar year."""
    sgn = -1 if sign == "ago" else 1
    if unit in ("days", "weeks"):
        return approx_day(src, *reference) + sgn * offset * (7 if unit == "weeks" else 1)
    fest = _festival(str(festival_key))
    year = int(reference[0]) + sgn * offset
    month = fest.month_in(year) if fest.calendar == "hebrew" else fest.month
    return approx_day(src, year, month, fest.day)


def rough_gap(record: dict[str, Any]) -> float:
    """How many days the candidate of a polar record lies from where the
    estimator places the answer (negative: before it)."""
    p = record["params"]
    fest = p.get("festival")
    key = fest.get("key") if isinstance(fest, dict) else None
    est = rough_answer(p["source_calendar"], _fields(p["reference_date"]), int(p["offset"]),
                       p["unit"], p["sign"], key)  # fmt: skip
    return approx_day(p["target_calendar"], *_fields(p["candidate"])) - est


def estimate_label(record: dict[str, Any]) -> str:
    """The estimator's Yes/No for a polar SPAN record."""
    return "Yes" if abs(rough_gap(record)) <= TOLERANCE_DAYS else "No"


def near_miss_kind(record: dict[str, Any]) -> str:
    """The kind of a polar record's candidate (``gold`` for a Yes item): a gold
    field (``gold_detail``) since generator version 6, ``params.candidate``
    before."""
    detail = record.get("gold_detail")
    if isinstance(detail, dict) and "near_miss" in detail:
        return str(detail["near_miss"])
    cand = (record.get("params") or {}).get("candidate") or {}
    return str(cand.get("near_miss", "?"))


@dataclass
class BaselineReport:
    """Accuracy of the estimator on polar items, beside the label balance."""

    polar: int = 0
    correct: int = 0
    labels: collections.Counter[str] = field(default_factory=collections.Counter)
    by_kind: dict[str, list[int]] = field(default_factory=dict)  # kind -> [n, correct]

    @property
    def accuracy(self) -> float:
        return self.correct / self.polar if self.polar else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "polar_items": self.polar,
            "estimator_accuracy": round(self.accuracy, 4),
            "labels": dict(sorted(self.labels.items())),
            "by_near_miss": {
                k: {"n": n, "accuracy": round(c / n, 4)}
                for k, (n, c) in sorted(self.by_kind.items())
            },
        }


def span_polar_baseline(records: Iterable[dict[str, Any]]) -> BaselineReport:
    """Run the table-free estimator on the polar SPAN items of ``records``."""
    rep = BaselineReport()
    for rec in records:
        if rec.get("family") != "span" or rec.get("format") != "polar":
            continue
        ok = estimate_label(rec) == rec["answer"]
        rep.polar += 1
        rep.correct += ok
        rep.labels[rec["answer"]] += 1
        kind = near_miss_kind(rec)
        slot = rep.by_kind.setdefault(kind, [0, 0])
        slot[0] += 1
        slot[1] += ok
    return rep
