"""What checking one claim gives: where it is, what kind it is, and the verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Verdict = Literal["true", "false", "unknown", "unread"]
#: ``unknown``: read, but tsolve cannot check it (outside a table, a festival
#: without a rule). ``unread``: only part of the claim was understood (it is
#: the object of "after", "the eve of", qualified by a calendar tsolve does
#: not read): no verdict is given, whatever its part would say.
VERDICTS: tuple[Verdict, ...] = ("true", "false", "unknown", "unread")


@dataclass(frozen=True)
class Outcome:
    """A checker's answer: the verdict, the right value when the claim is
    false, and a note saying why when tsolve cannot check it."""

    verdict: Verdict
    correct: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class ClaimCheck:
    """One claim found in a text and its verdict.

    ``start``/``end`` are character offsets into the whole text (``text[start:end]``
    is the claim), ``line`` the 1-based line the claim starts on. ``correct`` is
    the right value of what the claim asserts (its last part: the weekday, the
    date, the number of days), given when the verdict is ``false``.
    """

    line: int
    start: int
    end: int
    text: str
    kind: str
    verdict: Verdict
    correct: str | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``tsolve check-claims --format jsonl`` prints."""
        return {
            "line": self.line,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "kind": self.kind,
            "verdict": self.verdict,
            "correct": self.correct,
            "note": self.note,
        }
