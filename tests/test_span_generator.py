"""SPAN question generation: gold answers recomputed by an independent oracle
(the calendar libraries called directly, not tsolve's tables), near misses
really false, balance, determinism, CLI."""

from __future__ import annotations

import collections
import datetime as dt
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.errors import TsolveError
from tsolve.generators.span import DIRECTIONS, SpanConfig, generate_question, generate_questions

# ------------------------------------------------------------ the oracle


def lib_fields(cal: str, g: dt.date) -> tuple[int, int, int, bool]:
    """(year, month, day, leap) of Gregorian ``g`` in ``cal``, from a library."""
    if cal == "gregorian":
        return (g.year, g.month, g.day, False)
    if cal == "chinese":
        from lunarcalendar.converter import Converter, Solar

        lu = Converter.Solar2Lunar(Solar(g.year, g.month, g.day))
        return (lu.year, lu.month, lu.day, bool(lu.isleap))
    if cal == "hebrew":
        import pyluach.dates as pd

        h = pd.GregorianDate(g.year, g.month, g.day).to_heb()
        return (h.year, h.month, h.day, False)
    if cal == "persian":
        import jdatetime

        j = jdatetime.date.fromgregorian(date=g)
        return (j.year, j.month, j.day, False)
    from convertdate import indian_civil, islamic

    mod = islamic if cal == "islamic" else indian_civil
    return (*mod.from_gregorian(g.year, g.month, g.day), False)


def lib_gregorian(cal: str, y: int, m: int, d: int, leap: bool = False) -> dt.date:
    if cal == "gregorian":
        return dt.date(y, m, d)
    if cal == "chinese":
        from lunarcalendar.converter import Lunar

        return Lunar(y, m, d, isleap=leap).to_date()  # checks existence
    if cal == "hebrew":
        import pyluach.dates as pd

        return pd.HebrewDate(y, m, d).to_pydate()
    if cal == "persian":
        import jdatetime

        return jdatetime.date(y, m, d).togregorian()
    from convertdate import indian_civil, islamic

    mod = islamic if cal == "islamic" else indian_civil
    return dt.date(*mod.to_gregorian(y, m, d))


# Festival rules as published (SPAN Appendix A, Wikipedia), written out here.
FESTIVAL_RULES = {
    "Halloween": (10, 31), "Christmas Day": (12, 25), "New Year's Day": (1, 1),
    "Valentine's Day": (2, 14), "International Women's Day": (3, 8),
    "International Workers' Day": (5, 1), "International Children's Day": (6, 1),
    "Chinese New Year": (1, 1), "Lantern Festival": (1, 15), "Dragon Boat Festival": (5, 5),
    "Chinese Valentine's Day": (7, 7), "Ghost Festival": (7, 15), "Mid-Autumn Festival": (8, 15),
    "Hijri New Year": (1, 1), "Isra and Mi'raj": (7, 27), "Eid al-Fitr": (10, 1),
    "Eid al-Adha": (12, 10), "Persian New Year": (1, 1), "Sizdah Be-dar": (1, 13),
    "Mehregan Festival": (7, 10), "Tirgan Festival": (4, 13), "Rosh Hashanah": (7, 1),
    "Yom Kippur": (7, 10), "Passover": (1, 15), "Hanukkah": (9, 25),
    "Indian National New Year": (1, 1),
}  # fmt: skip


def oracle(rec: dict[str, Any]) -> tuple[int, int, int, bool]:
    p = rec["params"]
    src, tgt = p["source_calendar"], p["target_calendar"]
    ref = dt.date.fromisoformat(rec["generator"]["params"]["date"])
    sgn = -1 if p["sign"] == "ago" else 1
    if rec["type"] == "date":
        step = {"days": 1, "weeks": 7}[p["unit"]]
        g = ref + dt.timedelta(days=sgn * p["offset"] * step)
    else:
        year = lib_fields(src, ref)[0] + sgn * p["offset"]
        name = p["festival"]["name"]
        if name == "Purim":
            import pyluach.utils

            m, d = (13 if pyluach.utils._is_leap(year) else 12), 14
        else:
            m, d = FESTIVAL_RULES[name]
        g = lib_gregorian(src, year, m, d)
    return lib_fields(tgt, g)


def gold_tuple(gold: dict[str, Any]) -> tuple[int, int, int, bool]:
    return (gold["year"], gold["month"], gold["day"], bool(gold.get("leap", False)))


def check_record(rec: dict[str, Any]) -> None:
    want = oracle(rec)
    assert gold_tuple(rec["gold"]) == want, rec["question"]
    assert lib_gregorian(rec["gold"]["calendar"], *want) == dt.date.fromisoformat(
        rec["gold"]["gregorian"]
    )
    if rec["format"] == "polar":
        cand = rec["params"]["candidate"]
        ct = gold_tuple(cand)
        # The candidate is a real date of the target calendar ...
        g = lib_gregorian(cand["calendar"], *ct)
        assert lib_fields(cand["calendar"], g) == ct
        # ... and it is the answer exactly when the label says Yes.
        assert (ct == want) == (rec["answer"] == "Yes")
        assert cand["text"] in rec["question"]
    else:
        assert str(want[0]) in rec["answer"] and str(want[2]) in rec["answer"]


# ------------------------------------------------------------ tests


def test_first_block_covers_every_cell_and_is_correct() -> None:
    recs = list(generate_questions(80, seed=3, config=SpanConfig(date="2024-07-01")))
    cells = collections.Counter((r["direction"], r["type"], r["format"]) for r in recs)
    assert len(cells) == 10 * 2 * 2 and set(cells.values()) == {2}
    assert {r["direction"] for r in recs} == {f"{a}->{b}" for a, b in DIRECTIONS}
    polar = collections.Counter(r["answer"] for r in recs if r["format"] == "polar")
    assert polar == {"Yes": 20, "No": 20}
    for r in recs:
        check_record(r)


@settings(max_examples=25, deadline=None)
@given(
    st.dates(dt.date(1902, 1, 1), dt.date(2099, 12, 31)),
    st.integers(0, 2**31),
    st.integers(0, 10_000),
)
def test_random_records_match_the_oracle(ref: dt.date, seed: int, index: int) -> None:
    cfg = SpanConfig(date=ref.isoformat())
    for i in range(index, index + 4):
        check_record(generate_question(seed, i, cfg))


def test_near_misses_are_false_and_varied() -> None:
    recs = [r for r in generate_questions(800, seed=11) if r["answer"] == "No"]
    kinds = collections.Counter(r["params"]["candidate"]["near_miss"] for r in recs)
    assert {"day", "month", "year"} <= set(kinds)
    for r in recs[:120]:
        check_record(r)
        assert r["params"]["candidate"]["gregorian"] != r["gold"]["gregorian"]


def test_all_yes_mode_like_span() -> None:
    recs = list(generate_questions(80, seed=1, config=SpanConfig(balanced=False)))
    assert {r["answer"] for r in recs if r["format"] == "polar"} == {"Yes"}


def test_record_is_pure_function_of_seed_and_index() -> None:
    cfg = SpanConfig(date="1987-03-05")
    a = [json.dumps(r, sort_keys=True) for r in generate_questions(60, 5, cfg)]
    b = [json.dumps(generate_question(5, i, cfg), sort_keys=True) for i in range(59, -1, -1)][::-1]
    c = [json.dumps(r, sort_keys=True) for r in generate_questions(30, 5, cfg, start=30)]
    assert a == b and a[30:] == c
    assert a != [json.dumps(r, sort_keys=True) for r in generate_questions(60, 6, cfg)]


def test_record_fields() -> None:
    r = generate_question(0, 25, SpanConfig(date="2024-07-01"))
    assert r["family"] == "span"
    assert r["generator"]["name"] == "span" and r["generator"]["index"] == 25
    assert r["generator"]["params"]["date"] == "2024-07-01"
    assert {"source_calendar", "target_calendar", "reference_date", "offset", "unit",
            "sign", "festival"} <= set(r["params"])  # fmt: skip
    assert r["question"].startswith("Today\u2019s date on the ")
    assert r["prompt"].startswith(r["question"]) and "MY ANSWER" in r["prompt"]


def test_questions_use_month_names() -> None:
    recs = list(generate_questions(40, seed=2))
    heb = [r for r in recs if r["direction"] == "gregorian->hebrew" and r["format"] == "content"]
    names = [
        "Nisan",
        "Iyar",
        "Sivan",
        "Tammuz",
        "Av",
        "Elul",
        "Tishrei",
        "Cheshvan",
        "Kislev",
        "Tevet",
        "Shevat",
        "Adar",
    ]
    assert heb and all(any(n in r["answer"] for n in names) for r in heb)
    per = [r for r in recs if r["direction"] == "persian->gregorian"]
    assert all("Tir 1403" in r["question"] for r in per)  # 2024-07-01 = 11 Tir 1403


def test_edges_of_the_range_flip_direction() -> None:
    for date in ("1900-02-01", "2100-12-30"):
        for r in generate_questions(40, seed=0, config=SpanConfig(date=date)):
            check_record(r)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"date": "2024-02-30"}, "2024-02-30"), ({"max_days": 0}, "max-days"),
     ({"date": "1800-01-01"}, "outside")],
)  # fmt: skip
def test_bad_config(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(TsolveError, match=message):
        list(generate_questions(1, 0, SpanConfig(**kwargs)))


def _cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", "from tsolve.cli.app import main; main()", "span", *args],
        capture_output=True, timeout=120,
    )  # fmt: skip


def test_cli_byte_identical_and_sharded() -> None:
    a = _cli("--date", "2024-07-01", "--count", "50", "--seed", "9")
    b = _cli("--date", "2024-07-01", "--count", "50", "--seed", "9")
    c = _cli("--date", "2024-07-01", "--count", "20", "--seed", "9", "--start", "30")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert a.stdout.splitlines()[30:] == c.stdout.splitlines()
    rec = json.loads(a.stdout.splitlines()[0])
    assert rec["family"] == "span"
    t = _cli("--date", "2024-07-01", "--count", "2", "--format", "text")
    assert b"Q: Today" in t.stdout
    bad = _cli("--date", "2024-7-32")
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1
