"""Tests for the knowledge base (tsolve.calendars.knowledge and its CSV files).

The spot checks below are written by hand from published sources (Wikipedia,
olympics.com, fifa.com), not generated from the CSVs, so a typo in a data file
makes them fail.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.calendars import knowledge as kb
from tsolve.errors import TsolveError

D = dt.date
DAY = dt.timedelta(days=1)


# ---------------------------------------------------------------- all tables


def test_every_builtin_row_parses() -> None:
    assert len(kb.presidents()) == 45  # 47 tenures: Cleveland and Trump twice
    assert len(kb.people()) >= 25
    assert set(kb.sports_events()) == {"summer_olympics", "winter_olympics", "fifa_world_cup"}
    assert len(kb.historical_events()) >= 55


def _all_sources() -> list[str]:
    sources = [s for p in kb.presidents() for s in p.sources]
    sources += [p.source for p in kb.people()]
    sources += [s for e in kb.sports_events().values() for s in e.sources]
    sources += [e.source for e in kb.historical_events()]
    return sources


def test_every_row_has_a_source_url() -> None:
    sources = _all_sources()
    assert len(sources) == 47 + len(kb.people()) + 78 + len(kb.historical_events())
    for url in sources:
        assert url.startswith("https://"), url
        assert " " not in url, url


def test_tables_are_cached_and_sports_dict_is_a_copy() -> None:
    assert kb.presidents() is kb.presidents()
    mine = kb.sports_events()
    mine.clear()
    assert len(kb.sports_events()) == 3


# ---------------------------------------------------------------- presidents


def _tenures() -> list[tuple[str, dt.date, dt.date | None]]:
    rows = [(p.name, s, e) for p in kb.presidents() for s, e in p.terms]
    return sorted(rows, key=lambda r: r[1])


def _by_name() -> dict[str, kb.President]:
    return {p.name: p for p in kb.presidents()}


def test_presidents_ordered_by_first_term() -> None:
    names = [p.name for p in kb.presidents()]
    assert names == [
        "George Washington",
        "John Adams",
        "Thomas Jefferson",
        "James Madison",
        "James Monroe",
        "John Quincy Adams",
        "Andrew Jackson",
        "Martin Van Buren",
        "William Henry Harrison",
        "John Tyler",
        "James K. Polk",
        "Zachary Taylor",
        "Millard Fillmore",
        "Franklin Pierce",
        "James Buchanan",
        "Abraham Lincoln",
        "Andrew Johnson",
        "Ulysses S. Grant",
        "Rutherford B. Hayes",
        "James A. Garfield",
        "Chester A. Arthur",
        "Grover Cleveland",
        "Benjamin Harrison",
        "William McKinley",
        "Theodore Roosevelt",
        "William Howard Taft",
        "Woodrow Wilson",
        "Warren G. Harding",
        "Calvin Coolidge",
        "Herbert Hoover",
        "Franklin D. Roosevelt",
        "Harry S. Truman",
        "Dwight D. Eisenhower",
        "John F. Kennedy",
        "Lyndon B. Johnson",
        "Richard Nixon",
        "Gerald Ford",
        "Jimmy Carter",
        "Ronald Reagan",
        "George H. W. Bush",
        "Bill Clinton",
        "George W. Bush",
        "Barack Obama",
        "Donald Trump",
        "Joe Biden",
    ]
    for p in kb.presidents():
        assert list(p.terms) == sorted(p.terms, key=lambda t: t[0])
        assert len(p.sources) == len(p.terms)


def test_presidential_tenures_are_contiguous() -> None:
    tenures = _tenures()
    assert tenures[0][1] == D(1789, 4, 30)  # Washington's first inauguration
    for (_, _, end), (name, start, _) in pairwise(tenures):
        assert end is not None, f"only the last tenure may be open, not the one before {name}"
        assert end + DAY == start, name
    # Only the current tenure is open-ended.
    assert tenures[-1] == ("Donald Trump", D(2025, 1, 20), None)
    assert sum(end is None for _, _, end in tenures) == 1


def test_succession_days_as_published() -> None:
    p = _by_name()
    # Roosevelt died 1945-04-12; Kennedy was assassinated 1963-11-22;
    # Nixon's resignation took effect 1974-08-09.
    assert p["Harry S. Truman"].terms[0][0] == D(1945, 4, 12)
    assert p["Lyndon B. Johnson"].terms[0][0] == D(1963, 11, 22)
    assert p["John F. Kennedy"].terms == ((D(1961, 1, 20), D(1963, 11, 21)),)
    assert p["Gerald Ford"].terms[0][0] == D(1974, 8, 9)
    assert p["Richard Nixon"].terms == ((D(1969, 1, 20), D(1974, 8, 8)),)
    # The 19th- and early 20th-century successions (List of presidents of the
    # United States): each president died in office on the successor's first day.
    assert p["William Henry Harrison"].terms == ((D(1841, 3, 4), D(1841, 4, 3)),)
    assert p["John Tyler"].terms[0][0] == D(1841, 4, 4)  # Harrison died 1841-04-04
    assert p["Millard Fillmore"].terms[0][0] == D(1850, 7, 9)  # Taylor died 1850-07-09
    assert p["Andrew Johnson"].terms[0][0] == D(1865, 4, 15)  # Lincoln died 1865-04-15
    assert p["Chester A. Arthur"].terms[0][0] == D(1881, 9, 19)  # Garfield died 1881-09-19
    assert p["Theodore Roosevelt"].terms[0][0] == D(1901, 9, 14)  # McKinley died 1901-09-14
    assert p["Calvin Coolidge"].terms[0][0] == D(1923, 8, 2)  # Harding died 1923-08-02
    assert p["Franklin D. Roosevelt"].terms == ((D(1933, 3, 4), D(1945, 4, 11)),)
    # Cleveland's two non-consecutive terms, Benjamin Harrison's between them.
    assert p["Grover Cleveland"].terms == (
        (D(1885, 3, 4), D(1889, 3, 3)),
        (D(1893, 3, 4), D(1897, 3, 3)),
    )
    assert p["Benjamin Harrison"].terms == ((D(1889, 3, 4), D(1893, 3, 3)),)


def test_inaugurations_spot_checks() -> None:
    p = _by_name()
    assert p["Dwight D. Eisenhower"].terms == ((D(1953, 1, 20), D(1961, 1, 19)),)
    assert p["Ronald Reagan"].terms[0][0] == D(1981, 1, 20)
    assert p["Barack Obama"].terms == ((D(2009, 1, 20), D(2017, 1, 19)),)
    assert p["Joe Biden"].terms == ((D(2021, 1, 20), D(2025, 1, 19)),)
    assert p["Donald Trump"].terms == (
        (D(2017, 1, 20), D(2021, 1, 19)),
        (D(2025, 1, 20), None),
    )
    assert p["George Washington"].terms == ((D(1789, 4, 30), D(1797, 3, 3)),)
    assert p["Abraham Lincoln"].terms == ((D(1861, 3, 4), D(1865, 4, 14)),)
    # Apart from the successions every tenure starts on an inauguration day:
    # 4 March from 1797 to 1933, 20 January after the Twentieth Amendment
    # (first used in 1937, inside Franklin D. Roosevelt's tenure).
    successions = {
        D(1841, 4, 4), D(1850, 7, 9), D(1865, 4, 15), D(1881, 9, 19), D(1901, 9, 14),
        D(1923, 8, 2), D(1945, 4, 12), D(1963, 11, 22), D(1974, 8, 9),
    }  # fmt: skip
    for name, start, _ in _tenures()[1:]:
        if start not in successions:
            assert (start.month, start.day) == ((3, 4) if start.year <= 1933 else (1, 20)), name


# ---------------------------------------------------------------- sports events

SUMMER = [1896, 1900, 1904, 1908, 1912, 1920, 1924, 1928, 1932, 1936, 1948, 1952, 1956,
          1960, 1964, 1968, 1972, 1976, 1980, 1984, 1988, 1992, 1996, 2000, 2004, 2008,
          2012, 2016, 2021, 2024]  # fmt: skip
WINTER = [1924, 1928, 1932, 1936, 1948, 1952, 1956, 1960, 1964, 1968, 1972, 1976, 1980,
          1984, 1988, 1992, 1994, 1998, 2002, 2006, 2010, 2014, 2018, 2022, 2026]  # fmt: skip
WORLD_CUP = [1930, 1934, 1938, 1950, 1954, 1958, 1962, 1966, 1970, 1974, 1978, 1982,
             1986, 1990, 1994, 1998, 2002, 2006, 2010, 2014, 2018, 2022, 2026]  # fmt: skip


def test_sports_years_held() -> None:
    ev = kb.sports_events()
    assert list(ev["summer_olympics"].years) == SUMMER
    assert list(ev["winter_olympics"].years) == WINTER
    assert list(ev["fifa_world_cup"].years) == WORLD_CUP


def test_sports_spot_checks() -> None:
    ev = kb.sports_events()
    summer, winter, cup = (set(ev[k].years) for k in ev)
    assert 2021 in summer and 2020 not in summer  # Tokyo 2020 was held in 2021
    assert not {1916, 1940, 1944} & summer
    assert {1992, 1994} <= winter and 1996 not in winter  # the 1994 shift
    assert not {1940, 1944} & winter
    assert 2022 in cup and not {1942, 1946} & cup
    # Held by the as-of date (Milan-Cortina 6-22 Feb 2026, World Cup 11 Jun-19 Jul 2026);
    # scheduled editions live in their own table.
    assert max(summer | winter | cup) <= kb.KNOWLEDGE_AS_OF.year
    assert {2026} <= winter & cup and 2028 not in summer
    assert ev["summer_olympics"].label == "the Summer Olympic Games"
    assert ev["winter_olympics"].label == "the Winter Olympic Games"
    assert ev["fifa_world_cup"].label == "the FIFA World Cup"
    tokyo = ev["summer_olympics"].sources[ev["summer_olympics"].years.index(2021)]
    assert tokyo.endswith("2020_Summer_Olympics")


# ---------------------------------------------------------------- people


def test_people_well_formed() -> None:
    names = [p.name for p in kb.people()]
    assert len(names) == len(set(names))
    # The living are the former presidents who could serve again (their
    # births bound the presidency horizon); the generator samples the dead only.
    living = {p.name for p in kb.people() if p.died is None}
    assert living == {"Bill Clinton", "George W. Bush", "Barack Obama", "Donald Trump",
                      "Joe Biden"}  # fmt: skip
    for p in kb.people():
        if p.died is None:
            continue
        assert p.born < p.died, p.name
        # lifespan overlaps the supported range 1800..2100; those who died
        # before 1900-01-31 (the default domain's start) were added with the
        # 1800 range, born in it, and never meet a default-domain seed day
        assert p.died.year >= 1900 or p.born.year >= 1800, p.name
        assert p.name in p.description, p.name


def test_every_president_is_in_people() -> None:
    # The presidency horizon needs each president's death (or birth, if living);
    # for one who took office more than 88 years before the next term begins
    # (at least 35 then, at most 123 years of life) it is not needed.
    people = {p.name for p in kb.people()}
    for p in kb.presidents():
        if p.terms[0][0].year + 123 - 35 >= 2029:
            assert p.name in people, p.name


def test_people_spot_checks() -> None:
    p = {x.name: x for x in kb.people()}
    assert (p["Albert Einstein"].born, p["Albert Einstein"].died) == (
        D(1879, 3, 14),
        D(1955, 4, 18),
    )
    assert (p["Kobe Bryant"].born, p["Kobe Bryant"].died) == (D(1978, 8, 23), D(2020, 1, 26))
    assert (p["Steve Jobs"].born, p["Steve Jobs"].died) == (D(1955, 2, 24), D(2011, 10, 5))
    assert p["Martin Luther King Jr."].died == D(1968, 4, 4)
    assert p["Nelson Mandela"].born == D(1918, 7, 18)
    assert p["Elizabeth II"].died == D(2022, 9, 8)
    assert p["Neil Armstrong"].born == D(1930, 8, 5)


# ---------------------------------------------------------------- historical events


def test_events_well_formed() -> None:
    events = kb.historical_events()
    names = [e.name for e in events]
    assert len(names) == len(set(names))
    spans = 0
    for e in events:
        assert D(1800, 1, 1) <= e.start <= e.end <= kb.KNOWLEDGE_AS_OF, e.name
        assert e.name == e.name.strip() and e.name, e.name
        spans += e.end > e.start
    assert spans >= 10  # a mix of single days and spans
    assert len(events) - spans >= 40


def test_events_spot_checks() -> None:
    e = {x.name: (x.start, x.end) for x in kb.historical_events()}
    assert e["the Apollo 11 Moon landing"] == (D(1969, 7, 20), D(1969, 7, 20))
    assert e["the fall of the Berlin Wall"] == (D(1989, 11, 9), D(1989, 11, 9))
    assert e["the attack on Pearl Harbor"] == (D(1941, 12, 7), D(1941, 12, 7))
    assert e["World War I"] == (D(1914, 7, 28), D(1918, 11, 11))
    assert e["World War II"] == (D(1939, 9, 1), D(1945, 9, 2))
    # the 19th century (dates as the sources cited on the rows give them)
    assert e["the signing of the Louisiana Purchase treaty"] == (D(1803, 4, 30), D(1803, 4, 30))
    assert e["the Battle of Waterloo"] == (D(1815, 6, 18), D(1815, 6, 18))
    assert e["the royal assent to the Great Reform Act"] == (D(1832, 6, 7), D(1832, 6, 7))
    assert e["the Battle of Gettysburg"] == (D(1863, 7, 1), D(1863, 7, 3))
    assert e["the Gettysburg Address"] == (D(1863, 11, 19), D(1863, 11, 19))
    assert e["the completion of the first transcontinental railroad"] == (
        D(1869, 5, 10),
        D(1869, 5, 10),
    )
    assert e["the inauguration of the Eiffel Tower"] == (D(1889, 3, 31), D(1889, 3, 31))
    assert e["the September 11 attacks"] == (D(2001, 9, 11), D(2001, 9, 11))
    assert e["the sinking of the Titanic"] == (D(1912, 4, 15), D(1912, 4, 15))
    assert e["the Chernobyl disaster"] == (D(1986, 4, 26), D(1986, 4, 26))
    assert e["German reunification"] == (D(1990, 10, 3), D(1990, 10, 3))
    assert e["the killing of Osama bin Laden"] == (D(2011, 5, 2), D(2011, 5, 2))


def test_nineteenth_century_spot_checks() -> None:
    p = {x.name: (x.born, x.died) for x in kb.people()}
    assert p["Charles Darwin"] == (D(1809, 2, 12), D(1882, 4, 19))
    assert p["Charles Dickens"] == (D(1812, 2, 7), D(1870, 6, 9))
    assert p["Ada Lovelace"] == (D(1815, 12, 10), D(1852, 11, 27))
    assert p["Vincent van Gogh"] == (D(1853, 3, 30), D(1890, 7, 29))


# ---------------------------------------------------------------- user files


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_user_files_round_trip(tmp_path: Path) -> None:
    people = _write(
        tmp_path,
        "p.csv",
        "person,born,died,description,source\n"
        "Ada Lovelace,1815-12-10,1852-11-27,the mathematician Ada Lovelace,https://x.org/a\n"
        "Someone Alive, 1950-01-01 ,,a living person,https://x.org/b\n",
    )
    loaded = kb.load_people_csv(people)
    assert loaded[0] == kb.Person(
        "Ada Lovelace", D(1815, 12, 10), D(1852, 11, 27), "the mathematician Ada Lovelace",
        "https://x.org/a",
    )  # fmt: skip
    assert loaded[1].died is None and loaded[1].born == D(1950, 1, 1)

    events = _write(
        tmp_path,
        "e.csv",
        # column order may differ; extra columns are ignored
        "source,event,end,start,note\n"
        'https://x.org/e,"the signing, of something",2000-01-02,2000-01-01,hi\n',
    )
    assert kb.load_events_csv(str(events)) == (
        kb.HistoricalEvent("the signing, of something", D(2000, 1, 1), D(2000, 1, 2),
                           "https://x.org/e"),
    )  # fmt: skip

    sports = _write(
        tmp_path,
        "s.csv",
        "event,year,host,source\n"
        "fifa_world_cup,2030,Somewhere,https://x.org/2030\n"
        "fifa_world_cup,2026,Elsewhere,https://x.org/2026\n",
    )
    cup = kb.load_sports_events_csv(sports)["fifa_world_cup"]
    assert cup.years == (2026, 2030) and cup.sources == ("https://x.org/2026", "https://x.org/2030")

    pres = _write(
        tmp_path,
        "u.csv",
        "president,start,end,source\n"
        "A,2000-01-20,2004-01-19,https://x.org/1\n"
        "B,2004-01-20,2008-01-19,https://x.org/2\n"
        "A,2008-01-20,,https://x.org/3\n",
    )
    a, b = kb.load_presidents_csv(pres)
    assert a.terms == ((D(2000, 1, 20), D(2004, 1, 19)), (D(2008, 1, 20), None))
    assert b.name == "B"


PEOPLE_HEAD = "person,born,died,description,source\n"
EVENTS_HEAD = "event,start,end,source\n"
SPORTS_HEAD = "event,year,host,source\n"
PRES_HEAD = "president,start,end,source\n"
GOOD_EVENT = "the first thing,2000-01-01,2000-01-01,https://x.org/1\n"


@pytest.mark.parametrize(
    ("loader", "text", "expected"),
    [
        # bad dates
        (kb.load_events_csv, EVENTS_HEAD + GOOD_EVENT + "x,1999-02-30,1999-03-01,https://x.org\n",
         ["row 2", "'start'", "'1999-02-30'", "not a valid date"]),
        (kb.load_events_csv, EVENTS_HEAD + GOOD_EVENT + "x,20/07/1969,1969-07-20,https://x.org\n",
         ["row 2", "'start'", "'20/07/1969'", "YYYY-MM-DD"]),
        (kb.load_events_csv, EVENTS_HEAD + GOOD_EVENT + "x,1969-07-20,,https://x.org\n",
         ["row 2", "'end'"]),
        (kb.load_people_csv, PEOPLE_HEAD + "A,1900-1-5,,d,https://x.org\n",
         ["row 1", "'born'", "'1900-1-5'"]),
        # end before start / died before born
        (kb.load_events_csv, EVENTS_HEAD + GOOD_EVENT + "x,2000-01-02,2000-01-01,https://x.org\n",
         ["row 2", "'end'", "'2000-01-01'", "before start"]),
        (kb.load_people_csv, PEOPLE_HEAD + "A,1900-01-05,1899-01-01,d,https://x.org\n",
         ["row 1", "'died'", "'1899-01-01'", "before born"]),
        (kb.load_presidents_csv, PRES_HEAD + "A,2000-01-20,1999-01-19,https://x.org\n",
         ["row 1", "'end'", "'1999-01-19'"]),
        # missing / bad source
        (kb.load_events_csv, EVENTS_HEAD + GOOD_EVENT + "x,2000-01-01,2000-01-01,\n",
         ["row 2", "'source'", "missing source"]),
        (kb.load_people_csv, PEOPLE_HEAD + "A,1900-01-05,,d,wikipedia\n",
         ["row 1", "'source'", "'wikipedia'", "URL"]),
        # unknown event id, bad year, duplicate edition
        (kb.load_sports_events_csv, SPORTS_HEAD + "summer_olympic,2000,Sydney,https://x.org\n",
         ["row 1", "'event'", "'summer_olympic'", "unknown event id"]),
        (kb.load_sports_events_csv, SPORTS_HEAD + "fifa_world_cup,20x0,Q,https://x.org\n",
         ["row 1", "'year'", "'20x0'"]),
        (kb.load_sports_events_csv,
         SPORTS_HEAD + "fifa_world_cup,2022,Q,https://x.org\nfifa_world_cup,2022,Q,https://x.org\n",
         ["row 2", "'year'", "'2022'", "more than once"]),
        # structure: field count, header, empty required text
        (kb.load_events_csv, EVENTS_HEAD + GOOD_EVENT + "x,2000-01-01,https://x.org\n",
         ["row 2", "expected 4 fields"]),
        (kb.load_events_csv, "event,start,end\n" + "x,2000-01-01,2000-01-01\n",
         ["missing column", "source"]),
        (kb.load_people_csv, PEOPLE_HEAD + "A,1900-01-05,,,https://x.org\n",
         ["row 1", "'description'", "must not be empty"]),
        (kb.load_events_csv, "", ["empty file"]),
        # overlapping presidential tenures
        (kb.load_presidents_csv,
         PRES_HEAD + "A,2000-01-20,2004-01-20,https://x.org\nB,2004-01-20,,https://x.org\n",
         ["row 2", "'start'", "'2004-01-20'", "overlaps A"]),
        (kb.load_presidents_csv,
         PRES_HEAD + "A,2000-01-20,,https://x.org\nB,2004-01-20,,https://x.org\n",
         ["row 2", "overlaps A", "open-ended"]),
    ],
)  # fmt: skip
def test_user_loaders_reject_bad_rows(
    tmp_path: Path, loader: Callable[[Path], object], text: str, expected: list[str]
) -> None:
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(TsolveError) as info:
        loader(path)
    message = str(info.value)
    assert "\n" not in message
    assert str(path) in message
    for fragment in expected:
        assert fragment in message, (fragment, message)


def test_user_loader_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TsolveError, match="cannot read file"):
        kb.load_people_csv(tmp_path / "nope.csv")


def test_user_loader_accepts_excel_bom(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(("\ufeff" + EVENTS_HEAD + GOOD_EVENT).encode("utf-8"))
    assert kb.load_events_csv(path)[0].name == "the first thing"


# ---------------------------------------------------------------- horizon and conventions


def test_as_of_date_is_stated_once() -> None:
    assert D(2026, 11, 23) == kb.KNOWLEDGE_AS_OF


def test_scheduled_editions() -> None:
    # Awarded editions (IOC / FIFA host elections), not yet held on the as-of date.
    sched = kb.scheduled_sports_events()
    assert sched["summer_olympics"].years == (2028, 2032)
    assert sched["winter_olympics"].years == (2030, 2034)
    assert sched["fifa_world_cup"].years == (2030, 2034)
    held = kb.sports_events()
    for ev, s in sched.items():
        assert min(s.years) > kb.KNOWLEDGE_AS_OF.year
        assert not set(s.years) & set(held[ev].years)


def test_event_conventions() -> None:
    c = {x.convention: x for x in kb.event_conventions()}
    assert (c["ve-day-9-may"].event, c["ve-day-9-may"].start) == ("V-E Day", D(1945, 5, 9))
    assert c["wwii-ends-15-august"].end == D(1945, 8, 15)
    assert c["sputnik-moscow-time"].start == D(1957, 10, 5)
    assert c["korean-war-never-ended"].end is None
    events = {e.name for e in kb.historical_events()}
    for x in c.values():
        assert x.event in events and x.source.startswith("https://")


def test_bad_convention_rows(tmp_path: Path) -> None:
    f = tmp_path / "c.csv"
    f.write_text("event,convention,start,end,source\nX,Bad Name,2000-01-01,,https://a.org/x\n")
    with pytest.raises(TsolveError, match="'convention' = 'Bad Name'"):
        kb.load_event_conventions_csv(f)
    f.write_text("event,convention,start,end,source\nX,ok,2000-01-02,2000-01-01,https://a.org/x\n")
    with pytest.raises(TsolveError, match="is before start"):
        kb.load_event_conventions_csv(f)


def test_incumbent_term_end() -> None:
    # Twentieth Amendment: the term begun 2025-01-20 ends at noon 2029-01-20.
    assert kb.incumbent_term_end(D(2025, 1, 20)) == D(2029, 1, 19)


# ---------------------------------------------------------------- the interval index


def _segments_by_scan(index: kb.IntervalIndex[str]) -> list[tuple[str, ...]]:
    """The build the sweep replaced: every item tested at every point."""
    spans = index._spans
    return [
        tuple(x for x, (a, b) in zip(index.items, spans, strict=True) if a <= p <= b)
        for p in index._points
    ]


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40)), max_size=30))
def test_interval_index_sweep_builds_the_segments_a_scan_builds(
    spans: list[tuple[int, int]],
) -> None:
    """Random intervals, repeated bounds and empty ones (lo > hi) included: the
    sweep's segments are the scan's, item for item and in the items' order,
    and every key finds exactly the items whose interval holds it."""
    items = [f"item{i}" for i in range(len(spans))]
    index = kb.IntervalIndex(items, [a for a, _ in spans], [b for _, b in spans])
    assert index._segments == _segments_by_scan(index)
    for key in range(-42, 43):
        assert index.containing(key) == tuple(
            x for x, (a, b) in zip(items, spans, strict=True) if a <= key <= b
        )
