"""The one JSON of tsolve: a strict reader (no NaN, no Infinity, no overflow)
and the one writer of every output, records and reports alike.

Its own module because every layer that reads or writes rows needs it (the
row readers of :mod:`tsolve.records.rows`, the typed columns of
:mod:`tsolve.records.columns`, the Hugging Face round trip), and none of them
may import another for it.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any


class NonFiniteNumber(ValueError):
    """A JSON number that is not finite: ``NaN``, ``Infinity`` (which Python's
    reader accepts but strict JSON does not have) or one that overflows a
    float (``1e400``). No output could carry it, so its row is a bad row."""


def _reject_constant(name: str) -> float:
    raise NonFiniteNumber(f"holds {name}")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 24 else text[:20] + "..."
        raise NonFiniteNumber(f"holds {shown}, which overflows to infinity")
    return value


_STRICT = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
"""The one JSON decoder of rows: strict about numbers (no NaN, no Infinity, no
overflow to infinity), as every writer is (:func:`dumps`)."""


def strict_loads(text: str | bytes) -> Any:
    """``json.loads`` that refuses non-finite numbers (:class:`NonFiniteNumber`)."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    return _STRICT.decode(text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(record: Any) -> str:
    """Canonical one-line JSON: stable key order as built, no NaN, UTF-8 text
    (:func:`json_text` with tsolve's record separators)."""
    return json_text(record, separators=(", ", ": "))


def json_text(
    obj: Any, indent: int | None = None, separators: tuple[str, str] | None = None
) -> str:
    """The one JSON writer of every output (records, reports, JSON Lines rows):
    strict JSON, so ``NaN`` and infinities raise ``ValueError`` rather than
    being written as tokens no strict parser reads (the readers turn such
    numbers away as bad rows, so only a bug can bring one here); UTF-8 text.

    A lone surrogate (``"\\ud800"``, which a model output may carry) cannot be
    encoded as UTF-8, so it is written as its JSON escape; the line still
    reads back to exactly the same string."""
    text = json.dumps(
        obj, ensure_ascii=False, allow_nan=False, indent=indent, separators=separators
    )
    return escape_surrogates(text)


def has_surrogate(text: str) -> bool:
    """Does ``text`` hold a lone surrogate (which UTF-8, and so Arrow, cannot store)?"""
    return not text.isascii() and _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    """``text`` with every lone surrogate written as a ``\\uXXXX`` escape.

    Only valid for JSON text, where such characters can occur only inside
    string literals (so the escape is read back as the same character)."""
    if text.isascii():
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
