"""12-hour clock times ("09:15 PM") to minutes of the day and back.

The benchmark writes every time as ``HH:MM AM|PM`` and lets the plan run past
midnight without saying so, so a clock time alone names a minute of the day,
not a point on the timeline. Placing it on the absolute axis is the caller's
job (:func:`unwrap` does it for a running sequence).
"""

from __future__ import annotations

import re

from tsolve.errors import TsolveError

DAY = 1440

# Tolerant of missing spaces ("09:51AM", "from09:51 AM") and case; the minutes
# must be two digits so "3 hours" is never taken for a time.
CLOCK_RE = re.compile(r"(\d{1,2})\s*:\s*(\d{2})\s*([AaPp])\.?\s*[Mm]\.?")


def clock_from_match(m: re.Match[str]) -> int:
    """Minute of day of a :data:`CLOCK_RE` match."""
    hour, minute, half = int(m.group(1)), int(m.group(2)), m.group(3).lower()
    if not 1 <= hour <= 12 or minute > 59:
        raise TsolveError(f"time: not a 12-hour clock time: {m.group(0)!r}")
    return (hour % 12) * 60 + minute + (720 if half == "p" else 0)


def clock_minute(hour: str, minute: str, half: str) -> int:
    """Minute of day of a clock time already cut into its digits and half
    (``"p"``/``"a"``, any case), as the parser's word readers find them."""
    h, m = int(hour), int(minute)
    if not 1 <= h <= 12 or m > 59:
        raise TsolveError(f"time: not a 12-hour clock time: {hour}:{minute} {half}m")
    return (h % 12) * 60 + m + (720 if half.lower() == "p" else 0)


def parse_clock(text: str) -> int:
    """``"12:05 AM"`` -> 5, ``"01:30 PM"`` -> 810. One line error otherwise."""
    m = CLOCK_RE.fullmatch(text.strip())
    if not m:
        raise TsolveError(f"time: not a 12-hour clock time: {text!r}")
    return clock_from_match(m)


def format_clock(minute: int) -> str:
    """Absolute minute -> ``HH:MM AM|PM`` (the day is dropped, as in the benchmark)."""
    m = minute % DAY
    hour, mins = divmod(m, 60)
    half = "AM" if hour < 12 else "PM"
    return f"{(hour % 12) or 12:02d}:{mins:02d} {half}"


def unwrap(clock: int, not_before: int) -> int:
    """The first absolute minute at or after ``not_before`` showing ``clock``."""
    return not_before + (clock - not_before) % DAY
