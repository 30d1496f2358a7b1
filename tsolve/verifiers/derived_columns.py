"""A record's derived table columns, computed by its family.

``question`` is :func:`tsolve.verifiers.gold_answers.question_text` (the
prompt); ``answer`` is :func:`tsolve.verifiers.gold_answers.gold_answer`
(the gold as the family's scorer reads an honest answer). The table layer
(:mod:`tsolve.records.hub_columns`) reaches these through
:mod:`tsolve.records.derivers`, since records sit below the families.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tsolve.contract import get_family
from tsolve.errors import TsolveError
from tsolve.records.columns import kind_of
from tsolve.verifiers.gold_answers import gold_answer, question_text


def derive(record: Mapping[str, Any]) -> dict[str, str]:
    """The derived ``question`` and ``answer`` of ``record``, each when its
    family (the ``family`` field) is installed and yields it as text."""
    name = record.get("family")
    if not isinstance(name, str):
        return {}
    try:
        family = get_family(name)
    except TsolveError:
        return {}
    out: dict[str, str] = {}
    rec = dict(record)
    for key, make in (("question", question_text), ("answer", lambda r: gold_answer(r, family))):
        try:
            value = make(rec)
        except (TsolveError, ValueError, TypeError, KeyError, AttributeError, IndexError):
            continue  # a record its family cannot read has no derived value
        if isinstance(value, str) and kind_of(value) == "string":
            out[key] = value
    return out


def installed(name: str) -> bool:
    """Whether the family ``name`` is installed here."""
    try:
        get_family(name)
    except TsolveError:
        return False
    return True
