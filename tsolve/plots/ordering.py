"""The order of labels along a picture's axis or down a table: natural order.

Group labels come from report rows and are numbers (an answer-set size M, a
level), number-like text (``"10"`` after a JSON round trip) or names (a
direction, ``hard x static_time``, a vehicle ``t10``). Padding them to a fixed
width and comparing the text, as the figures once did, puts ``west`` before
``north`` (shorter first) and ``M=10`` before ``M=9``. The rule here:

1. numbers first, by value, whether stored as numbers or as text
   (``"2"`` before ``10``; ``-1`` before ``0``; ``1.5`` between 1 and 2);
2. then any other label, compared piece by piece: runs of digits by value,
   text without regard to case (``t2`` before ``t10``, ``east`` before
   ``North`` before ``west``); two labels equal so far are told apart by
   their exact text, so the order is total and never depends on input order;
3. ``"all"`` (the overall group) last.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_DIGITS = re.compile(r"(\d+)")


def natural_key(value: Any) -> tuple[Any, ...]:
    """The sort key of ``value`` under the module's rule."""
    text = str(value)
    if text == "all":
        return (2, (), text)
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        number: Decimal | None = _decimal(value)
    else:
        number = _decimal(text.strip()) if _NUMBER.fullmatch(text.strip()) else None
    if number is not None:
        return (0, number, text)
    # re.split with a group alternates text (even places) and digits (odd), so
    # two keys compare str with str and int with int at every place.
    pieces = _DIGITS.split(text)
    key = tuple(int(p) if k % 2 else p.casefold() for k, p in enumerate(pieces))
    return (1, key, text)


def _decimal(value: Any) -> Decimal | None:
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def ordered(values: Iterable[Any], first: Sequence[Any] = ()) -> list[Any]:
    """``values`` once each: those in ``first`` in its order, then the rest in
    natural order (:func:`natural_key`), ``"all"`` last."""
    seen = list(dict.fromkeys(values))
    head = [v for v in first if v in seen]
    rest = sorted((v for v in seen if v not in head), key=natural_key)
    return [*head, *rest]
