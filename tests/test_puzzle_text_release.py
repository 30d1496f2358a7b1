"""The sentence forms of the Time Puzzles release (Wang and Dong, 2026,
arXiv:2601.07148), read by ``tsolve solve --text``.

Every sentence here is written for this file in the release's forms (its
generator's ``format`` methods, ``puzzles_generator/date_generator/facts.py``);
none is copied from its puzzles. Expected facts are written by hand, and the
answer sets of the puzzles are computed here with ``datetime`` alone (the
Chinese calendar's months from its published New Year and month-start dates,
named at each puzzle), never with tsolve. The last tests read the release
itself, from its encrypted ``data.zip`` (tests/fixtures/time_puzzles_release/),
in memory.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import examples
from cli_main import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.encodings.facts import DayView, Fact, fact_from_json
from tsolve.encodings.facts.calendar_facts import (
    DayOfMonthFact,
    DayOfMonthRangeFact,
    DecadeFact,
    LeapYearFact,
    MonthFact,
    SeasonFact,
    WeekdayFact,
    WeekdayInMonthFact,
    WeekdaysFact,
    YearFact,
)
from tsolve.encodings.facts.lunar_facts import ChineseZodiacFact, LunarMonthFact
from tsolve.encodings.facts.range_facts import DateRangeFact, YearRangeFact, YearRuleFact
from tsolve.encodings.facts.readings import fact_readings
from tsolve.encodings.facts.words import MONTHS, WEEKDAYS
from tsolve.families.time_puzzles.parse import read_puzzle
from tsolve.families.time_puzzles.parse.reader import read_sentence_facts
from tsolve.families.time_puzzles.solve_text import solve_text

D = dt.date

# ------------------------------------------------------------ each form, one fact

FORMS: list[tuple[str, list[tuple[str, dict[str, Any]]]]] = [
    ("The year is 1873.", [("year", {"year": 1873})]),
    ("It is October.", [("month", {"month": 10})]),
    ("The month is February.", [("month", {"month": 2})]),
    ("It is the 7th month of the Chinese lunar calendar.",
     [("lunar_month", {"month": 7, "leap": None})]),
    ("It is the 11th month of the Chinese lunar calendar.",
     [("lunar_month", {"month": 11, "leap": None})]),
    ("It was in the third month of the Chinese lunar calendar.",  # the same words, with "in"
     [("lunar_month", {"month": 3, "leap": None})]),
    ("It is the 14th month of the Chinese lunar calendar.",  # no such month: no day
     [("lunar_month", {"month": 14, "leap": None})]),
    ("It is the leap 4th month of the Chinese lunar calendar.",
     [("lunar_month", {"month": 4, "leap": True})]),
    ("The date is between June 09, 1931 and March 02, 1987.",
     [("date_range", {"start": "1931-06-09", "end": "1987-03-02", "ends": "unstated"})]),
    ("The date is between May 4, 2001 and May 9, 2001 inclusive.",
     [("date_range", {"start": "2001-05-04", "end": "2001-05-09", "ends": "included"})]),
    ("The date is strictly between 2001-05-04 and 2001-05-09.",
     [("date_range", {"start": "2001-05-04", "end": "2001-05-09", "ends": "excluded"})]),
    ("The year is in the 1870s.", [("decade", {"decade": 1870})]),
    ("The year is in the 2000s.", [("year_range", {"first": 2000, "last": 2009, "century": True})]),
    ("The year is within the range 1800 to 2050.",
     [("year_range", {"first": 1800, "last": 2050, "century": False})]),
    ("It is before the 9th of the month.",
     [("day_of_month_range", {"relation": "before", "day": 9})]),
    ("It is after the 23rd of the month.",
     [("day_of_month_range", {"relation": "after", "day": 23})]),
    ("It is the 22nd of the month.", [("day_of_month", {"day": 22})]),
    ("The day of the month is 31.", [("day_of_month", {"day": 31})]),
    ("It is Winter.", [("season", {"season": "winter"})]),
    ("It is Autumn.", [("season", {"season": "autumn"})]),
    ("It is a Thursday.", [("weekday", {"weekday": "Thursday"})]),
    ("It is a Saturday or Tuesday.", [("weekdays", {"weekdays": ["Tuesday", "Saturday"]})]),
    ("It is a Friday, Monday, or Wednesday.",
     [("weekdays", {"weekdays": ["Monday", "Wednesday", "Friday"]})]),
    ("It is a leap year.", [("leap_year", {"leap": True})]),
    ("The year satisfies year % 4 == 0, year >= 1896, and is not 1916, 1940, or 1944.",
     [("year_rule", {"modulus": 4, "remainder": 0, "since": 1896,
                     "excluded": [1916, 1940, 1944]})]),
    ("The year satisfies year % 4 == 2, year >= 1930, and is not 1942, 1946.",
     [("year_rule", {"modulus": 4, "remainder": 2, "since": 1930, "excluded": [1942, 1946]})]),
    ("The year satisfies year % 4 == 2, year >= 1930, and is not 1942 or 1946.",
     [("year_rule", {"modulus": 4, "remainder": 2, "since": 1930, "excluded": [1942, 1946]})]),
    ("It is the Year of the Goat according to Chinese lunar calendar.",
     [("chinese_zodiac", {"animal": "Goat"})]),
    ("It is the 4th Friday of the month.", [("weekday_in_month", {"weekday": "Friday", "nth": 4})]),
    ("It is the 3rd to last Sunday of the month.",
     [("weekday_in_month", {"weekday": "Sunday", "nth": -3})]),
    ("It is the last Saturday of the month.",
     [("weekday_in_month", {"weekday": "Saturday", "nth": -1})]),
    ("It is the first day of the month.", [("day_of_month", {"position": "first"})]),
    ("It is the last day of the month.", [("day_of_month", {"position": "last"})]),
    # The implicit style's knowledge sentences that the knowledge base knows.
    ("Elvis Presley is alive.", [("person_alive", {"person": "Elvis Presley",
     "born": "1935-01-08", "died": "1977-08-16", "description": "the singer Elvis Presley"})]),
    ("George H.W. Bush is the President of the United States.",
     [("us_president", {"president": "George H. W. Bush",
                        "terms": [["1989-01-20", "1993-01-19"]]})]),
    ("George W. Bush is the President of the United States.",
     [("us_president", {"president": "George W. Bush", "terms": [["2001-01-20", "2009-01-19"]]})]),
    # Plain paraphrases.
    ("It was spring.", [("season", {"season": "spring"})]),
    ("It is on or after the 20th.", [("day_of_month_range", {"relation": "after", "day": 19})]),
    ("It is on or before the 3rd of the month.",
     [("day_of_month_range", {"relation": "before", "day": 4})]),
    ("It happened in a leap year during the 1990s.",
     [("leap_year", {"leap": True}), ("decade", {"decade": 1990})]),
    ("He was born on a Sunday in the spring of 1952.",
     [("weekday", {"weekday": "Sunday"}), ("season", {"season": "spring"}),
      ("year", {"year": 1952})]),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "expected"), FORMS)
def test_each_form_reads_as_its_facts(sentence: str, expected: list[Any]) -> None:
    got = [(f.kind, f.params) for f, _ in read_sentence_facts(sentence)]
    assert got == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "It is the same day as the last day that Qqzx Vorn served as the mayor of Nowhere.",
        "It is the same year as the first day that Qqzx Vorn played for a made-up club.",
        "It is a year in which Qqzx Vorn was the mayor of Nowhere.",
        "The year is in the 90s.",  # the 1990s or the 1890s
        "It happened in the 1900s.",  # a decade or a century, in a wording not the release's
        "It is not on a Monday in March.",  # does "not" cover March too?
        "It was in the winter of 1952.",  # December 1952, or the winter that ends in it?
        "The date is between February 30, 2001 and May 9, 2001.",  # no such day
        "The year satisfies year % 4 == 5, year >= 1930.",  # no such remainder
    ],
)
def test_an_unknown_event_or_a_sentence_with_two_readings_stays_unread(sentence: str) -> None:
    reading = read_puzzle(sentence)
    assert reading.facts == () and [s.text for s in reading.unread] == [sentence]


def test_the_open_choices_are_readings_of_the_fact() -> None:
    """The wording leaves open whether the two named days count and whether
    "the 1900s" is a century; the fact holds as the release meant it and
    names the other choice. (Whether a leap month counts is named by the
    release's audit, on the sentence: ``lunar_month`` with ``leap`` null says
    it in tsolve's own words.)"""
    names = {
        "The date is between May 4, 2001 and May 9, 2001.": ["end-days-included"],
        "The year is in the 1900s.": ["century"],
        "The date is between May 4, 2001 and May 9, 2001 inclusive.": [],
        "The year satisfies year % 4 == 2, year >= 1930, and is not 1942 or 1946.": [],
    }
    for sentence, expected in names.items():
        ((fact, _),) = read_sentence_facts(sentence)
        assert [r.name for r in fact_readings(fact, "explicit")] == expected, sentence


# ------------------------------------------------------------ whole puzzles, solved


def _days(first: D, last: D) -> list[D]:
    return [first + dt.timedelta(n) for n in range((last - first).days + 1)]


_DOMAIN = _days(D(1900, 1, 31), D(2100, 12, 31))


def _expected(pred: Callable[[D], bool]) -> list[str]:
    return [d.isoformat() for d in _DOMAIN if pred(d)]


def _back(d: D) -> int:
    """1 for the last such weekday of the month, 2 for the second-to-last, ..."""
    nxt = D(d.year + d.month // 12, d.month % 12 + 1, 1)
    return ((nxt - d).days - 1) // 7 + 1


# Chinese calendar month starts (Hong Kong Observatory's Gregorian-lunar
# tables): 2020's 4th month began 2020-04-23, its leap 4th month 2020-05-23,
# its 5th month 2020-06-21; the Year of the Rooster began 2017-01-28.
LUNAR_4_2020 = (D(2020, 4, 23), D(2020, 5, 22))
LEAP_4_2020 = (D(2020, 5, 23), D(2020, 6, 20))

PUZZLES: list[tuple[str, Callable[[D], bool]]] = [
    ("It is the 4th month of the Chinese lunar calendar. The year is 2020. "
     "It is the 1st of the month.",
     lambda d: any(a <= d <= b for a, b in (LUNAR_4_2020, LEAP_4_2020)) and d.day == 1),
    ("It is the Year of the Rooster according to Chinese lunar calendar. The year is 2017. "
     "It is January.", lambda d: D(2017, 1, 28) <= d <= D(2017, 1, 31)),
    ("The date is between March 06, 2020 and March 08, 2020. It is a Friday, Saturday, or Sunday.",
     lambda d: D(2020, 3, 6) < d < D(2020, 3, 8)),
    ("The year satisfies year % 4 == 2, year >= 1930, and is not 1942 or 1946. "
     "The year is in the 1950s. It is January. It is the first day of the month.",
     lambda d: d.year in (1950, 1954, 1958) and (d.month, d.day) == (1, 1)),
    ("The year is in the 1980s. It is a leap year. It is February. The day of the month is 29.",
     lambda d: d.year in (1980, 1984, 1988) and (d.month, d.day) == (2, 29)),
    ("The year is in the 1900s. It is February. It is the 29th of the month.",
     lambda d: 1900 <= d.year <= 1909 and (d.month, d.day) == (2, 29)),
    ("The year is 2021. It is Autumn. It is after the 29th of the month.",
     lambda d: d.year == 2021 and d.month in (9, 10, 11) and d.day > 29),
    ("It is the 2nd to last Monday of the month. The month is July. The year is 2023.",
     lambda d: (d.year, d.month) == (2023, 7) and d.weekday() == 0 and _back(d) == 2),
    ("It is the last Tuesday of the month. It is Winter. The year is 2019.",
     lambda d: d.year == 2019 and d.month in (12, 1, 2) and d.weekday() == 1 and _back(d) == 1),
    ("It is a Wednesday or Sunday. It is before the 5th of the month. It is June. "
     "The year is 2022.",
     lambda d: (d.year, d.month) == (2022, 6) and d.weekday() in (2, 6) and d.day < 5),
    ("She was born on a Sunday in the spring of 1952. It was on or after the 25th.",
     lambda d: d.year == 1952 and d.month in (3, 4, 5) and d.weekday() == 6 and d.day >= 25),
    ("It happened in a leap year during the 1990s. It was February. It was the last day of "
     "the month.", lambda d: d.year in (1992, 1996) and (d.month, d.day) == (2, 29)),
]  # fmt: skip


@pytest.mark.parametrize(("text", "pred"), PUZZLES)
def test_a_puzzle_in_the_release_forms_is_read_completely_and_solved(
    text: str, pred: Callable[[D], bool]
) -> None:
    out = solve_text(text)
    assert out["unread"] == [] and out["complete"] is True
    assert out["answers"] == _expected(pred)


def test_the_release_lunar_month_counts_its_leap_month() -> None:
    """In 2020 (a leap 4th month) "the 4th month" holds on 2020-05-01 and, as
    the release counts it, on 2020-06-01 in the leap 4th month."""
    ((fact, _),) = read_sentence_facts("It is the 4th month of the Chinese lunar calendar.")
    days = DayView(np.asarray([D(2020, 5, 1).toordinal(), D(2020, 6, 1).toordinal()]))
    assert fact.holds(days).tolist() == [True, True]
    assert LunarMonthFact(4, False).holds(days).tolist() == [True, False]


def test_cli_text_file_reads_release_paragraphs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One paragraph per puzzle, the sentences joined with spaces: the command
    a user runs on the release (benchmarks/time_puzzles_reading.py)."""
    path = tmp_path / "puzzles.txt"
    path.write_text(
        "It is the Year of the Rooster according to Chinese lunar calendar. The year is 2017. "
        "It is January. It is the last day of the month.\n\n"
        "The year is 2023. It is the same day as the last day that Qqzx Vorn was the mayor "
        "of Nowhere. It is July.\n"
    )
    r = run_cli(capsys, "solve", "--text-file", str(path), "--format", "jsonl")
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["complete", "partial-reading"]
    assert rows[0]["answers"] == ["2017-01-31"]
    assert r.returncode == 1  # a partial reading fails the batch


# ------------------------------------------------------------ the release's wording, read back


def _ordinal(n: int) -> str:
    """As the release's ``utils.ordinal``."""
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _long(d: D) -> str:
    return f"{MONTHS[d.month - 1]} {d.day:02d}, {d.year}"


_SEASON_NAMES = {"winter": "Winter", "spring": "Spring", "summer": "Summer", "autumn": "Autumn"}
_ANIMALS = ("Rat", "Ox", "Tiger", "Rabbit", "Dragon", "Snake", "Horse", "Goat", "Monkey",
            "Rooster", "Dog", "Pig")  # fmt: skip


@st.composite
def release_sentences(draw: st.DrawFn) -> tuple[str, Fact]:
    """A sentence as the release's generator words it, and the fact it states
    (written here from the generator's ``validate``, not from tsolve)."""
    form = draw(st.integers(0, 15))
    year = draw(st.integers(1800, 2050))
    if form == 0:
        return f"The year is {year}.", YearFact(year)
    if form == 1:
        m = draw(st.integers(1, 12))
        words = (
            f"It is {MONTHS[m - 1]}." if draw(st.booleans()) else f"The month is {MONTHS[m - 1]}."
        )
        return words, MonthFact(m)
    if form == 2:
        m = draw(st.integers(1, 12))
        return f"It is the {_ordinal(m)} month of the Chinese lunar calendar.", (
            LunarMonthFact(m, None)
        )
    if form == 3:
        a = D(year, 1, 1) + dt.timedelta(draw(st.integers(0, 364)))
        b = a + dt.timedelta(draw(st.integers(0, 30_000)))
        return f"The date is between {_long(a)} and {_long(b)}.", (
            DateRangeFact(a.isoformat(), b.isoformat(), "unstated")
        )
    if form == 4:
        dec = year // 10 * 10
        fact: Fact = DecadeFact(dec) if dec % 100 else YearRangeFact(dec, dec + 9, century=True)
        return f"The year is in the {dec}s.", fact
    if form == 5:
        n = draw(st.integers(2, 28))
        rel = draw(st.sampled_from(["before", "after"]))
        return f"It is {rel} the {_ordinal(n)} of the month.", DayOfMonthRangeFact(rel, n)
    if form == 6:
        n = draw(st.integers(1, 31))
        if draw(st.booleans()):
            return f"It is the {_ordinal(n)} of the month.", DayOfMonthFact(day=n)
        return f"The day of the month is {n}.", DayOfMonthFact(day=n)
    if form == 7:
        s = draw(st.sampled_from(sorted(_SEASON_NAMES)))
        return f"It is {_SEASON_NAMES[s]}.", SeasonFact(s)
    if form == 8:
        w = draw(st.sampled_from(WEEKDAYS))
        return f"It is a {w}.", WeekdayFact(w)
    if form == 9:
        options = draw(st.lists(st.sampled_from(WEEKDAYS), min_size=2, max_size=3, unique=True))
        words = (
            f"It is a {options[0]} or {options[1]}." if len(options) == 2
            else f"It is a {', '.join(options[:-1])}, or {options[-1]}."
        )  # fmt: skip
        return words, WeekdaysFact(tuple(w for w in WEEKDAYS if w in options))
    if form == 10:
        return "It is a leap year.", LeapYearFact(True)
    if form == 11:
        if draw(st.booleans()):
            return (
                "The year satisfies year % 4 == 0, year >= 1896, and is not 1916, 1940, or 1944.",
                YearRuleFact(4, 0, 1896, (1916, 1940, 1944)),
            )
        return (
            "The year satisfies year % 4 == 2, year >= 1930, and is not 1942 or 1946.",
            YearRuleFact(4, 2, 1930, (1942, 1946)),
        )
    if form == 12:
        a = draw(st.sampled_from(_ANIMALS))
        return f"It is the Year of the {a} according to Chinese lunar calendar.", (
            ChineseZodiacFact(a)
        )
    if form == 13:
        w = draw(st.sampled_from(WEEKDAYS))
        n = draw(st.integers(1, 5))
        return f"It is the {_ordinal(n)} {w} of the month.", WeekdayInMonthFact(w, n)
    if form == 14:
        w = draw(st.sampled_from(WEEKDAYS))
        n = draw(st.integers(1, 5))
        if n == 1:
            return f"It is the last {w} of the month.", WeekdayInMonthFact(w, -1)
        return f"It is the {_ordinal(n)} to last {w} of the month.", WeekdayInMonthFact(w, -n)
    pos = draw(st.sampled_from(["first", "last"]))
    return f"It is the {pos} day of the month.", DayOfMonthFact(position=pos)


@settings(max_examples=examples(60))
@given(release_sentences())
def test_a_sentence_in_the_release_wording_reads_back_as_its_fact(case: tuple[str, Fact]) -> None:
    sentence, fact = case
    got = read_sentence_facts(sentence)
    assert [f for f, _ in got] == [fact]
    assert fact_from_json(fact.to_json()) == fact


def test_the_release_generators_prompt_is_skipped_and_its_year_range_read() -> None:
    """The release's generator words the task a little differently from the
    paper's prompt, and ends with the year range as a sentence of its own."""
    text = (
        "From the constraints below, determine all valid dates (if any) that satisfy them. "
        "Depending on the conditions, the result may be zero, one, or multiple dates. "
        "Unless otherwise stated, all time-related constraints follow the Gregorian calendar.\n\n"
        "It is the 29th of the month.\nIt is February.\nThe year is in the 2010s.\n"
        "The year is within the range 1990 to 2012."
    )
    out = solve_text(text)
    assert out["unread"] == [] and [s["line"] for s in out["skipped"]] == [1]
    assert out["answers"] == ["2012-02-29"]


# ------------------------------------------------------------ the new kinds themselves


def test_the_kinds_for_other_wording_are_never_drawn_by_default() -> None:
    """The default categories leave out the kinds that only read other
    people's sentences; a range of years is drawn (generator 13 on), to
    spread one-answer puzzles over many."""
    from tsolve.families.time_puzzles.generate import PuzzleConfig, _search_plan

    categories = set(_search_plan(PuzzleConfig(), 4).categories)
    assert categories.isdisjoint({"date_range", "year_rule"})
    assert "year_range" in categories
    assert "lunar_month" in categories and "weekday_in_month" in categories


@pytest.mark.parametrize(
    ("kind", "params", "message"),
    [
        ("date_range", {"start": "2001-05-09", "end": "2001-05-04"}, "before start"),
        ("date_range", {"start": "2001-05-04", "end": "2001-05-09", "ends": "maybe"}, "ends"),
        ("date_range", {"start": "2001-02-30", "end": "2001-05-09"}, "start"),
        ("year_range", {"first": 1990, "last": 1980}, "last"),
        ("year_range", {"first": 1980, "last": 1989, "century": True}, "century"),
        ("year_rule", {"modulus": 4, "remainder": 4, "since": 1930}, "remainder"),
        ("year_rule", {"modulus": 4, "remainder": 2, "since": 1930, "excluded": [1946, 1942]},
         "increasing"),
        ("year_rule", {"modulus": 0, "remainder": 0, "since": 1930}, "modulus"),
    ],
)  # fmt: skip
def test_bad_params_of_the_new_kinds_are_one_line_errors(
    kind: str, params: dict[str, Any], message: str
) -> None:
    from tsolve.errors import TsolveError

    with pytest.raises(TsolveError, match=message) as err:
        fact_from_json({"kind": kind, "params": params})
    assert "\n" not in str(err.value)


def test_the_new_kinds_hold_on_the_days_they_name() -> None:
    """Against days counted here by hand."""
    days = _days(D(1941, 1, 1), D(1951, 12, 31))
    view = DayView(np.asarray([d.toordinal() for d in days]))

    def held(fact: Fact) -> set[D]:
        return {d for d, ok in zip(days, fact.holds(view).tolist(), strict=True) if ok}

    rule = YearRuleFact(4, 2, 1930, (1942, 1946))
    assert {d.year for d in held(rule)} == {1950}
    span = DateRangeFact("1945-04-12", "1945-04-14", "unstated")
    assert held(span) == {D(1945, 4, 13)}
    assert held(DateRangeFact("1945-04-12", "1945-04-14", "included")) == set(
        _days(D(1945, 4, 12), D(1945, 4, 14))
    )
    assert held(DateRangeFact("1945-04-12", "1945-04-13", "excluded")) == set()
    assert {d.year for d in held(YearRangeFact(1949, 1951))} == {1949, 1950, 1951}


def test_the_new_kinds_are_worded_cleanly() -> None:
    from tsolve.families.time_puzzles.parse.wording import wording_problems

    for fact in (
        YearRuleFact(4, 2, 1930),
        YearRuleFact(4, 2, 1930, (1942,)),
        YearRuleFact(4, 0, 1896, (1916, 1940, 1944)),
        DateRangeFact("1950-01-05", "1990-01-05", "unstated"),
        DateRangeFact("1950-01-05", "1990-01-05", "included"),
        DateRangeFact("1950-01-05", "1990-01-05", "excluded"),
        YearRangeFact(1800, 2050),
        YearRangeFact(1900, 1909, century=True),
        LunarMonthFact(3, None),
    ):
        sentence = fact.render("explicit")
        assert wording_problems(sentence) == [], sentence
        assert [f for f, _ in read_sentence_facts(sentence)] == [fact], sentence


# ------------------------------------------------------------ the release (encrypted fixture)

_ZIP = Path(__file__).parent / "fixtures" / "time_puzzles_release" / "data.zip"
_PASSWORD = "timepuzzles"  # the authors' README: the repository name, lower case, no hyphens


@pytest.fixture(scope="module")
def release() -> list[dict[str, Any]]:
    """The 700 puzzles, decrypted in memory only."""
    from tsolve.families.time_puzzles.release import read_release

    return read_release(_ZIP, _PASSWORD)


def test_a_sample_of_the_release_is_read_completely_and_gets_tsolves_gold(
    release: list[dict[str, Any]],
) -> None:
    """Every 25th puzzle (from the 4th) as one paragraph of its explicit
    sentences: read whole, and solved to the gold ``tsolve import`` proves
    (tests/test_time_puzzles_release.py checks that gold against an
    independent Chinese calendar). benchmarks/time_puzzles_reading.py runs
    all 700."""
    from tsolve.calendars.domain import DateDomain
    from tsolve.families.time_puzzles.release import release_record

    domain = DateDomain.from_dates("1800-01-01", "2050-12-31")
    sample = release[3::25]
    assert any(sorted(p["solutions"]) != release_record(p)["answers"] for p in sample)
    for p in sample:
        out = solve_text(" ".join(p["explicit_constraints"]), domain=domain)
        assert out["unread"] == [] and out["complete"] is True, p["identifier"]
        assert out["answers"] == release_record(p)["answers"], p["identifier"]


def test_in_the_implicit_release_only_unknown_events_stay_unread(
    release: list[dict[str, Any]],
) -> None:
    """Every sentence of every 9th implicit puzzle is read, except the events
    the knowledge base does not hold (``kb_event``), which are never guessed."""
    for p in release[::9]:
        for sentence, meta in zip(p["constraints"], p["constraints_meta"], strict=True):
            read = bool(read_sentence_facts(sentence))
            assert read == (meta["type"] != "kb_event"), sentence
