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
