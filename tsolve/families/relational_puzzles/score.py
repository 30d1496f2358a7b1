"""Scoring relational-puzzle predictions, with a symbolic diagnosis.

The answer format (stated in every prompt):

* tuples mode: the response ends with one line per valid combination,
  ``MY ANSWER: the board meeting = 2024-03-05; the product launch = 2024-03-22``,
  naming every event exactly once; or the single line ``MY ANSWER: None``.
  The *last run* of consecutive lines starting with ``MY ANSWER:`` (blank
  lines allowed between them), with the lines right under the last one (one
  ``MY ANSWER:`` and a combination per line), is the answer, so drafts
  earlier in the reasoning are ignored; an output without such a line is
  read as bare tuple lines, each line one combination
  (:func:`tsolve.verifiers.answer_parsing.final_answer`). A line under the
  marker that holds no date is a remark, not a combination.
  Event names match without case, a leading "the" or extra spaces, each
  followed by its date (``=``, ``:``, ``on``; pairs separated by ``;`` or
  ``,``); a line that misses or repeats an event, or carries anything but
  one valid date per event, is an *invalid* tuple: it counts as a wrong answer.
* one-event mode: exactly the single-date format (``MY ANSWER: 2024-03-05, ...``),
  parsed by :func:`tsolve.verifiers.answer_parsing.parse_answer`.

Metrics are EM / F1 / Jaccard over the sets of tuples (or dates), all 0
for an answer with more tuples (dates) than the gold holds. The
diagnosis says, for each wrong tuple, which facts and relations it breaks
(the solver's ``check`` on its assignment); for a wrong date of the asked
event, a minimal set of facts that rules it out (the solver's ``explain``
with the date fixed), since no single fact need exclude it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tsolve.calendars.domain import DateDomain, iso, to_ordinal
from tsolve.contract.item import ItemScore
from tsolve.encodings.ir import In, IntervalSet
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.encoding import EventFact, EventRelation, PuzzleFact
from tsolve.families.relational_puzzles.solve import (
    FAMILY,
    RelationalPuzzle,
    problem_of,
    relational_from_record,
)
from tsolve.records.validation import (
    expect_field,
    expect_iso_date,
    expect_iso_dates,
    expect_list,
    plain,
)
from tsolve.solver import get_backend
from tsolve.solver.base import Problem, SolverBackend
from tsolve.verifiers.answer_parsing import (
    MARKER,
    date_order,
    final_answer,
    find_dates,
    is_justification,
    is_none_answer,
    parse_answer,
)
from tsolve.verifiers.gold_answers import NONE
from tsolve.verifiers.metrics import answer_set_metrics, over_answers

_ZERO = {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
MAX_DIAGNOSED = 50
"""Wrong answers diagnosed per item: a one-event diagnosis is a few solver
calls, so an output listing thousands of dates must not cost thousands."""
_DECOR = re.compile(r"[*_`\"]")


@dataclass
class ParsedTuples:
    tuples: list[tuple[str, ...]] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    is_none: bool = False
    failed: bool = False
    reason: str = ""


def _norm(name: str) -> str:
    words = _DECOR.sub("", name).lower().split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def parse_tuple_answer(output: object, event_names: list[str]) -> ParsedTuples:
    """The tuples of the final block of ``MY ANSWER:`` lines (and the lines
    right under the last one), each in ``event_names`` order (see the module
    docstring for the format)."""
    found = final_answer(output, MARKER, block=True, follow=True)
    if found.failed:
        return ParsedTuples(failed=True, reason=found.reason)
    finder = _event_finder(event_names)
    out = ParsedTuples()
    first_under = len(found.lines) - found.under
    for k, line in enumerate(found.lines):
        body = _DECOR.sub("", line).strip().rstrip(".").strip()
        if is_none_answer(body):
            out.is_none = True
            continue
        if k >= first_under and not _DATE_LIKE.search(body) and is_justification(". " + body):
            continue  # a remark under the answer lines, not a combination (nor a hedge)
        row = _tuple(body, finder, len(event_names))
        if row is None:
            out.invalid.append(body)
        elif row not in out.tuples:
            out.tuples.append(row)
    if found.how == "bare" and out.invalid:
        return ParsedTuples(
            failed=True,
            reason=(
                "an answer without a 'MY ANSWER:' line must be only combination lines (or None)"
            ),
        )
    if out.is_none and (out.tuples or out.invalid):
        return ParsedTuples(failed=True, reason="answer lines give both None and combinations")
    if not out.is_none and not out.tuples and not out.invalid:
        return ParsedTuples(failed=True, reason="empty answer line")
    return out


_DATE_LIKE = re.compile(r"\d")


def _event_finder(event_names: list[str]) -> re.Pattern[str]:
    """Finds each event's name (any case, "the" optional, spaces free); the
    group that matched is the event's index (``e0``, ``e1``, ...)."""
    alts = sorted(((_norm(n), k) for k, n in enumerate(event_names)), key=lambda p: -len(p[0]))
    space = r"[ \t]+"
    body = "|".join(
        f"(?P<e{k}>{space.join(re.escape(w) for w in name.split())})" for name, k in alts
    )
    return re.compile(rf"(?<![\w])(?:the\s+)?(?:{body})(?![\w])", re.IGNORECASE)


_BEFORE_FIRST = re.compile(r"^[\W\d_]*$")


def _tuple(body: str, finder: re.Pattern[str], count: int) -> tuple[str, ...] | None:
    """One line's dates in event order, or None if it is not a complete,
    valid combination: every event named once, each followed by exactly one
    valid date before the next event (``the review = 2024-03-05; ...``, with
    ``;`` or ``,`` between pairs, or ``the review on 2024-03-05``)."""
    hits = list(finder.finditer(body))
    if not hits or not _BEFORE_FIRST.match(body[: hits[0].start()]):
        return None
    dates: list[str | None] = [None] * count
    for j, m in enumerate(hits):
        if all(d is not None for d in dates):
            # Every event has its date: the rest is a remark ("the launch
            # comes after the review"), which may name events but no date.
            rest_dates, rest_invalid = find_dates(body[m.start() :])
            if rest_dates or rest_invalid:
                return None
            break
        k = int(next(name for name, v in m.groupdict().items() if v is not None)[1:])
        value = body[m.end() : hits[j + 1].start() if j + 1 < len(hits) else len(body)]
        valid, invalid = find_dates(value)
        if dates[k] is not None or len(valid) != 1 or invalid:
            return None
        dates[k] = valid[0]
    if any(d is None for d in dates):
        return None
    return tuple(d for d in dates if d is not None)


def _fact_entry(i: int, f: PuzzleFact, style: str) -> dict[str, Any]:
    events = [f.event.var] if isinstance(f, EventFact) else [f.subject.var, f.reference.var]
    return {"index": i, "kind": f.kind, "events": events, "text": f.render(style),
            "relation": isinstance(f, EventRelation)}  # fmt: skip


def diagnose_tuple(
    puzzle: RelationalPuzzle, dates: tuple[str, ...], backend: str = "cpsat"
) -> dict[str, Any]:
    """Which facts and relations one wrong tuple breaks (``check`` on it)."""
    problem = problem_of(RelationalPuzzle(puzzle.id, puzzle.events, puzzle.facts, puzzle.domain))
    values = [to_ordinal(d) for d in dates]
    holds = get_backend(backend).check(
        problem, {e.var: v for e, v in zip(puzzle.events, values, strict=True)}
    )
    broken = [_fact_entry(i, puzzle.facts[i], puzzle.style) for i, ok in enumerate(holds) if not ok]
    entry: dict[str, Any] = {"violates": broken}
    _note(entry, puzzle.domain, values, bool(broken))
    return entry


def diagnose_date(puzzle: RelationalPuzzle, date: str, backend: str = "cpsat") -> dict[str, Any]:
    """Why a date of the asked event is wrong: a minimal set of facts that no
    assignment of the other events can satisfy together with it."""
    assert puzzle.asked is not None
    day = to_ordinal(date)
    base = problem_of(puzzle)
    pinned = Problem((*base.constraints, In(puzzle.asked, IntervalSet(((day, day),)))),
                     base.domains, base.target, (*base.labels, "answer"))  # fmt: skip
    entry: dict[str, Any] = {"violates": []}
    inside = puzzle.domain.start <= day <= puzzle.domain.end
    if inside:
        # Deletion with plain satisfiability calls (a few ms each with the date
        # pinned), not CP-SAT's assumption cores, which take ~0.3 s to prove
        # infeasible here: a hostile output with 50 wrong dates took 13 s.
        core = SolverBackend.explain(get_backend(backend), pinned)
        last = len(base.constraints)
        entry["violates"] = [
            _fact_entry(i, puzzle.facts[i], puzzle.style) for i in core if i != last
        ]
    _note(entry, puzzle.domain, [day], bool(entry["violates"]))
    return entry


def _note(entry: dict[str, Any], domain: DateDomain, values: list[int], broken: bool) -> None:
    if not all(domain.start <= v <= domain.end for v in values):
        entry["note"] = f"outside the puzzle's domain {iso(domain.start)}..{iso(domain.end)}"
    elif not broken:
        entry["note"] = ("satisfies every fact: the record's gold answers look incomplete "
                         "(run `tsolve solve --check`)")  # fmt: skip


def _gold(record: dict[str, Any], puzzle: RelationalPuzzle) -> list[str]:
    """Stored answers as comparable keys: an ISO date, or dates joined by '|'."""
    where = f"record {puzzle.id!r}: answers"
    items = expect_list(expect_field(record, "answers", f"record {puzzle.id!r}"), where)
    if puzzle.asked is not None:
        return expect_iso_dates(items, where)
    keys = []
    for k, a in enumerate(items):
        row = expect_list(a, f"{where}[{k}]", len(puzzle.events), len(puzzle.events))
        keys.append("|".join(expect_iso_date(d, f"{where}[{k}]") for d in row))
    return keys


def score_relational(record: dict[str, Any], output: str, *, diagnose: bool = True) -> ItemScore:
    """EM / F1 / Jaccard over answer tuples (or the asked event's dates), with
    a per-fact diagnosis of every wrong answer."""
    puzzle = relational_from_record(record)
    gold = _gold(record, puzzle)
    groups: dict[str, str | list[str]] = {
        "solutions": str(len(gold)),
        "events": str(len(puzzle.events)),
        "asked": "tuples" if puzzle.asked is None else "event",
        "style": str(puzzle.style),
    }
    if puzzle.asked is None:
        parsed_t = parse_tuple_answer(output, [e.name for e in puzzle.events])
        if parsed_t.failed:
            return ItemScore(puzzle.id, FAMILY, dict(_ZERO), None, True,
                             {"reason": parsed_t.reason}, groups)  # fmt: skip
        keys = ["|".join(t) for t in parsed_t.tuples]
        invalid = parsed_t.invalid
    else:
        parsed = parse_answer(output, date_order(record))
        if parsed.failed:
            return ItemScore(puzzle.id, FAMILY, dict(_ZERO), None, True,
                             {"reason": parsed.reason}, groups)  # fmt: skip
        keys, invalid = parsed.dates, parsed.invalid
    pred = keys + [f"invalid:{t}" for t in invalid]
    metrics = answer_set_metrics(gold, pred)
    diagnosis: dict[str, Any] = {}
    if over_answers(gold, pred):
        diagnosis["over_answer"] = f"{len(set(pred))} answers, more than the {len(gold)} there are"
    if metrics["em"] < 1.0:
        gold_set, pred_set = set(gold), set(keys)
        wrong = [k for k in keys if k not in gold_set]
        diagnosis = {**diagnosis, "wrong": {k: {} for k in wrong}, "invalid": invalid,
                     "missed": [g for g in gold if g not in pred_set]}  # fmt: skip
        if diagnose:
            if len(wrong) > MAX_DIAGNOSED:
                diagnosis["note"] = (f"diagnosis of the first {MAX_DIAGNOSED} of "
                                     f"{len(wrong)} wrong answers")  # fmt: skip
            for k in wrong[:MAX_DIAGNOSED]:
                try:
                    diagnosis["wrong"][k] = (
                        diagnose_tuple(puzzle, tuple(k.split("|")))
                        if puzzle.asked is None else diagnose_date(puzzle, k)
                    )  # fmt: skip
                except TsolveError as exc:  # e.g. a date beyond what the calendars cover
                    diagnosis["wrong"][k] = {"violates": [], "note": str(exc)}
    parsed_json = keys if puzzle.asked is not None else [k.split("|") for k in keys]
    return ItemScore(puzzle.id, FAMILY, metrics, parsed_json, False, diagnosis, groups)


def relational_answer(record: dict[str, Any]) -> str:
    """One line per date combination, ``the review = 2024-03-05; the launch =
    2024-03-22`` (event names as the record gives them), or the asked event's
    dates as a time puzzle's; ``None`` when nothing fits."""
    puzzle = relational_from_record(record)
    answers = plain(expect_list(expect_field(record, "answers"), "answers"))
    if not answers:
        return NONE
    if puzzle.asked is not None:
        return ", ".join(str(d) for d in answers)
    names = [e.name for e in puzzle.events]
    return "\n".join(
        "; ".join(f"{n} = {d}" for n, d in zip(names, row, strict=True)) for row in answers
    )
