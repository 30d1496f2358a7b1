"""A record's gold answer written as its family's scorer reads it.

Each family declares its own as ``Family.answer`` (with the marker its
scorer looks for as ``Family.answer_marker``), beside its scorer
(``tsolve/families/<name>/score.py``). They give the *bare* answer,
the text that follows the marker: what a reinforcement-learning reward
(:mod:`tsolve.facade`) calls the item's ``answer``, and what a scripted model
answers to score 1.0. ``tests/test_facade.py`` holds every family's scorer to
1.0 on its own record's answer.
"""

from __future__ import annotations

from typing import Any

from tsolve.contract.family import Family, resolve
from tsolve.errors import TsolveError

NONE = "None"
"""The answer when no date fits: the word every date scorer accepts."""


def as_output(answer: str, marker: str) -> str:
    """A bare answer written as a model's output ends: each non-blank line
    after ``marker`` (a relational puzzle's answer is one line per date
    combination). An answer that already names the marker is left alone."""
    if not marker or marker.lower() in answer.lower():
        return answer
    return "\n".join(f"{marker} {line.strip()}" for line in answer.splitlines() if line.strip())


def gold_answer(record: dict[str, Any], family: Family) -> str:
    """The record's gold answer as bare text: the family's ``answer`` part,
    or (a third-party family without one) the record's own ``answer`` string."""
    if family.answer is not None:
        text: str = resolve(family.answer)(record)
        return text
    answer = record.get("answer")
    if not isinstance(answer, str):
        raise TsolveError(
            f"family: {family.name!r} declares no answer part and its records have no "
            "'answer' string, so it has no gold answer to offer"
        )
    return answer


def question_text(record: dict[str, Any]) -> str:
    """The text a model is shown for ``record``, as its family shows it
    (:meth:`tsolve.contract.Family.prompt_text`: its ``prompt`` part, else
    the record's ``prompt``, else its ``question``); a record whose family
    cannot be told is read the default way. The facade's ``question`` and
    the Hub tables' ``question`` column are this."""
    from tsolve.contract import family_of, get_family

    try:
        family = get_family(family_of(record))
    except TsolveError:
        family = Family(name=str(record.get("family", "?")))
    return family.prompt_text(record)


def gold_output(record: dict[str, Any], family: Family) -> str:
    """The record's gold written as a model's output ends (marker and answer):
    what its scorer gives full marks, and what ``tsolve predict --baseline gold``
    writes."""
    return as_output(gold_answer(record, family), family.answer_marker)
