"""Example predictions for any family: the gold, a random answer, a perturbed gold.

``tsolve predict`` writes these so that ``tsolve verify`` can be tried (and a
scorer sanity-checked) without a model. Each family writes its own gold in
the form its scorer reads (``Family.answer`` and ``answer_marker``, found through the family
registry); the baselines built on it are family-agnostic:

- ``gold``: that text. Every family's scorer gives it full marks.
- ``random``: the gold text of another record of the same family, drawn with
  a seeded RNG: an answer of the right form from the dataset's own answer
  distribution (a shuffled-gold baseline; with one record, its own gold).
- ``perturbed``: the gold text as its family perturbs it (``Family.perturb``);
  by default one value moved: its last ISO date by a day, else Yes and No
  swapped, else its last number plus one (:func:`perturb`). What it scores
  depends on the family (EM 0 but a partial F1 for a puzzle with several
  dates). It is never the gold itself: a gold with none of these values,
  or one of no answer (``None``), gets :func:`never_gold`.

A model that sees one record at a time (the offline Inspect model,
:mod:`tsolve.adapters.inspect_ai.offline_model`) has no other record's gold
to draw: its random answer is :func:`redraw`, the record's own gold text with
every value drawn afresh in the same form, and its perturbed answer is
:func:`perturb` as here.

Output row ``i`` depends only on ``seed``, the baseline and the records
(``random`` draws from a generator keyed on ``(seed, i)``), so reruns are
byte-identical.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from datetime import date, timedelta
from typing import Any

from tsolve.contract import family_of, get_family
from tsolve.contract.defaults import (  # noqa: F401  (re-exported)
    _ISO,
    _NUMBER,
    _POLAR,
    SOME_DATE,
    never_gold,
    perturb,
)
from tsolve.errors import TsolveError, unexpected
from tsolve.records import BadRow

BASELINES = ("gold", "random", "perturbed")


def answer_text(record: dict[str, Any]) -> str:
    """``record``'s gold as a model would write it: its family's ``answer``
    after the family's ``answer_marker`` (:func:`tsolve.verifiers.gold_answers.gold_output`)."""
    from tsolve.verifiers.gold_answers import gold_output

    return gold_output(record, get_family(family_of(record)))


def perturbed_text(record: dict[str, Any]) -> str:
    """``record``'s gold output perturbed as its family says
    (:meth:`tsolve.contract.Family.perturbed_output`): never the gold itself."""
    return get_family(family_of(record)).perturbed_output(record, answer_text(record))


def redraw(text: str, rng: random.Random) -> str:
    """``text`` with every value of the kind :func:`perturb` would move drawn
    afresh from ``rng``, in the same form: each ISO date a day of its own
    year, else each Yes/No either, else each number one with as many digits.
    A text with none of these is returned unchanged."""
    dates = [m for m in _ISO.finditer(text) if _valid_date(m)]
    if dates:
        return _replace(text, dates, lambda m: _day_of_year(int(m[1]), rng))
    polar = list(_POLAR.finditer(text))
    if polar:
        return _replace(text, polar, lambda m: rng.choice(("Yes", "No")))
    numbers = list(_NUMBER.finditer(text))
    return _replace(text, numbers, lambda m: _same_width(len(m[0]), rng))


def _valid_date(m: re.Match[str]) -> bool:
    try:
        date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return False
    return True


def _day_of_year(year: int, rng: random.Random) -> str:
    first = date(year, 1, 1)
    days = (date(year, 12, 31) - first).days
    return (first + timedelta(days=rng.randint(0, days))).isoformat()


def _same_width(width: int, rng: random.Random) -> str:
    low = 0 if width == 1 else 10 ** (width - 1)
    return str(rng.randint(low, 10**width - 1))


def _replace(text: str, matches: list[re.Match[str]], new: Callable[[re.Match[str]], str]) -> str:
    """``text`` with each match (in order, not overlapping) replaced by ``new(match)``."""
    parts: list[str] = []
    end = 0
    for m in matches:
        parts += [text[end : m.start()], new(m)]
        end = m.end()
    return "".join(parts) + text[end:]


def predict(
    records: Iterable[dict[str, Any] | BadRow],
    baseline: str = "gold",
    seed: int = 0,
    on_error: Callable[[str], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """``{"id", "output"}`` per usable record, in input order, ``id`` the
    record's own value (an integer stays an integer).

    A bad row or a record whose gold cannot be written is passed to
    ``on_error`` (one line) and skipped; without ``on_error`` it raises."""
    if baseline not in BASELINES:
        raise TsolveError(f"baseline: expected one of {', '.join(BASELINES)}, got {baseline!r}")

    def report(message: str) -> None:
        if on_error is None:
            raise TsolveError(message)
        on_error(message)

    rows: list[tuple[Any, str, str]] = []  # (the record's own id value, family, gold text)
    for rec in records:
        if isinstance(rec, BadRow):
            report(f"records {rec}")
            continue
        rid = rec.get("id")
        try:
            fam = family_of(rec)
            gold = perturbed_text(rec) if baseline == "perturbed" else answer_text(rec)
            rows.append((rid, fam, gold))
        except TsolveError as exc:
            report(f"records: id {rid!r}: {exc}")
        except Exception as exc:  # the backstop: one row never sinks the batch
            report(f"records: id {rid!r}: {unexpected(exc)}")
    by_family: dict[str, list[str]] = defaultdict(list)
    for _rid, fam, text in rows:
        by_family[fam].append(text)
    for i, (rid, fam, text) in enumerate(rows):
        if baseline == "random":
            text = random.Random(f"tsolve-predict-{seed}-{i}").choice(by_family[fam])
        yield {"id": rid, "output": text}


__all__ = ["BASELINES", "answer_text", "never_gold", "perturb", "perturbed_text", "predict",
           "redraw"]  # fmt: skip
