"""The Time Puzzles paper's own scoring rules, for reproducing its figures.

``tsolve verify --scorer paper`` scores with the rules of the paper's release
(Wang and Dong, 2026, arXiv:2601.07148; its repository at commit 616590c,
its extractor ``answer_extractors.py`` and its ``metrics.py`` under ``src/eval``),
re-written here, quirks included, so that a user who must match a published figure can:

* **Extraction** (``rule_based_answer_extractor`` as the paper's results
  notebook calls it, strict mode): the text after the *last* ``answer:``
  anywhere in the output (any case, to the end of that line), or, when there
  is none, after the last ``answer is``; every ``None`` (exactly so
  capitalised) and every ``\\d{4}-\\d{2}-\\d{2}`` on it, in order, lower-cased,
  the non-breaking hyphen U+2011 read as ``-``. Only ``None`` alone is the
  empty answer; ``None`` beside dates stays in the predicted set as the
  string ``"none"``. Nothing found is ``CANNOT_PARSE``. Dates are not checked
  (``2023-02-30`` is a prediction like any other) and nothing else (written
  dates, other dashes, a bare answer without a marker) is read.
* **Metrics**: EM, F1 and Jaccard of Appendix B on the two sets
  (:func:`tsolve.verifiers.metrics.set_metrics`), with *no* over-answer rule:
  a prediction naming more dates than the gold keeps its partial F1 and
  Jaccard. ``CANNOT_PARSE`` scores 0 in all three (the release computes them
  on the string's set of characters, which never meets a set of dates).
* **Gold**: the release's published ``solutions``: a record imported from the
  release keeps them as ``published_answers``, which this scorer reads when
  present; any other record's gold is its ``answers``.

tsolve's own scorer (:mod:`tsolve.families.time_puzzles.score`) differs on
purpose where these rules give credit to an answer that skips the task or
read an answer the model did not give; ``docs/scoring.md`` lists every such
case with its counts on the release's 700 puzzles.
"""

from __future__ import annotations

import re
from typing import Any

from tsolve.contract.item import ItemScore
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.score import puzzle_groups
from tsolve.families.time_puzzles.solve import stored_answers
from tsolve.verifiers.metrics import ZERO, set_metrics

CANNOT_PARSE = "CANNOT_PARSE"
"""The release's value for an output it cannot read."""

_AFTER_MARKER = re.compile(r"answer:.*", re.IGNORECASE)
_AFTER_ANSWER_IS = re.compile(r"answer is.*", re.IGNORECASE)
_TOKEN = re.compile(r"(None|\d{4}-\d{2}-\d{2})")


def paper_extract(output: str) -> list[str] | None:
    """The release's strict extraction of ``output``: the predicted list
    (``[]`` for ``None``), or None where the release returns ``CANNOT_PARSE``.

    The same regular expressions as the release, so the same reading of
    Unicode too (``\\d`` matches any decimal digit, ``.`` stops only at
    ``\\n``, case-insensitive matching folds as Python's ``re`` does)."""
    found = _AFTER_MARKER.findall(output) or _AFTER_ANSWER_IS.findall(output)
    if not found:
        return None
    tokens = [t.lower() for t in _TOKEN.findall(found[-1].replace("\u2011", "-"))]
    if tokens == ["none"]:
        return []
    return tokens or None


def paper_gold(record: dict[str, Any]) -> list[str]:
    """The gold the paper's figures use: ``published_answers`` when the
    record carries them (a record imported from the release), else ``answers``."""
    published = record.get("published_answers")
    if published is None:
        return stored_answers(record)
    rid = record.get("id")
    if not isinstance(published, list) or not all(isinstance(d, str) for d in published):
        raise TsolveError(f"record {rid!r}: 'published_answers' must be a list of strings")
    return list(published)


def score_paper(record: dict[str, Any], output: str, *, diagnose: bool = True) -> ItemScore:
    """EM / F1 / Jaccard of ``output`` as the paper's release computes them
    (module docstring). ``diagnose`` is accepted for the scorer signature;
    these rules have no diagnosis beyond what was extracted."""
    if not isinstance(record, dict):
        raise TsolveError(f"record: expected a JSON object, got {type(record).__name__}")
    gold = paper_gold(record)
    rid = str(record.get("id"))
    facts = record.get("facts")
    readable = isinstance(facts, list) and all(isinstance(f, dict) for f in facts)
    groups = puzzle_groups(record, len(gold)) if readable else {}
    if not isinstance(output, str):
        output = ""
    pred = paper_extract(output)
    if pred is None:
        return ItemScore(rid, "time-puzzles", dict(ZERO), None, True,
                         {"reason": CANNOT_PARSE}, groups)  # fmt: skip
    metrics = set_metrics(gold, pred)
    diagnosis: dict[str, Any] = {}
    if metrics["em"] < 1.0:
        gold_set, pred_set = set(gold), set(pred)
        diagnosis = {
            "wrong": sorted(pred_set - gold_set),
            "missed": [d for d in gold if d not in pred_set],
        }
    return ItemScore(rid, "time-puzzles", metrics, pred, False, diagnosis, groups)
