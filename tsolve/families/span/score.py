"""Exact grading of SPAN-style records (replaces the paper's GPT-4o judge).

Only the final answer is read, by the rule every family shares
(:func:`tsolve.verifiers.answer_parsing.final_answer`): the line starting
with the last ``MY ANSWER:``, else the last ``\\boxed{}``, else a one-line
bare answer. Nothing else of the output is searched.

Polar answers: the answer line must be ``Yes`` or ``No`` (any case,
punctuation and markdown ignored), alone or followed by a justification
holding no second answer ("Yes, they are equivalent."). Anything else ("Yes
or No", "Yes, or maybe no.", "No idea", "unknown", "True") is a parse
failure scoring 0.

Content answers are parsed into a date of the record's target calendar and
compared field by field with the gold (year, month, day, and for Chinese the
leap flag). Month names in any common transliteration or month numbers are
accepted (``25 Sivan 5784``, ``Sivan 25, 5784``, ``5784-3-25``; Chinese
``day 11 of Leap Month 2, 2023``, ``2023-L2-11``). The line must hold exactly
one date: a second month name, numeric date or day number ("7 or 8 Av 5784")
makes it an answer with several elements, which is wrong
(``diagnosis["over_answer"]``); the date's Gregorian equivalent in brackets
(``day 14 of Month 7, 2024 (August 17, 2024)``) is not a second date when
it names the same day. A numeric Gregorian date whose day and month
order is unknown (``05/06/2014``) is a parse failure unless the record declares
``date_order``. A plain ``Adar`` in a Hebrew leap year is ambiguous (Adar I or
Adar II?) and scores 0 with that diagnosis.

**Readings.** A wrong answer that is right under a reading the record's own
text leaves open (an unnamed Islamic variant, unstated year counting, a
festival's eve, a disputed month start; :mod:`tsolve.families.span.encoding`)
still scores 0, but is flagged: ``diagnosis["right_under_reading"]`` names the
reading and the metric ``alt_reading`` is 1, so reports count such items apart
while accuracy keeps its definition.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from tsolve.calendars.names import month_numbers, normalise
from tsolve.contract.item import ItemScore
from tsolve.families.span.encoding import check_span_record
from tsolve.records.validation import (
    expect_field,
    expect_str,
    plain,
)
from tsolve.verifiers.answer_parsing import (
    PLAIN_MARKER,
    FinalAnswer,
    date_order,
    is_justification,
    read_numeric_dates,
    scan_dates,
)
from tsolve.verifiers.answer_parsing import final_answer as _final_answer


def final_answer(output: object) -> str:
    """The answer line of a model's output ("" when there is none), by the
    shared rule (:func:`tsolve.verifiers.answer_parsing.final_answer`)."""
    return answer_of(output).text


def answer_of(output: object) -> FinalAnswer:
    """The shared rule with SPAN's marker (``MY ANSWER:``, words apart)."""
    return _final_answer(output, PLAIN_MARKER)


_POLAR = re.compile(r"^\W*(yes|no)\b(?!-\w)", re.IGNORECASE)  # not "No-one"
_NEGATIONS = frozenset(["no", "not", "never", "isn", "aren", "doesn", "don", "t"])


def parse_polar(text: str) -> str | None:
    """'Yes' or 'No' when the answer line is that word (case, punctuation and
    spaces ignored), alone or followed by a justification that holds no
    second answer ("Yes, they are equivalent.", "No, they are not the same
    day."; :func:`~tsolve.verifiers.answer_parsing.is_justification`), else
    None: a hedge ("Yes or No", "Yes, or maybe no.", "No idea"), a sentence
    or an empty line is not a yes/no answer. After "Yes" a negation counts
    as a second answer ("Yes, not the same day")."""
    m = _POLAR.match(text)
    if m is None:
        return None
    label = "Yes" if m[1].lower() == "yes" else "No"
    rest = text[m.end() :].strip(" *_`\"'")
    second = frozenset(["yes", "no"]) | (_NEGATIONS if label == "Yes" else frozenset())
    if not is_justification(rest, second):
        return None
    return label


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
    """``{year, month, day, leap[, ambiguous]}`` read from ``text``, or None
    (also when the text holds several dates: :func:`read_date_answer` says)."""
    return read_date_answer(calendar, text)[0]


_BARE_WORDS = frozenset(
    [
        "day",
        "of",
        "the",
        "month",
        "leap",
        "intercalary",
        "lunar",
        "ah",
        "ce",
        "ad",
        "bce",
        "bc",
        "se",
        "ap",
        "am",
        "sh",
        "year",
        "st",
        "nd",
        "rd",
        "th",
    ]
)


def read_date_answer(
    calendar: str, text: str, *, bare: bool = False, order: str | None = None
) -> tuple[dict[str, Any] | None, str, bool]:
    """``(parsed, reason, several)``: the one date of ``text`` in ``calendar``
    (``{year, month, day, leap[, ambiguous]}``), or None with the reason;
    ``several`` when the line names more than one date (alternatives, a
    second month, a second day). ``bare`` (no marker): the text must be the
    date alone, with no other words. ``order`` reads ``05/06/2014``."""
    t = _fold(text)
    equivalent = _bracketed_gregorian(t)
    if equivalent is not None:
        main, day = equivalent
        parsed, reason, several = read_date_answer(calendar, main, bare=bare, order=order)
        if parsed is None or _same_day(calendar, parsed, day):
            return parsed, reason, several
        return None, "the answer names several dates (its Gregorian date is another day)", True
    if calendar == "gregorian":
        t, unclear = read_numeric_dates(t, order)
        if unclear:
            return None, unclear, False
    isos = list(_ISO_LIKE.finditer(t))
    if calendar == "chinese":
        months = list(_CN_MONTH.finditer(t))
    else:
        months = list(_month_pattern(calendar).finditer(t))
    if len(isos) + len(months) > 1:
        return None, "the answer names several dates", True
    if isos:
        m = isos[0]
        rest = t[: m.start()] + " " + t[m.end() :]
        if re.search(r"\d", rest):
            return None, "the answer names several dates", True
        mon = m[2]
        leap = "l" in mon
        parsed = {"year": int(m[1]), "month": int(mon.strip("l")), "day": int(m[3]), "leap": leap}
        return _bare_check(parsed, rest, bare)
    if not months:
        return None, f"no {calendar} month in the answer", False
    mm = months[0]
    if calendar == "chinese":
        leap = bool(mm[1] or mm[3])
        month = int(mm[2] or mm[4])
        ambiguous = False
    else:
        key = normalise(mm[1])
        month = month_numbers(calendar)[key]
        leap = False
        ambiguous = calendar == "hebrew" and key == "adar"
    rest = t[: mm.start()] + " " + t[mm.end() :]
    nums = [int(x) for x in re.findall(r"(?<![\d.])(\d{1,5})(?:st|nd|rd|th)?(?![\d])", rest)]
    years = [x for x in nums if x > 31]
    days = [x for x in nums if 1 <= x <= 31]
    if len(years) > 1 or len(days) > 1 or len(nums) > 2:
        return None, "the answer names several dates", True
    if not years or not days:
        return None, "the answer needs a day and a year", False
    out: dict[str, Any] = {"year": years[0], "month": month, "day": days[0], "leap": leap}
    if ambiguous:
        from tsolve.calendars.hebrew import is_leap

        if is_leap(years[0]):
            out["ambiguous"] = "plain 'Adar' in a leap year (Adar I or Adar II?)"
        # In a common year Adar is month 12, as parsed.
    rest = re.sub(r"(?<![\d.])\d{1,5}(?:st|nd|rd|th)?(?![\d])", " ", rest)
    return _bare_check(out, rest, bare)


_BRACKETS = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]")


def _bracketed_gregorian(text: str) -> tuple[str, str] | None:
    """``(text without it, ISO date)`` when ``text`` ends with one Gregorian
    date in brackets (``day 14 of Month 7, 2024 (August 17, 2024)``): the
    answer's Gregorian equivalent, which models add, not a second answer if
    it names the same day. None when there is no such bracket."""
    found = list(_BRACKETS.finditer(text))
    if not found or text[found[-1].end() :].strip(" .!;,"):
        return None
    m = found[-1]
    inner = m[1] if m[1] is not None else m[2]
    dates, invalid = scan_dates(inner)
    if len(dates) != 1 or invalid:
        return None
    return text[: m.start()], dates[0]


def _same_day(calendar: str, parsed: dict[str, Any], iso_day: str) -> bool:
    """Is ``parsed`` (a date of ``calendar``) the Gregorian day ``iso_day``?"""
    from tsolve.calendars.conversion import date_of
    from tsolve.calendars.domain import parse_iso

    try:
        day = date_of(calendar, parsed["year"], parsed["month"], parsed["day"], parsed["leap"])
        return bool(day == parse_iso(iso_day).toordinal())
    except Exception:  # a date the calendar does not have names no day
        return False


def _bare_check(
    parsed: dict[str, Any], rest: str, bare: bool
) -> tuple[dict[str, Any] | None, str, bool]:
    """``parsed``, unless a bare answer has words besides its date."""
    if bare:
        words = set(re.sub(r"[^a-z]+", " ", rest).split()) - _BARE_WORDS
        if words:
            return None, "an answer without a 'MY ANSWER:' line must be only the date", False
    return parsed, "", False


def right_under_reading(record: dict[str, Any], answer: Any) -> str | None:
    """The first admissible non-canonical reading under which ``answer`` (a
    polar label, or a parsed ``{year, month, day, leap}``) is right, or None."""
    from tsolve.errors import TsolveError
    from tsolve.families.span.encoding import (
        answers_under,
        label_under,
        named_readings,
        question_of,
    )

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
    found = answer_of(output)
    answer_text = found.text
    fmt = record.get("format")
    diagnosis: dict[str, Any] = {"answer_text": answer_text}
    if found.failed:
        diagnosis["reason"] = found.reason
        return ItemScore(rid, "span", _metrics(False, None), None, True, diagnosis, groups)
    if fmt == "polar":
        got = parse_polar(answer_text)
        if got is None:
            diagnosis["reason"] = "the answer line is not exactly Yes or No"
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
        parsed, reason, several = read_date_answer(
            cal, answer_text, bare=found.how == "bare", order=date_order(record)
        )
    except Exception:  # an unknown calendar in a hand-made record: unparseable
        parsed, reason, several = None, f"unknown calendar {cal!r}", False
    if several:  # one answer with several elements: read, and wrong
        diagnosis.update(over_answer=reason, expected=gold.get("text"))
        return ItemScore(rid, "span", _metrics(False, None), None, False, diagnosis, groups)
    if parsed is None:
        diagnosis["reason"] = reason
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


def span_answer(record: dict[str, Any]) -> str:
    """``Yes``/``No``, or the target calendar's date as the record words it."""
    return expect_str(expect_field(record, "answer"), "answer")
