"""Do all the stored forms of an item's gold name the same answer?

A record often stores its gold more than once: a text answer (SPAN's
``answer``, what the facade and reasoning-gym serve), structured fields
(``gold.year``/``month``/``day``), a count (``solution_count``, the ``M`` a
report groups by), the solver's own result (a logistics record's
``solution``). Every reader picks one: the scorer reads the fields, the
facade serves the text, a report groups by the count. An auditor that checks
one form would call an item ``ok`` whose other forms tell a model, a reward
or a report something else, so each family's auditor first compares them
(``gold_form_mismatches`` in ``tsolve/families/<name>/audit.py``), and a
disagreement is ``inconsistent`` whatever the item's text says, with both
forms quoted.

The comparisons read each form independently of how the generator wrote
it where they can: a text is re-read with the scorer's own parser, a
calendar date converted afresh, a count recounted.
:func:`served_answer_mismatch` is the check every family shares: the answer
the facade serves (``Family.answer``) must score full marks with the
family's own scorer.

A form that is present must also be of its type: a date's ``text`` that is
the number 5, a ``solution`` that is a text, a ``schedule`` that is a list,
a ``solver`` that is a number holding no count. Such a form names no answer
at all, and skipping it (as "not a text, so nothing to compare") would call
the item ``ok`` while a reader of that field gets garbage, so it is a
mismatch naming the field (:func:`mistyped`, :func:`count_mismatches`). An
absent form (missing, or ``null`` as a table fills a missing field) is no
finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tsolve.audit.base import AuditVerdict

REASON = "the stored forms of the gold disagree"


@dataclass(frozen=True)
class FormMismatch:
    """Two stored forms of one gold that name different answers.

    ``form`` and ``other`` name the fields (``"answer"``, ``"gold.day"``),
    ``says`` and ``other_says`` quote what is stored there, and ``reads_as``
    (optional) is what the first form was read as, when that is not plain
    from the quote (a text re-read by the scorer's parser, a date converted).
    """

    form: str
    says: Any
    other: str
    other_says: Any
    reads_as: str | None = None

    def sentence(self) -> str:
        """One line a person can check against the record."""
        read = f" ({self.reads_as})" if self.reads_as else ""
        other = f"{self.other} says {_quote(self.other_says)}"
        return f"{self.form} says {_quote(self.says)}{read}, but {other}"

    def to_json(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "says": self.says,
            "other_form": self.other,
            "other_says": self.other_says,
            "reads_as": self.reads_as,
        }


def _quote(value: Any) -> str:
    if isinstance(value, str):
        return f"“{value}”"
    import json

    return json.dumps(value, ensure_ascii=False)


def forms_verdict(
    rid: Any,
    family: str,
    mismatches: list[FormMismatch],
    text_gives: Any = None,
) -> AuditVerdict:
    """The ``inconsistent`` verdict for a record whose gold forms disagree.

    ``detail.summary`` is the first disagreement as a sentence, and
    ``detail.proof.forms`` every one of them, each quoting both forms.
    ``text_gives`` (when the auditor can say it cheaply) is the answer the
    item's own text gives under its canonical reading, so a reader sees which
    form is the wrong one. No reading is audited (``readings`` is empty):
    the forms disagree whatever the text means."""
    first = mismatches[0]
    more = f" (and {len(mismatches) - 1} more)" if len(mismatches) > 1 else ""
    proof: dict[str, Any] = {"forms": [m.to_json() for m in mismatches]}
    if text_gives is not None:
        proof["text_gives"] = text_gives
    detail = {"summary": f"{REASON}: {first.sentence()}{more}", "reason": REASON, "proof": proof}
    return AuditVerdict(rid, family, "inconsistent", detail, [])


def served_answer_mismatch(record: dict[str, Any], family_name: str) -> FormMismatch | None:
    """The answer the facade serves for ``record`` (``Family.answer``, as
    reasoning-gym and the verifiers environment also serve it), unless it
    scores full marks with the family's own scorer, the way a model's answer
    is scored. None when it does, or when the family serves no answer."""
    from tsolve.contract import get_family
    from tsolve.verifiers.gold_answers import gold_answer
    from tsolve.verifiers.rewards import reward_value

    family = get_family(family_name)
    if family.answer is None or family.score is None:
        return None
    served = gold_answer(record, family)
    result = family.require("score")(record, served, diagnose=False)
    metrics = getattr(result, "metrics", result)
    if reward_value(metrics, family.name, None) == 1.0:
        return None
    diagnosis = getattr(result, "diagnosis", {}) or {}
    expected = diagnosis.get("expected", diagnosis.get("truth"))
    return FormMismatch(
        "the served answer",
        served,
        "the gold the scorer reads",
        expected if expected is not None else "(see the record)",
        reads_as=str(diagnosis.get("reason") or "a wrong answer by the family's scorer"),
    )


def stored_at(record: dict[str, Any], path: str) -> Any:
    """``record["solver"]["count"]`` for ``"solver.count"``; the last element
    of a list for ``[-1]`` (``"difficulty.sizes[-1]"``); None where absent."""
    value: Any = record
    for key in path.split("."):
        last = key.endswith("[-1]")
        value = value.get(key.removesuffix("[-1]")) if isinstance(value, dict) else None
        if last:
            value = value[-1] if isinstance(value, list) and value else None
    return value


def json_kind(value: Any) -> str:
    """What JSON calls ``value``'s type, for a finding (``a number``, ``a list``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list | tuple):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


def mistyped(
    form: str, value: Any, expected: type | tuple[type, ...], what: str, other: str,
    other_says: Any,
) -> FormMismatch | None:  # fmt: skip
    """The finding for a present form (``value`` not None) that is not of
    ``expected`` (``what`` says it in words: ``"a text"``), against the form
    ``other`` it should agree with; None when absent or of its type. A
    boolean is never a number here, nor a number a boolean."""
    if value is None:
        return None
    types = expected if isinstance(expected, tuple) else (expected,)
    if isinstance(value, types) and (bool in types or not isinstance(value, bool)):
        return None
    return FormMismatch(form, value, other, other_says, reads_as=f"not {what}: {json_kind(value)}")


def _container_mismatch(
    record: dict[str, Any], path: str, other: str, other_says: Any
) -> FormMismatch | None:
    """The finding for a present part of ``path`` (``solver`` of
    ``solver.count``) that cannot hold the rest (not an object, or not a list
    where ``[-1]`` asks for one): the form is there but holds no count."""
    value: Any = record
    walked: list[str] = []
    for key in path.split("."):
        name = key.removesuffix("[-1]")
        if not isinstance(value, dict):
            shown = ".".join(walked)
            return FormMismatch(shown, value, other, other_says,
                                reads_as=f"not an object: {json_kind(value)}")  # fmt: skip
        walked.append(name)
        value = value.get(name)
        if value is None:
            return None
        if key.endswith("[-1]"):
            if not isinstance(value, list):
                return FormMismatch(".".join(walked), value, other, other_says,
                                    reads_as=f"not a list: {json_kind(value)}")  # fmt: skip
            value = value[-1] if value else None
            if value is None:
                return None
    return None


def count_mismatches(
    record: dict[str, Any], answers: list[Any], counts: tuple[str, ...]
) -> list[FormMismatch]:
    """Each stored count (``counts`` are paths for :func:`stored_at`, e.g.
    ``solution_count``, the ``M`` reports group by) that is not the number of
    distinct ``answers``, or whose place holds something that is no count
    (``solver`` a number, ``difficulty.sizes_by_information_gain`` a text).
    An absent count is no finding: older records lack some of them."""
    n = len({repr(a) for a in answers})
    out: list[FormMismatch] = []
    for path in counts:
        shape = _container_mismatch(record, path, "answers", answers)
        if shape is not None:
            out.append(shape)
            continue
        value = stored_at(record, path)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value != n:
            out.append(FormMismatch(path, value, "answers", answers,
                                    reads_as=f"a count of answers; answers holds {n}"))  # fmt: skip
    return out


__all__ = [
    "REASON",
    "FormMismatch",
    "count_mismatches",
    "forms_verdict",
    "json_kind",
    "mistyped",
    "served_answer_mismatch",
    "stored_at",
]
