"""Regular-expression scans whose work is linear in the text, whatever the text.

Why: Python's ``re`` backtracks. A pattern such as ``\\d+\\s+days`` scanned over
a run of n digits tries every start position and, from each one, reads to the
end of the run: n²/2 steps (16k digits took 12 s in ``check-claims``). Making
every pattern of a grammar provably linear by hand is fragile; bounding what
one regex call can see is not.

:func:`bounded_finditer` runs a pattern over the text in overlapping windows:
window k holds the characters ``[k·W - LOOKBEHIND, (k+2)·W + LOOKAHEAD)`` (W
= ``max_match``) and only matches that *start* in ``[k·W, (k+1)·W)`` are taken
from it, each at most W characters long. Every regex call therefore sees at
most ``2·W + LOOKBEHIND + LOOKAHEAD`` characters, so its work is bounded by a constant that
depends on the pattern and W only, and the number of calls is
``len(text)/W + matches``: the total work is linear in the text.

What changes against a plain ``finditer`` over the whole text:

* a match longer than W is not taken: it is skipped whole, and scanning
  resumes where the window's view of it ends (for a match longer than the
  window, what follows may be read as a match of its own; the claim
  patterns start only at a word's start, so a run's tail is never one);
  callers document W as the longest thing they read;
* lookaheads see at least :data:`LOOKAHEAD` characters past a match's end,
  lookbehinds :data:`LOOKBEHIND` characters before its start (enough for
  every pattern here);
* matches never overlap and are found left to right, as with ``finditer``.

A property test (tests/test_bounded_scan.py) checks that on texts whose
matches are short it finds exactly what ``finditer`` finds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

#: Characters before a window's first start that its regex call may look at.
LOOKBEHIND = 32
#: Characters after the longest match a window still holds, for lookaheads.
LOOKAHEAD = 64


@dataclass(frozen=True)
class Hit:
    """A match found in a window: ``match`` offsets are relative to the
    window, ``offset`` is where the window starts in the whole text."""

    match: re.Match[str]
    offset: int

    @property
    def start(self) -> int:
        return self.match.start() + self.offset

    @property
    def end(self) -> int:
        return self.match.end() + self.offset


def window_size(max_match: int) -> int:
    """The most characters one regex call of :func:`bounded_finditer` sees."""
    return 2 * max_match + LOOKBEHIND + LOOKAHEAD


def bounded_finditer(regex: re.Pattern[str], text: str, max_match: int) -> Iterator[Hit]:
    """The non-overlapping matches of ``regex`` in ``text`` that are at most
    ``max_match`` characters long, left to right (module docstring)."""
    if max_match < 1:
        raise ValueError("max_match must be positive")
    n = len(text)
    allowed = 0  # the earliest start the next match may have (after the last one)
    for k in range(0, n + 1, max_match):
        lo = max(0, k - LOOKBEHIND)
        window = text[lo : k + 2 * max_match + LOOKAHEAD]
        first_after = k + max_match  # starts from here on belong to the next window
        pos = max(k, allowed)
        while pos < first_after and pos <= n:
            m = regex.search(window, pos - lo)
            if m is None or m.start() + lo >= first_after:
                break
            if m.end() - m.start() > max_match:
                allowed = pos = m.end() + lo
                continue
            hit = Hit(m, lo)
            yield hit
            allowed = hit.end if hit.end > hit.start else hit.end + 1
            pos = allowed
