"""bounded_finditer finds what finditer finds (matches no longer than the
bound), and no regex call it makes sees more than its window."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tsolve.bounded_scan import bounded_finditer, window_size

PATTERNS = [
    r"a[bc]{0,3}d",
    r"(?<!\w)\d+ days?(?!\w)",
    r"x*",  # empty matches
    r"(?<=b)c+",
    r"\s*Action\s*:",
]


@pytest.mark.parametrize("pattern", PATTERNS)
@given(text=st.text(alphabet="abcdx1 \nActiony:s", max_size=300), bound=st.integers(1, 40))
def test_same_matches_as_finditer(pattern: str, text: str, bound: int) -> None:
    regex = re.compile(pattern)
    full = [(m.start(), m.end()) for m in regex.finditer(text)]
    assume(all(e - s <= bound for s, e in full))
    got = [(h.start, h.end) for h in bounded_finditer(regex, text, bound)]
    assert got == full


class _Spy:
    """A pattern that records the length of every string it is handed."""

    def __init__(self, pattern: str) -> None:
        self.regex = re.compile(pattern)
        self.lengths: list[int] = []

    def search(self, s: str, pos: int = 0) -> re.Match[str] | None:
        self.lengths.append(len(s))
        return self.regex.search(s, pos)


def test_every_call_sees_a_bounded_window_and_calls_grow_linearly() -> None:
    calls = []
    for n in (10_000, 20_000):
        spy = _Spy(r"\d+\s+days")
        assert list(bounded_finditer(spy, "1" * n, 50)) == []  # type: ignore[arg-type]
        assert max(spy.lengths) <= window_size(50)
        calls.append(len(spy.lengths))
    assert calls[1] <= 2 * calls[0] + 1


def test_long_matches_are_skipped_not_truncated() -> None:
    regex = re.compile(r"a+")
    got = [(h.start, h.end) for h in bounded_finditer(regex, "aaaaaaaa b aa", 3)]
    assert got == [(11, 13)]  # the long run is skipped whole, never cut to fit
