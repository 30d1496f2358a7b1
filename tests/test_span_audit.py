"""SPAN auditor: hand-made records with known verdicts, the old generator's
records checked against an independent computation of every reading, and the
new generator's records all ``ok``."""

from __future__ import annotations

import datetime as dt
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from span_oracle import FESTIVAL_RULES, OLD_ISLAMIC, gold_tuple, lib_fields, lib_gregorian

from tsolve.audit import auditor_for
from tsolve.errors import TsolveError
from tsolve.families.span.audit import audit_span
from tsolve.families.span.generate import SpanConfig, generate_question

FIXTURE = Path(__file__).parent / "fixtures" / "span_v1_sample.jsonl"


# Rosh Hashanah 5786 fell on 2025-09-23 (beginning at sundown on 09-22) and
# Rosh Hashanah 5787 on 2026-09-12 (published Jewish calendars). 2024-07-01 is
# 25 Sivan 5784; "2 years later" in Hebrew years is 5786, in Gregorian years 2026.
OLD_ROSH_HASHANAH: dict[str, Any] = {
    "id": "old-rh", "family": "span", "type": "festival", "format": "content",
    "direction": "hebrew->gregorian",
    "question": "Today\u2019s date on the Hebrew calendar is \u201c25 Sivan 5784\u201d. What is "
                "the Gregorian calendar date of the festival \u201cRosh Hashanah\u201d "
                "2 years later?",
    "params": {"source_calendar": "hebrew", "target_calendar": "gregorian",
               "reference_date": {"calendar": "hebrew", "year": 5784, "month": 3, "day": 25},
               "offset": 2, "unit": "years", "sign": "later",
               "festival": {"key": "rosh-hashanah", "name": "Rosh Hashanah"}},
    "answer": "September 23, 2025",
    "gold": {"calendar": "gregorian", "year": 2025, "month": 9, "day": 23,
             "text": "September 23, 2025", "gregorian": "2025-09-23"},
}  # fmt: skip


def test_gold_that_depends_on_the_islamic_variant_is_ambiguous() -> None:
    v = audit_span(OLD_ISLAMIC)
    assert v.verdict == "ambiguous"
    assert v.detail["reading"] == "islamic:umm-al-qura"
    assert v.detail["answers"] == ["August 25, 2024"]
    assert "islamic:umm-al-qura" in v.readings and v.readings[0] == "canonical"


def test_naming_the_variant_makes_it_ok() -> None:
    named = {**OLD_ISLAMIC, "question": OLD_ISLAMIC["question"].replace(
        "the Islamic", "the tabular (arithmetical) Islamic")}  # fmt: skip
    v = audit_span(named)
    assert v.verdict == "ok" and "islamic:umm-al-qura" not in v.readings


def test_wrong_gold_is_inconsistent_with_the_conversion_as_proof() -> None:
    wrong = {**OLD_ISLAMIC, "answer": "August 27, 2024",
             "gold": {**OLD_ISLAMIC["gold"], "day": 27, "text": "August 27, 2024",
                      "gregorian": "2024-08-27"}}  # fmt: skip
    v = audit_span(wrong)
    assert v.verdict == "inconsistent"
    pf = v.detail["proof"]
    assert pf["reference"].endswith("2024-07-01")
    assert pf["computed"] == ["August 26, 2024"] and pf["stored_gold"] == "August 27, 2024"


def test_wrong_polar_label_is_inconsistent() -> None:
    # Candidate 2024-09-30 is a month away from the answer under every
    # reading (tabular: 26 August; Umm al-Qura: a day either side), so "Yes"
    # is wrong whoever reads the question.
    rec = {**OLD_ISLAMIC, "format": "polar", "answer": "Yes",
           "params": {**OLD_ISLAMIC["params"], "candidate": {
               "calendar": "gregorian", "year": 2024, "month": 9, "day": 30}}}  # fmt: skip
    v = audit_span(rec)
    assert v.verdict == "inconsistent"
    assert {c["label"] for c in v.detail["cases"]} <= {"No"}


def test_polar_label_of_another_reading_is_ambiguous_not_inconsistent() -> None:
    # "No" for the tabular answer (26 August) is what a reader who takes the
    # unnamed Islamic calendar as Umm al-Qura says: the audit may not call it
    # wrong, only ambiguous, naming that reading.
    rec = {**OLD_ISLAMIC, "format": "polar", "answer": "No",
           "params": {**OLD_ISLAMIC["params"], "candidate": {
               "calendar": "gregorian", "year": 2024, "month": 8, "day": 26}}}  # fmt: skip
    v = audit_span(rec)
    assert v.verdict == "ambiguous"
    assert "islamic:umm-al-qura" in v.detail["gold_readings"]
    assert all("umm-al-qura" in n for n in v.detail["gold_readings"])
    assert "canonical" in v.detail["other_readings"]


def test_year_counting_and_eve_readings() -> None:
    v = auditor_for("span")(OLD_ROSH_HASHANAH)
    assert v.verdict == "ambiguous"
    found = {d["reading"]: d["answers"] for d in v.detail["differing"]}
    assert found["years:gregorian"] == ["September 12, 2026"]
    assert found["festival-day:eve"] == ["September 22, 2025"]


def test_unreadable_record_is_one_line_error() -> None:
    with pytest.raises(TsolveError, match=r"params\.unit"):
        audit_span({**OLD_ISLAMIC, "params": {**OLD_ISLAMIC["params"], "unit": "fortnights"}})
    with pytest.raises(TsolveError, match="gold"):
        audit_span({**OLD_ISLAMIC, "gold": None})


# ------------------------------------------------ old records, independently


def _festival_days(src: str, name: str, year: int) -> dt.date | None:
    if name == "Purim":  # 14 Adar, 14 Adar II in a leap year
        import pyluach.utils

        m, d = (13 if pyluach.utils._is_leap(year) else 12), 14
    else:
        m, d = FESTIVAL_RULES[name]
    try:
        return lib_gregorian(src, year, m, d)
    except Exception:  # out of a library's range or no such date
        return None


def _independent_answers(rec: dict[str, Any], uq: bool, greg_years: bool,
                         eve: bool) -> set[tuple[int, int, int, bool]]:  # fmt: skip
    """The record's answers under one reading, from the libraries."""
    p = rec["params"]
    swap = {"islamic": "islamic-umalqura"} if uq else {}
    src = swap.get(p["source_calendar"], p["source_calendar"])
    tgt = swap.get(p["target_calendar"], p["target_calendar"])
    r = p["reference_date"]
    ref = lib_gregorian(src, r["year"], r["month"], r["day"])
    sgn = -1 if p["sign"] == "ago" else 1
    if rec["type"] == "date":
        days = [ref + dt.timedelta(days=sgn * p["offset"] * (7 if p["unit"] == "weeks" else 1))]
    elif greg_years:
        g_year = ref.year + sgn * p["offset"]
        own = lib_fields(src, dt.date(g_year, 1, 1))[0]
        days = [
            x
            for y in (own - 1, own, own + 1)
            if (x := _festival_days(src, p["festival"]["name"], y)) and x.year == g_year
        ]
    else:
        x = _festival_days(src, p["festival"]["name"], r["year"] + sgn * p["offset"])
        days = [x] if x else []
    if eve:
        days = [x - dt.timedelta(days=1) for x in days]
    return {lib_fields(tgt, x) for x in days}


def _independently_ambiguous(rec: dict[str, Any]) -> bool:
    p = rec["params"]
    islamic = "islamic" in (p["source_calendar"], p["target_calendar"])
    fest = rec["type"] == "festival" and p["source_calendar"] != "gregorian"
    sundown = fest and p["source_calendar"] in ("hebrew", "islamic")
    gold = gold_tuple(rec["gold"])
    for uq, gy, eve in itertools.product(*[(False, True) if a else (False,)
                                           for a in (islamic, fest, sundown)]):  # fmt: skip
        if not (uq or gy or eve):
            continue
        ans = _independent_answers(rec, uq, gy, eve)
        if rec["format"] == "polar":
            label = "Yes" if gold_tuple(rec["params"]["candidate"]) in ans else "No"
            if label != rec["answer"]:
                return True
        elif ans != {gold}:
            return True
    return False


def test_old_generator_records_ambiguous_exactly_where_the_libraries_say() -> None:
    # 2024 is far from every disputed month start, so the three axes above are
    # all the readings of these records.
    recs = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    assert all(r["generator"]["version"] == "1" for r in recs)
    verdicts = [audit_span(r) for r in recs]
    assert all(v.verdict != "inconsistent" for v in verdicts)
    flagged = [v.verdict == "ambiguous" for v in verdicts]
    expected = [_independently_ambiguous(r) for r in recs]
    assert flagged == expected
    assert sum(flagged) >= 15  # the issue: about half the Islamic items, a quarter of festivals
    kinds = {v.detail["reading"].split(":")[0] for v in verdicts if v.verdict == "ambiguous"}
    assert {"islamic", "years", "festival-day"} <= kinds


# ------------------------------------------------ new records


@settings(max_examples=examples(12), deadline=None)
@given(
    st.sampled_from(["2024-07-01", "1950-03-15", "2063-01-20", "2057-08-15", "2089-07-01",
                     "1930-01-01", "2097-06-20"]),
    st.integers(0, 2**31),
    st.integers(0, 5_000),
)  # fmt: skip
def test_new_generator_records_are_all_ok(date: str, seed: int, index: int) -> None:
    cfg = SpanConfig(date=date, max_years=20)
    for i in range(index, index + 12):
        rec = generate_question(seed, i, cfg)
        v = audit_span(rec)
        assert v.verdict == "ok", (rec["question"], v.to_json())
        assert v.readings == rec["readings"]


MUTATIONS: list[tuple[tuple[str, ...], Any]] = [
    (("params", "offset"), 10**12), (("params", "offset"), -3), (("params", "offset"), 10**6),
    (("params", "reference_date", "year"), 10**9), (("params", "reference_date", "month"), 99),
    (("params", "reference_date", "month"), "x"), (("params", "reference_date", "day"), 0),
    (("params", "reference_date"), 3), (("gold", "month"), 77), (("gold", "year"), None),
    (("gold",), "x"), (("params", "festival"), {"key": "nope"}), (("params", "festival"), None),
    (("params", "candidate"), None), (("params", "candidate", "month"), 55),
    (("params", "candidate", "year"), -5), (("params", "source_calendar"), "mayan"),
    (("params", "source_calendar"), "islamic-umalqura"),
    (("params", "target_calendar"), "islamic-umalqura"), (("format",), "essay"),
    (("params",), []), (("question",), None), (("params", "unit"), None),
]  # fmt: skip


def _mutate(rec: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any] | None:
    out = json.loads(json.dumps(rec))
    obj = out
    for key in path[:-1]:
        if not isinstance(obj, dict) or not isinstance(obj.get(key), dict):
            return None
        obj = obj[key]
    obj[path[-1]] = value
    return out


def test_hostile_records_give_a_verdict_or_a_one_line_error() -> None:
    from tsolve.families.span.score import score_span

    cfg = SpanConfig()
    recs = [generate_question(0, i, cfg) for i in range(48)] + [OLD_ISLAMIC, OLD_ROSH_HASHANAH]
    for rec in recs:
        for path, value in MUTATIONS:
            bad = _mutate(rec, path, value)
            if bad is None:
                continue
            try:
                json.dumps(audit_span(bad).to_json())
            except TsolveError as exc:
                assert "\n" not in str(exc)
            for output in ("MY ANSWER: Yes", "MY ANSWER: 5 Tir 1403", "MY ANSWER: 2024-13-40"):
                try:  # a bad record scores, or is rejected in one line (the batch reports it)
                    score_span(bad, output)
                except TsolveError as exc:
                    assert "\n" not in str(exc)
