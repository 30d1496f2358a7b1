"""The defaults of the family parts that have one, where the default is
more than a field read: a near miss of any gold (``Family.perturb``).

:func:`perturb` moves one value of a gold output (its last ISO date by a
day, else Yes and No swapped, else its last number plus one), and
:func:`never_gold` answers wrongly where there is no such value (a word, no
answer at all), so the perturbed baseline of ``tsolve predict`` and the
offline model ``tsolve/perturbed`` never hand in the gold by accident.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_POLAR = re.compile(r"\b(Yes|No)\b")
_NUMBER = re.compile(r"\d+")

#: What :func:`never_gold` answers where the gold is no answer ("None": no
#: date fits) or an empty one: a date, which such a gold never is.
SOME_DATE = "2000-01-01"

_WORD = re.compile(r"[^\W\d_]{2,}")


def never_gold(text: str) -> str:
    """A wrong answer in place of the gold output ``text``, whatever its form,
    for a family whose gold has no value :func:`perturb` can move. Only the
    answer is changed (what follows the last ``:`` of the last line, the
    marker's, else the whole text): no answer (``None``, or nothing) becomes
    a date (:data:`SOME_DATE`); else its last word is spelled backwards
    (``Friday`` -> ``yadirF``), or, when that reads the same, followed by
    ``not``. Never returns ``text`` itself."""
    stripped = text.rstrip()
    line_start = stripped.rfind("\n") + 1
    colon = stripped.rfind(":", line_start)
    cut = colon + 1 if colon >= 0 else 0
    head, answer = stripped[:cut], stripped[cut:]
    space = " " if head else ""
    if answer.strip().lower() in ("", "none"):
        return head + space + SOME_DATE
    words = list(_WORD.finditer(answer))
    if words and words[-1][0][::-1].lower() != words[-1][0].lower():
        m = words[-1]
        return head + answer[: m.start()] + m[0][::-1] + answer[m.end() :]
    return stripped + " not"


def perturb(text: str) -> str:
    """``text`` with one value moved (see the module docstring)."""
    for m in reversed(list(_ISO.finditer(text))):
        try:
            moved = date(int(m[1]), int(m[2]), int(m[3])) + timedelta(days=1)
        except (ValueError, OverflowError):
            continue
        return text[: m.start()] + moved.isoformat() + text[m.end() :]
    polar = list(_POLAR.finditer(text))
    if polar:
        m = polar[-1]
        return text[: m.start()] + ("No" if m[1] == "Yes" else "Yes") + text[m.end() :]
    numbers = list(_NUMBER.finditer(text))
    if numbers:
        m = numbers[-1]
        return text[: m.start()] + str(int(m[0]) + 1) + text[m.end() :]
    return text
