"""The Time Puzzles release, read into tsolve records.

The paper behind this family is public: Zhengxiang Wang and Zeyu Dong,
*Measuring Iterative Temporal Reasoning with Time Puzzles*, 2026,
arXiv:2601.07148, with its repository (:data:`REPOSITORY`, MIT). The
repository holds the 700 puzzles the paper evaluates in ``data.zip``, which
its authors protect with a password against crawling (their README gives it:
the repository's name in lower case without hyphens). tsolve reads the zip
in memory and never writes the decrypted file anywhere but the records the
user asks for.

:func:`import_release` turns each puzzle into one record:

* ``facts``: each ``constraints_meta`` entry as a tsolve fact, with the
  release's definitions (:func:`fact_of`, after the release's generator,
  ``facts.py`` in the release's ``puzzles_generator/date_generator``): a
  lunar month matches its leap month too; a person is alive, and a president
  in office, strictly between the two dates the explicit sentence gives (the
  generator leaves out both end days); a World Cup or Olympic year is the explicit sentence's rule
  over the puzzle's years. A knowledge event tsolve does not know
  (``kb_event``) becomes a fact at the level and value the release states
  (the day of the month 6); its sentence stays in the record. Each fact keeps
  the release's implicit sentence as its ``text`` and its meta as ``release``.
* ``answers``: what tsolve's solver proves the facts give over the puzzle's
  ``year_range`` with tsolve's calendars; ``published_answers``: the
  release's ``solutions``, which the audit judges
  (:mod:`tsolve.families.time_puzzles.release_audit`).
* ``sentences``, ``prompt`` and ``prompts``: both styles' sentences as
  published, and the paper's prompt (``PROMPT`` in the release's
  ``src/experiments/main``) over each.

A puzzle that cannot be mapped (an unknown kind, a sentence whose dates do not
read) is a bad row, named; the others are still imported.
"""

from __future__ import annotations

import datetime as _dt
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.calendars.domain import DateDomain, iso
from tsolve.encodings.facts.base import Fact
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
from tsolve.encodings.facts.knowledge_facts import (
    PersonAliveFact,
    SportsEventYearFact,
    UsPresidentFact,
)
from tsolve.encodings.facts.lunar_facts import ChineseZodiacFact, LunarMonthFact
from tsolve.encodings.facts.words import MONTHS, WEEKDAYS
from tsolve.errors import TsolveError
from tsolve.records import dumps
from tsolve.records.folders import write_file_whole

PAPER = (
    "Zhengxiang Wang and Zeyu Dong, Measuring Iterative Temporal Reasoning with Time "
    "Puzzles, 2026, arXiv:2601.07148"
)
REPOSITORY = "https://github.com/jaaack-wang/Time-Puzzles"
#: The release's name in a record's ``source``.
SOURCE_NAME = "time-puzzles-release"
#: The file inside the release's ``data.zip`` that holds the puzzles.
ZIP_MEMBER = "data/puzzles.json"
#: The largest puzzles file read (the release's is 0.7 MB).
MAX_BYTES = 256 << 20

#: The paper's prompt, verbatim (``PROMPT`` in the release's
#: ``src/experiments/main``); the constraints are its ``format_constraints``:
#: one ``- `` line each.
PROMPT = (
    "From the time-related constraints below, determine all valid date(s) (if any) that "
    "satisfy them. Depending on the conditions, the result may be zero, one, or multiple "
    "dates. Unless otherwise stated, interpret all constraints using the Gregorian calendar."
    "\n\nNote: Seasons are defined as:\n- Winter: December, January, February\n- Spring: "
    "March, April, May\n- Summer: June, July, August\n- Autumn: September, October, November"
    "\n\nThe constraints are as follows:\n\n{constraints}\n\nCarefully review the constraints "
    "and reason step-by-step to identify all valid date(s). After thorough consideration, end "
    'your response on a new line with "MY ANSWER: " followed by the valid date(s) in the '
    'format "YYYY-MM-DD". If there are multiple valid dates, list them separated by commas. '
    'If no valid date exists, respond with "MY ANSWER: None".'
)

_FIELDS = ("identifier", "constraints", "explicit_constraints", "constraints_meta",
           "solutions", "year_range")  # fmt: skip


def paper_prompt(sentences: list[str]) -> str:
    """The paper's prompt over ``sentences`` (one ``- `` line each)."""
    return PROMPT.format(constraints="\n".join(f"- {s}" for s in sentences))


# --- reading the release -------------------------------------------------------------


def read_release(path: str | Path, password: str | None = None) -> list[Any]:
    """The puzzles of the release at ``path``: its ``puzzles.json``, or its
    ``data.zip`` (read in memory with ``password``)."""
    p = Path(path)
    if not p.is_file():
        raise TsolveError(f"release: {str(path)!r} is not a file")
    if zipfile.is_zipfile(p):
        blob = _zip_member(p, password)
    else:
        if p.stat().st_size > MAX_BYTES:
            raise TsolveError(f"release: {str(path)!r} is larger than {MAX_BYTES >> 20} MiB")
        blob = p.read_bytes()
    try:
        data = json.loads(blob)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TsolveError(f"release: {str(path)!r} is not JSON ({exc})") from None
    if not isinstance(data, list):
        raise TsolveError(
            f"release: {str(path)!r} holds {type(data).__name__}, not a list of puzzles"
        )
    return data


def _zip_member(path: Path, password: str | None) -> bytes:
    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if n.endswith("puzzles.json")]
            if not names:
                raise TsolveError(f"release: {str(path)!r} holds no {ZIP_MEMBER}")
            info = zf.getinfo(ZIP_MEMBER if ZIP_MEMBER in names else names[0])
            if info.file_size > MAX_BYTES:
                raise TsolveError(f"release: {info.filename} is larger than {MAX_BYTES >> 20} MiB")
            encrypted = bool(info.flag_bits & 0x1)
            if encrypted and not password:
                raise TsolveError(
                    f"release: {str(path)!r} is password-protected; give --password (the "
                    "authors' README: the repository name in lower case, without hyphens)"
                )
            pwd = password.encode() if password else None
            try:
                return zf.read(info, pwd=pwd)
            except RuntimeError as exc:  # zipfile's "Bad password for file"
                raise TsolveError(f"release: cannot open {info.filename}: {exc}") from None
    except zipfile.BadZipFile as exc:
        raise TsolveError(f"release: {str(path)!r} is not a readable zip ({exc})") from None
    except NotImplementedError as exc:  # an encryption zipfile cannot read (AES)
        raise TsolveError(f"release: {str(path)!r}: {exc}") from None


# --- one constraint as a fact ----------------------------------------------------------

_MONTH_WORD = "|".join(MONTHS)
_SPAN = re.compile(
    rf"The date is between ((?:{_MONTH_WORD}) \d{{1,2}}, \d{{4}}) and "
    rf"((?:{_MONTH_WORD}) \d{{1,2}}, \d{{4}})\.?$"
)
_RULE = re.compile(
    r"The year satisfies year % 4 == ([0-3]), year >= (\d{4}), and is not "
    r"((?:\d{4}(?:, | or |, or ))*\d{4})\.?$"
)
_RULE_EVENTS = {"world_cup": "fifa_world_cup", "summer_olympics": "summer_olympics"}
_ONE_DAY = _dt.timedelta(days=1)


def _date_words(text: str) -> _dt.date:
    """``January 08, 1935`` (the release's ``%B %d, %Y``) as a date."""
    return _dt.datetime.strptime(text, "%B %d, %Y").date()


def release_span(sentence: str) -> tuple[_dt.date, _dt.date]:
    """The two dates of an explicit "The date is between A and B." sentence."""
    m = _SPAN.match(sentence.strip())
    if m is None:
        raise TsolveError(f"explicit sentence {sentence!r} does not read as 'between A and B'")
    try:
        a, b = _date_words(m.group(1)), _date_words(m.group(2))
    except ValueError as exc:
        raise TsolveError(f"explicit sentence {sentence!r}: {exc}") from None
    if (b - a).days < 2:
        raise TsolveError(f"explicit sentence {sentence!r}: no day lies strictly between")
    return a, b


def rule_years(sentence: str, last_year: int) -> tuple[int, ...]:
    """The years up to ``last_year`` that an explicit "The year satisfies
    year % 4 == R, year >= Y, and is not A, B or C." sentence allows."""
    m = _RULE.match(sentence.strip())
    if m is None:
        raise TsolveError(f"explicit sentence {sentence!r} does not read as a year rule")
    rem, first = int(m.group(1)), int(m.group(2))
    skip = {int(y) for y in re.findall(r"\d{4}", m.group(3))}
    years = tuple(y for y in range(first, last_year + 1) if y % 4 == rem and y not in skip)
    if not years:
        raise TsolveError(f"explicit sentence {sentence!r} allows no year up to {last_year}")
    return years


def _int(meta: dict[str, Any], key: str = "value") -> int:
    v = meta.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TsolveError(f"{meta.get('type')}.{key}: expected an integer, got {v!r}")
    return v


def _str(meta: dict[str, Any], key: str = "value") -> str:
    v = meta.get(key)
    if not isinstance(v, str) or not v:
        raise TsolveError(f"{meta.get('type')}.{key}: expected a name, got {v!r}")
    return v


def _weekdays(meta: dict[str, Any]) -> Fact:
    v = meta.get("value")
    if not isinstance(v, list) or not all(isinstance(w, str) for w in v):
        raise TsolveError(f"multi_weekday.value: expected a list of weekdays, got {v!r}")
    unknown = [w for w in v if w not in WEEKDAYS]
    if unknown:
        raise TsolveError(f"multi_weekday.value: unknown weekday {unknown[0]!r}")
    return WeekdaysFact(tuple(sorted(v, key=WEEKDAYS.index)))


def _weekday_in_month(meta: dict[str, Any]) -> Fact:
    n, direction = _int(meta, "n"), meta.get("direction")
    if direction not in ("forward", "backward"):
        raise TsolveError(
            f"weekday_in_month.direction: expected forward or backward, got {direction!r}"
        )
    return WeekdayInMonthFact(_str(meta, "weekday"), n if direction == "forward" else -n)


def _kb_event(meta: dict[str, Any]) -> Fact:
    level, value = meta.get("level"), meta.get("value")
    if isinstance(value, list):
        raise TsolveError("kb_event: a list of years has no tsolve fact kind")
    if level == "year":
        return YearFact(_int(meta))
    if level == "month":
        return MonthFact(_int(meta))
    if level == "day":
        return DayOfMonthFact(day=_int(meta))
    raise TsolveError(f"kb_event.level: expected year, month or day, got {level!r}")


def _person(meta: dict[str, Any], explicit: str) -> Fact:
    a, b = release_span(explicit)
    return PersonAliveFact(_str(meta, "person"), (a + _ONE_DAY).isoformat(),
                           (b - _ONE_DAY).isoformat())  # fmt: skip


def _president(meta: dict[str, Any], explicit: str) -> Fact:
    a, b = release_span(explicit)
    term = ((a + _ONE_DAY).isoformat(), (b - _ONE_DAY).isoformat())
    return UsPresidentFact(_str(meta, "person"), (term,))


def _event(meta: dict[str, Any], explicit: str, last_year: int) -> Fact:
    name = meta.get("name")
    if name == "leap_year":
        return LeapYearFact(True)
    if name in _RULE_EVENTS:
        return SportsEventYearFact(_RULE_EVENTS[name], rule_years(explicit, last_year))
    raise TsolveError(f"event.name: unknown event {name!r} (known: leap_year, "
                      f"{', '.join(_RULE_EVENTS)})")  # fmt: skip


_Mapper = Callable[[dict[str, Any], str, int], Fact]

#: Every ``constraints_meta`` type of the release that maps, and how.
MAPPERS: dict[str, _Mapper] = {
    "lunar_month": lambda m, e, y: LunarMonthFact(_int(m), None),
    "chinese_zodiac": lambda m, e, y: ChineseZodiacFact(_str(m)),
    "season": lambda m, e, y: SeasonFact(_str(m).lower()),
    "month": lambda m, e, y: MonthFact(_int(m)),
    "weekday": lambda m, e, y: WeekdayFact(_str(m)),
    "multi_weekday": lambda m, e, y: _weekdays(m),
    "day_of_month": lambda m, e, y: DayOfMonthRangeFact(
        {"<": "before", ">": "after"}.get(str(m.get("operator")), "?"), _int(m)),
    "day_of_month_specific": lambda m, e, y: DayOfMonthFact(day=_int(m)),
    "first_day_of_month": lambda m, e, y: DayOfMonthFact(position="first"),
    "last_day_of_month": lambda m, e, y: DayOfMonthFact(position="last"),
    "decade": lambda m, e, y: DecadeFact(_int(m)),
    "explicit_year": lambda m, e, y: YearFact(_int(m)),
    "weekday_in_month": lambda m, e, y: _weekday_in_month(m),
    "kb_event": lambda m, e, y: _kb_event(m),
    "person_alive": lambda m, e, y: _person(m, e),
    "us_president": lambda m, e, y: _president(m, e),
    "event": _event,
}  # fmt: skip


def fact_of(meta: Any, explicit: str, last_year: int) -> Fact:
    """The tsolve fact of one ``constraints_meta`` entry (with the release's
    definitions, module docstring); ``explicit`` is its explicit sentence,
    which states the dates and rules the meta leaves to the generator's
    code; ``last_year`` ends the puzzle's years."""
    if not isinstance(meta, dict):
        raise TsolveError(f"constraints_meta: expected an object, got {meta!r}")
    kind = meta.get("type")
    mapper = MAPPERS.get(kind) if isinstance(kind, str) else None
    if mapper is None:
        raise TsolveError(f"unknown kind {kind!r} (known: {', '.join(sorted(MAPPERS))})")
    return mapper(meta, explicit, last_year)


# --- one puzzle as a record -------------------------------------------------------------


def _strings(puzzle: dict[str, Any], key: str) -> list[str]:
    v = puzzle.get(key)
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        raise TsolveError(f"{key}: expected a list of strings")
    return v


def release_domain(puzzle: dict[str, Any]) -> DateDomain:
    """The puzzle's ``year_range`` [first, last] as a domain of days."""
    yr = puzzle.get("year_range")
    if (not isinstance(yr, list) or len(yr) != 2
            or not all(isinstance(y, int) and not isinstance(y, bool) for y in yr)
            or not 1 <= yr[0] <= yr[1] <= 9999):  # fmt: skip
        raise TsolveError(f"year_range: expected [first, last] years, got {yr!r}")
    return DateDomain.from_dates(f"{yr[0]:04d}-01-01", f"{yr[1]:04d}-12-31")


def release_record(puzzle: Any, backend: str = "cpsat") -> dict[str, Any]:
    """One release puzzle as a tsolve record, its ``answers`` proved by the
    solver (module docstring); a :class:`TsolveError` names what cannot map."""
    from tsolve.families.time_puzzles.solve import build_problem
    from tsolve.solver import get_backend

    if not isinstance(puzzle, dict):
        raise TsolveError(f"expected a puzzle object, got {type(puzzle).__name__}")
    missing = [k for k in _FIELDS if k not in puzzle]
    if missing:
        raise TsolveError(f"missing field(s) {', '.join(missing)}")
    ident = puzzle["identifier"]
    if not isinstance(ident, str) or not ident:
        raise TsolveError(f"identifier: expected a non-empty string, got {ident!r}")
    implicit = _strings(puzzle, "constraints")
    explicit = _strings(puzzle, "explicit_constraints")
    metas = puzzle["constraints_meta"]
    if not isinstance(metas, list) or not metas or not len(metas) == len(implicit) == len(explicit):
        raise TsolveError("constraints, explicit_constraints and constraints_meta must be "
                          "lists of one length")  # fmt: skip
    published = _strings(puzzle, "solutions")
    domain = release_domain(puzzle)
    last_year = domain.end_date.year
    facts: list[dict[str, Any]] = []
    for i, (meta, text, spelled) in enumerate(zip(metas, implicit, explicit, strict=True)):
        try:
            fact = fact_of(meta, spelled, last_year)
        except TsolveError as exc:
            raise TsolveError(f"constraint {i + 1} ({text!r}): {exc}") from None
        if not type(fact).available(domain):
            raise TsolveError(
                f"constraint {i + 1} ({text!r}): tsolve's {fact.kind} tables do not cover "
                f"{iso(domain.start)}..{iso(domain.end)}"
            )
        facts.append({"kind": fact.kind, "level": fact.fact_level().value,
                      "params": fact.params, "text": text, "release": meta})  # fmt: skip
    from tsolve.encodings.facts.base import fact_from_json

    result = get_backend(backend).solve(
        build_problem([fact_from_json(f) for f in facts], domain), None
    )
    if not result.complete:
        raise TsolveError(f"the solver did not finish ({result.status})")
    answers = sorted(iso(d) for d in result.solutions)
    return {
        "id": ident,
        "family": "time-puzzles",
        "source": {
            "name": SOURCE_NAME,
            "paper": PAPER,
            "repository": REPOSITORY,
            "seed_date": puzzle.get("seed_date"),
            "noise_date": puzzle.get("noise_date"),
            "solution_count": puzzle.get("solution_count"),
            "year_range": puzzle["year_range"],
        },
        "style": "implicit",
        "domain": {"start": iso(domain.start), "end": iso(domain.end)},
        "facts": facts,
        "sentences": {"implicit": implicit, "explicit": explicit},
        "prompt": paper_prompt(implicit),
        "prompts": {"implicit": paper_prompt(implicit), "explicit": paper_prompt(explicit)},
        "answers": answers,
        "published_answers": published,
        "solution_count": len(answers),
        "solver": {"backend": backend, "count": len(answers), "complete": True},
    }


# --- the whole release ------------------------------------------------------------------


@dataclass(frozen=True)
class BadPuzzle:
    """A puzzle that was not imported: where it is, and why, in one line."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class ImportReport:
    """What :func:`import_release` did."""

    out: str
    total: int = 0
    imported: int = 0
    bad: list[BadPuzzle] = field(default_factory=list)
    changed: int = 0  # records whose tsolve answers differ from the published ones
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.imported == self.total and not self.bad

    def to_json(self) -> dict[str, Any]:
        return {"out": self.out, "total": self.total, "imported": self.imported,
                "complete": self.complete, "answers_differ": self.changed,
                "seconds": round(self.seconds, 3),
                "bad": [{"where": b.where, "error": b.message} for b in self.bad]}  # fmt: skip


def iter_release_records(
    puzzles: list[Any], backend: str = "cpsat"
) -> Iterator[dict[str, Any] | BadPuzzle]:
    """Each puzzle's record, or the :class:`BadPuzzle` it is, in order. An
    identifier that repeats an earlier puzzle's is a bad row: a record's
    ``id`` is what predictions and audits join on."""
    seen: dict[str, int] = {}
    for i, p in enumerate(puzzles):
        ident = p.get("identifier") if isinstance(p, dict) else None
        where = f"puzzle {i + 1}" + (f" ({ident})" if isinstance(ident, str) else "")
        if isinstance(ident, str) and ident in seen:
            yield BadPuzzle(where, f"identifier repeats puzzle {seen[ident] + 1}'s")
            continue
        try:
            rec = release_record(p, backend)
        except TsolveError as exc:
            yield BadPuzzle(where, str(exc))
            continue
        seen[rec["id"]] = i
        yield rec


def import_release(
    path: str | Path, out: str | Path, password: str | None = None, backend: str = "cpsat"
) -> ImportReport:
    """Read the release at ``path`` (``puzzles.json`` or ``data.zip`` with
    ``password``) and write one record per puzzle to ``out`` (JSON Lines),
    whole or not at all (:func:`tsolve.records.folders.write_file_whole`).
    Puzzles that do not map are listed in the report and left out; the report
    is :attr:`~ImportReport.complete` only when every puzzle was imported."""
    import time

    start = time.perf_counter()
    target = write_file_whole(out, None)  # checked before any work
    puzzles = read_release(path, password)
    report = ImportReport(str(out), total=len(puzzles))
    lines = io.StringIO()
    for rec in iter_release_records(puzzles, backend):
        if isinstance(rec, BadPuzzle):
            report.bad.append(rec)
            continue
        report.imported += 1
        report.changed += rec["answers"] != sorted(rec["published_answers"])
        lines.write(dumps(rec) + "\n")
    write_file_whole(target, lines.getvalue().encode("utf-8"))
    report.seconds = time.perf_counter() - start
    return report
