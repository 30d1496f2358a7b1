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
    if isinstance(ref, dict):  # the day itself, however the question writes it
        ref = ref.get("gregorian") or {k: ref.get(k) for k in ("calendar", "year", "month", "day")}
    fest = params.get("festival")
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
