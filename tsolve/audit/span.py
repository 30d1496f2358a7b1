"""Audit SPAN records: is the stored gold the only answer the question's text allows?

For a record of any generator version the auditor re-reads the question
(:func:`tsolve.encodings.span_question.question_of`), finds which readings its
text leaves open (an unnamed Islamic variant, unstated year counting, a
sundown festival without "daytime", a disputed month start), and recomputes the
answer under each:

* ``inconsistent``: under the record's own reading the stored gold (or polar
  label) is not the answer; ``detail.proof`` spells out the conversion;
* ``ambiguous``: another admissible reading gives a different answer (or
  label); ``detail`` names the reading and what it gives;
* ``ok``: every admissible reading gives the stored gold.

A reading under which a calendar cannot even express the question's dates (Umm
al-Qura before 1924) is not one a reader could take and is skipped.
"""

from __future__ import annotations

from typing import Any

from tsolve.audit.base import AuditVerdict
from tsolve.calendars.tables import table
from tsolve.encodings.span_question import (
    ISLAMIC,
    ISLAMIC_AXIS,
    UMM_AL_QURA,
    Reading,
    SpanQuestion,
    admissible_readings,
    answer_days,
    answers_under,
    canonical_reading,
    check_span_record,
    day_text,
    describe,
    label_under,
    question_of,
    reading_name,
    text_of,
)
from tsolve.errors import TsolveError

FAMILY = "span"


def _gold_fields(record: dict[str, Any]) -> tuple[int, int, int, bool]:
    g = record.get("gold")
    if not isinstance(g, dict):
        raise TsolveError("gold: a SPAN record needs a gold date object")
    try:
        return int(g["year"]), int(g["month"]), int(g["day"]), bool(g.get("leap", False))
    except (KeyError, TypeError, ValueError):
        raise TsolveError("gold: needs integer year, month and day") from None


def _expressible(q: SpanQuestion, reading: Reading) -> bool:
    """Whether the calendars a reading swaps in cover the question's dates at all
    (the Umm al-Qura table starts in 1924 and ends in 2077)."""
    r = dict(reading)
    if r.get(ISLAMIC_AXIS) != UMM_AL_QURA or "islamic-umalqura" in q.involved():
        return True
    t = table("islamic-umalqura")
    days = answer_days(q, canonical_reading(q)) or []
    from tsolve.calendars.variants import view

    src = "islamic" if q.source in ISLAMIC else q.source
    ref = view(src).day_of(*q.reference)
    return all(t.first_day <= d <= t.last_day for d in [*days, *([ref] if ref else [])])


def proof(q: SpanQuestion) -> dict[str, Any]:
    """The computation behind the record's own reading, step by step."""
    canon = canonical_reading(q)
    from tsolve.calendars.variants import view

    ref = view(q.source).day_of(*q.reference)
    steps: dict[str, Any] = {
        "reference": f"{text_of(q.source, q.reference)} ({q.source}) = "
        + (day_text(ref) if ref is not None else "no such date"),
    }
    days = answer_days(q, canon)
    if q.festival is not None:
        year = q.reference[0] + q.step * q.offset
        steps["rule"] = f"{q.festival.name} of {q.source} year {year}"
    else:
        steps["rule"] = f"{q.step * q.offset} {q.unit} from the reference date"
    steps["answer_days"] = [day_text(d) for d in days or []]
    steps["computed"] = describe(q, canon, answers_under(q, canon))
    return steps


def audit_span(record: dict[str, Any]) -> AuditVerdict:
    """Audit one SPAN record (see the module docstring)."""
    rid = str(record.get("id", ""))
    check_span_record(record)  # the scorer's checks: a gold month of 1e400 is refused here
    q = question_of(record)
    text = str(record.get("question") or record.get("prompt") or "")
    gold = _gold_fields(record)
    canon = canonical_reading(q)
    readings = [r for r in admissible_readings(q, text) if _expressible(q, r)]
    names = [reading_name(r, canon) for r in readings]
    stored = record.get("answer")

    canon_ans = answers_under(q, canon)
    pf = proof(q)
    if canon_ans != frozenset({gold}):
        pf["stored_gold"] = text_of(q.target, gold)
        return AuditVerdict(rid, FAMILY, "inconsistent",
                            {"reason": "the stored gold is not the answer under the "
                                       "record's own reading", "proof": pf}, names)  # fmt: skip
    if q.fmt == "polar" and stored != label_under(q, canon):
        pf["candidate"] = text_of(q.target, q.candidate) if q.candidate else None
        pf["stored_answer"] = stored
        return AuditVerdict(rid, FAMILY, "inconsistent",
                            {"reason": "the stored polar label is wrong under the record's "
                                       "own reading", "proof": pf}, names)  # fmt: skip

    differing: list[dict[str, Any]] = []
    for r in readings[1:]:
        ans = answers_under(q, r)
        entry: dict[str, Any] = {"reading": reading_name(r, canon), "answers": describe(q, r, ans)}
        if q.fmt == "polar":
            label = label_under(q, r)
            if label == stored:
                continue
            entry["label"] = label
        elif ans == canon_ans:
            continue
        differing.append(entry)
    if differing:
        first = differing[0]
        detail = {**first, "gold": text_of(q.target, gold), "differing": differing}
        return AuditVerdict(rid, FAMILY, "ambiguous", detail, names)
    return AuditVerdict(rid, FAMILY, "ok", {}, names)


__all__ = ["audit_span", "proof"]
