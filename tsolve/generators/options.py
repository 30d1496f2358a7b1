"""Generator options from command-line text or JSON: one parser per value type.

``tsolve dataset --set solutions=1-6``, a stress config file and a Python
caller all hand a family's options over as raw values (CLI strings or JSON
values). Each family declares, per option name, one of the parsers below;
each parser takes ``(value, name)`` and returns the typed value or raises a
one-line :class:`TsolveError` naming the option. This module sits at the
bottom of the package (generators use :func:`parse_int_list` and
:func:`cycled` too) and imports nothing but the error type.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from tsolve.errors import TsolveError

Parser = Callable[[Any, str], Any]
"""``parser(value, option_name) -> typed value``; raises ``TsolveError``."""


def parse_int(value: Any, name: str) -> int:
    """An integer from JSON or CLI text, with a one-line error naming the option."""
    if isinstance(value, bool):
        raise TsolveError(f"{name}: expected an integer, got {value!r}")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise TsolveError(f"{name}: expected an integer, got {value!r}") from None


#: Most values one integer-list option may expand to. Ranges are checked
#: against this (and against an option's own bounds) *before* they are
#: expanded, so ``1-1000000000`` is refused at once instead of filling memory.
MAX_LIST_ITEMS = 10_000

_LIST_PIECE = re.compile(r"\s*([+-]?\d+)\s*(?:-\s*([+-]?\d+)\s*)?")


def parse_int_list(
    value: Any,
    name: str,
    lo: int | None = None,
    hi: int | None = None,
    max_items: int = MAX_LIST_ITEMS,
) -> int | tuple[int, ...]:
    """``3`` -> 3; ``"1-6"`` -> (1, ..., 6); ``"1,3,5"`` or ``[1, 3, 5]`` -> a tuple;
    pieces combine (``"1-3,5"``). The one parser of such lists (``--solutions``
    in ``tsolve puzzle`` and ``tsolve dataset``).

    Time-puzzle datasets cycle a tuple of targets by index (record i targets
    ``solutions[i % len]``), which is how the paper's evenly spread M = 1..6
    sets are made. Every value must lie in ``lo..hi`` (when given) and the
    whole list may hold at most ``max_items`` values; both are checked on the
    range ends before anything is expanded.
    """
    pieces: list[tuple[int, int]] = []
    if isinstance(value, list | tuple):
        pieces = [(v, v) for v in (parse_int(x, name) for x in value)]
        if not pieces:
            raise TsolveError(f"{name}: expected at least one value")
    elif isinstance(value, int) and not isinstance(value, bool):
        pieces = [(value, value)]
    else:
        for piece in str(value).split(","):
            m = _LIST_PIECE.fullmatch(piece)
            if m is None:
                raise TsolveError(f"{name}: cannot read {value!r} (use e.g. 3, 1-6 or 1,3,5)")
            try:
                a = int(m.group(1))
                b = a if m.group(2) is None else int(m.group(2))
            except ValueError:  # more digits than int() accepts
                raise TsolveError(f"{name}: {piece.strip()[:40]!r} is far too large") from None
            if b < a:
                raise TsolveError(f"{name}: empty range {piece.strip()!r}")
            pieces.append((a, b))
    total = 0
    for a, b in pieces:
        if (lo is not None and a < lo) or (hi is not None and b > hi):
            bad = a if lo is not None and a < lo else b
            span = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
            raise TsolveError(f"{name}: {_short(bad)} is outside {span}")
        total += b - a + 1
        if total > max_items:
            raise TsolveError(f"{name}: {value!r:.60} expands to more than {max_items} values")
    out = tuple(v for a, b in pieces for v in range(a, b + 1))
    return out[0] if len(out) == 1 else out


def _short(n: int) -> str:
    """An integer for an error message, abbreviated when it is very long."""
    text = str(n) if abs(n) < 10**30 else f"{str(n)[:12]}... ({len(str(abs(n)))} digits)"
    return text


def parse_str_list(value: Any, name: str) -> tuple[str, ...]:
    """``"a,b"`` or ``["a", "b"]`` -> ("a", "b")."""
    if isinstance(value, list | tuple):
        items = [str(v).strip() for v in value]
    else:
        items = [s.strip() for s in str(value).split(",")]
    items = [s for s in items if s]
    if not items:
        raise TsolveError(f"{name}: expected at least one name")
    return tuple(items)


def cycled(values: int | tuple[int, ...], index: int) -> int:
    """``values[index % len(values)]`` for a tuple, the value itself otherwise:
    how a generator's ``solutions`` option spreads targets over a run."""
    seq = values if isinstance(values, tuple) else (values,)
    return seq[index % len(seq)]


def parse_bool(value: Any, name: str) -> bool:
    """``true``/``false`` (or 1/0, yes/no, on/off) from JSON or CLI text."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise TsolveError(f"{name}: expected true or false, got {value!r}")


def parse_text(value: Any, name: str) -> str:
    """Text (an integer is accepted and kept as its digits, as the CLI gives it)."""
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise TsolveError(f"{name}: expected text, got {value!r}")
    return str(value)


_DATE_FORM = re.compile(r"\s*\d{4}-\d{1,2}-\d{1,2}\s*")


def _iso_day(text: str, name: str, whole: Any) -> str:
    """One end of a window, read by the parser that reads one date
    (:func:`tsolve.calendars.domain.parse_iso`: ``2024-1-1`` is 2024-01-01
    in a window as it is in ``--date``)."""
    from tsolve.calendars.domain import parse_iso  # NumPy: only when a window is read

    if not _DATE_FORM.fullmatch(text):
        raise TsolveError(f"{name}: cannot read {whole!r:.60} (use YYYY-MM-DD..YYYY-MM-DD)")
    return parse_iso(text, name).isoformat()


def parse_date_range(value: Any, name: str) -> str:
    """A window of dates, ``"1960-01-01..2060-12-31"``, as canonical text.

    Also accepted: a ``[start, end]`` pair (JSON), and one date (``D`` means
    ``D..D``, a one-day window; Inspect's ``-T`` hands a date over as a date
    object). Both ends are included; an end before the start is an error,
    not an empty window. Whether the dates are ones the generator supports is
    the generator's check, not this parser's."""
    if isinstance(value, dt.date):  # datetime is a date too
        value = value.isoformat()[:10]
    if isinstance(value, list | tuple):
        if len(value) != 2:
            raise TsolveError(f"{name}: expected [start, end], got {value!r:.60}")
        ends = [v.isoformat()[:10] if isinstance(v, dt.date) else v for v in value]
        if not all(isinstance(v, str) for v in ends):
            raise TsolveError(f"{name}: expected two YYYY-MM-DD dates, got {value!r:.60}")
        text = f"{ends[0]}..{ends[1]}"
    elif isinstance(value, str):
        text = value
    else:
        raise TsolveError(f"{name}: expected YYYY-MM-DD..YYYY-MM-DD, got {value!r:.60}")
    start, sep, end = text.partition("..")
    lo = _iso_day(start, name, value)
    hi = _iso_day(end, name, value) if sep else lo
    if hi < lo:
        raise TsolveError(
            f"{name}: {lo}..{hi} ends before it starts (write the earlier date first)"
        )
    return f"{lo}..{hi}"


def optional(parser: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """JSON ``null`` (or CLI ``none``) means "the generator's default"."""

    def parse(value: Any, name: str) -> Any:
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null")):
            return None
        return parser(value, name)

    parse.__wrapped__ = parser  # type: ignore[attr-defined]  # what it reads (its type)
    return parse


def parse_json_value(value: Any, name: str) -> Any:
    """A value of a family that declares no parsers (a third-party family's
    ``params``): JSON values pass as they are; CLI text is read as JSON when it
    is JSON (``3``, ``true``, ``[1, 2]``) and kept as text otherwise."""
    import json

    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value
