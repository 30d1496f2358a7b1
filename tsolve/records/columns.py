"""Records as typed columns: the one table layout of tsolve's Parquet files and
Hugging Face ``datasets`` folders.

A record is a JSON object. Arrow (under both Parquet and ``datasets``) wants one
type per column, and left to infer it, it damages records: an ISO date string
comes back as a timestamp, and the facts of a puzzle, each with its own
``params`` keys, become one struct type in which every fact carries every other
fact's keys as ``None``. So tsolve chooses the type of each column itself, from
what the records hold, and keeps anything nested as JSON text:

==========  ==============================================  ====================
kind        when (every record has the field, and it is)    column
==========  ==============================================  ====================
``string``  a string (with no lone surrogate, which UTF-8     ``FIELD``: string
            cannot hold; JSON text escapes it)
``int``     an integer within 64 bits (not a boolean)       ``FIELD``: int64
``float``   a float                                         ``FIELD``: float64
``bool``    a boolean                                       ``FIELD``: bool
``strings`` a list of strings                               ``FIELD``: list of
                                                            string
``json``    anything else: objects, mixed lists, ``null``,  ``FIELD_json``:
            mixed types, or missing from some records       canonical JSON text
==========  ==============================================  ====================

A ``json`` column is named with the suffix ``_json`` so that anyone reading
the table sees it holds JSON text, and so that decoding needs no side
metadata: a ``FIELD_json`` column is read back with :func:`json.loads`, and a
null in it means that record lacks the field. A field whose own name ends in
``_json`` is always a ``json`` column (``x_json_json``), so the suffix is never
ambiguous. Dates stay the ISO strings tsolve writes (``string`` or
``strings``), never timestamps.

Round trip: ``decode_row(encode_row(r, cols)) == r`` for every record the
columns were profiled on, with the record's key order kept whenever the
records share one field order (always, for one family's records). The
property test in ``tests/test_hf.py`` holds this over every generating family.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records.json_text import NonFiniteNumber, dumps, has_surrogate, strict_loads
from tsolve.records.validation import bad, plain

JSON_SUFFIX = "_json"
#: Parquet schema metadata that marks a file written in this layout.
LAYOUT_KEY = b"tsolve.records.columns"
_INT64 = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class Column:
    """One top-level field of the records, and how its column holds it."""

    field: str
    kind: str

    @property
    def name(self) -> str:
        """The column's name in the table (``FIELD`` or ``FIELD_json``)."""
        return self.field + JSON_SUFFIX if self.kind == "json" else self.field


def kind_of(value: Any) -> str:
    """The column kind a single value would need (see the module table)."""
    if isinstance(value, str):
        return "json" if has_surrogate(value) else "string"  # JSON text escapes it
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if _INT64[0] <= value <= _INT64[1] else "json"
    if isinstance(value, float):
        if not math.isfinite(value):  # Arrow holds it, but no JSON writer can
            raise bad("value", "a finite number (JSON has no NaN or infinity)", value)
        return "float"
    if isinstance(value, list) and all(isinstance(v, str) and not has_surrogate(v) for v in value):
        return "strings"
    return "json"


class ColumnProfile:
    """What each top-level field held across a stream of records, so that the
    columns can be chosen after one pass without keeping the records."""

    def __init__(self) -> None:
        self.kinds: dict[str, str] = {}  # field -> kind so far, in first-seen order
        self.records = 0

    def add(self, record: Mapping[str, Any]) -> None:
        for name in self.kinds:
            if name not in record:
                self.kinds[name] = "json"  # missing here: a null marks it, only json has one
        for name, value in record.items():
            try:
                kind = "json" if name.endswith(JSON_SUFFIX) else kind_of(value)
            except TsolveError as exc:
                raise _in_record(record, name, exc) from None
            if name not in self.kinds:
                self.kinds[name] = kind if self.records == 0 else "json"  # missing before
            elif self.kinds[name] != kind:
                self.kinds[name] = "json"
        self.records += 1

    def columns(self) -> list[Column]:
        return [Column(name, kind) for name, kind in self.kinds.items()]


def layout(records: Iterable[Mapping[str, Any]]) -> list[Column]:
    """The columns for ``records`` (see the module docstring)."""
    profile = ColumnProfile()
    for rec in records:
        profile.add(rec)
    return profile.columns()


def encode_row(record: Mapping[str, Any], columns: list[Column]) -> dict[str, Any]:
    """``record`` as a table row: column name -> value."""
    row: dict[str, Any] = {}
    for col in columns:
        if col.kind == "json":
            try:
                row[col.name] = dumps(record[col.field]) if col.field in record else None
            except ValueError:  # the strict writer refuses NaN and infinities
                raise _in_record(
                    record, col.field, TsolveError("holds NaN or an infinite number, not JSON")
                ) from None
        else:
            row[col.name] = record[col.field]
    return row


def _in_record(record: Mapping[str, Any], field: str, exc: TsolveError) -> TsolveError:
    """``exc`` about one field, said of the record that holds it (one line)."""
    why = str(exc).removeprefix("value: ")
    return TsolveError(f"record {record.get('id')!r}: {field}: {why}")


def decode_row(
    row: Mapping[str, Any],
    foreign: bool = False,
    nulls: frozenset[tuple[str, ...]] = frozenset(),
) -> dict[str, Any]:
    """A table row back as the record: ``FIELD_json`` columns are parsed (a
    null means the record lacks the field); every other column is taken as it
    is. Raises ``ValueError`` with a one-line reason when a JSON cell is not
    strict JSON (a table that was edited by hand) or a float cell is NaN or
    infinite (a row no JSON output could carry: a bad row for the readers).

    ``foreign`` rows come from a table tsolve did not write (Arrow chose the
    types): a timestamp at midnight is the ISO date it was read from
    (:func:`tsolve.records.validation.plain`), and a ``None`` inside an object is
    taken for a key Arrow added to unify the rows' structs
    (:func:`unfilled`), except at the ``nulls`` paths (:func:`null_paths`),
    where the records themselves held null."""
    record: dict[str, Any] = {}
    for name, value in row.items():
        if not name.endswith(JSON_SUFFIX):
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"column {name!r} holds {value}, which JSON cannot hold")
            record[name] = plain(unfilled(value, nulls, (name,))) if foreign else value
        elif value is not None:
            if not isinstance(value, str):
                raise ValueError(f"column {name!r} should hold JSON text, got {kind_of(value)}")
            try:
                record[name[: -len(JSON_SUFFIX)]] = strict_loads(value)
            except NonFiniteNumber as exc:
                raise ValueError(f"column {name!r}: {exc}, which JSON cannot hold") from None
            except (json.JSONDecodeError, RecursionError):
                raise ValueError(f"column {name!r} does not hold valid JSON text") from None
    return record


def unfilled(
    value: Any, nulls: frozenset[tuple[str, ...]] = frozenset(), path: tuple[str, ...] = ()
) -> Any:
    """``value`` without the ``None`` entries of its objects, at any depth,
    but for the keys at ``nulls`` paths (``path`` is where ``value`` sits).

    Arrow gives every row of a column one struct type, so each object gets the
    keys of every other row's object, as ``None`` (a time-puzzle fact's
    ``params`` gets every other fact kind's). Such a ``None`` cannot be told
    from a ``null`` the record held, except where Arrow typed the key
    ``null``: then no row held anything else there, and the key was the
    records' own (``generator.params.facts: null``), so it is kept. tsolve's
    readers treat a missing key and a ``null`` alike, so a ``null`` dropped
    elsewhere loses nothing they read, though the bytes differ; tables that
    tsolve writes hold nested values as JSON text and keep every null."""
    if isinstance(value, dict):
        return {
            k: unfilled(v, nulls, (*path, k))
            for k, v in value.items()
            if v is not None or (*path, k) in nulls
        }
    if isinstance(value, list):
        return [unfilled(v, nulls, path) for v in value]
    return value


def null_paths(schema: Any) -> frozenset[tuple[str, ...]]:
    """The paths (top-level field, then object keys; list levels skipped)
    whose Arrow type in ``schema`` is ``null``: where every row that has the
    key holds ``null``, so a ``None`` there is the records' own."""
    import pyarrow as pa

    out: set[tuple[str, ...]] = set()

    def walk(t: Any, path: tuple[str, ...]) -> None:
        if pa.types.is_null(t):
            out.add(path)
        elif pa.types.is_struct(t):
            for f in t:
                walk(f.type, (*path, f.name))
        elif pa.types.is_list(t) or pa.types.is_large_list(t):
            walk(t.value_type, path)

    for f in schema:
        walk(f.type, (f.name,))
    return frozenset(out)


def arrow_type(kind: str) -> Any:
    """The pyarrow type of a column kind (pyarrow is imported here, on use)."""
    import pyarrow as pa

    return {
        "string": pa.string(),
        "int": pa.int64(),
        "float": pa.float64(),
        "bool": pa.bool_(),
        "strings": pa.list_(pa.string()),
        "json": pa.string(),
    }[kind]


def arrow_schema(columns: list[Column], metadata: Mapping[bytes, bytes] | None = None) -> Any:
    import pyarrow as pa

    fields = [pa.field(c.name, arrow_type(c.kind), nullable=c.kind == "json") for c in columns]
    return pa.schema(fields, metadata=dict(metadata or {}))


def arrow_batch(records: Sequence[Mapping[str, Any]], columns: list[Column], schema: Any) -> Any:
    """``records`` as one pyarrow ``RecordBatch`` of ``schema`` (made by
    :func:`arrow_schema` from the same ``columns``)."""
    import pyarrow as pa

    rows = [encode_row(r, columns) for r in records]
    arrays = [pa.array([row[c.name] for row in rows], type=arrow_type(c.kind)) for c in columns]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)
