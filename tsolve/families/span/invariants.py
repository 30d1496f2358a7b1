"""SPAN invariants: the properties every generated question must have
(``tsolve stress span`` and the property tests).

They recompute what the generator claims by an independent route: the
calendar tables and festival rules, and every reading the question text
leaves open.
"""

from __future__ import annotations

from typing import Any

from tsolve.calendars.conversion import convert, date_of
from tsolve.calendars.domain import parse_iso
from tsolve.calendars.festivals import festival_day, get_festival
from tsolve.errors import TsolveError
from tsolve.families.span.encoding import (
    answers_under,
    label_under,
    named_readings,
    question_of,
)
from tsolve.families.span.generate import generate_question, window_days
from tsolve.generators.record_checks import Violations, round_trip, same_record


def span_invariants(rec: dict[str, Any], seed: int, index: int, cfg: Any) -> Violations:
    """The gold date round-trips through the calendar tables, equals the offset
    or festival rule recomputed independently, and a polar "No" candidate is a
    real date of the target calendar that is not the answer."""
    out: Violations = []
    same_record(generate_question(seed, index, cfg), rec, out)
    round_trip(rec, out)
    p = rec["params"]
    detail = rec.get("gold_detail") or {}
    tgt = p["target_calendar"]

    def check_date(what: str, obj: dict[str, Any]) -> int | None:
        """``obj`` (a date_json) converts both ways to the same day."""
        cal = obj["calendar"]
        day = parse_iso(obj["gregorian"], what).toordinal()
        conv = convert([day], cal)
        fields = (int(conv.year[0]), int(conv.month[0]), int(conv.day[0]))
        if fields != (obj["year"], obj["month"], obj["day"]):
            out.append(
                (
                    f"{what}-table",
                    f"{obj['gregorian']} is {fields} in {cal}, record says "
                    f"{(obj['year'], obj['month'], obj['day'])}",
                )
            )
        try:
            back = date_of(cal, obj["year"], obj["month"], obj["day"], bool(obj.get("leap", False)))
        except TsolveError as exc:
            out.append((f"{what}-valid", f"{obj['text']!r} is not a valid {cal} date: {exc}"))
            return day
        if back != day:
            out.append(
                (
                    f"{what}-roundtrip",
                    f"{obj['text']!r} converts back to day {back}, not {obj['gregorian']}",
                )
            )
        return day

    gold = check_date("gold", rec["gold"])
    ref = check_date("reference", p["reference_date"])
    lo, hi = window_days(cfg)
    if ref is not None and not lo <= ref <= hi:
        out.append(("reference", f"reference {p['reference_date']['gregorian']} is outside "
                                 f"{cfg.window_text()}"))  # fmt: skip

    # The gold date, recomputed from the question's parameters.
    sign = -1 if p["sign"] == "ago" else 1
    if rec["type"] == "date" and ref is not None:
        step = {"days": 1, "weeks": 7}[p["unit"]]
        expect: int | None = ref + sign * p["offset"] * step
    elif p.get("festival"):
        fest = get_festival(p["festival"]["key"])
        year = p["reference_date"]["year"] + sign * p["offset"]
        if year != detail.get("festival_year"):
            out.append(("festival-year", f"festival year {detail.get('festival_year')}, "
                                         f"expected {year}"))  # fmt: skip
        expect = festival_day(fest, year, p["source_calendar"])  # the variant the text names
    else:
        expect = None
        out.append(("params", "festival question without a festival"))
    if expect is not None and gold is not None and expect != gold:
        out.append(("gold", f"gold is {rec['gold']['gregorian']}, recomputed day {expect}"))

    if rec["format"] == "polar":
        cand_json = p.get("candidate")
        if not isinstance(cand_json, dict):
            out.append(("polar", "polar question without a candidate"))
        else:
            cand = check_date(
                "candidate", {**cand_json, "gregorian": detail.get("candidate_gregorian")}
            )
            kind = detail.get("near_miss")
            if (kind == "gold") != (rec["answer"] == "Yes"):
                out.append(("polar-kind", f"near_miss {kind!r} on a {rec['answer']!r} item"))
            if rec["answer"] == "Yes" and cand != gold:
                out.append(("polar-yes", "answer Yes but the candidate is not the gold date"))
            if rec["answer"] == "No" and (cand == gold or cand_json["text"] == rec["gold"]["text"]):
                out.append(("polar-no", "answer No but the candidate is the gold date"))
            if rec["answer"] not in ("Yes", "No"):
                out.append(("polar", f"polar answer {rec['answer']!r}"))
        if not cfg.balanced and rec["answer"] != "Yes":
            out.append(("polar", "unbalanced mode must answer Yes"))
    elif rec["answer"] != rec["gold"]["text"]:
        out.append(("content", f"answer {rec['answer']!r} is not the gold text"))
    if rec["gold"]["calendar"] != tgt:
        out.append(("gold", f"gold is in {rec['gold']['calendar']}, target is {tgt}"))
    _span_readings(rec, out)
    return out


def _span_readings(rec: dict[str, Any], out: Violations) -> None:
    """Every reading the question text leaves open gives the gold (and label),
    and the record lists exactly those readings."""
    q = question_of(rec)
    g = rec["gold"]
    gold = frozenset({(g["year"], g["month"], g["day"], bool(g.get("leap", False)))})
    readings = named_readings(q, rec["question"])
    names = [name for _r, name in readings]
    if names != rec.get("readings"):
        out.append(("readings", f"record lists {rec.get('readings')}, text leaves {names} open"))
    for r, name in readings:
        if answers_under(q, r) != gold:
            out.append(("reading-gold", f"under {name} the answer is not the gold"))
        if q.fmt == "polar" and label_under(q, r) != rec["answer"]:
            out.append(("reading-label", f"under {name} the label is not {rec['answer']}"))
