"""``tsolve verify`` on an engine (``--engine ray``): the predictions scored in
chunks by worker processes, the report the same, byte for byte, as the
in-process run's (:func:`tsolve.verifiers.verify_batch.verify`).

Three steps:

1. **Index the records.** The records file (JSON Lines, at a path every
   worker can read) is cut into blocks at line ends; workers read a block
   each and return each row's byte offset and id, or why the row is bad. The
   parent keeps only the ids, in file order, and the first offset of each id,
   the index :class:`~tsolve.verifiers.record_lookup.RecordLookup` would
   build, and ships that index to every worker once.
2. **Score in chunks.** Chunks of raw prediction lines go to the workers
   (the parent never decodes them). A worker decodes each line, reads its
   record by offset, scores it (the same ``_Judge`` as the in-process run)
   and runs each family's batch diagnosis over its chunk's waiting items.
3. **Replay in order.** The parent takes the chunks back in prediction order
   and passes every row through the same checks (``_Gate``: repeats, unknown
   ids, a missing ``output``), the same holding back of items for their
   diagnosis (``_HeldItems``, whose diagnosis is now only read back) and the
   same report, fed by a lookup over the indexed ids, which reports the
   records' bad rows at the moments the in-process run meets them. So the
   errors, their order, the items and the sums are those of the in-process
   run, in every ``--format``.

Why the records are read from a shared path rather than put in the object
store: the workers need only the records their predictions name, found by
offset; a path costs nothing to ship, while a million time-puzzle records
(3 GB of JSON) would be copied into every node's object store. On one
machine the path is simply there; on a cluster it must be a shared file
system (NFS, a mounted bucket) at the same path on every node, which each
worker checks (the file's size) before scoring.

The one way the outputs could differ: a family's batch diagnoser that
*crashes* drops its whole batch (reported as an internal error), and the
batches here are a chunk's items, not the in-process run's.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from tsolve.contract.item import ItemScore
from tsolve.engines.base import Engine
from tsolve.engines.gc_tuning import BatchGC
from tsolve.errors import TsolveError
from tsolve.records import (
    BadRow,
    RawLine,
    Row,
    RowsAt,
    id_key,
    iter_raw_rows,
    located_json_lines,
    located_rows_between,
    read_line,
    read_row,
)
from tsolve.verifiers.record_lookup import RecordLookup
from tsolve.verifiers.verify_batch import (
    MISSING_POLICIES,
    ErrorListener,
    ItemListener,
    Judged,
    VerifyReport,
    _Gate,
    _HeldItems,
    _Judge,
    diagnosis_errors,
    drop_unusable,
    finish,
    no_output,
)

#: Bytes of the records file one worker indexes per task.
INDEX_BLOCK = 2 << 20
#: Prediction rows per task: large enough that a task's fixed cost (~1 ms on
#: Ray) is small beside its scoring, small enough to keep every worker busy.
CHUNK_ROWS = 1_000


class Scored(NamedTuple):
    """One prediction row as a worker left it: ``bad`` (the row is not a
    prediction: its error), else its ``raw_id``, ``why_not`` (no ``output``
    field), ``judged`` (scored, or the error that stopped it; None when there
    was nothing to score) and ``unusable`` (its batch diagnosis's error)."""

    bad: str | None
    raw_id: Any = None
    why_not: str | None = None
    judged: Judged | str | None = None
    unusable: str | None = None


def verify_on_engine(
    engine: Engine,
    puzzles: str | Path,
    predictions: str | Path,
    diagnose: bool = True,
    track: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
    batch_gc: BatchGC | None = None,
    missing: str = "skip",
    claims: bool = False,
    *,
    keep_items: bool = False,
    on_item: ItemListener | None = None,
    on_error: ErrorListener | None = None,
) -> VerifyReport:
    """:func:`tsolve.verifiers.verify_files.verify_files`, scored by ``engine``'s
    workers; same arguments, same report."""
    if missing not in MISSING_POLICIES:
        raise TsolveError(f"missing: expected skip or zero, got {missing!r}")
    if str(puzzles) == "-":
        raise TsolveError(
            "puzzles: an engine reads the records by offset, so they must be a file, not stdin"
        )
    RowsAt(puzzles).close()  # the usual one-line errors: missing, a folder, unreadable
    located = located_json_lines(puzzles)
    if located is None:
        raise TsolveError(
            f"puzzles: {str(puzzles)!r} is not a JSON Lines file; an engine reads records by "
            "offset from one (or use --engine local)"
        )
    getattr(located, "close", lambda: None)()  # a generator holding the file open
    path = os.path.abspath(puzzles)
    size = os.path.getsize(path)
    report = VerifyReport(
        missing_scored=missing == "zero",
        kept_items=[] if keep_items else None,
        on_item=on_item,
        on_error=on_error,
    )
    ids, first = _index(engine, path, size)
    lookup = RecordLookup(_stub_rows(ids), on_error=report.add_record_error, load=_same)
    if batch_gc is not None:
        batch_gc.freeze_inputs()
    gate = _Gate(report, lookup)
    held = _HeldItems(report, diagnose=_read_back)
    rows: Iterable[Any] = iter_raw_rows(predictions)
    if track is not None:
        rows = track(rows)
    context = (path, size, first, diagnose, claims)
    for chunk in engine.map(_score_setup, _score_chunk, context, _batches(rows, CHUNK_ROWS)):
        for row in chunk:
            _replay(row, gate, held, report)
    held.flush()
    with RowsAt(path) as again:
        finish(report, lookup.ids(), gate.seen, missing, _reader(again, first, report), {})
    return report


def _replay(row: Scored, gate: _Gate, held: _HeldItems, report: VerifyReport) -> None:
    """What the in-process run does with one prediction, its scoring done."""
    if row.bad is not None:
        report.add_error(row.bad)
        return
    admitted = gate.admit(row.raw_id, row.why_not)
    if admitted is None:
        return
    judged = row.judged
    if judged is None:  # the worker's index and the parent's disagree: cannot happen
        judged = f"predictions: id {admitted[0]!r}: internal error (not scored by its worker)"
    if isinstance(judged, str):
        report.add_error(judged)
        return
    waits = (row.unusable,) if judged.waits else None  # what _read_back reads
    held.add(judged.item, judged.family, waits, judged.claim)


def _read_back(family: str, waiting: list[tuple[Any, ItemScore]], report: VerifyReport) -> set[int]:
    """The holder's diagnosis step: the workers ran it; report its errors."""
    return drop_unusable(waiting, [unusable for (unusable,), _item in waiting], report)


# ------------------------------------------------------------------ index


def _index(engine: Engine, path: str, size: int) -> tuple[list[Any], dict[str, int]]:
    """Every row's id in file order (a :class:`BadRow` for a bad row), and
    the offset of the first row with each id."""
    ids: list[Any] = []
    first: dict[str, int] = {}
    blocks = _blocks(path, INDEX_BLOCK)
    for block in engine.map(_file_setup, _index_block, (path, size), blocks, describe=_describe):
        for offset, rid in block:
            ids.append(rid)
            if rid is not None and not isinstance(rid, BadRow):
                first.setdefault(id_key(rid), offset)
    return ids, first


def _blocks(path: str, size: int) -> Iterator[tuple[int, int, int]]:
    """``(start, stop, first line number)`` of blocks of about ``size``
    bytes, cut at line ends."""
    start, lineno = 0, 1
    with open(path, "rb") as fh:
        while data := fh.read(size):
            last = lineno + data.count(b"\n")  # the line the block ends in
            data += read_line(fh, f"{os.path.basename(path)}:{last}")
            yield start, start + len(data), lineno
            start += len(data)
            lineno += data.count(b"\n")


def _describe(block: tuple[int, int, int]) -> str:
    return f"records from line {block[2]} (bytes {block[0]}..{block[1]})"


def _file_setup(context: tuple[Any, ...]) -> str:
    """The records' path, once this worker has checked that it sees the
    parent's file there; raises (for every task) when it does not."""
    path, size = context[0], context[1]
    try:
        here = os.path.getsize(path)
    except OSError as exc:
        return _Unreachable(
            f"puzzles: a worker cannot read {path!r} ({exc.strerror}); on a cluster the records "
            "must be at the same path on every node (a shared file system)"
        )
    if here != size:
        return _Unreachable(
            f"puzzles: a worker sees {path!r} with {here} bytes, not {size}; on a cluster the "
            "records must be the same shared file on every node"
        )
    return str(path)


class _Unreachable(str):
    """Why a worker cannot read the records: raised by every task it gets."""


def _index_block(path: str, block: tuple[int, int, int]) -> list[tuple[int, Any]]:
    if isinstance(path, _Unreachable):
        raise TsolveError(path)
    start, stop, lineno = block
    return [
        (offset, row if isinstance(row, BadRow) else row.get("id"))
        for offset, row in located_rows_between(path, start, stop, lineno)
    ]


def _stub_rows(ids: list[Any]) -> Iterator[tuple[Any, Row]]:
    """The rows a :class:`RecordLookup` scans: each record as its id alone."""
    for rid in ids:
        row = rid if isinstance(rid, BadRow) else {"id": rid}
        yield row, row


def _same(row: Any) -> Any:
    """A stub row is its own locator: reading it again is having it."""
    return row


def _reader(
    rows_at: RowsAt, first: dict[str, int], report: VerifyReport
) -> Callable[[str], dict[str, Any] | None]:
    """Records by id, read by offset (for ``--missing zero``)."""

    def get(rid: str) -> dict[str, Any] | None:
        rec = rows_at.row_at(first[rid])
        if isinstance(rec, BadRow) or id_key(rec.get("id")) != rid:
            report.add_record_error(f"puzzles: id {rid!r}: the file changed while it was read")
            return None
        return rec

    return get


# ------------------------------------------------------------------ scoring


class _Scorer(NamedTuple):
    """A worker's state for one run: the records and how to score."""

    rows_at: RowsAt
    first: dict[str, int]
    judge: _Judge


def _score_setup(context: tuple[Any, ...]) -> _Scorer | _Unreachable:
    path, _size, first, diagnose, claims = context
    checked = _file_setup(context)
    if isinstance(checked, _Unreachable):
        return checked
    return _Scorer(RowsAt(path), first, _Judge(diagnose, claims))


def _score_chunk(state: _Scorer | _Unreachable, rows: list[RawLine | Row]) -> list[Scored]:
    """Decode, find the record, score; then the chunk's batch diagnoses."""
    if isinstance(state, _Unreachable):
        raise TsolveError(state)
    out: list[Scored] = []
    waiting: dict[str, list[tuple[dict[str, Any], ItemScore, int]]] = defaultdict(list)
    for raw in rows:
        pred = read_row(raw)
        if isinstance(pred, BadRow):
            out.append(Scored(f"predictions {pred}"))
            continue
        raw_id, why_not = pred.get("id"), no_output(pred)
        judged: Judged | str | None = None
        offset = None if raw_id is None or why_not else state.first.get(id_key(raw_id))
        if offset is not None:
            pid = id_key(raw_id)
            record = state.rows_at.row_at(offset)
            if isinstance(record, BadRow) or id_key(record.get("id")) != pid:
                judged = f"puzzles: id {pid!r}: the file changed while it was read"
            else:
                judged = state.judge(pid, record, pred.get("output"))
                if isinstance(judged, Judged) and judged.waits:
                    waiting[judged.family].append((record, judged.item, len(out)))
        out.append(Scored(None, raw_id, why_not, judged))
    for family, entries in waiting.items():
        errors = diagnosis_errors(family, [(rec, item) for rec, item, _ in entries])
        for (_rec, _item, k), error in zip(entries, errors, strict=True):
            out[k] = out[k]._replace(unusable=error)
    for row in out:
        if isinstance(row.judged, Judged):
            row.judged.item.context = None  # for the diagnosis only; not shipped back
    return out


def _batches(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
