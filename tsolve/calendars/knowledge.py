"""The knowledge base: real-world facts that anchor puzzles to dates.

Time Puzzles ground some constraints in facts a solver has to know or look up
("a US president was in office", "it was an Olympic year", "the same year as
the fall of the Berlin Wall"). A wrong date here silently becomes a wrong gold
answer, so the facts live in small, reviewable CSV files under
``tsolve/calendars/data/`` -- one row per fact, each with a source URL -- rather
than in code, and this module only parses and validates them.

The same parsers back the ``load_*_csv`` functions, so users can bring their own
files in the same format (documented in ``docs/knowledge-base.md``) and get the
same checks: any bad row raises a one-line :class:`~tsolve.errors.TsolveError`
naming the file, the row, the field and the value, instead of producing a
puzzle with a wrong answer later.

Loading is offline (the files ship in the package) and cached, because the generator
asks for these tables many times per run and they never change while it runs.
"""

from __future__ import annotations

import bisect
import csv
import datetime as _dt
import io
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType
from typing import Generic, TypeVar

from tsolve.calendars.data_files import data_text
from tsolve.errors import TsolveError

__all__ = [
    "CONVENTIONS_COLUMNS",
    "EVENTS_COLUMNS",
    "EVENT_LABELS",
    "KNOWLEDGE_AS_OF",
    "PEOPLE_COLUMNS",
    "PRESIDENTS_COLUMNS",
    "SPORTS_COLUMNS",
    "EventConvention",
    "HistoricalEvent",
    "IntervalIndex",
    "Person",
    "President",
    "SportsEvent",
    "event_conventions",
    "historical_events",
    "incumbent_term_end",
    "lifetimes",
    "load_event_conventions_csv",
    "load_events_csv",
    "load_people_csv",
    "load_presidents_csv",
    "load_sports_events_csv",
    "name_key",
    "people",
    "presidents",
    "scheduled_sports_events",
    "sports_events",
]


def name_key(name: str) -> str:
    """A name as the knowledge base matches it: case, punctuation, a leading
    "the" and a possessive "'s" do not count ("the fall of the Berlin Wall"
    and "Fall of the Berlin wall" are one key)."""
    t = re.sub(r"['’]s\b", "", name.casefold())
    t = re.sub(r"[^\w\s]", " ", t)
    t = re.sub(r"^\s*the\s+", "", t)
    return " ".join(t.split())


# The knowledge base's horizon: every row is true as known on this day, and
# nothing after it is known. Readings beyond it (scheduled editions, the rest
# of a term, a living person's future) are built from this one date; update it
# together with the CSVs (docs/knowledge-base.md, "Updating").
KNOWLEDGE_AS_OF = _dt.date(2026, 11, 23)

# Column names of each file, in the order the built-in files use. Files may
# order columns differently or add extra columns (ignored); these are required.
PRESIDENTS_COLUMNS = ("president", "start", "end", "source")
PEOPLE_COLUMNS = ("person", "born", "died", "description", "source")
SPORTS_COLUMNS = ("event", "year", "host", "source")
EVENTS_COLUMNS = ("event", "start", "end", "source")
CONVENTIONS_COLUMNS = ("event", "convention", "start", "end", "source")

# The sports events the generator knows how to phrase. A closed set, so that a
# typo in a user file ("summer_olympic") is an error rather than a new event
# that no template renders.
EVENT_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "summer_olympics": "the Summer Olympic Games",
        "winter_olympics": "the Winter Olympic Games",
        "fifa_world_cup": "the FIFA World Cup",
    }
)

_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_YEAR = re.compile(r"^\d{1,4}$")
# A source must be something a reviewer can open: an absolute http(s) URL.
_URL = re.compile(r"^https?://[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$", re.IGNORECASE)


@dataclass(frozen=True)
class President:
    """A US president and every tenure they served.

    ``terms`` are ``(first day, last day)`` pairs, oldest first. The last day is
    the day *before* the successor took office (inauguration or succession day
    belongs to the incoming president), so consecutive tenures tile the
    calendar without overlap. ``None`` marks a tenure still under way, whose end
    is unknown. ``sources[i]`` is the source of ``terms[i]``.
    """

    name: str
    terms: tuple[tuple[_dt.date, _dt.date | None], ...]
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Person:
    """A well-known person with exact birth and (if known) death dates.

    ``description`` is a noun phrase for rendering ("the physicist Albert
    Einstein"); ``died`` is ``None`` for a living person.
    """

    name: str
    born: _dt.date
    died: _dt.date | None
    description: str
    source: str


@dataclass(frozen=True)
class SportsEvent:
    """A recurring sports event and the years it was actually held.

    ``event`` is the id (``summer_olympics``), ``label`` the phrase for
    rendering ("the Summer Olympic Games"). ``years`` are ascending and list the
    year each edition took place, not its nominal name (Tokyo 2020 -> 2021).
    ``sources[i]`` is the source of ``years[i]``.
    """

    event: str
    label: str
    years: tuple[int, ...]
    sources: tuple[str, ...]


@dataclass(frozen=True)
class HistoricalEvent:
    """A dated historical event; ``end == start`` for a single-day event.

    Dates are local dates where the event happened (see the docs for the few
    cases where the time zone matters).
    """

    name: str
    start: _dt.date
    end: _dt.date
    source: str


@dataclass(frozen=True)
class EventConvention:
    """Another dating of a historical event, under a named convention.

    ``event`` is the name of a row of ``historical_events.csv``; ``end`` is
    ``None`` for an event that, under this convention, never ended (the Korean
    War has an armistice but no peace treaty). ``convention`` names the reading
    in records and audit reports.
    """

    event: str
    convention: str
    start: _dt.date
    end: _dt.date | None
    source: str


# --------------------------------------------------------------------------
# Row parsing with one-line, precise errors


class _Row:
    """One data row of a CSV file, with accessors that fail with a located error.

    Every accessor raises a :class:`TsolveError` naming the file, the row
    (1-based, header excluded), the physical line, the field and the value, so
    a user fixing their file knows exactly where to look.
    """

    def __init__(self, filename: str, number: int, line: int, values: Mapping[str, str]) -> None:
        self.filename = filename
        self.number = number
        self.line = line
        self.values = values

    def error(self, field: str, value: str, problem: str) -> TsolveError:
        """Build the one-line error for ``field`` holding ``value``."""
        return TsolveError(
            f"{self.filename}, row {self.number} (line {self.line}): "
            f"field {field!r} = {value!r}: {problem}"
        )

    def text(self, field: str) -> str:
        """A required, non-empty text field."""
        value = self.values[field]
        if not value:
            raise self.error(field, value, "must not be empty")
        return value

    def url(self, field: str = "source") -> str:
        """A required source URL (absolute http/https)."""
        value = self.values[field]
        if not value:
            raise self.error(field, value, "missing source: every row needs a source URL")
        if not _URL.match(value):
            raise self.error(field, value, "is not an http(s) URL")
        return value

    def date(self, field: str) -> _dt.date:
        """A required ``YYYY-MM-DD`` date."""
        value = self.values[field]
        if not value:
            raise self.error(field, value, "a date in YYYY-MM-DD form is required")
        return self._parse_date(field, value)

    def optional_date(self, field: str) -> _dt.date | None:
        """A ``YYYY-MM-DD`` date, or ``None`` when the field is empty."""
        value = self.values[field]
        return self._parse_date(field, value) if value else None

    def _parse_date(self, field: str, value: str) -> _dt.date:
        # Strict ISO with zero padding: "1969-7-20" or "20/07/1969" are far more
        # likely to be mistakes (or locale artefacts) than intentional.
        m = _ISO_DATE.match(value)
        if not m:
            raise self.error(field, value, "is not a date in YYYY-MM-DD form")
        try:
            return _dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError as exc:
            raise self.error(field, value, f"is not a valid date ({exc})") from None

    def year(self, field: str) -> int:
        """A required year, 1..9999."""
        value = self.values[field]
        if not _YEAR.match(value) or int(value) < 1:
            raise self.error(field, value, "is not a year (an integer 1..9999)")
        return int(value)


def _rows(text: str, filename: str, columns: Sequence[str]) -> Iterator[_Row]:
    """Yield the data rows of ``text``, checking the header and field counts.

    Blank lines are skipped. Cells are stripped of surrounding whitespace, since
    hand-edited CSVs often have a space after the comma.
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header: list[str] | None = None
        number = 0
        for record in reader:
            if not record or all(not cell.strip() for cell in record):
                continue
            cells = [cell.strip() for cell in record]
            if header is None:
                header = cells
                _check_header(header, filename, columns)
                continue
            number += 1
            if len(cells) != len(header):
                raise TsolveError(
                    f"{filename}, row {number} (line {reader.line_num}): expected "
                    f"{len(header)} fields ({','.join(header)}), found {len(cells)}: "
                    f"{','.join(record)!r}"
                )
            yield _Row(filename, number, reader.line_num, dict(zip(header, cells, strict=True)))
    except csv.Error as exc:
        raise TsolveError(f"{filename}, line {reader.line_num}: malformed CSV ({exc})") from None
    if header is None:
        raise TsolveError(f"{filename}: empty file, expected a header {','.join(columns)}")


def _check_header(header: Sequence[str], filename: str, columns: Sequence[str]) -> None:
    """Require every expected column exactly once (extra columns are allowed)."""
    duplicates = sorted({name for name in header if header.count(name) > 1})
    if duplicates:
        raise TsolveError(f"{filename}: header repeats column(s) {', '.join(duplicates)}")
    missing = [name for name in columns if name not in header]
    if missing:
        raise TsolveError(
            f"{filename}: header is missing column(s) {', '.join(missing)} "
            f"(expected {','.join(columns)}; found {','.join(header)})"
        )


# --------------------------------------------------------------------------
# Parsers: text -> validated records


def _parse_presidents(text: str, filename: str) -> tuple[President, ...]:
    tenures: list[tuple[_dt.date, _dt.date | None, str, str, _Row]] = []
    for row in _rows(text, filename, PRESIDENTS_COLUMNS):
        name = row.text("president")
        start = row.date("start")
        end = row.optional_date("end")
        if end is not None and end < start:
            raise row.error("end", row.values["end"], f"is before start {start.isoformat()}")
        tenures.append((start, end, name, row.url(), row))

    # Tenures of different presidents cannot overlap, and only the latest one
    # may be open-ended: an overlap means a typo in one of the dates.
    tenures.sort(key=lambda t: t[0])
    for (_, prev_end, prev_name, _, _), (start, _, _, _, row) in pairwise(tenures):
        if prev_end is None or start <= prev_end:
            until = "an open-ended tenure" if prev_end is None else prev_end.isoformat()
            raise row.error(
                "start", row.values["start"], f"overlaps {prev_name}'s tenure ending {until}"
            )

    terms: dict[str, list[tuple[_dt.date, _dt.date | None]]] = {}
    sources: dict[str, list[str]] = {}
    for start, end, name, source, _ in tenures:  # sorted, so first key = first term
        terms.setdefault(name, []).append((start, end))
        sources.setdefault(name, []).append(source)
    return tuple(President(name, tuple(terms[name]), tuple(sources[name])) for name in terms)


def _parse_people(text: str, filename: str) -> tuple[Person, ...]:
    result: list[Person] = []
    seen: set[str] = set()
    for row in _rows(text, filename, PEOPLE_COLUMNS):
        name = row.text("person")
        if name in seen:
            raise row.error("person", name, "appears more than once")
        seen.add(name)
        born = row.date("born")
        died = row.optional_date("died")
        if died is not None and died < born:
            raise row.error("died", row.values["died"], f"is before born {born.isoformat()}")
        result.append(Person(name, born, died, row.text("description"), row.url()))
    return tuple(result)


def _parse_sports(text: str, filename: str) -> tuple[tuple[str, SportsEvent], ...]:
    editions: dict[str, dict[int, str]] = {}
    for row in _rows(text, filename, SPORTS_COLUMNS):
        event = row.text("event")
        if event not in EVENT_LABELS:
            known = ", ".join(sorted(EVENT_LABELS))
            raise row.error("event", event, f"unknown event id (known: {known})")
        year = row.year("year")
        row.text("host")  # required for review, not exposed
        source = row.url()
        if year in editions.setdefault(event, {}):
            raise row.error("year", row.values["year"], f"{event} {year} appears more than once")
        editions[event][year] = source
    return tuple(
        (
            event,
            SportsEvent(
                event=event,
                label=EVENT_LABELS[event],
                years=tuple(sorted(by_year)),
                sources=tuple(by_year[y] for y in sorted(by_year)),
            ),
        )
        for event, by_year in editions.items()
    )


def _parse_events(text: str, filename: str) -> tuple[HistoricalEvent, ...]:
    result: list[HistoricalEvent] = []
    seen: set[str] = set()
    for row in _rows(text, filename, EVENTS_COLUMNS):
        name = row.text("event")
        if name in seen:
            raise row.error("event", name, "appears more than once")
        seen.add(name)
        start = row.date("start")
        end = row.date("end")
        if end < start:
            raise row.error("end", row.values["end"], f"is before start {start.isoformat()}")
        result.append(HistoricalEvent(name, start, end, row.url()))
    return tuple(result)


_CONVENTION_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _parse_conventions(text: str, filename: str) -> tuple[EventConvention, ...]:
    result: list[EventConvention] = []
    seen: set[str] = set()
    for row in _rows(text, filename, CONVENTIONS_COLUMNS):
        name = row.text("convention")
        if not _CONVENTION_NAME.match(name):
            raise row.error("convention", name, "must be lower-case letters, digits and '-'")
        if name in seen:
            raise row.error("convention", name, "appears more than once")
        seen.add(name)
        start = row.date("start")
        end = row.optional_date("end")
        if end is not None and end < start:
            raise row.error("end", row.values["end"], f"is before start {start.isoformat()}")
        result.append(EventConvention(row.text("event"), name, start, end, row.url()))
    return tuple(result)


# --------------------------------------------------------------------------
# Built-in data (cached) and user files (not cached: they may change)

_T = TypeVar("_T")


def _builtin(filename: str, parse: Callable[[str, str], _T]) -> _T:
    """Parse a CSV shipped in ``tsolve/calendars/data`` (no network, no cwd)."""
    return parse(data_text(filename), f"built-in {filename}")


def _user_file(path: str | os.PathLike[str], parse: Callable[[str, str], _T]) -> _T:
    """Read a user's CSV (UTF-8, an Excel BOM tolerated) and parse it."""
    filename = os.fspath(path)
    try:
        text = Path(filename).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TsolveError(
            f"{filename}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    except OSError as exc:
        raise TsolveError(f"{filename}: cannot read file ({exc.strerror or exc})") from None
    return parse(text, filename)


# The packaged knowledge base, read once per process by the cached loaders
# below (no arguments: one entry each). The files ship with tsolve and do not
# change while it runs, so an entry is never stale; a user's own files are read
# by the ``load_*_csv`` functions, uncached.
@cache
def presidents() -> tuple[President, ...]:
    """US presidents since 1945, ordered by the start of their first tenure."""
    return _builtin("us_presidents.csv", _parse_presidents)


@cache
def people() -> tuple[Person, ...]:
    """Well-known people with exact birth and death dates."""
    return _builtin("people.csv", _parse_people)


@cache
def _sports_items() -> tuple[tuple[str, SportsEvent], ...]:
    return _builtin("sports_events.csv", _parse_sports)


def sports_events() -> dict[str, SportsEvent]:
    """Summer/Winter Olympics and FIFA World Cup, keyed by event id.

    A fresh dict each call (over cached, immutable values) so a caller that
    modifies it cannot corrupt the table for everyone else.
    """
    return dict(_sports_items())


@cache
def historical_events() -> tuple[HistoricalEvent, ...]:
    """Dated historical events up to :data:`KNOWLEDGE_AS_OF`, in file order."""
    return _builtin("historical_events.csv", _parse_events)


@cache
def _scheduled_items() -> tuple[tuple[str, SportsEvent], ...]:
    return _builtin("scheduled_sports_events.csv", _parse_sports)


def scheduled_sports_events() -> dict[str, SportsEvent]:
    """Editions awarded but not yet held on :data:`KNOWLEDGE_AS_OF`, keyed by
    event id. They are not facts: they are the horizon reading of "a year in
    which ... was held" (the edition may still move or be cancelled)."""
    return dict(_scheduled_items())


@cache
def event_conventions() -> tuple[EventConvention, ...]:
    """Alternative datings of historical events, each a named convention.

    Every ``event`` must name a row of ``historical_events.csv``: a typo would
    otherwise silently drop the alternative (checked when loaded).
    """
    found = _builtin("event_conventions.csv", _parse_conventions)
    names = {ev.name for ev in historical_events()}
    for c in found:
        if c.event not in names:
            raise TsolveError(
                f"built-in event_conventions.csv: field 'event' = {c.event!r}: "
                "no such event in historical_events.csv"
            )
    return found


_Item = TypeVar("_Item")


class IntervalIndex(Generic[_Item]):
    """Items, each with a closed integer interval ``[lo, hi]`` (day numbers,
    year-month numbers, years, ...), found by binary search instead of a scan
    per question: the generator asks "which events touch this day?" for every
    fact it draws, with a new day each time.

    Which items hold a key changes only where an interval starts or ends, so
    the keys are cut at those points into segments, and each segment's items
    are listed once, when the index is built (a few hundred segments for the
    knowledge base's few hundred rows). :meth:`containing` is then one binary
    search for the key's segment. Answers come in the items' own order (the
    knowledge base's file order), so a random choice among them is the same
    choice a scan would give."""

    def __init__(self, items: Sequence[_Item], lo: Sequence[int], hi: Sequence[int]) -> None:
        if not len(items) == len(lo) == len(hi):
            raise ValueError("IntervalIndex: items, lo and hi differ in length")
        self.items = tuple(items)
        self._spans = [(int(a), int(b)) for a, b in zip(lo, hi, strict=True)]
        #: Segment j holds the keys points[j] .. points[j + 1] - 1 (the last one
        #: all keys from its point on); below points[0] no item holds.
        self._points = sorted({a for a, _ in self._spans} | {b + 1 for _, b in self._spans})
        self._segments = self._sweep()

    def __len__(self) -> int:
        return len(self.items)

    def _sweep(self) -> list[tuple[_Item, ...]]:
        """Each segment's items, by one sweep over the points: an item joins
        the active set at its start and leaves it after its end, so the build
        costs the size of its output (testing every item at every point was
        points x items steps: 34 M instructions of the first puzzle's start-up,
        docs/startup.md). An item with
        ``lo > hi`` holds no key and never joins. The active items are kept as
        their positions, sorted, so each segment lists them in the items' own
        order; an item leaves after it joined (its start is at most its end)."""
        spans = self._spans
        held = [i for i, (a, b) in enumerate(spans) if a <= b]
        starts = sorted(held, key=lambda i: spans[i][0])
        ends = sorted(held, key=lambda i: spans[i][1])
        item = self.items.__getitem__
        active: list[int] = []
        segments: list[tuple[_Item, ...]] = []
        s = e = 0
        for point in self._points:
            while s < len(starts) and spans[starts[s]][0] <= point:
                bisect.insort(active, starts[s])
                s += 1
            while e < len(ends) and spans[ends[e]][1] < point:
                del active[bisect.bisect_left(active, ends[e])]
                e += 1
            segments.append(tuple(map(item, active)))
        return segments

    def containing(self, key: int) -> tuple[_Item, ...]:
        """The items whose interval holds ``key``, in their own order."""
        j = bisect.bisect_right(self._points, key) - 1
        return self._segments[j] if j >= 0 else ()

    def overlapping(self, lo: int, hi: int) -> tuple[_Item, ...]:
        """The items whose interval meets ``[lo, hi]``, in their own order."""
        return tuple(
            x for x, (a, b) in zip(self.items, self._spans, strict=True) if a <= hi and b >= lo
        )


# The people with a known death date, as lifetimes (born, died) in day
# numbers: the people a "was alive" fact can name. Built once from the
# packaged table (cached like it; never stale).
@cache
def lifetimes() -> IntervalIndex[Person]:
    """:func:`people` with a death date, indexed by lifetime (born .. died)."""
    dead = [p for p in people() if p.died is not None]
    return IntervalIndex(
        dead,
        [p.born.toordinal() for p in dead],
        [p.died.toordinal() for p in dead if p.died is not None],
    )


def incumbent_term_end(start: _dt.date) -> _dt.date:
    """The last day of a four-year term begun on ``start`` (a US presidential
    term ends at noon on 20 January of the fourth year after it began,
    Twentieth Amendment; inauguration day belongs to the successor, so the last
    full day is the 19th)."""
    return _dt.date(start.year + 4, 1, 19)


def load_presidents_csv(path: str | os.PathLike[str]) -> tuple[President, ...]:
    """Load a user file in the ``us_presidents.csv`` format."""
    return _user_file(path, _parse_presidents)


def load_people_csv(path: str | os.PathLike[str]) -> tuple[Person, ...]:
    """Load a user file in the ``people.csv`` format."""
    return _user_file(path, _parse_people)


def load_sports_events_csv(path: str | os.PathLike[str]) -> dict[str, SportsEvent]:
    """Load a user file in the ``sports_events.csv`` format (known event ids only)."""
    return dict(_user_file(path, _parse_sports))


def load_events_csv(path: str | os.PathLike[str]) -> tuple[HistoricalEvent, ...]:
    """Load a user file in the ``historical_events.csv`` format."""
    return _user_file(path, _parse_events)


def load_event_conventions_csv(path: str | os.PathLike[str]) -> tuple[EventConvention, ...]:
    """Load a user file in the ``event_conventions.csv`` format."""
    return _user_file(path, _parse_conventions)
