"""Audit the published answers of an imported Time Puzzles release record.

A record made by :mod:`tsolve.families.time_puzzles.release` carries two
answer sets: ``answers``, what tsolve's solver proves the facts give with
tsolve's calendars, and ``published_answers``, the release's own. This module
judges the published ones under the readings the release's sentences leave
open (each fact's ``release`` meta says which apply), with the verdicts of
:mod:`tsolve.audit.base`:

* ``ok``: every combination of readings gives the published answers;
* ``ambiguous``: some combination gives them and another does not;
  ``detail.reading`` names a reading on the other side and ``answers`` what it
  gives, ``gold_readings`` the side the published answers take;
* ``inconsistent``: no combination gives them. ``detail.proof`` names a
  published date and the fact it breaks under every reading, with the
  calendar's word for it ("1828-09-06 is in lunar year 1828 (Rat), not Pig"),
  or a date every reading allows that the release leaves out.

The readings, each named in ``readings`` when it applies to a fact:

* ``lunar-leap-excluded``: "It is the Nth month of the Chinese lunar
  calendar" leaves out the leap Nth month (the release counts it, as its
  calendar library numbers a leap month like the month before it);
* ``world-cup-awarded-only`` (implicit sentence): "a FIFA World Cup year" is a
  year whose tournament has been held or awarded, not every year of the rule
  the explicit sentence states;
* ``olympics-cancelled-included`` (implicit sentence): "a modern Summer
  Olympic year" counts the cancelled 1916, 1940 and 1944 Games;
* ``end-days-included``: a person is alive, and a president in office, on the
  first and last day the explicit sentence gives (the release leaves both out).

Readings that need what tsolve does not know are not checked and are listed
in ``detail.unchecked``: "the same day as the last day that X" read as that
very date, not its day of the month (the explicit form, "The day of the month
is 6.", confirms the day of the month, which is what the fact holds), and "a
year in which X" read as any year X lasted, not the one year the explicit
form states.
"""

from __future__ import annotations

import datetime as _dt
import itertools
from typing import Any

import numpy as np

from tsolve.audit.base import AuditVerdict
from tsolve.calendars import knowledge
from tsolve.calendars.chinese import zodiac
from tsolve.calendars.domain import iso
from tsolve.encodings.facts.base import DayView, Fact, domain_view
from tsolve.encodings.facts.knowledge_facts import (
    PersonAliveFact,
    SportsEventYearFact,
    UsPresidentFact,
)
from tsolve.encodings.facts.lunar_facts import LunarMonthFact
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.solve import Puzzle, puzzle_from_record
from tsolve.records.validation import expect_iso_dates

FAMILY = "time-puzzles"
CANONICAL = "canonical"
LEAP_EXCLUDED = "lunar-leap-excluded"
WORLD_CUP_AWARDED = "world-cup-awarded-only"
OLYMPICS_CANCELLED = "olympics-cancelled-included"
END_DAYS = "end-days-included"
#: The Summer Games that were awarded and cancelled (1916 Berlin, 1940 Tokyo
#: then Helsinki, 1944 London).
CANCELLED_OLYMPICS = (1916, 1940, 1944)
#: The first day the release's lunar library (``lunarcalendar``) has tables
#: for: before it the release's lunar facts are wrong (see the audit's causes).
LUNAR_TABLES_START = _dt.date(1900, 1, 31)
#: How many dates an answer set shown in a verdict lists.
SHOW = 20

_ONE_DAY = _dt.timedelta(days=1)


def is_release_record(record: dict[str, Any]) -> bool:
    """Does ``record`` come from the release importer (it has published answers)?"""
    return "published_answers" in record


# --- the readings of each fact ---------------------------------------------------------------


def _awarded(event: str) -> set[int]:
    held = knowledge.sports_events().get(event)
    sched = knowledge.scheduled_sports_events().get(event)
    return set(held.years if held else ()) | set(sched.years if sched else ())


def _widened(fact: Fact) -> Fact:
    """A lifetime or term with its first and last day put back."""
    if isinstance(fact, PersonAliveFact):
        assert fact.died is not None
        return PersonAliveFact(fact.person, _shift(fact.born, -1), _shift(fact.died, 1),
                               fact.description)  # fmt: skip
    assert isinstance(fact, UsPresidentFact)
    return UsPresidentFact(fact.president,
                           tuple((_shift(s, -1), _shift(e, 1)) for s, e in fact.terms))  # fmt: skip


def _shift(day: str, by: int) -> str:
    return (_dt.date.fromisoformat(day) + by * _ONE_DAY).isoformat()


def release_readings(fact: Fact, meta: dict[str, Any]) -> list[tuple[str, Fact]]:
    """The other readings of one imported fact (module docstring), by name."""
    kind = meta.get("type")
    out: list[tuple[str, Fact]] = []
    if kind == "lunar_month" and isinstance(fact, LunarMonthFact) and fact.leap is None:
        out.append((LEAP_EXCLUDED, LunarMonthFact(fact.month, False) if fact.month <= 12 else fact))
    elif kind == "event" and isinstance(fact, SportsEventYearFact):
        if fact.event == "fifa_world_cup":
            held = _awarded("fifa_world_cup")
            # (0,) when no year of the rule is awarded: a year no domain holds.
            out.append((WORLD_CUP_AWARDED,
                        SportsEventYearFact(fact.event, tuple(y for y in fact.years if y in held)
                                            or (0,))))  # fmt: skip
        elif fact.event == "summer_olympics":
            years = tuple(sorted({*fact.years, *CANCELLED_OLYMPICS}))
            out.append((OLYMPICS_CANCELLED, SportsEventYearFact(fact.event, years)))
    elif kind in ("person_alive", "us_president"):
        out.append((END_DAYS, _widened(fact)))
    return [(n, f) for n, f in out if f != fact]


def _unchecked(meta: dict[str, Any]) -> str | None:
    if meta.get("type") != "kb_event":
        return None
    aspect, level = meta.get("aspect"), meta.get("level")
    if aspect == "multi_year":
        return ("'a year in which' read as any year the event lasted (the explicit form "
                "states one)")  # fmt: skip
    if level == "day":
        return ("'the same day as' read as that very date (the explicit form states the day "
                "of the month)")  # fmt: skip
    if level == "month":
        return ("'the same month as' read as that month of that year (the explicit form "
                "states the month)")  # fmt: skip
    return None


def _options(puzzle: Puzzle, metas: list[dict[str, Any]]) -> list[list[tuple[str, np.ndarray]]]:
    view = domain_view(puzzle.domain)
    out = []
    for f, meta in zip(puzzle.facts, metas, strict=True):
        opts = [(CANONICAL, np.asarray(f.holds(view), dtype=bool))]
        opts += [(n, np.asarray(g.holds(view), dtype=bool)) for n, g in release_readings(f, meta)]
        out.append(opts)
    return out


# --- the verdict --------------------------------------------------------------------------------


def _dates(puzzle: Puzzle, mask: np.ndarray) -> list[str]:
    return [iso(puzzle.domain.start + int(k)) for k in np.flatnonzero(mask)]


def _conjunction(masks: list[np.ndarray], size: int) -> np.ndarray:
    out = np.ones(size, dtype=bool)
    for m in masks:
        out &= m
    return out


def _combinations(options: list[list[tuple[str, np.ndarray]]],
                  size: int) -> list[tuple[str, np.ndarray]]:  # fmt: skip
    """Every combination of the facts' readings (all canonical first), as its
    name and its answer set's mask: a puzzle has up to six facts and at most
    two readings each, so 64 at most, and checking each is what makes the
    verdict exact."""
    out = []
    for combo in itertools.product(*options):
        names = [f"fact {i + 1}: {n}" for i, (n, _) in enumerate(combo) if n != CANONICAL]
        out.append((" + ".join(names) or CANONICAL, _conjunction([m for _, m in combo], size)))
    return out


def calendar_word(fact: Fact, day: int) -> str | None:
    """What the calendar says of ``day`` for a lunar fact, in words."""
    if fact.kind not in ("chinese_zodiac", "lunar_month"):
        return None
    year, month, _, leap = (int(a[0]) for a in DayView(np.asarray([day])).chinese)
    d = iso(day)
    if fact.kind == "chinese_zodiac":
        return f"{d} is in lunar year {year} ({zodiac(year)}), not {fact.params['animal']}"
    month_words = f"{'leap ' if leap else ''}month {month} of lunar year {year}"
    return f"{d} is in {month_words}, not month {fact.params['month']}"


def _cause(puzzle: Puzzle, published: list[str], canonical: list[str]) -> str:
    """Why the published answers differ from tsolve's: the release's lunar
    library before its tables begin, or something else."""
    differ = set(published) ^ set(canonical)
    lunar = any(f.kind in ("chinese_zodiac", "lunar_month") for f in puzzle.facts)
    if lunar and differ and all(_dt.date.fromisoformat(d) < LUNAR_TABLES_START for d in differ):
        return "chinese-calendar-before-1900"
    return "other"


def _proof(puzzle: Puzzle, options: list[list[tuple[str, np.ndarray]]],
           published: list[str], texts: list[str]) -> dict[str, Any]:  # fmt: skip
    dom = puzzle.domain
    for d in published:
        day = _dt.date.fromisoformat(d).toordinal()
        if not dom.start <= day <= dom.end:
            where = f"{iso(dom.start)}..{iso(dom.end)}"
            return {"date": d, "violates": None,
                    "proof": f"published answer {d} is outside {where}"}  # fmt: skip
        k = day - dom.start
        for i, (f, opts) in enumerate(zip(puzzle.facts, options, strict=True)):
            if not any(bool(m[k]) for _, m in opts):
                why = calendar_word(f, day) or f"{d} breaks it"
                return {"date": d, "violates": {"index": i, "kind": f.kind, "text": texts[i]},
                        "readings": [n for n, _ in opts], "why": why,
                        "proof": f"published answer {d} breaks fact {i + 1} ({texts[i]!r}) under "
                                 f"every reading: {why}"}  # fmt: skip
    every = _conjunction([np.logical_and.reduce([m for _, m in o]) for o in options], dom.size)
    for d in _dates(puzzle, every):
        if d not in set(published):
            day = _dt.date.fromisoformat(d).toordinal()
            words = [w for f in puzzle.facts if (w := _lunar_fields(f, day))]
            return {"date": d, "violates": None,
                    "proof": f"{d} meets every fact under every reading"
                             + (f" ({'; '.join(words)})" if words else "")
                             + ", and the published answers leave it out"}  # fmt: skip
    return {
        "date": None,
        "violates": None,
        "proof": "no combination of the facts' readings gives exactly the published answers",
    }


def _lunar_fields(fact: Fact, day: int) -> str | None:
    if fact.kind not in ("chinese_zodiac", "lunar_month"):
        return None
    year, month, _, leap = (int(a[0]) for a in DayView(np.asarray([day])).chinese)
    if fact.kind == "chinese_zodiac":
        return f"lunar year {year} is a {zodiac(year)} year"
    return f"it is in {'leap ' if leap else ''}month {month} of lunar year {year}"


def audit_release_record(record: dict[str, Any]) -> AuditVerdict:
    """The verdict on an imported record's ``published_answers`` (module docstring)."""
    puzzle = puzzle_from_record(record)
    rid = record.get("id", puzzle.id)
    given = record.get("published_answers")
    if not isinstance(given, list):
        raise TsolveError(f"record {puzzle.id}: published_answers must be a list of ISO dates")
    published = sorted(set(expect_iso_dates(given, f"record {puzzle.id}: published_answers")))
    facts_json = record["facts"]
    metas = [f.get("release") if isinstance(f.get("release"), dict) else {} for f in facts_json]
    texts = [str(f.get("text", "")) for f in facts_json]
    options = _options(puzzle, metas)
    size = puzzle.domain.size
    canon_mask = _conjunction([o[0][1] for o in options], size)
    canonical = _dates(puzzle, canon_mask)
    names = [CANONICAL, *sorted({f"fact {i + 1}: {n}" for i, o in enumerate(options)
                                 for n, _ in o[1:]})]  # fmt: skip
    unchecked = sorted({u for m in metas if (u := _unchecked(m))})
    stored = record.get("answers")
    if stored is not None and sorted(stored) != canonical:
        raise TsolveError(
            f"record {puzzle.id}: its answers are not what its facts give (re-import it)"
        )
    base = {"published": published, "tsolve": canonical, "unchecked": unchecked}
    days = [_dt.date.fromisoformat(d).toordinal() - puzzle.domain.start for d in published]
    combos = _combinations(options, size)
    giving: list[str] = []
    if all(0 <= k < size for k in days):
        want = np.zeros(size, dtype=bool)
        want[days] = True
        giving = [name for name, mask in combos if np.array_equal(mask, want)]
    if len(giving) == len(combos):
        return AuditVerdict(rid, FAMILY, "ok", {**base, "cause": None}, names)
    if giving:
        other = next((n, m) for n, m in combos if n not in set(giving))
        # The cause: each single reading that leaves the published answers
        # (when tsolve's reading gives them), or that gives them (when not).
        singles = [n for n, _ in combos if n != CANONICAL and " + " not in n]
        side = [n for n in singles if (n in giving) != (CANONICAL in giving)]
        detail = {**base, "cause": "reading: " + _reading_words(" + ".join(side) or other[0]),
                  "reading": other[0], "answers": _dates(puzzle, other[1])[:SHOW],
                  "gold_readings": giving[:SHOW]}  # fmt: skip
        return AuditVerdict(rid, FAMILY, "ambiguous", detail, names)
    proof = _proof(puzzle, options, published, texts)
    detail = {**base, "cause": _cause(puzzle, published, canonical), **proof}
    return AuditVerdict(rid, FAMILY, "inconsistent", detail, names)


def _reading_words(combination: str) -> str:
    """``fact 2: lunar-leap-excluded + fact 4: ...`` as the readings' names alone."""
    return ", ".join(sorted({part.split(": ", 1)[-1] for part in combination.split(" + ")}))
