"""Find the claims in a text and check each one: :func:`check_claims`.

Precision comes first (a wrong "false" on a sound reasoning chain is worse
than a missed claim), so a match is dropped when its sentence is not an
assertion: a question, or a sentence that puts the claim under "if",
"whether", "suppose", "check" and the like.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from tsolve.bounded_scan import bounded_finditer
from tsolve.claims import checks
from tsolve.claims.grammar import MAX_CLAIM, Claim, patterns
from tsolve.claims.result import ClaimCheck

# Words that, earlier in the same sentence, make what follows not an assertion.
_NOT_ASSERTED = re.compile(
    r"\b(?:if|whether|suppose|supposing|assume|assuming|unless|check|verify|determine"
    r"|is\s+it\s+true|not\s+true|false\s+that|wrong|incorrect|mistaken(?:ly)?|claims?|"
    r"thought|think|believe|might|may\s+be|could|would\s+be\s+wrong|what\s+if|let's\s+see)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n\s*\n")


@dataclass(frozen=True)
class Found:
    """A match of one pattern, read into a typed claim."""

    start: int
    end: int
    kind: str
    priority: int
    claim: Claim


#: How far a claim's sentence is read around it, in characters: before the
#: claim for a word that makes it no assertion, after it for a question mark.
#: Bounded so that the work per claim does not grow with the text.
SENTENCE_REACH = 400
_CLAUSE_END = re.compile(r"[.!?\n]")


def _sentence_prefix(text: str, start: int) -> str:
    """The text from the start of ``start``'s sentence (or line) to ``start``,
    at most :data:`SENTENCE_REACH` characters."""
    reach = max(0, start - SENTENCE_REACH)
    lo = max(text.rfind("\n", reach, start), reach)
    head = text[lo:start]
    ends = [m.end() for m in _SENTENCE_END.finditer(head)]
    return head[ends[-1] :] if ends else head


def _is_question(text: str, end: int) -> bool:
    m = _CLAUSE_END.search(text, end, end + SENTENCE_REACH)
    return m is not None and m.group() == "?"


def _asserted(text: str, start: int, end: int) -> bool:
    return not _NOT_ASSERTED.search(_sentence_prefix(text, start)) and not _is_question(text, end)


def find_claims(text: str) -> list[Found]:
    """Every claim in ``text``, in text order; where two overlap so that one
    lies within the other, the enclosing (or, for equal spans, the
    higher-priority) one is kept."""
    found: list[Found] = []
    for priority, pat in enumerate(patterns()):
        for hit in bounded_finditer(pat.regex, text, MAX_CLAIM):
            claim = pat.read(hit.match)
            if claim is not None and _asserted(text, hit.start, hit.end):
                found.append(Found(hit.start, hit.end, pat.kind, priority, claim))
    found.sort(key=lambda f: (f.start, -(f.end - f.start), f.priority))
    kept: list[Found] = []
    reach = -1  # the furthest end of a kept claim; kept claims all start before f
    for f in found:
        if f.end <= reach:  # within a kept claim
            continue
        kept.append(f)
        reach = f.end
    return kept


def check_claims(text: str) -> list[ClaimCheck]:
    """The date claims in ``text`` with a verdict each, in text order.

    Recognised claims (docs/claims.md): the weekday of a date, leap years,
    date arithmetic (N days/weeks after/before, days between), cross-calendar
    equivalences, festival dates and month lengths. ``unknown`` means the claim
    was recognised but tsolve cannot check it (outside a calendar's table, a
    festival it has no rule for).
    """
    out = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for f in find_claims(text):
        outcome = checks.check(f.claim)
        out.append(
            ClaimCheck(
                line=bisect.bisect_right(line_starts, f.start),
                start=f.start,
                end=f.end,
                text=text[f.start : f.end],
                kind=f.kind,
                verdict=outcome.verdict,
                correct=outcome.correct,
                note=outcome.note,
            )
        )
    return out


def first_false_claim(text: str) -> ClaimCheck | None:
    """The first claim in ``text`` judged false, if any: the step where a
    reasoning chain first goes wrong (``tsolve verify --claims``)."""
    return next((c for c in check_claims(text) if c.verdict == "false"), None)
