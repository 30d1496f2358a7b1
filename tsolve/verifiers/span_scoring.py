"""Exact grading of SPAN-style records (replaces the paper's GPT-4o judge).

Content answers are parsed into a date of the record's target calendar and
compared field by field with the gold (year, month, day, and for Chinese the
leap flag). Month names in any common transliteration or month numbers are
accepted (``25 Sivan 5784``, ``Sivan 25, 5784``, ``5784-3-25``; Chinese
``day 11 of Leap Month 2, 2023``, ``2023-L2-11``). Polar answers are parsed as
yes/no (``true``/``false`` too).

Only the final answer is read: the text after the last ``MY ANSWER:`` if there
is one, else the last non-empty line. A plain ``Adar`` in a Hebrew leap year is
ambiguous (Adar I or Adar II?) and scores 0 with that diagnosis.

**Readings.** A wrong answer that is right under a reading the record's own
text leaves open (an unnamed Islamic variant, unstated year counting, a
festival's eve, a disputed month start; :mod:`tsolve.encodings.span_question`)
still scores 0, but is flagged: ``diagnosis["right_under_reading"]`` names the
reading and the metric ``alt_reading`` is 1, so reports count such items apart
while accuracy keeps its definition.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from tsolve.calendars.names import month_numbers, normalise
from tsolve.encodings.span_question import check_span_record
from tsolve.validation import plain
from tsolve.verifiers.answer_parsing import PLAIN_MARKER, last_marker_end
from tsolve.verifiers.item import ItemScore


def final_answer(output: str) -> str:
    """The part of a model's output that holds its final answer."""
    text = str(output)
    at = last_marker_end(text, PLAIN_MARKER)
    if at is not None:
        tail = text[at:]
        first = next((ln for ln in tail.splitlines() if ln.strip()), "")
        return first.strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def parse_polar(text: str) -> str | None:
    """'Yes'/'No' from an answer, or None. The last yes/no word wins."""
    words = re.findall(r"\b(yes|no|true|false)\b", text.lower())
    if not words:
        return None
    return "Yes" if words[-1] in ("yes", "true") else "No"


@cache
def _month_pattern(calendar: str) -> re.Pattern[str]:
    """A regex finding any month name of ``calendar`` in normalised-ish text."""
    names = sorted(month_numbers(calendar), key=len, reverse=True)
    # Match names on text squeezed the same way normalise() squeezes them, but
    # keep boundaries: each letter of the name may be separated by [\s'\-`’]*.
    alts = ["[\\s'\\-`\u2019]*".join(re.escape(c) for c in n) for n in names if n]
    return re.compile(r"(?<![a-z])(" + "|".join(alts) + r")(?![a-z])")


def _fold(text: str) -> str:
    import unicodedata

    t = unicodedata.normalize("NFKD", text)
    return "".join(c for c in t if not unicodedata.combining(c)).lower()


_ISO_LIKE = re.compile(r"(-?\d{1,5})\s*[-/.]\s*(l?\d{1,2}l?)\s*[-/.]\s*(\d{1,2})(?!\d)")
_CN_MONTH = re.compile(
    r"(leap\s+|intercalary\s+)?month\s*(\d{1,2})|(leap\s+|intercalary\s+)?(\d{1,2})(?:st|nd|rd|th)\s+(?:lunar\s+)?month"
)


def parse_date_answer(calendar: str, text: str) -> dict[str, Any] | None:
    """``{year, month, day, leap[, ambiguous]}`` read from ``text``, or None."""
    t = _fold(text)
    m = _ISO_LIKE.search(t)
    if m:
        mon = m[2]
        leap = "l" in mon
        return {"year": int(m[1]), "month": int(mon.strip("l")), "day": int(m[3]), "leap": leap}
    if calendar == "chinese":
        cm = _CN_MONTH.search(t)
        if not cm:
            return None
        leap = bool(cm[1] or cm[3])
        month = int(cm[2] or cm[4])
        rest = t[: cm.start()] + " " + t[cm.end() :]
        ambiguous = False
    else:
        mm = _month_pattern(calendar).search(t)
        if not mm:
            return None
        key = normalise(mm[1])
        month = month_numbers(calendar)[key]
        leap = False
        ambiguous = calendar == "hebrew" and key == "adar"
        rest = t[: mm.start()] + " " + t[mm.end() :]
    nums = [int(x) for x in re.findall(r"(?<![\d.])(\d{1,5})(?:st|nd|rd|th)?(?![\d])", rest)]
    year = next((x for x in nums if x > 31), None)
    day = next((x for x in nums if 1 <= x <= 31), None)
    if year is None or day is None:
        return None
    out: dict[str, Any] = {"year": year, "month": month, "day": day, "leap": leap}
    if ambiguous:
        from tsolve.calendars.hebrew import is_leap

        if is_leap(year):
            out["ambiguous"] = "plain 'Adar' in a leap year (Adar I or Adar II?)"
        # In a common year Adar is month 12, as parsed.
    return out


def right_under_reading(record: dict[str, Any], answer: Any) -> str | None:
    """The first admissible non-canonical reading under which ``answer`` (a
    polar label, or a parsed ``{year, month, day, leap}``) is right, or None."""
    from tsolve.encodings.span_question import (
        answers_under,
        label_under,
        named_readings,
        question_of,
    )
    from tsolve.errors import TsolveError

    try:
        q = question_of(record)
    except TsolveError:
        return None
    text = str(record.get("question") or record.get("prompt") or "")
    for r, name in named_readings(q, text)[1:]:
        if q.fmt == "polar":
            if label_under(q, r) == answer:
                return name
            continue
        have = (answer["year"], answer["month"], answer["day"], bool(answer["leap"]))
        ans = answers_under(q, r)
        if ans and have in ans:
            return name
    return None


def _metrics(ok: bool, alt: str | None) -> dict[str, float]:
    return {"accuracy": float(ok), "alt_reading": float(alt is not None)}


def score_span(record: dict[str, Any], output: str, *, diagnose: bool = True) -> ItemScore:
    """Accuracy 0/1, grouped by direction, reasoning type and question format;
    ``alt_reading`` 1 when a wrong answer is right under an admissible reading.
    ``diagnose=False`` skips the distance in days of a wrong date."""
    check_span_record(record)
    groups: dict[str, str | list[str]] = {
        "direction": str(record.get("direction", "")),
        "type": str(record.get("type", "")),
        "format": str(record.get("format", "")),
    }
    rid = str(record.get("id", ""))
    answer_text = final_answer(output)
    fmt = record.get("format")
    diagnosis: dict[str, Any] = {"answer_text": answer_text}
    if fmt == "polar":
        got = parse_polar(answer_text)
        if got is None:
            return ItemScore(rid, "span", _metrics(False, None), None, True, diagnosis, groups)
        ok = got == record.get("answer")
        alt = None
        if not ok:
            diagnosis["expected"] = record.get("answer")
            alt = right_under_reading(record, got)
            if alt:
                diagnosis["right_under_reading"] = alt
        return ItemScore(rid, "span", _metrics(ok, alt), got, False, diagnosis, groups)
    gold = plain(record.get("gold"))  # dates as ISO strings, also after an Arrow round trip
    if not isinstance(gold, dict):
        gold = {}
    cal = str(gold.get("calendar") or record.get("params", {}).get("target_calendar", ""))
    try:
        parsed = parse_date_answer(cal, answer_text)
    except Exception:  # an unknown calendar in a hand-made record: unparseable
        parsed = None
    if parsed is None:
        return ItemScore(rid, "span", _metrics(False, None), None, True, diagnosis, groups)
    want = (gold.get("year"), gold.get("month"), gold.get("day"), bool(gold.get("leap", False)))
    have = (parsed["year"], parsed["month"], parsed["day"], parsed["leap"])
    ok = want == have and "ambiguous" not in parsed
    alt = None
    if not ok and "ambiguous" not in parsed:
        alt = right_under_reading(record, parsed)
        if alt:
            diagnosis["right_under_reading"] = alt
    if not ok:
        diagnosis["expected"] = gold.get("text")
        diagnosis["wrong"] = [
            f
            for f, a, b in zip(("year", "month", "day", "leap"), have, want, strict=True)
            if a != b
        ] or ["ambiguous"]
    if not ok and diagnose:
        try:
            from tsolve.calendars.conversion import date_of
            from tsolve.calendars.domain import parse_iso

            d = date_of(cal, *have)
            diagnosis["days_off"] = d - parse_iso(str(gold["gregorian"])).toordinal()
        except Exception:  # the parsed date may not exist: no distance then
            pass
    return ItemScore(rid, "span", _metrics(ok, alt), parsed, False, diagnosis, groups)
