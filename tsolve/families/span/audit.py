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

Before any of that, :func:`gold_form_mismatches` compares the record's stored
forms of its gold (the ``answer`` text the facade serves, the ``gold`` fields
the scorer reads, each date object's text, month name and Gregorian date):
a disagreement is ``inconsistent`` (:mod:`tsolve.audit.forms`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from tsolve.audit.base import AuditVerdict
from tsolve.audit.forms import FormMismatch, forms_verdict, mistyped, served_answer_mismatch
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
from tsolve.records.validation import bad

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


def _date_forms(where: str, obj: Any, cal: str, order: str | None) -> list[FormMismatch]:
    """A stored date object's own forms against its fields: its ``text`` re-read
    by the scorer's parser, its ``month_name`` read as a month, its
    ``gregorian`` converted afresh, its ``calendar`` named."""
    from tsolve.calendars.conversion import date_of
    from tsolve.calendars.domain import iso
    from tsolve.calendars.names import parse_month
    from tsolve.families.span.score import read_date_answer

    if not isinstance(obj, dict):
        return []
    fields = _fields_of(obj)
    if fields is None:
        return []
    y, m, d, leap = fields
    named = text_of(cal, fields)
    fields_form = _fields_form(where, cal)
    out: list[FormMismatch] = [
        found
        for key, kind, what in _DATE_FORM_TYPES
        if (found := mistyped(f"{where}.{key}", obj.get(key), kind, what, fields_form, named))
    ]
    own = obj.get("calendar")
    if isinstance(own, str) and own != cal:
        out.append(FormMismatch(f"{where}.calendar", own, "params.target_calendar"
                                if where != "params.reference_date" else
                                "params.source_calendar", cal))  # fmt: skip
    text = obj.get("text")
    if isinstance(text, str):
        parsed, reason, _several = read_date_answer(cal, text, order=order)
        if parsed is None or "ambiguous" in parsed:
            out.append(FormMismatch(f"{where}.text", text, fields_form, named,
                                    reads_as=_unread(parsed, reason)))  # fmt: skip
        elif (parsed["year"], parsed["month"], parsed["day"], parsed["leap"]) != fields:
            got = (parsed["year"], parsed["month"], parsed["day"], parsed["leap"])
            out.append(FormMismatch(f"{where}.text", text, fields_form, named,
                                    reads_as=_unless_same(text_of(cal, got), text)))  # fmt: skip
    name = obj.get("month_name")
    if isinstance(name, str):
        try:
            month, nleap = parse_month(cal, name)
        except TsolveError:
            month, nleap = -1, False
        if month != m or (cal == "chinese" and nleap != leap):
            out.append(FormMismatch(f"{where}.month_name", name, fields_form, named))
    greg = obj.get("gregorian")
    if isinstance(greg, str):
        try:
            day_text_ = iso(date_of(cal, y, m, d, leap))
        except (TsolveError, ValueError, OverflowError):
            day_text_ = None
        if day_text_ != greg:
            says = named + (f", which is {day_text_}" if day_text_ else ", no such date")
            out.append(FormMismatch(f"{where}.gregorian", greg, fields_form, says))
    return out


#: The type of each form a date object may hold besides its fields: present
#: and of another type, it names no date (a ``text`` of 5), and is a finding.
_DATE_FORM_TYPES: tuple[tuple[str, type, str], ...] = (
    ("text", str, "a text"), ("month_name", str, "a text"), ("gregorian", str, "a text"),
    ("calendar", str, "a text"), ("leap", bool, "true or false"),
)  # fmt: skip


def _fields_form(where: str, cal: str) -> str:
    """How a finding names a date object's fields (``gold.year/month/day``)."""
    return f"{where}.year/month/day" + ("/leap" if cal == "chinese" else "")


def _unread(parsed: dict[str, Any] | None, reason: str) -> str:
    """Why the scorer's parser could not read a date text as one date."""
    if parsed is not None and "ambiguous" in parsed:
        return f"ambiguous: {parsed['ambiguous']}"
    return f"no date: {reason}"


def _unless_same(reading: str, text: str) -> str | None:
    """What a text was read as, when that is not the text itself."""
    return None if reading == text else reading


def _fields_of(obj: dict[str, Any]) -> tuple[int, int, int, bool] | None:
    try:
        return int(obj["year"]), int(obj["month"]), int(obj["day"]), bool(obj.get("leap") or False)
    except (KeyError, TypeError, ValueError, OverflowError):
        return None


def gold_form_mismatches(record: dict[str, Any]) -> list[FormMismatch]:
    """Where a SPAN record's stored forms of its gold disagree: the ``answer``
    text (what the facade serves) re-read by the scorer's parser against the
    ``gold`` fields; each date object's ``text``, ``month_name``,
    ``gregorian`` and ``calendar`` against its fields; and for a polar item
    the candidate the question quotes against ``params.candidate``."""
    from tsolve.families.span.score import parse_polar, read_date_answer
    from tsolve.verifiers.answer_parsing import date_order

    q = question_of(record)
    order = date_order(record)
    gold = record.get("gold")
    out: list[FormMismatch] = []
    if isinstance(gold, dict):
        out += _date_forms("gold", gold, q.target, order)
    fields = _fields_of(gold) if isinstance(gold, dict) else None
    stored = record.get("answer")
    if q.fmt == "content" and fields is not None and isinstance(stored, str):
        named = text_of(q.target, fields)
        form = _fields_form("gold", q.target)
        parsed, reason, _several = read_date_answer(q.target, stored, order=order)
        if parsed is None or "ambiguous" in parsed:
            out.insert(0, FormMismatch("answer", stored, form, named,
                                       reads_as=_unread(parsed, reason)))  # fmt: skip
        else:
            got = (parsed["year"], parsed["month"], parsed["day"], parsed["leap"])
            if got != fields:
                read = _unless_same(text_of(q.target, got), stored)
                out.insert(0, FormMismatch("answer", stored, form, named, reads_as=read))
    if q.fmt == "polar":
        if isinstance(stored, str) and parse_polar(stored) != stored:
            out.append(FormMismatch("answer", stored, "format", "polar (Yes or No)"))
        cand = (record.get("params") or {}).get("candidate")
        out += _candidate_forms(record, cand, q.target, order)
        out += _quoted("params.candidate", cand, record, -1)
    ref = (record.get("params") or {}).get("reference_date")
    out += _date_forms("params.reference_date", ref, q.source, order)
    out += _quoted("params.reference_date", ref, record, 0)
    return out


def _candidate_forms(
    record: dict[str, Any], cand: Any, cal: str, order: str | None
) -> list[FormMismatch]:
    """A polar candidate's forms. Since generator version 6 its Gregorian date
    is a gold field (``gold_detail.candidate_gregorian``: beside the prompt it
    would be the conversion asked), checked against the candidate's fields
    as ``params.candidate.gregorian`` was."""
    detail = record.get("gold_detail")
    moved = "candidate_gregorian"
    if not (isinstance(cand, dict) and isinstance(detail, dict) and moved in detail
            and "gregorian" not in cand):  # fmt: skip
        return _date_forms("params.candidate", cand, cal, order)
    found = _date_forms("params.candidate", {**cand, "gregorian": detail[moved]}, cal, order)
    where = "params.candidate.gregorian"
    return [replace(f, form=f"gold_detail.{moved}") if f.form == where else f for f in found]


_QUOTE = re.compile("\u201c([^\u201d]*)\u201d")


def _quoted(where: str, obj: Any, record: dict[str, Any], which: int) -> list[FormMismatch]:
    """The date object's ``text`` against the date the question quotes for it
    (the reference date is the question's first quote, a candidate its last):
    the question is what a model reads, the object what the audit computes with."""
    text = record.get("question") or record.get("prompt")
    own = obj.get("text") if isinstance(obj, dict) else None
    if not isinstance(text, str) or not isinstance(own, str):
        return []
    quotes = _QUOTE.findall(text)
    if not quotes or quotes[which] == own:
        return []
    return [FormMismatch(f"{where}.text", own, "the question's quoted date", quotes[which])]


def _text_gives(q: SpanQuestion) -> str | None:
    """The answer the question's text gives under its canonical reading."""
    canon = canonical_reading(q)
    try:
        if q.fmt == "polar":
            return label_under(q, canon)
        return ", ".join(describe(q, canon, answers_under(q, canon))) or None
    except TsolveError:
        return None


def audit_span(record: dict[str, Any]) -> AuditVerdict:
    """Audit one SPAN record (see the module docstring)."""
    rid = str(record.get("id", ""))
    check_span_record(record)  # the scorer's checks: a gold month of 1e400 is refused here
    for key in ("question", "prompt"):  # the text the readings and the quotes are read from
        if record.get(key) is not None and not isinstance(record[key], str):
            raise bad(f"record {rid!r}: {key}", "a text", record[key])
    mismatches = gold_form_mismatches(record)
    if not mismatches and (served := served_answer_mismatch(record, FAMILY)) is not None:
        mismatches = [served]
    q = question_of(record)
    if mismatches:
        return forms_verdict(rid, FAMILY, mismatches, _text_gives(q))
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


__all__ = ["audit_span", "gold_form_mismatches", "proof"]


# --- the proof as numbered lines ---------------------------------------------------------


def explain(detail: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """A verdict's argument as lines quoting the question (see
    :mod:`tsolve.audit.explain`): the reference date it names, the rule it
    asks to apply, what that gives, and what every other reading gives."""
    from tsolve.audit.explain import quote

    question = record.get("question") or record.get("prompt")
    lines = [f"The question: {quote(question)}."]
    pf = detail.get("proof")
    if isinstance(pf, dict):
        lines.append(f"Its reference date is {pf.get('reference')}.")
        days = ", ".join(pf.get("answer_days") or []) or "no day"
        lines.append(f"Its rule, {pf.get('rule')}, gives {days}.")
        lines.append(
            f"In the target calendar that is {quote(', '.join(pf.get('computed') or []))}."
        )
        cases = [c for c in detail.get("cases") or [] if c.get("reading") != "canonical"]
        if "stored_answer" in pf:
            stored = pf.get("stored_answer")
            label = "No" if stored == "Yes" else "Yes"
            what = "that date" if label == "Yes" else "not that date"
            lines.append(f"The candidate {quote(pf.get('candidate'))} is {what}: the answer "
                         f"is {label}, not the stored {quote(stored)}.")  # fmt: skip
        else:
            lines.append(f"The stored gold is {quote(pf.get('stored_gold'))}: not that date.")
    else:
        gold = quote(detail.get("gold") or record.get("answer"))
        under = ", ".join(detail.get("gold_readings") or [])
        lines.append(f"The stored gold {gold} is the answer under {under}.")
        cases = detail.get("differing") or []
    for c in cases:
        label = f" (label {c['label']})" if "label" in c else ""
        lines.append(f"Under {c.get('reading')} the answer is "
                     f"{quote(', '.join(c.get('answers') or []) or 'none')}{label}.")  # fmt: skip
    return lines
