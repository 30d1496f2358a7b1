"""The agent tools as plain functions (tsolve.adapters.agent_tools), against sources
that are not tsolve: pyluach (Hebrew), jdatetime (Persian), lunardate
(Chinese), the arithmetic definitions of the tabular Islamic and Shaka
calendars written out here, datetime for Gregorian arithmetic, and published
festival dates. tests/test_mcp_server.py calls the same tools through an MCP
client; this file covers the values and the argument checks more widely."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.adapters import agent_tools as tools
from tsolve.calendars.names import calendar_key
from tsolve.calendars.tables import CALENDARS
from tsolve.errors import TsolveError

# ------------------------------------------------------------ independent sources


def tabular_islamic_ordinal(year: int, month: int, day: int) -> int:
    """Calendrical Calculations' fixed-from-islamic (epoch 16 July 622 Julian =
    ordinal 227015; leap years 2, 5, 7, 10, 13, 16, 18, 21, 24, 26, 29)."""
    return 227014 + (year - 1) * 354 + (3 + 11 * year) // 30 + 29 * (month - 1) + month // 2 + day


def tabular_islamic(g: dt.date) -> tuple[int, int, int]:
    n = g.toordinal()
    year = (30 * (n - 227015) + 10646) // 10631
    while tabular_islamic_ordinal(year + 1, 1, 1) <= n:
        year += 1
    while tabular_islamic_ordinal(year, 1, 1) > n:
        year -= 1
    month = 12
    while tabular_islamic_ordinal(year, month, 1) > n:
        month -= 1
    return year, month, n - tabular_islamic_ordinal(year, month, 1) + 1


def shaka(g: dt.date) -> tuple[int, int, int]:
    """The Indian national calendar's rule: 1 Chaitra = 22 March (21 March in a
    Gregorian leap year) of year S + 78; Chaitra 30 days (31 in leap years),
    Vaishakha..Bhadrapada 31, Ashvin..Phalguna 30."""

    def months(s: int) -> list[tuple[int, int]]:
        gy = s + 78
        leap = gy % 4 == 0 and (gy % 100 != 0 or gy % 400 == 0)
        start = dt.date(gy, 3, 21 if leap else 22).toordinal()
        out = []
        for m in range(1, 13):
            out.append((m, start))
            start += (31 if leap else 30) if m == 1 else 31 if m <= 6 else 30
        return out

    s = g.year - 78 if g >= dt.date(g.year, 3, 21) else g.year - 79
    for year in (s + 1, s, s - 1):
        for m, start in reversed(months(year)):
            if start <= g.toordinal():
                return year, m, g.toordinal() - start + 1
    raise AssertionError(g)


def reference(g: dt.date) -> dict[str, tuple[Any, ...]]:
    """``g`` in five calendars, each from a source other than tsolve."""
    import jdatetime
    import lunardate
    import pyluach.dates as pd

    h = pd.GregorianDate(g.year, g.month, g.day).to_heb()  # Nisan = 1, Adar II = 13
    p = jdatetime.date.fromgregorian(date=g)
    c = lunardate.LunarDate.from_solar_date(g.year, g.month, g.day)
    return {
        "hebrew": (h.year, h.month, h.day),
        "persian": (p.year, p.month, p.day),
        "chinese": (c.year, c.month, c.day, bool(c.is_leap_month)),
        "islamic": tabular_islamic(g),
        "shaka": shaka(g),
    }


def fields(entry: dict[str, Any], cal: str) -> tuple[Any, ...]:
    v = entry["calendars"][cal]
    return (v["year"], v["month"], v["day"]) + ((v["leap"],) if cal == "chinese" else ())


WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# lunardate and the Hong Kong Observatory tables tsolve follows differ by a day
# in a few lunar months (1933, 1954, 1978, 2057, ...; tests/test_calendars_crosscheck.py):
# this range has none of them.
DAYS = st.dates(dt.date(1979, 1, 1), dt.date(2056, 12, 31))

# ------------------------------------------------------------ search_calendar


@settings(max_examples=examples(60), deadline=None)
@given(DAYS)
def test_search_calendar_gregorian_date_against_other_libraries(g: dt.date) -> None:
    out = tools.search_calendar("Gregorian calendar", g.year, g.month, g.day)
    (entry,) = out["entries"]
    assert entry["date"] == g.isoformat()
    assert entry["weekday"] == WEEKDAYS[g.weekday()]
    assert fields(entry, "gregorian") == (g.year, g.month, g.day)
    for cal, want in reference(g).items():
        assert fields(entry, cal) == want, cal


@settings(max_examples=examples(60), deadline=None)
@given(DAYS, st.sampled_from(["hebrew", "persian", "chinese", "islamic", "shaka"]))
def test_search_calendar_from_each_calendar_lands_on_the_same_day(g: dt.date, cal: str) -> None:
    """A date given in another calendar (as that calendar's library writes it)
    comes back as the Gregorian day the library started from."""
    want = reference(g)[cal]
    month: int | str = f"L{want[1]}" if cal == "chinese" and want[3] else want[1]
    (entry,) = tools.search_calendar(cal, want[0], month, want[2])["entries"]
    assert entry["date"] == g.isoformat()


def test_month_names_and_span_calendar_names() -> None:
    # 15 Nisan 5784 is the first day of Passover 2024 (hebcal).
    for name in ("Hebrew calendar", "hebrew", "HEBREW", "Jewish"):
        (entry,) = tools.search_calendar(name, 5784, "Nisan", 15)["entries"]
        assert entry["date"] == "2024-04-23"
    (entry,) = tools.search_calendar("Hebrew", 5784, "Adar II", 14)["entries"]
    assert entry["date"] == "2024-03-24"  # Purim 2024, a leap year


@pytest.mark.parametrize(
    ("spelling", "key"),
    [
        ("Gregorian calendar", "gregorian"),
        ("Chinese lunar calendar", "chinese"),
        ("Chinese Lunar", "chinese"),
        ("Islamic calendar", "islamic"),
        ("tabular (arithmetical) Islamic calendar", "islamic"),  # tsolve's SPAN wording
        ("Umm al-Qura Islamic calendar", "islamic-umalqura"),
        ("islamic_umalqura", "islamic-umalqura"),
        ("Persian calendar", "persian"),
        ("Shaka calendar", "shaka"),
        ("Saka", "shaka"),
    ],
)
def test_calendar_spellings(spelling: str, key: str) -> None:
    assert calendar_key(spelling) == key


def test_every_tsolve_calendar_key_is_accepted() -> None:
    assert [calendar_key(c) for c in CALENDARS] == list(CALENDARS)


# Published dates (Hong Kong Observatory, hebcal, the Iranian calendar,
# timeanddate.com); none computed by tsolve.
FESTIVALS = [
    ("Chinese lunar calendar", 2024, "Chinese New Year", ["2024-02-10"]),
    ("Chinese lunar calendar", 2023, "Mid-Autumn Festival", ["2023-09-29"]),
    ("gregorian", 2024, "Mid-Autumn Festival", ["2024-09-17"]),
    ("Persian calendar", 1403, "Persian New Year", ["2024-03-20"]),
    ("Hebrew calendar", 5785, "Rosh Hashanah", ["2024-10-03"]),
    ("Gregorian calendar", 2024, "Christmas Day", ["2024-12-25"]),
    # 1 Muharram 1429 and 1 Muharram 1430 both fell in 2008.
    ("Gregorian calendar", 2008, "Hijri New Year", ["2008-01-10", "2008-12-29"]),
]


@pytest.mark.parametrize(("cal", "year", "name", "dates"), FESTIVALS)
def test_search_calendar_festival_schema(cal: str, year: int, name: str, dates: list[str]) -> None:
    out = tools.search_calendar(cal, year, festival_name=name)
    assert [e["date"] for e in out["entries"]] == dates
    for e in out["entries"]:
        g = dt.date.fromisoformat(e["date"])
        assert e["weekday"] == WEEKDAYS[g.weekday()]
        for other, want in reference(g).items():
            assert fields(e, other) == want, other


def test_days_outside_a_tables_range_are_null_in_search_calendar() -> None:
    # The Umm al-Qura table starts in 1924; 1910 still converts to the others.
    (entry,) = tools.search_calendar("gregorian", 1910, 5, 1)["entries"]
    assert entry["calendars"]["islamic-umalqura"] is None
    assert fields(entry, "hebrew") == reference(dt.date(1910, 5, 1))["hebrew"]


# ------------------------------------------------------------ convert / festival


def test_convert_date_to_chosen_calendars() -> None:
    g = dt.date(2023, 4, 5)  # in the Chinese leap 2nd month of 2023
    want = reference(g)
    assert want["chinese"][3]
    out = tools.convert_date(
        f"{want['chinese'][0]}-L2-{want['chinese'][2]}",
        "Chinese lunar",
        ["Hebrew calendar", "islamic"],
    )
    assert out["entry"]["date"] == g.isoformat()
    assert list(out["entry"]["calendars"]) == ["hebrew", "islamic"]
    assert fields(out["entry"], "hebrew") == want["hebrew"]
    assert fields(out["entry"], "islamic") == want["islamic"]


def test_convert_date_defaults_to_gregorian_into_every_calendar() -> None:
    out = tools.convert_date("2024-02-29")
    assert out["from"] == "gregorian"
    assert list(out["entry"]["calendars"]) == list(CALENDARS)
    assert out["entry"]["weekday"] == "Thursday"


def test_festival_date_in_gregorian_and_own_years() -> None:
    out = tools.festival_date("Eid al-Adha", 1445, "islamic")
    (entry,) = out["dates"]
    assert entry["date"] == dt.date.fromordinal(tabular_islamic_ordinal(1445, 12, 10)).isoformat()
    assert out["festival"] == "eid-al-adha" and out["rule"] == "islamic 12/10"
    assert list(entry["calendars"]) == ["gregorian", "islamic"]
    nowruz = tools.festival_date("Nowruz", 2025)
    assert [e["date"] for e in nowruz["dates"]] == ["2025-03-21"]  # Iranian calendar


# ------------------------------------------------------------ solve_facts


def days_where(pred: Any, start: dt.date, end: dt.date) -> list[str]:
    n = (end - start).days + 1
    return [d.isoformat() for d in (start + dt.timedelta(i) for i in range(n)) if pred(d)]


def test_solve_facts_answer_set_matches_datetime() -> None:
    facts = [
        {"kind": "weekday", "params": {"weekday": "Friday"}},
        {"kind": "day_of_month", "params": {"day": 13}},
        {"kind": "year", "params": {"year": 2026}},
    ]
    out = tools.solve_facts(facts)
    want = days_where(
        lambda d: d.weekday() == 4 and d.day == 13, dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    assert out["answers"] == want
    assert out["count"] == len(want) and out["status"] == "complete" and out["complete"]
    assert [f["kind"] for f in out["facts"]] == ["weekday", "day_of_month", "year"]


@pytest.mark.parametrize("backend", ["cpsat", "z3", "enumerator"])
def test_solve_facts_over_a_domain_on_every_backend(backend: str) -> None:
    facts = [
        {"kind": "month", "params": {"month": 2}},
        {"kind": "leap_year", "params": {"leap": True}},
    ]
    out = tools.solve_facts(facts, {"start": "1990-01-01", "end": "2010-12-31"}, backend=backend)
    leap = [y for y in range(1990, 2011) if (y % 4 == 0 and y % 100 != 0) or y % 400 == 0]
    want = [
        d for y in leap for d in days_where(lambda _: True, dt.date(y, 2, 1), dt.date(y, 2, 29))
    ]
    assert out["answers"] == want and out["status"] == "complete"


def test_solve_facts_says_when_the_limit_stopped_it() -> None:
    out = tools.solve_facts([{"kind": "weekday", "params": {"weekday": "Monday"}}], limit=3)
    assert out["status"] == "limit" and not out["complete"] and out["count"] == 3
    mondays = days_where(lambda d: d.weekday() == 0, dt.date(1900, 1, 31), dt.date(1900, 3, 31))
    assert out["answers"] == mondays[:3]


def test_solve_facts_unsat() -> None:
    out = tools.solve_facts(
        [{"kind": "month", "params": {"month": 2}}, {"kind": "day_of_month", "params": {"day": 30}}]
    )
    assert out == {**out, "answers": [], "count": 0, "status": "unsat", "complete": True}


# ------------------------------------------------------------ verify_answer


def friday_13_record() -> dict[str, Any]:
    facts = [
        {"kind": "weekday", "params": {"weekday": "Friday"}},
        {"kind": "day_of_month", "params": {"day": 13}},
        {"kind": "year", "params": {"year": 2026}},
    ]
    gold = days_where(
        lambda d: d.weekday() == 4 and d.day == 13, dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    return {"id": "friday-13", "family": "time-puzzles", "facts": facts, "answers": gold}


def test_verify_answer_right_and_wrong() -> None:
    rec = friday_13_record()
    right = tools.verify_answer(rec, "Reasoning...\nMY ANSWER: " + ", ".join(rec["answers"]))
    assert (right["em"], right["f1"], right["family"]) == (1.0, 1.0, "time-puzzles")
    wrong = tools.verify_answer(rec, "MY ANSWER: 2026-02-14", family="time_puzzles")
    assert wrong["em"] == 0.0
    violated = wrong["diagnosis"]["wrong"]["2026-02-14"]["violates"]
    assert [v["kind"] for v in violated] == ["weekday", "day_of_month"]  # a Saturday, the 14th


# ------------------------------------------------------------ bad input


BAD_CALLS = [
    (lambda: tools.search_calendar("Mayan", 2024, 1, 1), "calendar_name"),
    (lambda: tools.search_calendar("hebrew", 5783, 13, 1), "common year"),
    (lambda: tools.search_calendar("hebrew", 5784, "Nisan", 31), "Nisan 5784 has 30 days"),
    (lambda: tools.search_calendar("hebrew", 5784, "Nisan", 15, "Passover"), "not both"),
    (lambda: tools.search_calendar("hebrew", 5784), "festival_name"),
    (lambda: tools.search_calendar("hebrew", 5784, month=1), "month and day"),
    (lambda: tools.search_calendar("hebrew", True, 1, 1), "year"),  # type: ignore[arg-type]
    (lambda: tools.search_calendar("persian", 1403, "Brumaire", 1), "month"),
    (lambda: tools.search_calendar("hebrew", 5784, festival_name="Mid-Autumn"), "chinese festival"),
    (lambda: tools.convert_date("2024-02-30"), "date"),
    (lambda: tools.convert_date("2024-01-01", to_calendars=["martian"]), "to_calendars[0]"),
    (lambda: tools.convert_date("1910-01-01", to_calendars=["islamic-umalqura"]), "range"),
    (lambda: tools.festival_date("Diwali", 2024), "unknown festival"),
    (lambda: tools.festival_date("Christmas", 99999), "range"),
    (lambda: tools.solve_facts([]), "facts"),
    (lambda: tools.solve_facts([{"kind": "nope", "params": {}}]), "unknown kind"),
    (lambda: tools.solve_facts([{"kind": "month", "params": {"month": 13}}]), "month"),
    (lambda: tools.solve_facts([{"kind": "month", "params": {"month": 2}}], limit=0), "limit"),
    (
        lambda: tools.solve_facts(
            [{"kind": "month", "params": {"month": 2}}], time_limit=float("nan")
        ),
        "time_limit",
    ),
    (
        lambda: tools.solve_facts([{"kind": "month", "params": {"month": 2}}], backend="x"),
        "backend",
    ),
    (
        lambda: tools.solve_facts(
            [{"kind": "month", "params": {"month": 2}}], {"start": "2024-01-01"}
        ),
        "domain",
    ),
    (lambda: tools.verify_answer({"id": "x"}, "MY ANSWER: None"), "family"),
    (lambda: tools.verify_answer(friday_13_record(), "x", family="span"), "record says"),
    (lambda: tools.verify_answer(friday_13_record(), "x", family="chess"), "unknown family"),
    (lambda: tools.verify_answer("not a record", "x"), "record"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("call", "needle"), BAD_CALLS)
def test_bad_input_is_a_one_line_error_naming_the_problem(call: Any, needle: str) -> None:
    with pytest.raises(TsolveError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    assert needle in message


# ------------------------------------------------------------------ lookup_knowledge


def _csv_rows(name: str) -> list[dict[str, str]]:
    """A packaged knowledge-base file, read here with the csv module."""
    import csv
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "tsolve" / "calendars" / "data" / name
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_lookup_knowledge_gives_each_persons_dates_and_source() -> None:
    from tsolve.adapters.agent_tools import lookup_knowledge

    for row in _csv_rows("people.csv"):
        found = lookup_knowledge(row["person"], "person")["entries"]
        (entry,) = [e for e in found if e["name"] == row["person"]]
        assert (entry["born"], entry["died"] or "") == (row["born"], row["died"])
        assert entry["source"] == row["source"]


def test_lookup_knowledge_offices_events_and_editions() -> None:
    from tsolve.adapters.agent_tools import lookup_knowledge

    for row in _csv_rows("us_presidents.csv"):
        (entry,) = lookup_knowledge(row["president"], "office")["entries"]
        assert {"start": row["start"], "end": row["end"] or None, "source": row["source"]} in (
            entry["terms"]
        )
    for row in _csv_rows("historical_events.csv"):
        found = lookup_knowledge(row["event"], "event")["entries"]
        assert [(e["start"], e["end"]) for e in found if e["name"] == row["event"]] == [
            (row["start"], row["end"])
        ]
    rows = _csv_rows("sports_events.csv")
    years = [int(r["year"]) for r in rows if r["event"] == "fifa_world_cup"]
    (cup,) = lookup_knowledge("FIFA World Cup")["entries"]
    assert [e["year"] for e in cup["editions"]] == sorted(years)
    # a part of a name; without "the"; any case
    assert any(e["name"] == "the fall of the Berlin Wall" for e in
               lookup_knowledge("berlin wall")["entries"])  # fmt: skip


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("Nobody In Particular",), "nothing in the knowledge base matches"),
        (("Albert Einstein", "edition"), "nothing of kind 'edition'"),
        (("Albert Einstein", "planet"), "kind"),
        ((["person_alive", "weekday"],), "name"),  # it takes a name, never a set of facts
        (("  ",), "name"),
    ],
)
def test_lookup_knowledge_bad_queries_are_one_line_errors(args: Any, needle: str) -> None:
    from tsolve.adapters.agent_tools import lookup_knowledge

    with pytest.raises(TsolveError, match=needle) as info:
        lookup_knowledge(*args)
    assert "\n" not in str(info.value)
