"""The tools tsolve offers agents, as plain functions: JSON values in, a
JSON-ready ``dict`` out, and a one-line :class:`~tsolve.errors.TsolveError` for
bad input.

``tsolve mcp`` serves them over the Model Context Protocol
(:mod:`tsolve.adapters.mcp_server` only wires them in), but nothing here knows about
MCP: a function-calling loop, a notebook or a test can call them directly.
Each is a thin layer over the library part that does the work, so an agent
gets exactly the answers tsolve's generators, solver and verifiers use:

* :func:`search_calendar`: the SPAN paper's interface (a date or a festival in
  one calendar -> the same day in every calendar), with its two parameter
  schemas ``{calendar_name, year, month, day}`` and ``{calendar_name, year,
  festival_name}``; :func:`convert_date` and :func:`festival_date` are the
  narrower forms (one date as text to chosen calendars; a festival's days);
* :func:`solve_facts`: time-puzzle facts -> their answer set, from a solver
  backend, with the enumeration's status said honestly;
* :func:`verify_answer`: a record and a model output -> tsolve's score
  (metrics and diagnosis), from the record's family scorer.

Arguments are checked here, not only by the MCP schema, since a direct caller
has no schema in front of it. Day numbers are proleptic Gregorian ordinals
(:mod:`tsolve.calendars.domain`); every day in a result is given as its ISO
date, its weekday and its date in each calendar asked for.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tsolve.errors import TsolveError
from tsolve.records.validation import (
    bad,
    expect_dict,
    expect_int,
    expect_list,
    expect_str,
    shown,
)

if TYPE_CHECKING:
    from tsolve.calendars.festivals import Festival

#: Most answers :func:`solve_facts` lists (a fact such as "a Monday" alone has
#: ~10,500 answers in the default domain; the count says when it stopped).
MAX_LIMIT = 100_000
#: Longest time limit :func:`solve_facts` accepts, in seconds.
MAX_TIME_LIMIT = 120.0
#: Longest month name :func:`search_calendar` reads: the longest real one
#: ("Rabi' al-Thani", "Leap Month 12") is well under it, and a longer text is
#: refused before any parsing or echoing.
MAX_MONTH_TEXT = 40
#: Years are checked against each calendar's own range; this only keeps
#: absurd integers out of the table lookups.
_YEAR_BOUND = 100_000


# ----------------------------------------------------------------- calendars


def search_calendar(
    calendar_name: str,
    year: int,
    month: int | str | None = None,
    day: int | None = None,
    festival_name: str | None = None,
) -> dict[str, Any]:
    """SPAN's ``search_calendar``: a date or a festival in ``calendar_name``,
    as the same day in every calendar.

    Exactly one of the paper's two schemas: ``month`` and ``day`` (a date of
    ``year`` in ``calendar_name``; the month may be a number, a month name, or
    ``L4`` for a Chinese leap month), or ``festival_name`` (the festival in
    ``year`` of ``calendar_name``: the festival's own calendar gives one day, a
    Gregorian year every occurrence in it, e.g. two Hijri New Years in 2008).

    Returns ``{"query": ..., "entries": [entry, ...]}``, one entry per day; an
    entry is ``{"date": ISO, "weekday": ..., "calendars": {name: date or
    None}}``, None where a calendar's tables do not reach the day.
    """
    from tsolve.calendars.conversion import date_of
    from tsolve.calendars.names import calendar_key, parse_month

    cal = calendar_key(expect_str(calendar_name, "calendar_name", 100), "calendar_name")
    y = expect_int(year, "year", -_YEAR_BOUND, _YEAR_BOUND)
    as_date = month is not None or day is not None
    if as_date and festival_name is not None:
        raise TsolveError(
            "search_calendar: give either month and day (a date) or festival_name, not both"
        )
    if festival_name is not None:
        fest, days = _festival_days(festival_name, y, cal)
        query: dict[str, Any] = {"calendar": cal, "year": y, **_festival_json(fest)}
        return {"query": query, "entries": _entries(days)}
    if month is None or day is None:
        raise TsolveError(
            "search_calendar: give month and day (a date), or festival_name (a festival)"
        )
    if isinstance(month, bool) or not isinstance(month, int | str):
        raise bad("month", "a month number or name", month)
    if isinstance(month, str):
        expect_str(month, "month", MAX_MONTH_TEXT)
    m, leap = parse_month(cal, str(month), "month")
    d = expect_int(day, "day", 1, 31)
    query = {"calendar": cal, "year": y, "month": m, "day": d}
    if cal == "chinese":
        query["leap"] = leap
    return {"query": query, "entries": _entries([date_of(cal, y, m, d, leap)])}


def convert_date(
    date: str, from_calendar: str = "gregorian", to_calendars: Sequence[str] | None = None
) -> dict[str, Any]:
    """One date, written ``Y-M-D`` in ``from_calendar`` (the month may be a
    name, ``5784-Adar II-14``; a Chinese leap month ``2023-L2-15``), in
    ``to_calendars`` (all when None or empty).

    Returns ``{"from": calendar, "input": date, "entry": entry}`` (an entry as
    in :func:`search_calendar`). A calendar named in ``to_calendars`` whose
    tables do not reach the day is an error, not a None.
    """
    from tsolve.calendars.conversion import date_of, parse_date
    from tsolve.calendars.names import calendar_key

    src = calendar_key(expect_str(from_calendar, "from_calendar", 100), "from_calendar")
    text = expect_str(date, "date", 100)
    targets = None
    if to_calendars:
        names = expect_list(to_calendars, "to_calendars", max_len=20)
        targets = [
            calendar_key(expect_str(c, f"to_calendars[{i}]", 100), f"to_calendars[{i}]")
            for i, c in enumerate(names)
        ]
    day = date_of(src, *parse_date(text, src, "date"))
    return {"from": src, "input": text, "entry": _entries([day], targets)[0]}


def festival_date(
    festival_name: str, year: int, year_calendar: str = "gregorian"
) -> dict[str, Any]:
    """The days of a festival in ``year``, a year of ``year_calendar``:
    Gregorian (every occurrence in it) or the festival's own calendar (one day).

    Returns the festival (key, name, calendar, rule) and ``dates``: one entry
    per day, with its ISO date, weekday, and the date in the Gregorian and the
    festival's own calendar.
    """
    from tsolve.calendars.names import calendar_key

    cal = calendar_key(expect_str(year_calendar, "year_calendar", 100), "year_calendar")
    y = expect_int(year, "year", -_YEAR_BOUND, _YEAR_BOUND)
    fest, days = _festival_days(festival_name, y, cal)
    shown = list(dict.fromkeys(["gregorian", fest.calendar, cal]))
    return {**_festival_json(fest), "year": y, "year_calendar": cal, "dates": _entries(days, shown)}


def _festival_days(name: Any, year: int, calendar: str) -> tuple[Festival, list[int]]:
    """The festival called ``name`` and its day numbers in ``year`` of ``calendar``."""
    from tsolve.calendars.festivals import festival, get_festival

    fest = get_festival(expect_str(name, "festival_name", 200))
    return fest, [int(d) for d in festival(fest.key, year, calendar)]


def _festival_json(fest: Festival) -> dict[str, Any]:
    return {
        "festival": fest.key,
        "festival_name": fest.name,
        "festival_calendar": fest.calendar,
        "rule": fest.rule(),
    }


def _entries(days: Sequence[int], to: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Each day as ``{"date", "weekday", "calendars"}`` (see :func:`search_calendar`)."""
    import numpy as np

    from tsolve.calendars.conversion import conversion_items
    from tsolve.encodings.facts.words import WEEKDAYS

    items = conversion_items(np.asarray(days, dtype=np.int64), to)
    return [
        {
            "date": _dt.date.fromordinal(d).isoformat(),
            "weekday": WEEKDAYS[_dt.date.fromordinal(d).weekday()],
            "calendars": item,
        }
        for d, item in zip(days, items, strict=True)
    ]


# -------------------------------------------------------------------- solver


def solve_facts(
    facts: list[dict[str, Any]],
    domain: dict[str, str] | None = None,
    limit: int = 1000,
    time_limit: float = 10.0,
    backend: str = "cpsat",
) -> dict[str, Any]:
    """The dates that satisfy every fact: time-puzzle facts (``kind`` +
    ``params``, as in the ``facts`` of a ``tsolve puzzle`` record) over
    ``domain`` (``{"start", "end"}`` ISO dates; default 1900-01-31..2100-12-31).

    ``status`` is how the enumeration ended (:data:`tsolve.solver.base.Status`):
    ``complete`` / ``unsat`` (``answers`` is the whole answer set, possibly
    empty), ``limit`` (stopped at ``limit`` answers: there may be more),
    ``partial`` / ``timeout`` (the time limit stopped it with some / no
    answers). ``complete`` is true only in the first two cases. ``facts``
    echoes each fact as tsolve read it (its sentence with dates spelled out),
    so a caller can see that its parameters meant what it intended.
    """
    from tsolve.families.time_puzzles.solve import answers_iso, puzzle_from_record, solve_puzzle
    from tsolve.solver.backend_names import check_backend

    items = expect_list(facts, "facts", max_len=1000, min_len=1)
    cap = expect_int(limit, "limit", 1, MAX_LIMIT)
    seconds = _time_limit(time_limit)
    name = check_backend(backend)
    record: dict[str, Any] = {"id": "facts", "facts": items}
    if domain is not None:
        record["domain"] = expect_dict(domain, "domain")
    puzzle = puzzle_from_record(record)
    result = solve_puzzle(puzzle, name, cap, seconds)
    return {
        "answers": answers_iso(result),
        "count": result.count,
        "status": result.status,
        "complete": result.complete,
        "backend": result.backend,
        "facts": [{"kind": f.kind, "text": f.render("explicit")} for f in puzzle.facts],
    }


def _time_limit(value: Any) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not 0 < value <= MAX_TIME_LIMIT:
        raise bad("time_limit", f"seconds in (0, {MAX_TIME_LIMIT:g}]", value)
    return float(value)


def list_fact_kinds() -> dict[str, Any]:
    """The fact kinds :func:`solve_facts` reads, each with the JSON schema of
    ``{kind, params}`` (derived from the kind's declaration, so it cannot
    drift from the reader: :mod:`tsolve.encodings.facts.schema`), whether it
    is a knowledge-based anchor, and a valid example fact."""
    from tsolve.encodings.facts.schema import fact_kinds

    return {"kinds": fact_kinds()}


# ------------------------------------------------------------------ task families


def family_instructions(family: str, seed: int = 0, index: int = 0) -> dict[str, Any]:
    """What a model is told for ``family``'s tasks, and how its reply is read:
    the family's description, the marker its scorer reads the final answer
    after, and record ``index`` of run ``seed`` with default options as a
    worked example (its prompt, and its gold written as the scorer wants it).
    A family that does not generate records is refused with a one-line error."""
    from tsolve.contract import get_family

    name = expect_str(family, "family", 100)
    fam = get_family(name, need="generate")
    s = expect_int(seed, "seed", 0, 2**63 - 1)
    i = expect_int(index, "index", 0, 2**63 - 1)
    record = fam.make_record(s, i, fam.make_options({}))
    from tsolve.verifiers.gold_answers import gold_answer

    prompt = fam.prompt_text(record)  # its prompt part, else the record's prompt or question
    marker = fam.answer_marker
    try:
        gold: str | None = gold_answer(record, fam)
    except TsolveError:  # a family that offers no gold answer
        gold = None
    return {
        "family": fam.name,
        "description": fam.description,
        "version": fam.version_text(),
        "answer_marker": marker,
        "how_to_answer": (
            f"Reason as you like, then end the reply with a line '{marker} <answer>'; "
            "only what follows the last marker is scored (docs/scoring.md)."
            if marker
            else "See the prompt."
        ),
        "example": {
            "id": record.get("id"),
            "prompt": prompt,
            "gold_reply": f"{marker} {gold}".strip() if gold is not None else None,
        },
    }


# ------------------------------------------------------------------ verifier

#: Longest model output :func:`verify_answer` scores.
MAX_OUTPUT = 1_000_000


def verify_answer(record: dict[str, Any], output: str, family: str | None = None) -> dict[str, Any]:
    """tsolve's score of ``output`` (a model's raw answer text) on ``record``
    (a task record of any family, as ``tsolve dataset`` writes it).

    The family comes from ``family``, else from the record (its ``family``
    field, or the families' recognisers for benchmark items without one);
    its scorer (:func:`tsolve.verifiers.registry.scorer_for`) gives the
    metrics, what it parsed and the symbolic diagnosis, exactly as
    ``tsolve verify`` reports one item.
    """
    from tsolve.contract import family_of, get_family
    from tsolve.verifiers.registry import scorer_for

    rec = expect_dict(record, "record")
    text = expect_str(output, "output", MAX_OUTPUT)
    stated = rec.get("family")
    if family is None:
        name = family_of(rec)
    else:
        name = get_family(expect_str(family, "family", 100)).name
        if isinstance(stated, str) and get_family(stated).name != name:
            raise TsolveError(f"family: {name!r} was given, but the record says {stated!r}")
    item = scorer_for(name)(rec, text, diagnose=True)
    result: dict[str, Any] = item.to_json()
    return result


# ------------------------------------------------------------------ claims

#: Longest text ``check_claim`` reads (a long reasoning chain is ~10k characters).
MAX_CLAIM_TEXT = 200_000


def check_claim(text: str) -> dict[str, Any]:
    """Every date claim in ``text`` (a sentence or a whole reasoning chain),
    each judged ``true``, ``false`` (with the correct value) or ``unknown``:
    weekdays, leap years, date arithmetic, cross-calendar dates, festival dates
    and month lengths (:func:`tsolve.claims.check_claims`; what is recognised:
    docs/claims.md). ``counts`` sums the verdicts; an empty ``claims`` list
    means no claim was recognised, not that the text is right."""
    from tsolve.claims import check_claims

    body = expect_str(text, "text", MAX_CLAIM_TEXT)
    found = [c.to_json() for c in check_claims(body)]
    from tsolve.claims.result import VERDICTS

    counts = {v: sum(1 for c in found if c["verdict"] == v) for v in VERDICTS}
    return {"claims": found, "counts": counts}


# ------------------------------------------------------------------ knowledge

#: Most entries :func:`lookup_knowledge` returns for a partial name.
MAX_KNOWLEDGE_ENTRIES = 10
KNOWLEDGE_KINDS = ("person", "office", "event", "edition")


def lookup_knowledge(name: str, kind: str | None = None) -> dict[str, Any]:
    """The knowledge base's dates for a person, an office holder, a historical
    event or a sporting event's editions, each with its source URL.

    This is tsolve's offline, deterministic stand-in for web search (the Time
    Puzzles paper's search condition): it answers "when was Michael Jackson
    born?" or "which years had a Summer Olympics?", never "which dates satisfy
    these facts?" -- it takes a name, not a puzzle, so it cannot solve one.

    ``name`` is matched without case, punctuation or a leading "the"
    (``"Berlin Wall"`` finds "the fall of the Berlin Wall"; ``"Obama"`` finds
    Barack Obama); ``kind`` (``person``, ``office``, ``event``, ``edition``)
    narrows the search. An exact name wins over partial ones; at most
    :data:`MAX_KNOWLEDGE_ENTRIES` partial matches are listed. Nothing found is
    a one-line error naming the query, so a model sees that it asked wrongly.

    Returns ``{"query": name, "as_of": ISO date, "entries": [...]}``, an entry
    being ``{"kind", "name", ..., "source"}`` with dates as ISO text:
    ``born`` / ``died`` (person), ``office`` and ``terms`` (``[{start, end,
    source}]``, end null while in office), ``start`` / ``end`` and
    ``conventions`` (other datings in use) (event), ``editions``
    (``[{year, source}]``) and ``scheduled`` (awarded, not yet held).
    """
    from tsolve.calendars import knowledge
    from tsolve.families.time_puzzles.parse.anchors import name_key

    query = expect_str(name, "name", 200)
    key = name_key(query)
    if not key:
        raise bad("name", "a person, office holder, event or sporting event", name)
    if kind is not None and kind not in KNOWLEDGE_KINDS:
        raise bad("kind", f"one of {', '.join(KNOWLEDGE_KINDS)}", kind)
    candidates = [
        (names, entry)
        for k, names, entry in _knowledge_entries(knowledge)
        if kind is None or k == kind
    ]
    exact = [entry for names, entry in candidates if key in names]
    partial = [entry for names, entry in candidates if any(key in n for n in names)]
    found = exact or partial[:MAX_KNOWLEDGE_ENTRIES]
    if not found:
        narrowed = f" of kind {kind!r}" if kind else ""
        raise TsolveError(
            f"lookup_knowledge: nothing{narrowed} in the knowledge base matches {shown(query)} "
            "(it holds well-known people, US presidents since 1945, dated historical "
            "events, and the Summer/Winter Olympics and FIFA World Cup editions)"
        )
    return {"query": query, "as_of": knowledge.KNOWLEDGE_AS_OF.isoformat(), "entries": found}


def _knowledge_entries(knowledge: Any) -> list[tuple[str, set[str], dict[str, Any]]]:
    """Every knowledge-base entry as ``(kind, names it answers to, entry)``."""
    from tsolve.families.time_puzzles.parse.anchors import name_key

    def iso(day: _dt.date | None) -> str | None:
        return None if day is None else day.isoformat()

    out: list[tuple[str, set[str], dict[str, Any]]] = []
    for p in knowledge.people():
        names = {name_key(p.name), name_key(p.description or p.name)}
        out.append(("person", names, {
            "kind": "person", "name": p.name, "description": p.description,
            "born": iso(p.born), "died": iso(p.died), "source": p.source,
        }))  # fmt: skip
    for pres in knowledge.presidents():
        names = {name_key(pres.name), name_key(f"President {pres.name}")}
        terms = [
            {"start": iso(s), "end": iso(e), "source": src}
            for (s, e), src in zip(pres.terms, pres.sources, strict=True)
        ]
        out.append(("office", names, {
            "kind": "office", "name": pres.name, "office": "President of the United States",
            "terms": terms, "source": pres.sources[0],
        }))  # fmt: skip
    conventions: dict[str, list[dict[str, Any]]] = {}
    for c in knowledge.event_conventions():
        conventions.setdefault(c.event, []).append(
            {"convention": c.convention, "start": iso(c.start), "end": iso(c.end),
             "source": c.source}
        )  # fmt: skip
    for ev in knowledge.historical_events():
        entry: dict[str, Any] = {
            "kind": "event", "name": ev.name, "start": iso(ev.start), "end": iso(ev.end),
            "source": ev.source,
        }  # fmt: skip
        if ev.name in conventions:
            entry["conventions"] = conventions[ev.name]
        out.append(("event", {name_key(ev.name)}, entry))
    scheduled = knowledge.scheduled_sports_events()
    for key, sport in knowledge.sports_events().items():
        names = {key, name_key(key.replace("_", " ")), name_key(sport.label)}
        later = scheduled.get(key)
        out.append(("edition", names, {
            "kind": "edition", "name": sport.label, "event": key,
            "editions": [{"year": y, "source": s}
                         for y, s in zip(sport.years, sport.sources, strict=True)],
            "scheduled": [] if later is None else [
                {"year": y, "source": s} for y, s in zip(later.years, later.sources, strict=True)
            ],
            "source": sport.sources[0] if sport.sources else None,
        }))  # fmt: skip
    return out
