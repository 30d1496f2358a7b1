"""The policies behind ``tsolve stress --shortcuts``: each reads a task's
prompt and skips the reasoning the family claims to test.

A probe is fitted on the records of another seed (it may learn from their
prompts and their gold, as a model trained on that data would), then answers
every evaluated record from what the record's prompt states. It never reads
an evaluated record's gold: :func:`visible` is the only view of a record a
probe gets, and it drops every gold field. Where a record restates its prompt
as data (a SPAN record's ``params``, a logistics record's story fields),
probes may read that form instead of parsing English again; it says nothing
the prompt does not.

Three kinds, as :mod:`tsolve.stress.shortcuts` reports them:

- **heuristic**: a rule of thumb (the commonest "today", the package's final
  place, a date the prompt names);
- **memorisation**: answers looked up from the other seed's records by what
  the question asks (the question without its candidate, the facts in any
  order);
- **learned**: a shallow classifier of the prompt's surface (word n-grams),
  trained on the other seed (needs scikit-learn, the ``shortcuts`` extra).
"""

from __future__ import annotations

import datetime as _dt
import re
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.contract.family import Record

# What a probe may read is what a model may: one home for both, re-exported here.
from tsolve.records.gold_fields import GOLD_FIELDS as GOLD_FIELDS
from tsolve.records.gold_fields import visible as visible

Answer = Callable[[Record], "str | None"]
"""A fitted probe: the answer body for a visible record (None: no answer)."""

Fit = Callable[[Sequence[Record], Sequence[str]], Answer]
"""``fit(another seed's records, their gold answers) -> answer``: a probe
learns from training data as a trained model would, gold included."""


class ProbeSkipped(Exception):
    """A probe that cannot run here (an optional library is absent)."""


@dataclass(frozen=True)
class Probe:
    """One shortcut policy for one family."""

    family: str
    name: str
    kind: str  # heuristic | memorisation | learned
    fit: Fit
    description: str


def _commonest(values: Sequence[Any], default: Any) -> Any:
    return Counter(values).most_common(1)[0][0] if values else default


# ------------------------------------------------------------------ SPAN


def _span_question(record: Record) -> Any:
    from tsolve.families.span.encoding import question_of

    return question_of(dict(record))


def _span_answer(q: Any, reference_day: int | None = None) -> str | None:
    """The answer to ``q`` under its canonical reading, with the reference date
    replaced by ``reference_day`` (a day number) when given: every step of
    the reasoning but reading "today" is done exactly."""
    from dataclasses import replace

    from tsolve.families.span.encoding import (
        answers_under,
        canonical_reading,
        fields_of,
        text_of,
    )

    if reference_day is not None:
        try:
            q = replace(q, reference=fields_of(q.source, reference_day))
        except Exception:
            return None
    answers = answers_under(q, canonical_reading(q))
    if answers is None:
        return None
    if q.fmt == "polar":
        return "Yes" if q.candidate in answers else "No"
    return text_of(q.target, sorted(answers)[0]) if answers else None


def _span_fixed_today(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """Today is the commonest reference date of the other seed's records."""
    from tsolve.calendars.variants import PRIMARY, view

    days = []
    for r in train:
        try:
            q = _span_question(r)
        except Exception:
            continue
        day = view(q.source, PRIMARY).day_of(*q.reference)
        if day is not None:
            days.append(day)
    today = _commonest(days, _dt.date(2024, 7, 1).toordinal())

    def answer(record: Record) -> str | None:
        try:
            return _span_answer(_span_question(record), today)
        except Exception:
            return None

    return answer


def _span_calendar_naive(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """Every calendar read as if it were Gregorian: today's year, month and
    day taken as a Gregorian date, the offset added, and the result written
    with the same numbers in the target calendar (no conversion)."""
    from tsolve.families.span.encoding import render

    fallback = _commonest([g for g in golds if g not in ("Yes", "No")], "")

    def answer(record: Record) -> str | None:
        try:
            q = _span_question(record)
        except Exception:
            return None
        y, m, d, _leap = q.reference
        try:
            base = _dt.date(y, min(m, 12), min(d, 28 if m == 2 else 30))
        except ValueError:
            return None
        if q.festival is not None:
            return "No" if q.fmt == "polar" else fallback
        delta = q.offset * (7 if q.unit == "weeks" else 1) * q.step
        try:
            day = base + _dt.timedelta(days=delta)
        except OverflowError:
            return None
        if q.fmt == "polar":
            cy, cm, cd, _cl = q.candidate
            return "Yes" if (cy, cm, cd) == (day.year, day.month, day.day) else "No"
        return str(render(q.target, day.year, day.month, day.day, False))

    return answer


def _span_key(record: Record) -> tuple[Any, ...] | None:
    """What a SPAN question asks, whatever its candidate and format."""
    p = record.get("params")
    if not isinstance(p, dict):
        return None
    ref = p.get("reference_date") or {}
    fest = (p.get("festival") or {}).get("key") if isinstance(p.get("festival"), dict) else None
    return (p.get("source_calendar"), p.get("target_calendar"),
            ref.get("year"), ref.get("month"), ref.get("day"), ref.get("leap", False),
            p.get("offset"), p.get("unit"), p.get("sign"), fest)  # fmt: skip


def _span_lookup(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's answer to the same question (a content record's
    answer, or a polar record's candidate when it was Yes), else No."""
    known: dict[tuple[Any, ...], str] = {}
    for r, g in zip(train, golds, strict=True):
        key = _span_key(r)
        if key is None:
            continue
        if r.get("format") == "content":
            known[key] = g
        elif g == "Yes":
            cand = (r.get("params") or {}).get("candidate") or {}
            if isinstance(cand.get("text"), str):
                known[key] = cand["text"]
    fallback = _commonest([g for g in golds if g not in ("Yes", "No")], "")

    def answer(record: Record) -> str | None:
        key = _span_key(record)
        hit = known.get(key) if key is not None else None
        if record.get("format") == "polar":
            cand = ((record.get("params") or {}).get("candidate") or {}).get("text")
            return "Yes" if hit is not None and hit == cand else "No"
        return hit if hit is not None else fallback

    return answer


# ------------------------------------------------------------------ logistics

_PLACE = re.compile(r"\bl\d+_\d+\b")


def _logistics_parse(record: Record) -> tuple[Any, Any] | None:
    from tsolve.families.logistics.parse.item import parse_item

    try:
        return parse_item(record)
    except Exception:
        return None


def _final_or_first(final: bool) -> Fit:
    def fit(train: Sequence[Record], golds: Sequence[str]) -> Answer:
        def answer(record: Record) -> str | None:
            parsed = _logistics_parse(record)
            if parsed is None:
                return None
            scenario, question = parsed
            place = scenario.initial.get(question.package)
            if final:
                for e in scenario.events:
                    if e.package == question.package:
                        place = e.vehicle if e.kind == "load" else e.location
            return place

        return answer

    return fit


def _commonest_place(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    def answer(record: Record) -> str | None:
        return _commonest(_PLACE.findall(str(record.get("prompt", ""))), None)

    return answer


def _question_place(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The first location the question names, else its commonest in the story."""

    def answer(record: Record) -> str | None:
        named = _PLACE.findall(str(record.get("question", "")))
        if named:
            return str(named[0])
        return _commonest(_PLACE.findall(str(record.get("prompt", ""))), None)

    return answer


def _logistics_lookup(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's answer to the same question text over the same story."""
    pairs = zip(train, golds, strict=True)
    known = {(str(r.get("question")), str(r.get("events"))): g for r, g in pairs}
    fallback = _commonest(list(golds), None)

    def answer(record: Record) -> str | None:
        return known.get((str(record.get("question")), str(record.get("events"))), fallback)

    return answer


# ------------------------------------------------------------------ time puzzles

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")
_MONTHS = {m.lower(): i for i, m in enumerate(
    ("January", "February", "March", "April", "May", "June", "July", "August",
     "September", "October", "November", "December"), start=1)}  # fmt: skip
_MONTH = re.compile(r"\b(" + "|".join(m.capitalize() for m in _MONTHS) + r")\b")
_ORDINAL = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b")


def _first_dates(gold: str) -> tuple[int, int, int] | None:
    m = _ISO.search(gold)
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def _date_text(y: int, m: int, d: int) -> str | None:
    try:
        return _dt.date(y, m, d).isoformat()
    except ValueError:
        return None


def _date_prior(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The commonest year, month and day of the other seed's gold dates."""
    firsts = [f for f in (_first_dates(g) for g in golds) if f is not None]
    y = _commonest([f[0] for f in firsts], 2000)
    m = _commonest([f[1] for f in firsts], 1)
    d = _commonest([f[2] for f in firsts], 1)
    guess = _date_text(y, m, d) or _date_text(y, m, 1)

    def answer(record: Record) -> str | None:
        return guess

    return answer


def _date_named(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """A date the prompt names, else one built from the year, month and day
    of the month it names (defaults from the other seed's commonest)."""
    firsts = [f for f in (_first_dates(g) for g in golds) if f is not None]
    dy = _commonest([f[0] for f in firsts], 2000)
    dm = _commonest([f[1] for f in firsts], 1)
    dd = _commonest([f[2] for f in firsts], 1)

    def answer(record: Record) -> str | None:
        text = _constraints(record)
        m = _ISO.search(text)
        if m:
            return m[0]
        years = _YEAR.findall(text)
        months = _MONTH.findall(text)
        days = _ORDINAL.findall(text)
        y = int(years[0]) if years else dy
        mo = _MONTHS[months[0].lower()] if months else dm
        d = int(days[0]) if days else dd
        return _date_text(y, mo, d) or _date_text(y, mo, 1)

    return answer


def _constraints(record: Record) -> str:
    """The facts of a puzzle as the prompt states them."""
    facts = record.get("facts")
    if isinstance(facts, list):
        return "\n".join(str(f.get("text", "")) for f in facts if isinstance(f, dict))
    return str(record.get("prompt", ""))


def _facts_key(record: Record) -> frozenset[str]:
    return frozenset(line.strip() for line in _constraints(record).splitlines() if line.strip())


def _facts_lookup(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's answer to a puzzle with the same facts, in any order."""
    known = {_facts_key(r): g for r, g in zip(train, golds, strict=True)}
    fallback = _commonest(list(golds), None)

    def answer(record: Record) -> str | None:
        return known.get(_facts_key(record), fallback)

    return answer


# ------------------------------------------------------------------ learned


def _sklearn() -> Any:
    try:
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.naive_bayes import MultinomialNB
        from sklearn.pipeline import make_pipeline
    except ImportError as exc:
        raise ProbeSkipped(
            "scikit-learn is not installed (pip install 'tsolve[shortcuts]')"
        ) from exc
    return CountVectorizer, LogisticRegression, MultinomialNB, make_pipeline


MANY_CLASSES = 20
"""Above this many labels (a date's year or day), a multinomial naive Bayes
replaces the logistic regression: lbfgs over hundreds of classes costs
seconds per field, and a shallow model is all the probe claims to be."""


def _classifier(texts: Sequence[str], labels: Sequence[Any]) -> Callable[[str], Any]:
    """Word 1-2-grams into a logistic regression (naive Bayes for many
    labels); one label when only one was seen."""
    CountVectorizer, LogisticRegression, MultinomialNB, make_pipeline = _sklearn()
    distinct = set(labels)
    if len(distinct) < 2:
        only = next(iter(distinct), None)
        return lambda text: only
    head = LogisticRegression(max_iter=1000) if len(distinct) <= MANY_CLASSES else MultinomialNB()
    model = make_pipeline(
        CountVectorizer(ngram_range=(1, 2), token_pattern=r"(?u)\b\w+\b", min_df=2), head
    )
    with warnings.catch_warnings():
        # A probe that has not converged is still a probe; its score is what counts.
        warnings.simplefilter("ignore")
        model.fit(list(texts), list(labels))
    return lambda text: model.predict([text])[0]


def _question_text(record: Record) -> str:
    """What the learned probes read: a puzzle's facts, else the question."""
    if isinstance(record.get("facts"), list):
        return _constraints(record)
    return str(record.get("question") or record.get("prompt") or "")


def _learned_choice(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """A closed-choice answer (Yes/No, a place) from the question's words;
    dates from one classifier per field (year, month, day)."""
    choice = [(r, g) for r, g in zip(train, golds, strict=True) if _first_dates(g) is None]
    dated = [(r, _first_dates(g)) for r, g in zip(train, golds, strict=True)]
    dated_ok = [(r, f) for r, f in dated if f is not None]
    predict_choice = _classifier([_question_text(r) for r, _g in choice], [g for _r, g in choice])
    fields = []
    if dated_ok:
        texts = [_question_text(r) for r, _f in dated_ok]
        for k in range(3):
            fields.append(_classifier(texts, [f[k] for _r, f in dated_ok]))

    def answer(record: Record) -> str | None:
        text = _question_text(record)
        kind = _kind_of(record)
        if kind == "date" and fields:
            y, m, d = (int(f(text)) for f in fields)
            return _date_text(y, m, d) or _date_text(y, m, 1)
        return predict_choice(text) if choice else None

    return answer


def _kind_of(record: Record) -> str:
    """``date`` when the record's answer is an ISO date, else ``choice``."""
    if record.get("family") in ("time-puzzles", "relational-puzzles"):
        return "date"
    return "choice"


def _learned_span(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """SPAN: Yes/No from the question's words; a content answer's year, month
    and day from one classifier each, written in the target calendar."""
    from tsolve.families.span.encoding import render

    polar = [(r, g) for r, g in zip(train, golds, strict=True) if r.get("format") == "polar"]
    content = [(r, g) for r, g in zip(train, golds, strict=True) if r.get("format") == "content"]
    yes_no = _classifier([_question_text(r) for r, _g in polar], [g for _r, g in polar])
    fields: list[Callable[[str], Any]] = []
    rows = []
    for r, _g in content:
        gold = r.get("gold")
        if isinstance(gold, Mapping) and all(k in gold for k in ("year", "month", "day")):
            rows.append((r, (gold["year"], gold["month"], gold["day"])))
    if rows:
        texts = [_question_text(r) for r, _f in rows]
        fields = [_classifier(texts, [f[k] for _r, f in rows]) for k in range(3)]

    def answer(record: Record) -> str | None:
        text = _question_text(record)
        if record.get("format") == "polar":
            return str(yes_no(text))
        if not fields:
            return None
        target = str((record.get("params") or {}).get("target_calendar"))
        y, m, d = (int(f(text)) for f in fields)
        try:
            return str(render(target, y, m, d, False))
        except Exception:
            return None

    return answer


PROBES: tuple[Probe, ...] = (
    Probe("span", "fixed today", "heuristic", _span_fixed_today,
          "today is the commonest reference date of another seed; the rest exactly"),
    Probe("span", "calendar-naive arithmetic", "heuristic", _span_calendar_naive,
          "every calendar read as Gregorian: today's numbers plus the offset, unconverted"),
    Probe("span", "lookup by question", "memorisation", _span_lookup,
          "another seed's answer to the same question, whatever its candidate"),
    Probe("span", "n-gram classifier", "learned", _learned_span,
          "logistic regression on the question's word n-grams (Yes/No; a date per field)"),
    Probe("logistics", "final place", "heuristic", _final_or_first(True),
          "the package's place after its last listed event, every time ignored"),
    Probe("logistics", "first place", "heuristic", _final_or_first(False),
          "the package's initial place"),
    Probe("logistics", "commonest place named", "heuristic", _commonest_place,
          "the location the prompt names most often"),
    Probe("logistics", "place named in the question", "heuristic", _question_place,
          "the first location the question names"),
    Probe("logistics", "lookup by question", "memorisation", _logistics_lookup,
          "another seed's answer to the same question over the same story"),
    Probe("logistics", "n-gram classifier", "learned", _learned_choice,
          "logistic regression on the question's word n-grams"),
    Probe("time-puzzles", "date prior", "heuristic", _date_prior,
          "the commonest year, month and day of another seed's gold dates"),
    Probe("time-puzzles", "date the prompt names", "heuristic", _date_named,
          "a date, or a year, month and day, that the facts name"),
    Probe("time-puzzles", "lookup by facts", "memorisation", _facts_lookup,
          "another seed's answer to a puzzle with the same facts in any order"),
    Probe("time-puzzles", "n-gram classifier", "learned", _learned_choice,
          "one classifier per date field on the facts' word n-grams"),
    Probe("relational-puzzles", "lookup by facts", "memorisation", _facts_lookup,
          "another seed's answer to a puzzle with the same facts in any order"),
)  # fmt: skip
"""Every probe, by family (:func:`probes_for`)."""


FAMILY_PROBES: dict[str, tuple[str, ...]] = {
    "logistics": ("tsolve.stress.logistics_probes:PROBES",),
    "span": ("tsolve.stress.span_probes:SPAN_PROBES",),
}
"""Per family, the modules that hold more of its probes (``module:attribute``
references to a tuple of :class:`Probe`, imported when the family is probed):
family-specific policies live in a module of their own."""


def all_probes() -> tuple[Probe, ...]:
    """:data:`PROBES` and every probe of :data:`FAMILY_PROBES`."""
    return tuple(p for family in dict.fromkeys(
        [*(p.family for p in PROBES), *FAMILY_PROBES]) for p in probes_for(family))  # fmt: skip


def probes_for(family: str) -> tuple[Probe, ...]:
    """The probes of ``family`` (empty for a family with none): those of
    :data:`PROBES`, then those of its :data:`FAMILY_PROBES` modules."""
    from tsolve.contract.family import Lazy

    extra = [p for ref in FAMILY_PROBES.get(family, ()) for p in Lazy(ref).get()]
    return tuple(p for p in (*PROBES, *extra) if p.family == family)
