"""A verdict's proof as a few numbered lines a person can check.

The JSON proof of an ``inconsistent`` verdict is exact but long (a logistics
proof runs to thousands of characters: every reading's whole timeline). A
reader wants the argument: which sentences of the item fix which times, and
why the stored gold cannot hold. :func:`explain` writes that argument as
numbered lines, each quoting the text it rests on (a sentence of the story,
a fact of the puzzle, a stored field), from the verdict's ``detail`` and the
record it was audited from. It reads the proof; it never re-decides the
verdict, and the JSON proof stays what it is.

Each family may declare an ``explain(detail, record)`` part (its auditor's
own reader of its proofs, :class:`tsolve.contract.Family`); a verdict of a
family without one, or a disagreement
between stored forms of the gold (:mod:`tsolve.audit.forms`, the same for
every family), is written from its ``summary`` and ``proof`` alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tsolve.audit.base import AuditVerdict
from tsolve.audit.forms import REASON


def __getattr__(name: str) -> Any:
    # ``EXPLAINERS``: per built-in family, the module of its ``explain`` part
    # (imported only when a proof of theirs is shown), from the declarations.
    if name == "EXPLAINERS":
        from tsolve.contract import builtin_families
        from tsolve.contract.family import Lazy

        return {
            f.name: f.explain.module if isinstance(f.explain, Lazy) else f.explain.__module__
            for f in builtin_families()
            if f.explain is not None
        }
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def family_explainer(family: str) -> Callable[[dict[str, Any], dict[str, Any]], list[str]] | None:
    """The ``explain`` part of ``family``, or None (no such family, or none declared)."""
    from tsolve.contract import get_family
    from tsolve.contract.family import resolve
    from tsolve.errors import TsolveError

    try:
        part = get_family(family).explain
    except TsolveError:
        return None
    return resolve(part) if part is not None else None


QUOTE_AT_MOST = 240
"""Characters of a quoted text shown in a line; longer quotes end in "…"."""


def quote(text: Any) -> str:
    """``text`` in quotation marks, cut at :data:`QUOTE_AT_MOST` characters."""
    s = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    s = " ".join(s.split())
    if len(s) > QUOTE_AT_MOST:
        s = s[: QUOTE_AT_MOST - 1] + "…"
    return f"“{s}”"


def shown(value: Any) -> str:
    """A stored value in a line: text quoted (:func:`quote`), anything else as JSON."""
    if isinstance(value, str):
        return quote(value)
    return json.dumps(value, ensure_ascii=False)


def explain(verdict: AuditVerdict, record: dict[str, Any] | None = None) -> list[str]:
    """The numbered lines of ``verdict``'s argument (``[]`` for ``ok``).

    ``record`` is the row the verdict was audited from; without it a family
    explainer cannot quote the item's text and the lines fall back to the
    proof's own words."""
    if verdict.verdict == "ok":
        return []
    detail = verdict.detail
    lines: list[str] | None = None
    if detail.get("reason") == REASON:
        lines = forms_lines(detail)
    elif record is not None:
        family_explain = family_explainer(verdict.family)
        if family_explain is not None:
            lines = family_explain(detail, record)
    if not lines:
        lines = fallback_lines(verdict.verdict, detail)
    return [f"{k}. {line}" for k, line in enumerate(lines, start=1)]


def forms_lines(detail: dict[str, Any]) -> list[str]:
    """Two stored forms that name different answers, each quoted."""
    proof = detail.get("proof") or {}
    lines: list[str] = []
    for f in proof.get("forms") or []:
        read = f" ({f['reads_as']})" if f.get("reads_as") else ""
        lines.append(f"The record's {f['form']} says {shown(f['says'])}{read}.")
        lines.append(f"Its {f['other_form']} says {shown(f['other_says'])}: they disagree.")
    if "text_gives" in proof:
        lines.append(f"The item's own text gives {quote(proof['text_gives'])} (canonical reading).")
    return lines


def fallback_lines(verdict: str, detail: dict[str, Any]) -> list[str]:
    """Lines from a detail no family explainer wrote: its summary, the
    reasons a proof lists, or else its JSON (cut)."""
    lines: list[str] = []
    summary = detail.get("summary")
    if isinstance(summary, str):
        lines.append(summary)
    elif verdict == "ambiguous":
        lines.append(
            f"under reading {detail.get('reading')!s} the answer is {detail.get('answers')!s}"
        )
    proof = detail.get("proof")
    why = proof.get("why_gold_is_impossible") if isinstance(proof, dict) else None
    if isinstance(why, list):
        lines.extend(str(w) for w in why)
    elif isinstance(proof, str):
        lines.append(proof)
    elif proof is not None and not lines:
        lines.append(json.dumps(proof, ensure_ascii=False)[:300])
    if not lines:
        lines.append(json.dumps(detail, ensure_ascii=False)[:300])
    return lines


__all__ = [  # noqa: F822 (EXPLAINERS: a view built on use, see __getattr__)
    "EXPLAINERS",
    "explain",
    "fallback_lines",
    "family_explainer",
    "forms_lines",
    "quote",
    "shown",
]
