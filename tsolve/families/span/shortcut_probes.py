"""SPAN's own shortcut probes for ``tsolve stress --shortcuts``
(:mod:`tsolve.stress.shortcut_probes`): a fixed "today", calendar-naive
arithmetic, a lookup by question and an n-gram classifier. Where a record
restates its prompt as data (its ``params``), the probes read that form
instead of parsing English again; it says nothing the prompt does not."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tsolve.contract.family import Record
from tsolve.stress.shortcut_probes import Answer, Probe, classifier, commonest, question_text


def _span_question(record: Record) -> Any:
    from tsolve.families.span.encoding import question_of

    return question_of(dict(record))


def _span_answer(q: Any, reference_day: int | None = None) -> str | None:
    """The answer to ``q`` under its canonical reading, with the reference date
    replaced by ``reference_day`` (a day number) when given: every step of
    the reasoning but reading "today" is done exactly."""
    from dataclasses import replace

    from tsolve.families.span.encoding import (
        answers_under,
        canonical_reading,
        fields_of,
        text_of,
    )

    if reference_day is not None:
        try:
            q = replace(q, reference=fields_of(q.source, reference_day))
        except Exception:
            return None
    answers = answers_under(q, canonical_reading(q))
    if answers is None:
        return None
    if q.fmt == "polar":
        return "Yes" if q.candidate in answers else "No"
    return text_of(q.target, sorted(answers)[0]) if answers else None


def _span_fixed_today(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """Today is the commonest reference date of the other seed's records."""
    from tsolve.calendars.variants import PRIMARY, view

    days = []
    for r in train:
        try:
            q = _span_question(r)
        except Exception:
            continue
        day = view(q.source, PRIMARY).day_of(*q.reference)
        if day is not None:
            days.append(day)
    today = commonest(days, _dt.date(2024, 7, 1).toordinal())

    def answer(record: Record) -> str | None:
        try:
            return _span_answer(_span_question(record), today)
        except Exception:
            return None

    return answer


def _span_calendar_naive(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """Every calendar read as if it were Gregorian: today's year, month and
    day taken as a Gregorian date, the offset added, and the result written
    with the same numbers in the target calendar (no conversion)."""
    from tsolve.families.span.encoding import render

    fallback = commonest([g for g in golds if g not in ("Yes", "No")], "")

    def answer(record: Record) -> str | None:
        try:
            q = _span_question(record)
        except Exception:
            return None
        y, m, d, _leap = q.reference
        try:
            base = _dt.date(y, min(m, 12), min(d, 28 if m == 2 else 30))
        except ValueError:
            return None
        if q.festival is not None:
            return "No" if q.fmt == "polar" else fallback
        delta = q.offset * (7 if q.unit == "weeks" else 1) * q.step
        try:
            day = base + _dt.timedelta(days=delta)
        except OverflowError:
            return None
        if q.fmt == "polar":
            cy, cm, cd, _cl = q.candidate
            return "Yes" if (cy, cm, cd) == (day.year, day.month, day.day) else "No"
        return str(render(q.target, day.year, day.month, day.day, False))

    return answer


def _span_key(record: Record) -> tuple[Any, ...] | None:
    """What a SPAN question asks, whatever its candidate and format."""
    p = record.get("params")
    if not isinstance(p, dict):
        return None
    ref = p.get("reference_date") or {}
    fest = (p.get("festival") or {}).get("key") if isinstance(p.get("festival"), dict) else None
    return (p.get("source_calendar"), p.get("target_calendar"),
            ref.get("year"), ref.get("month"), ref.get("day"), ref.get("leap", False),
            p.get("offset"), p.get("unit"), p.get("sign"), fest)  # fmt: skip


def _span_lookup(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's answer to the same question (a content record's
    answer, or a polar record's candidate when it was Yes), else No."""
    known: dict[tuple[Any, ...], str] = {}
    for r, g in zip(train, golds, strict=True):
        key = _span_key(r)
        if key is None:
            continue
        if r.get("format") == "content":
            known[key] = g
        elif g == "Yes":
            cand = (r.get("params") or {}).get("candidate") or {}
            if isinstance(cand.get("text"), str):
                known[key] = cand["text"]
    fallback = commonest([g for g in golds if g not in ("Yes", "No")], "")

    def answer(record: Record) -> str | None:
        key = _span_key(record)
        hit = known.get(key) if key is not None else None
        if record.get("format") == "polar":
            cand = ((record.get("params") or {}).get("candidate") or {}).get("text")
            return "Yes" if hit is not None and hit == cand else "No"
        return hit if hit is not None else fallback

    return answer


def _learned_span(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """SPAN: Yes/No from the question's words; a content answer's year, month
    and day from one classifier each, written in the target calendar."""
    from tsolve.families.span.encoding import render

    polar = [(r, g) for r, g in zip(train, golds, strict=True) if r.get("format") == "polar"]
    content = [(r, g) for r, g in zip(train, golds, strict=True) if r.get("format") == "content"]
    yes_no = classifier([question_text(r) for r, _g in polar], [g for _r, g in polar])
    fields: list[Callable[[str], Any]] = []
    rows = []
    for r, _g in content:
        gold = r.get("gold")
        if isinstance(gold, Mapping) and all(k in gold for k in ("year", "month", "day")):
            rows.append((r, (gold["year"], gold["month"], gold["day"])))
    if rows:
        texts = [question_text(r) for r, _f in rows]
        fields = [classifier(texts, [f[k] for _r, f in rows]) for k in range(3)]

    def answer(record: Record) -> str | None:
        text = question_text(record)
        if record.get("format") == "polar":
            return str(yes_no(text))
        if not fields:
            return None
        target = str((record.get("params") or {}).get("target_calendar"))
        y, m, d = (int(f(text)) for f in fields)
        try:
            return str(render(target, y, m, d, False))
        except Exception:
            return None

    return answer


PROBES: tuple[Probe, ...] = (
    Probe("span", "fixed today", "heuristic", _span_fixed_today,
          "today is the commonest reference date of another seed; the rest exactly"),
    Probe("span", "calendar-naive arithmetic", "heuristic", _span_calendar_naive,
          "every calendar read as Gregorian: today's numbers plus the offset, unconverted"),
    Probe("span", "lookup by question", "memorisation", _span_lookup,
          "another seed's answer to the same question, whatever its candidate"),
    Probe("span", "n-gram classifier", "learned", _learned_span,
          "logistic regression on the question's word n-grams (Yes/No; a date per field)"),
)  # fmt: skip
"""The family's own probes (its ``shortcut_probes`` part names these first)."""
