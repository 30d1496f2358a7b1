"""Audit SPAN records: is the stored gold the only answer the question's text allows?

For a record of any generator version the auditor re-reads the question
(:func:`tsolve.families.span.encoding.question_of`), finds which readings its
text leaves open (an unnamed Islamic variant, unstated year counting, a
sundown festival without "daytime", a disputed month start), and recomputes the
answer under each:

* ``ok``: every admissible reading gives the stored gold (or polar label);
* ``ambiguous``: some admissible readings give it and others do not;
  ``detail.gold_readings`` and ``detail.other_readings`` name the two sides,
  and ``reading`` / ``answers`` the first reading that differs;
* ``inconsistent``: no admissible reading gives it; ``detail.proof`` spells
  out the record's own conversion and ``detail.cases`` what every other
  reading gives, so the proof does not rest on one reading's convention.

A reading under which a calendar cannot even express the question's dates (Umm
al-Qura before 1924) is not one a reader could take and is skipped.
"""

from __future__ import annotations

from typing import Any

from tsolve.audit.base import AuditVerdict
from tsolve.calendars.tables import table
from tsolve.errors import TsolveError
from tsolve.families.span.encoding import (
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

    # Each reading's answer set, once: the verdict, the cases and the proof
    # all read it.
    answers = {r: answers_under(q, r) for r in readings}
    gold_set = frozenset({gold})
    date_given = any(a == gold_set for a in answers.values())

    def gives_gold(r: Reading) -> bool:
        # A polar item's gold is its label: a reading that moves the date but
        # keeps the label gives the same answer.
        if q.fmt == "polar":
            return bool(stored == label_under(q, r))
        return answers[r] == gold_set

    giving = [r for r in readings if gives_gold(r)]
    if q.fmt == "polar" and not date_given:
        # The label may be right, but the record's own gold date is not the
        # answer under any reading: the record contradicts itself.
        giving = []
    if len(giving) == len(readings):
        return AuditVerdict(rid, FAMILY, "ok", {}, names)
    gold_names = [reading_name(r, canon) for r in giving]
    differing: list[dict[str, Any]] = []
    for r in readings:
        if r in giving:
            continue
        entry: dict[str, Any] = {
            "reading": reading_name(r, canon),
            "answers": describe(q, r, answers[r]),
        }
        if q.fmt == "polar":
            entry["label"] = label_under(q, r)
        differing.append(entry)
    if not giving:
        pf = proof(q)
        pf["stored_gold"] = text_of(q.target, gold)
        reason = "no admissible reading gives the stored gold"
        if q.fmt == "polar" and date_given:
            pf["candidate"] = text_of(q.target, q.candidate) if q.candidate else None
            pf["stored_answer"] = stored
            reason = "no admissible reading gives the stored polar label"
        return AuditVerdict(rid, FAMILY, "inconsistent",
                            {"reason": reason, "proof": pf, "cases": differing}, names)  # fmt: skip
    first = differing[0]
    detail = {**first, "gold": text_of(q.target, gold), "differing": differing,
              "gold_readings": gold_names,
              "other_readings": [d["reading"] for d in differing]}  # fmt: skip
    return AuditVerdict(rid, FAMILY, "ambiguous", detail, names)


__all__ = ["audit_span", "proof"]
