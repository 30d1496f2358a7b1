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
from tsolve.claims.result import ClaimCheck, Outcome
from tsolve.errors import TsolveError
from tsolve.records.validation import with_article

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


# A claim preceded by one of these words in its sentence is the object of a
# larger expression ("three months after | Christmas 2024 is March 25",
# "the eve of | Passover 2024 is April 22"): what the words do to it is not
# read, so it gets no verdict (``unread``).
_OPERAND_OF = re.compile(
    r"\b(?P<w>after|before|from|until|till|than|past|following|preceding|prior\s+to"
    r"|of|to|plus|minus|between)\s*[,:]?\s*$",
    re.IGNORECASE,
)
# A claim followed by a calendar or a reckoning it does not name ("... is a
# Monday in the Julian calendar", "(Old Style)") is about a day tsolve did
# not read. The Gregorian calendar (tsolve's) qualifies nothing.
_QUALIFIED_BY = re.compile(
    r"\s*,?\s*(?:(?:in|according\s+to|by|under|on|using)\s+(?:the\s+)?"
    r"(?!the\b|(?:proleptic\s+)?gregorian\b|western\b|civil\b)[\w'’-]+(?:\s+[\w'’-]+)?"
    r"\s+(?:calendar|reckoning|style|count(?:ing)?)\b|\(?\s*(?:O\.\s?S\.|N\.\s?S\.|old\s+style"
    r"|new\s+style|julian)\b)",
    re.IGNORECASE,
)


def unread_reason(text: str, start: int, end: int) -> str | None:
    """Why the claim at ``text[start:end]`` is only partly understood, or None."""
    before = _OPERAND_OF.search(_sentence_prefix(text, start))
    if before:
        return f"part of a larger expression ('{before['w']} ...') that tsolve does not read"
    after = _QUALIFIED_BY.match(text, end, end + SENTENCE_REACH)
    if after:
        return f"qualified by '{after.group().strip()}', which tsolve does not read"
    return None


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
    festival it has no rule for); ``unread`` that only part of it was
    understood (:func:`unread_reason`), so it gets no verdict.
    """
    if not isinstance(text, str):
        raise TsolveError(f"text: expected a string, got {with_article(type(text).__name__)}")
    out = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for f in find_claims(text):
        why = unread_reason(text, f.start, f.end)
        outcome = Outcome("unread", note=why) if why else checks.check(f.claim)
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
