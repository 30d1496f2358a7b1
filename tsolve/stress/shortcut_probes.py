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
from collections.abc import Callable, Sequence
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


def commonest(values: Sequence[Any], default: Any) -> Any:
    return Counter(values).most_common(1)[0][0] if values else default


# ------------------------------------------------------------------ dates and stated facts

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


def date_prior(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The commonest year, month and day of the other seed's gold dates."""
    firsts = [f for f in (_first_dates(g) for g in golds) if f is not None]
    y = commonest([f[0] for f in firsts], 2000)
    m = commonest([f[1] for f in firsts], 1)
    d = commonest([f[2] for f in firsts], 1)
    guess = _date_text(y, m, d) or _date_text(y, m, 1)

    def answer(record: Record) -> str | None:
        return guess

    return answer


def date_named(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """A date the prompt names, else one built from the year, month and day
    of the month it names (defaults from the other seed's commonest)."""
    firsts = [f for f in (_first_dates(g) for g in golds) if f is not None]
    dy = commonest([f[0] for f in firsts], 2000)
    dm = commonest([f[1] for f in firsts], 1)
    dd = commonest([f[2] for f in firsts], 1)

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


def facts_lookup(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's answer to a puzzle with the same facts, in any order."""
    known = {_facts_key(r): g for r, g in zip(train, golds, strict=True)}
    fallback = commonest(list(golds), None)

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


def classifier(texts: Sequence[str], labels: Sequence[Any]) -> Callable[[str], Any]:
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


def question_text(record: Record) -> str:
    """What the learned probes read: a puzzle's facts, else the question."""
    if isinstance(record.get("facts"), list):
        return _constraints(record)
    return str(record.get("question") or record.get("prompt") or "")


def learned_choice(dates: bool) -> Fit:
    """The n-gram probe: a closed-choice answer (Yes/No, a place) from the
    question's words; with ``dates`` (a family whose answers are dates),
    dates from one classifier per field (year, month, day)."""
    return lambda train, golds: _learned_choice(train, golds, dates)


def _learned_choice(train: Sequence[Record], golds: Sequence[str], dates: bool) -> Answer:
    """:func:`learned_choice` fitted on ``train``."""
    choice = [(r, g) for r, g in zip(train, golds, strict=True) if _first_dates(g) is None]
    dated = [(r, _first_dates(g)) for r, g in zip(train, golds, strict=True)]
    dated_ok = [(r, f) for r, f in dated if f is not None]
    predict_choice = classifier([question_text(r) for r, _g in choice], [g for _r, g in choice])
    fields = []
    if dated_ok:
        texts = [question_text(r) for r, _f in dated_ok]
        for k in range(3):
            fields.append(classifier(texts, [f[k] for _r, f in dated_ok]))

    def answer(record: Record) -> str | None:
        text = question_text(record)
        if dates and fields:
            y, m, d = (int(f(text)) for f in fields)
            return _date_text(y, m, d) or _date_text(y, m, 1)
        return predict_choice(text) if choice else None

    return answer


# ------------------------------------------------------------------ generic


def _commonest_gold(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's commonest gold answer, whatever the record."""
    guess = commonest(list(golds), None)
    return lambda record: guess


def _random_gold(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """A gold answer of the other seed drawn by the record's prompt (a fixed
    hash, so runs repeat): a guesser that knows the answers' distribution."""
    import zlib

    pool = list(golds)

    def answer(record: Record) -> str | None:
        if not pool:
            return None
        key = zlib.crc32(str(record.get("prompt") or record.get("question") or "").encode())
        return pool[key % len(pool)]

    return answer


def _prompt_lookup(train: Sequence[Record], golds: Sequence[str]) -> Answer:
    """The other seed's answer to the same prompt, else its commonest gold."""
    known = {question_text(r): g for r, g in zip(train, golds, strict=True)}
    fallback = commonest(list(golds), None)
    return lambda record: known.get(question_text(record), fallback)


def generic_probes(family: str) -> tuple[Probe, ...]:
    """The probes of a family that declares no ``shortcut_probes``: what any
    trained policy could do without reading the task (the commonest gold, a
    gold drawn at random, a lookup of the same prompt, an n-gram classifier
    of the prompt's words)."""
    return (
        Probe(family, "commonest gold", "heuristic", _commonest_gold,
              "the other seed's commonest gold answer"),
        Probe(family, "random gold", "heuristic", _random_gold,
              "one of the other seed's gold answers, drawn by the prompt"),
        Probe(family, "lookup by prompt", "memorisation", _prompt_lookup,
              "another seed's answer to the same prompt"),
        Probe(family, "n-gram classifier", "learned", learned_choice(False),
              "logistic regression on the prompt's word n-grams"),
    )  # fmt: skip


def probes_for(family: str) -> tuple[Probe, ...]:
    """The probes of ``family``: those of its ``shortcut_probes`` references
    (each a tuple of :class:`Probe`, imported when the family is probed; only
    the probes named for ``family`` count), else :func:`generic_probes`."""
    from tsolve.contract import get_family
    from tsolve.contract.family import resolve

    fam = get_family(family)
    if not fam.shortcut_probes:
        return generic_probes(fam.name)
    return tuple(p for part in fam.shortcut_probes for p in resolve(part) if p.family == fam.name)


def all_probes() -> tuple[Probe, ...]:
    """Every probe of every built-in family that generates records."""
    from tsolve.contract import builtin_families

    return tuple(
        p for f in builtin_families() if f.generate is not None for p in probes_for(f.name)
    )


def __getattr__(name: str) -> Any:
    # ``PROBES``, every built-in probe, is a view of the families'
    # declarations (``Family.shortcut_probes``), built on use.
    if name == "PROBES":
        return all_probes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
