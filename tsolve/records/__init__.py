"""Records in and out: the one reader of task records and predictions
(:mod:`.rows`), the one JSON (:mod:`.json_text`), typed columns for Parquet and
Hugging Face (:mod:`.columns`, :mod:`.hf`), field checks at the boundary
(:mod:`.validation`), text-or-file arguments (:mod:`.text_source`) and what
kind of file a batch command was given (:mod:`.row_shapes`).

The names below are the reader's and the writer's public ones, re-exported so
that ``from tsolve.records import dumps`` keeps working as it did when this
was one module.
"""

from typing import TYPE_CHECKING

from tsolve.compat.lazy import lazy_getattr

# The writer's names are bound here, eagerly: ``json_text`` names both a
# submodule and a function, and the function must win.
from tsolve.records.json_text import (
    NonFiniteNumber,
    dumps,
    escape_surrogates,
    has_surrogate,
    json_text,
    strict_loads,
)

if TYPE_CHECKING:
    from tsolve.records.rows import (
        MAX_DOCUMENT_BYTES,
        MAX_LINE_BYTES,
        BadRow,
        RawLine,
        RepeatedIds,
        Row,
        RowsAt,
        counted_rows,
        format_from_suffix,
        id_key,
        iter_json_rows,
        iter_raw_rows,
        iter_table_rows,
        loads_row,
        located_json_lines,
        located_rows_between,
        no_records,
        read_json_file,
        read_line,
        read_row,
    )

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_LINE_BYTES",
    "BadRow",
    "NonFiniteNumber",
    "RawLine",
    "RepeatedIds",
    "Row",
    "RowsAt",
    "counted_rows",
    "dumps",
    "escape_surrogates",
    "format_from_suffix",
    "has_surrogate",
    "id_key",
    "iter_json_rows",
    "iter_raw_rows",
    "iter_table_rows",
    "json_text",
    "loads_row",
    "located_json_lines",
    "located_rows_between",
    "no_records",
    "read_json_file",
    "read_line",
    "read_row",
    "strict_loads",
]


# The reader's names load with their module (rows.py) on first use (PEP 562):
# importing a sibling such as ``tsolve.records.validation`` runs this file,
# and the generator, which needs only the field checks, does not read rows.
# (``tsolve.records.rows`` itself stays reachable as an attribute, as it was.)
__getattr__ = lazy_getattr(
    __name__,
    {"rows": ("tsolve.records.rows", ""),
     **{n: ("tsolve.records.rows", n) for n in __all__ if n not in globals()}},
)  # fmt: skip
