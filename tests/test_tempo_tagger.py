"""The temporal tagger and the interval rules: hand-checked cases and properties."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.errors import TsolveError
from tsolve.families.tempo import OPEN_END, OPEN_START, Interval, overlaps, parse_scope, tag

REF = dt.date(2026, 11, 23)  # a Monday


def d(text: str) -> int:
    return dt.date.fromisoformat(text).toordinal()


def only(text: str, ref: dt.date | None = REF) -> tuple[str, str, tuple[int, int] | None]:
    found = tag(text, ref)
    assert len(found) == 1, found
    f = found[0]
    return f.text, f.kind, None if f.interval is None else (f.interval.start, f.interval.end)


# Every expected interval below is written out by hand from the calendar.
@pytest.mark.parametrize(
    ("text", "matched", "kind", "start", "end"),
    [
        ("in 2019 fees rose", "2019", "year", "2019-01-01", "2019-12-31"),
        ("on 2019-03-05 it", "2019-03-05", "date", "2019-03-05", "2019-03-05"),
        ("on March 5, 2019 it", "March 5, 2019", "date", "2019-03-05", "2019-03-05"),
        ("on 5th March 2019 it", "5th March 2019", "date", "2019-03-05", "2019-03-05"),
        ("in February 2020 it", "February 2020", "month", "2020-02-01", "2020-02-29"),
        ("in Feb. 2019 it", "Feb. 2019", "month", "2019-02-01", "2019-02-28"),
        ("in the 1990s it", "the 1990s", "decade", "1990-01-01", "1999-12-31"),
        ("in Q3 2021 it", "Q3 2021", "quarter", "2021-07-01", "2021-09-30"),
        (
            "the fourth quarter of 2020",
            "the fourth quarter of 2020",
            "quarter",
            "2020-10-01",
            "2020-12-31",
        ),
        ("in H2 2022 it", "H2 2022", "half", "2022-07-01", "2022-12-31"),
        ("in the 19th century it", "the 19th century", "century", "1800-01-01", "1899-12-31"),
        ("twenty-first century", "twenty-first century", "century", "2000-01-01", "2099-12-31"),
        ("between 2010 and 2014", "between 2010 and 2014", "range", "2010-01-01", "2014-12-31"),
        ("in 2010–2014 it", "2010–2014", "range", "2010-01-01", "2014-12-31"),
        ("in 2010-14 it", "2010-14", "range", "2010-01-01", "2014-12-31"),
        ("from 2010 to 2014", "from 2010 to 2014", "range", "2010-01-01", "2014-12-31"),
        (
            "from March 2019 until June 2019",
            "from March 2019 until June 2019",
            "range",
            "2019-03-01",
            "2019-06-30",
        ),
        ("last year", "last year", "relative", "2025-01-01", "2025-12-31"),
        ("two years ago", "two years ago", "relative", "2024-01-01", "2024-12-31"),
        ("next month", "next month", "relative", "2026-12-01", "2026-12-31"),
        ("3 days ago", "3 days ago", "relative", "2026-11-20", "2026-11-20"),
        ("last week", "last week", "relative", "2026-11-16", "2026-11-22"),
        ("in the past 2 years", "the past 2 years", "relative", "2024-11-23", "2026-11-23"),
    ],
)
def test_expressions(text: str, matched: str, kind: str, start: str, end: str) -> None:
    assert only(text) == (matched, kind, (d(start), d(end)))


@pytest.mark.parametrize(
    ("text", "matched", "start", "end"),
    [
        ("since 2015", "since 2015", d("2015-01-01"), OPEN_END),
        ("from 2015 on", "from 2015", d("2015-01-01"), OPEN_END),
        ("until 2015", "until 2015", OPEN_START, d("2015-12-31")),
        ("before 2015", "before 2015", OPEN_START, d("2014-12-31")),
        ("after 2015", "after 2015", d("2016-01-01"), OPEN_END),
        ("prior to March 2019", "prior to March 2019", OPEN_START, d("2019-02-28")),
        ("until the end of 2015", "until the end of 2015", OPEN_START, d("2015-12-31")),
        ("since the start of 2015", "since the start of 2015", d("2015-01-01"), OPEN_END),
    ],
)
def test_open_ranges(text: str, matched: str, start: int, end: int) -> None:
    assert only(text) == (matched, "range", (start, end))


def test_relative_needs_a_reference_date() -> None:
    f = tag("what happened last year", None)[0]
    assert f.text == "last year" and f.interval is None and "reference" in f.note


def test_ambiguous_readings_are_flagged_not_hidden() -> None:
    (f,) = tag("the 1900s")
    assert (f.interval.start, f.interval.end) == (d("1900-01-01"), d("1909-12-31"))  # type: ignore[union-attr]
    assert [(a.start, a.end) for a in f.alternatives] == [(d("1900-01-01"), d("1999-12-31"))]
    (f,) = tag("the 19th century")
    assert [(a.start, a.end) for a in f.alternatives] == [(d("1801-01-01"), d("1900-12-31"))]
    (f,) = tag("in 2010-12")  # December 2010, or 2010-2012
    assert (f.interval.start, f.interval.end) == (d("2010-12-01"), d("2010-12-31"))  # type: ignore[union-attr]
    assert [(a.start, a.end) for a in f.alternatives] == [(d("2010-01-01"), d("2012-12-31"))]


@pytest.mark.parametrize(
    "text", ["1,500 people", "$2000 fee", "up 2000% since", "version 2019.5", "03/05/2019"]
)
def test_numbers_that_are_not_years(text: str) -> None:
    assert tag(text) == []


# ------------------------------------------------------------- precision rules


def test_precision_rules_from_the_docs() -> None:
    year, march = parse_scope("2019"), parse_scope("2019-03")
    assert overlaps(year, march) and overlaps(march, year)
    assert not overlaps(parse_scope("2018"), march)
    since = parse_scope("2015..")
    assert since[0].start == d("2015-01-01") and since[0].end == OPEN_END
    assert overlaps(since, parse_scope("2026-11-23"))
    assert not overlaps(since, parse_scope("2014-12-31"))
    assert parse_scope({"start": None, "end": "2014"})[0].start == OPEN_START
    assert parse_scope("2021-Q3")[0] == Interval(d("2021-07-01"), d("2021-09-30"), "quarter")
    # Touching days overlap; adjacent ones do not.
    assert overlaps(parse_scope("2019-03-31"), march)
    assert not overlaps(parse_scope("2019-04-01"), march)


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ("2019-13", "scope"),
        ("2019-02-30", "scope"),
        ("March 2019", "scope"),
        (2019, "scope"),
        ("2020..2019", "scope"),
        ("..", "scope"),
        ([], "scope"),
        ({"begin": "2019"}, "scope"),
        (["2019", 5], "scope[1]"),
        ({"start": 2019}, "scope.start"),
    ],
)
def test_bad_scopes_name_the_field(value: object, field: str) -> None:
    with pytest.raises(TsolveError, match="^" + field.replace("[", r"\[").replace("]", r"\]")):
        parse_scope(value)


# ------------------------------------------------------------------ properties

WORDS = [
    "in",
    "the",
    "since",
    "between",
    "and",
    "from",
    "to",
    "before",
    "after",
    "until",
    "March",
    "May",
    "Q2",
    "H1",
    "last",
    "year",
    "month",
    "ago",
    "two",
    "1990s",
    "19th",
    "century",
    "–",
    "-",
    ",",
    "of",
    "2010",
    "1999",
    "2021-03-04",
    "2020-02",
    "$",
    "%",
    "yesterday",
    "past",
    "3",
    "weeks",
    "Dec.",
    "31st",
    "fees",
    "rose",
]
texts = st.lists(
    st.one_of(st.sampled_from(WORDS), st.integers(1000, 2999).map(str), st.text(max_size=3)),
    max_size=14,
).flatmap(lambda ws: st.sampled_from([" ", "", "  "]).map(lambda sep: sep.join(ws)))


@given(texts, st.one_of(st.none(), st.dates(), st.sampled_from([dt.date.min, dt.date.max])))
def test_spans_index_the_text_and_intervals_are_well_formed(text: str, ref: dt.date | None) -> None:
    found = tag(text, ref)
    last_end = 0
    for f in found:
        assert text[f.start : f.end] == f.text and f.text
        assert f.start >= last_end  # in order, never overlapping
        last_end = f.end
        for x in ([f.interval] if f.interval else []) + list(f.alternatives):
            assert OPEN_START <= x.start <= x.end <= OPEN_END
    assert tag(text, ref) == found  # deterministic


years_pair = st.tuples(st.integers(1000, 2999), st.integers(1000, 2999)).filter(
    lambda p: p[0] < p[1]
)


@given(
    years_pair,
    st.sampled_from(
        ["between {a} and {b}", "{a}–{b}", "from {a} to {b}", "{a} - {b}", "{a} to {b}"]
    ),
    st.text("abc ,.", max_size=8),
)
def test_a_year_inside_a_range_is_not_reported_twice(
    pair: tuple[int, int], form: str, pad: str
) -> None:
    a, b = pair
    phrase = form.format(a=a, b=b)
    text = f"x {pad} {phrase} {pad} y"
    found = [f for f in tag(text) if f.interval is not None]
    assert len(found) == 1, found
    (f,) = found
    assert f.text == phrase
    assert (f.interval.start, f.interval.end) == (  # type: ignore[union-attr]
        dt.date(a, 1, 1).toordinal(),
        dt.date(b, 12, 31).toordinal(),
    )


@given(st.integers(1000, 2999), st.integers(1, 12))
def test_month_year_is_the_whole_calendar_month(y: int, m: int) -> None:
    name = dt.date(2000, m, 1).strftime("%B")
    (f,) = tag(f"in {name} {y}.")
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    assert (f.interval.start, f.interval.end) == (  # type: ignore[union-attr]
        dt.date(y, m, 1).toordinal(),
        nxt.toordinal() - 1,
    )


def _intervals(draw_days: list[tuple[int, int]]) -> list[Interval]:
    return [Interval(min(a, b), max(a, b)) for a, b in draw_days]


day_pairs = st.lists(
    st.tuples(
        st.integers(OPEN_START, OPEN_START + 4000), st.integers(OPEN_START, OPEN_START + 4000)
    ),
    min_size=1,
    max_size=4,
)


@given(day_pairs, day_pairs)
def test_overlap_agrees_with_the_ir_interval_sets(
    a: list[tuple[int, int]], b: list[tuple[int, int]]
) -> None:
    # Second implementation: the IR's IntervalSet sweep (tsolve/encodings/ir.py).
    from tsolve.encodings.ir import IntervalSet

    x, y = _intervals(a), _intervals(b)
    meet = IntervalSet.from_intervals((i.start, i.end) for i in x).intersect(
        IntervalSet.from_intervals((i.start, i.end) for i in y)
    )
    assert overlaps(x, y) == (meet.size > 0) == overlaps(y, x)


def test_the_last_and_first_dates_are_not_open_ends() -> None:
    (f,) = tag("on 9999-12-31")
    assert f.interval is not None and f.interval.to_json()["end"] == "9999-12-31"
    assert not f.interval.open_end
    # Nothing lies after the last date or before the first: no open range is made.
    assert [x.kind for x in tag("after 9999-12-31")] == ["date"]
    assert [x.kind for x in tag("before 0001-01-01")] == ["date"]
    assert parse_scope("..9999-12-31")[0].to_json() == {
        "start": None,
        "end": "9999-12-31",
        "precision": "range",
    }


def test_inexact_edges_are_not_joined() -> None:
    # "since the end of 2015": which day? Only the year is reported.
    assert [(f.text, f.kind) for f in tag("since the end of 2015")] == [("2015", "year")]


# "Q3 0000" once crashed the tagger (year 0 is out of datetime's range).
four_digits = st.integers(0, 9999).map(lambda y: f"{y:04d}")
period_forms = st.sampled_from(
    ["Q{q} {y}", "{y} Q{q}", "{y}-Q{q}", "H{h} {y}", "H{h} of {y}", "the first quarter of {y}",
     "the second half of {y}", "{y}-{m:02d}", "May 5, {y}", "{y}s", "March {y}", "since Q{q} {y}",
     "between Q{q} {y} and H{h} {y}", "before {y}-{m:02d}", "after H{h} {y}"]
)  # fmt: skip


@given(period_forms, four_digits, st.integers(1, 4), st.integers(1, 2), st.integers(1, 12))
def test_every_four_digit_year_tags_without_error(
    form: str, y: str, q: int, h: int, m: int
) -> None:
    text = form.format(y=y, q=q, h=h, m=m)
    for f in tag(text):
        for x in ([f.interval] if f.interval else []) + list(f.alternatives):
            assert OPEN_START <= x.start <= x.end <= OPEN_END
    if int(y) == 0:  # no period of year 0 exists: nothing dated year 0 is tagged
        assert all("0000" not in f.text for f in tag(text) if f.interval is not None)


@pytest.mark.parametrize("text", ["Q3 0000", "H1 0000", "0000 Q2", "the first half of 0000"])
def test_a_year_zero_period_is_not_tagged(text: str) -> None:
    assert tag(text) == []
    assert [f.text for f in tag(text + " and Q1 2020")] == ["Q1 2020"]
