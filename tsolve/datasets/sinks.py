"""Where a run's chunks go: JSON Lines, a Parquet file, or a Hugging Face
``datasets`` folder.

Lines are :func:`tsolve.records.dumps` (canonical one-line JSON). Parquet
(``--format parquet``, needs ``pyarrow``: ``pip install 'tsolve[parquet]'``)
and ``datasets`` folders (``--format hf``, ``pip install 'tsolve[hf]'``) hold
the same records as rows, in the one column layout of :mod:`tsolve.records.columns`:
a typed column per top-level field, nested values as JSON text in
``FIELD_json`` columns, read back exactly by every command that reads
records. Choosing a column's type needs every record, so these two sinks
spool the run's lines to a temporary file beside the output (memory stays
flat) and write the table when the run ends, however it ends: an interrupted
run leaves a whole table of the records written so far. They cannot be
resumed (``--resume`` is refused); shards are tables of their index range,
which ``pyarrow.concat_tables`` or ``datasets.concatenate_datasets`` join.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from tsolve.datasets.chunks import Chunk
from tsolve.errors import TsolveError
from tsolve.records import format_from_suffix
from tsolve.records.columns import LAYOUT_KEY, Column, ColumnProfile, arrow_batch, arrow_schema
from tsolve.records.folders import MARKER, FolderKind, FolderWrite

FORMATS = ("jsonl", "parquet", "hf")
#: Parquet row-group size (and Arrow batch size). Fixed, so output bytes are too.
PARQUET_BATCH = 1000
#: The version written under tsolve.records.columns.LAYOUT_KEY in a Parquet file's metadata.
LAYOUT_VERSION = b"1"


def infer_format(out: str, fmt: str | None) -> str:
    """``fmt`` checked, or (when None) the format ``out``'s suffix names
    (jsonl without one; an unknown suffix is an error)."""
    if fmt is None:
        return format_from_suffix(out, {f".{f}": f for f in FORMATS}, "jsonl")
    if fmt == "hub":  # a folder of splits and a card, not one sink
        raise TsolveError(
            "format: hub is written by tsolve.datasets.hub.write_hub (tsolve dataset "
            "--format hub), not by write_dataset"
        )
    if fmt not in FORMATS:
        raise TsolveError(f"format: expected one of {', '.join(FORMATS)} or hub, got {fmt!r}")
    return fmt


class JsonlSink:
    """Writes each chunk's lines; ``newline`` is the file's line ending (CRLF
    when resuming a file that uses it: lines never end in a raw newline
    otherwise, as :func:`tsolve.records.dumps` escapes them)."""

    def __init__(self, fh: IO[bytes], newline: bytes = b"\n") -> None:
        self.fh = fh
        self.newline = newline

    def write(self, chunk: Chunk) -> int:
        blob = chunk.blob if self.newline == b"\n" else chunk.blob.replace(b"\n", self.newline)
        self.fh.write(blob)
        return len(blob)

    def close(self) -> None:
        self.fh.flush()


class TableSink:
    """Spools the run's lines to a temporary folder beside ``path`` while
    profiling their columns; :meth:`close` writes the table (``_finish``) and
    removes the spool. Subclasses say what the table is."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.profile = ColumnProfile()
        try:
            self.tmp = self._scratch()
            self.spool_path = self.tmp / "records.jsonl"
            self.spool: IO[bytes] = self.spool_path.open("wb")
        except OSError as exc:
            raise TsolveError(f"out: cannot write beside {str(path)!r} ({exc.strerror})") from None

    def _scratch(self) -> Path:
        """A fresh temporary folder beside ``path`` (removed by :meth:`close`)."""
        return Path(tempfile.mkdtemp(prefix=f".{self.path.name}.", dir=self.path.parent))

    def write(self, chunk: Chunk) -> int:
        self.spool.write(chunk.blob)
        for line in chunk.blob.split(b"\n")[:-1]:  # dumps escapes newlines
            self._seen(json.loads(line))
        return len(chunk.blob)

    def _seen(self, record: dict[str, Any]) -> None:
        """Profile one spooled record (its columns)."""
        self.profile.add(record)

    def _batches(
        self,
        columns: list[Column],
        schema: Any,
        row: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> Iterator[Any]:
        """The spooled records as Arrow record batches of ``PARQUET_BATCH``
        rows, each made a table row by ``row`` when given."""
        rows: list[dict[str, Any]] = []
        written = 0
        with self.spool_path.open("rb") as fh:
            for line in fh:
                rec = json.loads(line)
                rows.append(row(rec) if row is not None else rec)
                if len(rows) == PARQUET_BATCH:
                    yield arrow_batch(rows, columns, schema)
                    written, rows = written + len(rows), []
        if rows or not written:  # no records: one empty batch, as datasets needs a chunk
            yield arrow_batch(rows, columns, schema)

    def close(self) -> None:
        try:
            self.spool.close()
            # A run with no records still gets a Parquet table that opens
            # (every record has an ``id``; a table needs a column).
            self._finish(self.profile.columns() or [Column("id", "string")])
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _finish(self, columns: list[Column]) -> None:
        raise NotImplementedError


def require_pyarrow(fmt: str = "parquet") -> Any:
    """pyarrow, or the one-line error naming the extra that brings it for ``fmt``."""
    try:
        import pyarrow
    except ImportError:
        raise TsolveError(f"format: {fmt} needs pyarrow (pip install 'tsolve[{fmt}]')") from None
    return pyarrow


class ParquetSink(TableSink):
    """A Parquet file in row groups of ``PARQUET_BATCH``, its schema marked
    with ``LAYOUT_KEY`` so readers know the layout; written to a temporary
    name and moved into place, so ``path`` is never a half-written file."""

    def __init__(self, path: Path) -> None:
        require_pyarrow()
        super().__init__(path)

    def _finish(self, columns: list[Column]) -> None:
        import pyarrow.parquet as pq

        schema = arrow_schema(columns, {LAYOUT_KEY: LAYOUT_VERSION})
        part = self.tmp / "out.parquet"
        with pq.ParquetWriter(str(part), schema) as writer:
            for batch in self._batches(columns, schema):
                writer.write_batch(batch, row_group_size=PARQUET_BATCH)
        os.replace(part, self.path)


#: What ``--format hf`` writes (``save_to_disk``), for :mod:`tsolve.records.folders`;
#: ``cache-*.arrow`` are the files ``datasets`` adds beside a loaded folder's data.
#: No ``legacy`` rule: a ``datasets`` folder without tsolve's marker may be the
#: user's own ``save_to_disk`` (even of tsolve records), and is never replaced.
HF_FOLDER = FolderKind(
    "--format hf",
    members=("data-*.arrow", "dataset_info.json", "state.json", "cache-*.arrow"),
    foreign=f"exists and was not written by tsolve (it has no {MARKER}; a datasets folder "
    "of your own is never replaced)",
    hint="give a new or empty folder for --format hf",
)


class HfSink(TableSink):
    """A ``datasets.save_to_disk`` folder at ``path``, with the explicit
    features of :func:`tsolve.records.hf.features`. The records go to an Arrow file in
    the spool folder, which ``datasets`` memory-maps and saves; the finished
    folder then replaces ``path`` (:class:`tsolve.records.folders.FolderWrite`:
    ``path`` may be missing, an empty folder or a folder tsolve wrote, never a
    link, the working folder or anything else; checked before any record is
    made)."""

    def __init__(self, path: Path) -> None:
        from tsolve.records.hf import require_datasets

        require_datasets()  # first: it names the hf extra, which brings pyarrow too
        require_pyarrow("hf")
        from tsolve.records.hub_columns import PlanProfile

        self.target = FolderWrite(path, HF_FOLDER)
        self.plan = PlanProfile()
        try:
            super().__init__(path)
        except BaseException:
            self.target.discard()
            raise

    def _scratch(self) -> Path:
        return self.target.scratch

    def _seen(self, record: dict[str, Any]) -> None:
        super()._seen(record)
        self.plan.add(record)

    def _finish(self, columns: list[Column]) -> None:
        import pyarrow as pa

        from tsolve.records.hf import fingerprint_of, save_table

        if self.profile.records == 0:
            raise TsolveError(
                f"out: no records to write to {str(self.path)!r}; datasets cannot open an empty "
                "saved folder, so none was written"
            )
        plan = self.plan.plan()  # the derived question and answer columns
        table_columns = plan.columns(columns)
        schema = arrow_schema(table_columns)
        arrow_file = self.tmp / "records.arrow"
        with pa.OSFile(str(arrow_file), "wb") as sink, pa.ipc.new_stream(sink, schema) as w:
            for batch in self._batches(table_columns, schema, plan.row):
                w.write_batch(batch)
        save_table(
            arrow_file, table_columns, self.target.folder, fingerprint_of(self.spool_path),
            plan.ids(columns),
        )  # fmt: skip
        self.target.commit()
