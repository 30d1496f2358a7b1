"""Checking the fields of records at the boundary, with one error model.

Records arrive from files that anyone can edit, and from JSON tools that
change types on the way (a date read back as a timestamp, params filled with
``null``). Everything past the boundary assumes well-typed, bounded values, so
each family's reader checks its fields with these helpers first. A failed
check raises :class:`~tsolve.errors.TsolveError` naming the field (a dotted
path), the value and what was expected, e.g.::

    scenario.events[3].duration: expected an integer in 0..1000000, got 1e+308

Bounds matter as much as types: a domain end of ``10**12`` is an integer, but
it would make the calendar tables allocate terabytes.
"""

from __future__ import annotations

import datetime as _dt
import difflib
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from tsolve.errors import TsolveError


def shown(value: Any, limit: int = 60) -> str:
    """A short, one-line ``repr`` of a user value for an error message."""
    if isinstance(value, float):
        text = f"{value:g}"
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        text = (
            f"an integer of {len(str(abs(value))) if abs(value) < 10**4000 else 'over 4000'} digits"
        )
    else:
        try:
            text = repr(value)
        except (RecursionError, ValueError):
            text = f"a {type(value).__name__}"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def with_article(kind: str) -> str:
    """``kind`` (a type name) after its indefinite article, as an error names
    what it got: ``an integer``, ``a string``; ``null`` and ``None`` stand alone."""
    if kind in ("null", "None", "NoneType"):
        return "null" if kind == "null" else "None"
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


def bad(field: str, expected: str, value: Any) -> TsolveError:
    """The one error model: ``field: expected <what>, got <value>``."""
    return TsolveError(f"{field}: expected {expected}, got {shown(value)}")


def missing_field(row: Mapping[Any, Any], key: str, aliases: Iterable[str] = ()) -> str | None:
    """Why ``row`` has no ``key`` field, naming the field it most likely has
    instead, or None when it has one.

    A misnamed field (``answerz``, ``answer`` for ``answers``) must not read as
    an absent one: a reader that falls back on a default, or skips an
    unlabelled row, would then score silently wrong. The stand-in is the
    first of ``aliases`` the row has, else its key closest in spelling to
    ``key`` (case aside), e.g. ``no 'answers' field; found 'answerz' (rename
    it to 'answers')``."""
    if key in row:
        return None
    alias = next((k for k in aliases if k in row), None)
    if alias is None:
        alias = _closest(key, [k for k in row if isinstance(k, str)])
    return _no_field(key, alias)


def _no_field(key: str, alias: str | None) -> str:
    found = f"; found {alias!r} (rename it to {key!r})" if alias is not None else ""
    return f"no {key!r} field{found}"


def _closest(key: str, names: list[str]) -> str | None:
    """The name of ``names`` spelled most like ``key`` (case aside), if close."""
    lowered = {k.lower(): k for k in reversed(names)}
    close = difflib.get_close_matches(key.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else None


def refuse_misnamed(
    row: Mapping[Any, Any], optional: Iterable[str], where: str = "", known: Collection[str] = ()
) -> None:
    """Raise when ``row`` lacks one of its ``optional`` fields but has a key
    spelled like it (``domian``, ``scpoe``) that is no field a reader knows
    (neither in ``optional`` nor in ``known``): an optional field has a
    default, so a misnamed one would be read as absent, silently. The error
    is :func:`missing_field`'s, prefixed with ``where``."""
    fields = tuple(optional)
    others = [k for k in row if isinstance(k, str) and k not in fields and k not in known]
    for key in fields:
        if key in row:
            continue
        alias = _closest(key, others)
        if alias is not None:
            why = _no_field(key, alias)
            raise TsolveError(f"{where}: {why}" if where else why)


def expect_field(row: Mapping[Any, Any], key: str, where: str = "") -> Any:
    """``row[key]``, or the one-line error of :func:`missing_field` (prefixed
    with ``where``, e.g. ``record 'x'``): the one check of a required field,
    shared by every family's record reader."""
    why = missing_field(row, key)
    if why is not None:
        raise TsolveError(f"{where}: {why}" if where else why)
    return row[key]


def expect_dict(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(field, "an object", value)
    return value


def expect_list(value: Any, field: str, max_len: int = 100_000, min_len: int = 0) -> list[Any]:
    if not isinstance(value, list):
        raise bad(field, "a list", value)
    if not min_len <= len(value) <= max_len:
        raise bad(field, f"a list of {min_len}..{max_len} items", f"{len(value)} items")
    return value


def expect_str(value: Any, field: str, max_len: int = 100_000) -> str:
    if not isinstance(value, str):
        raise bad(field, "a string", value)
    if len(value) > max_len:
        raise bad(field, f"a string of at most {max_len} characters", f"{len(value)} characters")
    return value


def expect_int(value: Any, field: str, lo: int, hi: int) -> int:
    """A JSON integer in ``lo..hi``. Booleans and floats are refused: ``1e308``
    and ``true`` are not durations."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise bad(field, f"an integer in {lo}..{hi}", value)
    return value


def expect_choice(value: Any, field: str, choices: Collection[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise bad(field, "one of " + ", ".join(sorted(choices)), value)
    return value


def plain(value: Any) -> Any:
    """See :func:`_plain`; a value nested too deeply to walk is a user error."""
    try:
        return _plain(value)
    except RecursionError:
        raise TsolveError("record: a value is nested too deeply to read") from None


def _plain(value: Any) -> Any:
    """``value`` with dates written as ISO strings, through lists and dicts.

    Arrow-based tools (Hugging Face ``datasets``, ``pyarrow.json``) read an
    ISO date string back as a timestamp; a record that went through them holds
    ``datetime`` objects where tsolve wrote ``"1989-03-24"``. A timestamp at
    midnight is that date; any other time of day is left alone (and then
    refused by the field's check, since tsolve never writes one)."""
    if isinstance(value, _dt.datetime):
        if value.time() == _dt.time(0) and value.tzinfo in (None, _dt.timezone.utc):
            return value.date().isoformat()
        return value
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def expect_iso_date(value: Any, field: str) -> str:
    """A real ``YYYY-MM-DD`` date (``2024-02-30`` is refused), returned as an
    ISO string (a ``datetime`` at midnight, as Arrow tools return a date, is
    accepted: see :func:`plain`)."""
    if isinstance(value, _dt.date):
        value = plain(value)
    if not isinstance(value, str) or len(value) != 10:
        raise bad(field, "a date in YYYY-MM-DD form", value)
    try:
        _dt.date.fromisoformat(value)
    except ValueError:
        raise bad(field, "a real date in YYYY-MM-DD form", value) from None
    return value


def expect_iso_dates(values: list[Any], field: str) -> list[str]:
    """``[expect_iso_date(v, f"{field}[k]") ...]`` over ``values``.

    A record's gold dates are checked for every prediction scored against it,
    so the common case (every value an ISO string) is checked without
    building a field name per value; any other value takes
    :func:`expect_iso_date`, which converts it or names it in the error."""
    try:
        for value in values:  # str, or a subclass, as expect_iso_date accepts
            if len(value) != 10 or not isinstance(value, str):
                raise ValueError
            _dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        return [expect_iso_date(v, f"{field}[{k}]") for k, v in enumerate(values)]
    return list(values)


def expect_date_tuples(value: Any, field: str, width: int) -> list[list[str]]:
    """A list of answers, each a list of exactly ``width`` ISO dates (one per
    event of a relational puzzle). Checked before any answer is unpacked, so
    that a tuple with one date too many, or a date ``"202"``, is this one-line
    error rather than a crash wherever the dates are zipped with the events."""
    rows = expect_list(value, field)
    return [
        expect_iso_dates(expect_list(row, f"{field}[{k}]", width, width), f"{field}[{k}]")
        for k, row in enumerate(rows)
    ]


def optional(value: Any, check: Any, *args: Any) -> Any:
    """``check(value, *args)`` unless ``value`` is None."""
    return None if value is None else check(value, *args)
