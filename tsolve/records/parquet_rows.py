"""Reading a Parquet file of records back, row by row.

Kept apart from :mod:`tsolve.records.columns` (the column layout both ways)
because a Hub table's derived columns (:mod:`tsolve.records.hub_columns`)
are checked and dropped here, and ``hub_columns`` itself builds on the
column layout: one module holding both would import in a circle.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records.columns import JSON_SUFFIX, LAYOUT_KEY, decode_row, null_paths
from tsolve.records.hub_columns import (
    inferred_marks,
    marks_of,
    parquet_ids,
    restore,
    text_columns,
)


def iter_parquet_rows(path: Path) -> Iterator[dict[str, Any] | Exception]:
    """The records of a Parquet file, decoded (:func:`decode_row`), or the
    exception that says why a row could not be. A file in the layout tsolve
    wrote before this one (an ``index`` column, every value as text, no
    marker) cannot be read back exactly, and is refused with what to do."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise TsolveError(
            "file: reading Parquet needs pyarrow (pip install 'tsolve[parquet]')"
        ) from None
    try:
        pf = pq.ParquetFile(str(path))
    except Exception as exc:  # pyarrow raises several kinds for a damaged file
        raise TsolveError(f"file: cannot read Parquet file {path.name} ({exc})") from None
    schema = pf.schema_arrow
    if _old_layout(schema):
        raise TsolveError(
            f"file: {path.name} is in the Parquet layout of an older tsolve (every value as "
            "text), which cannot be read back exactly; rewrite it with tsolve dataset "
            "--format parquet"
        )
    foreign = LAYOUT_KEY not in (schema.metadata or {})
    nulls = null_paths(schema) if foreign else frozenset()
    decoders = {f.name: _json_decoder(f.type) for f in schema} if foreign else {}
    ids = parquet_ids(schema.metadata)  # a Hub file's derived columns
    marks = marks_of(ids)
    if foreign and not ids:  # no metadata at all (a pandas copy): the column set says
        marks = inferred_marks(schema.names, text_columns(schema))
    index = _pandas_index(schema.metadata) if foreign else ()
    for batch in pf.iter_batches(batch_size=1000):
        for row in batch.to_pylist():
            for name in index:
                row.pop(name, None)
            try:
                for name, decode in decoders.items():
                    if decode is not None and name in row:
                        row[name] = decode(row[name])
                yield restore(decode_row(row, foreign, nulls), marks)
            except ValueError as exc:  # TsolveError is one too
                yield exc


def _pandas_index(metadata: Any) -> tuple[str, ...]:
    """The columns pandas added for a DataFrame's index (``__index_level_0__``
    after a filtered frame's ``to_parquet``), as its own ``pandas`` metadata
    names them: no record field, so not read as one."""
    raw = (metadata or {}).get(b"pandas")
    try:
        names = json.loads(raw)["index_columns"] if raw else []
    except (ValueError, KeyError, TypeError):
        return ()
    return tuple(n for n in names if isinstance(n, str)) if isinstance(names, list) else ()


def _json_decoder(arrow_type: Any) -> Any:
    """For a value of ``arrow_type``, a function that parses the JSON text
    held in its ``arrow.json`` extension parts (``datasets``' ``Json``
    feature, which pyarrow returns as text), or None when it has none."""
    import pyarrow as pa

    if getattr(arrow_type, "extension_name", None) == "arrow.json":
        return lambda v: None if v is None else json.loads(v)
    if pa.types.is_struct(arrow_type):
        parts = {f.name: _json_decoder(f.type) for f in arrow_type}
        parts = {k: d for k, d in parts.items() if d is not None}
        if not parts:
            return None
        return lambda v: (
            v if v is None else {k: (parts[k](x) if k in parts else x) for k, x in v.items()}
        )
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        item = _json_decoder(arrow_type.value_type)
        if item is None:
            return None
        return lambda v: v if v is None else [item(x) for x in v]
    return None


def _old_layout(schema: Any) -> bool:
    import pyarrow as pa

    meta = schema.metadata or {}
    names = schema.names
    return (
        LAYOUT_KEY not in meta
        and "index" in names
        and pa.types.is_int64(schema.field("index").type)
        and all(pa.types.is_string(f.type) for f in schema if f.name != "index")
        and not any(n.endswith(JSON_SUFFIX) for n in names)
    )
