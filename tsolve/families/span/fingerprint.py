"""What makes two SPAN records the same question, for ``tsolve dataset overlap``:
the question asked, not the candidate of a polar item or the answer wording."""

from __future__ import annotations

from typing import Any

from tsolve.generators.fingerprints import default_fingerprint, digest

SPAN_QUESTION_FIELDS = ("source_calendar", "target_calendar", "reference_date", "offset",
                        "unit", "sign")  # fmt: skip


def span_fingerprint(record: dict[str, Any]) -> str:
    """The question asked: direction, reference, offset, unit, sign, festival
    (its key, calendar and year) and format."""
    params = record.get("params")
    if not isinstance(params, dict):
        return default_fingerprint(record)
    fest = params.get("festival")
    if isinstance(fest, dict):
        fest = [fest.get("key"), fest.get("calendar"), fest.get("year")]
    return digest(
        {
            **{k: params.get(k) for k in SPAN_QUESTION_FIELDS},
            "festival": fest,
            "format": record.get("format"),
        }
    )


def span_answer_fingerprint(record: dict[str, Any]) -> str:
    """What the answer is computed from: the two calendars, the reference
    day, and the offset (count, unit, sign) or the festival. Not the
    candidate, and not the format: a polar item and the content item that
    asks for the same date need the same conversion, whatever date the polar
    one happens to offer."""
    params = record.get("params")
    if not isinstance(params, dict):
        return default_fingerprint(record)
    ref = params.get("reference_date")
    fest = params.get("festival")
    calendars = [params.get("source_calendar"), params.get("target_calendar")]
    year = _festival_year(params)
    if year is not None and isinstance(fest, dict):
        # A festival's date in a given year is the answer whatever "today"
        # is: "Passover 5 years after 5784" and "2 years before 5791" are one
        # question, which a model could answer from memory of the other.
        return digest({"calendars": calendars, "festival": [fest.get("key"), year]})
    if isinstance(ref, dict):  # the day itself, however the question writes it
        ref = ref.get("gregorian") or {k: ref.get(k) for k in ("calendar", "year", "month", "day")}
    if isinstance(fest, dict):
        fest = [fest.get("key"), fest.get("calendar"), fest.get("year")]
    return digest(
        {
            "calendars": [params.get("source_calendar"), params.get("target_calendar")],
            "reference": ref,
            "offset": [params.get(k) for k in ("offset", "unit", "sign")],
            "festival": fest,
        }
    )


def _festival_year(params: dict[str, Any]) -> int | None:
    """The year (of the festival's own calendar) a festival question asks
    about: the reference date's year moved by the offset, when the
    reference is written in that calendar; else None."""
    fest, ref = params.get("festival"), params.get("reference_date")
    offset, sign = params.get("offset"), params.get("sign")
    if not (isinstance(fest, dict) and isinstance(ref, dict) and params.get("unit") == "years"):
        return None
    year = ref.get("year")
    if ref.get("calendar") != fest.get("calendar") or not isinstance(year, int):
        return None
    if isinstance(offset, bool) or not isinstance(offset, int) or sign not in ("ago", "later"):
        return None
    return year - offset if sign == "ago" else year + offset
