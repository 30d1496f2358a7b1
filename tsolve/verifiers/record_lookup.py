"""The task records of a ``tsolve verify`` run, found by id as the
predictions ask for them, without holding a million of them in memory.

A parsed time-puzzle record takes about 11 KB, its JSON line 3 KB: a million
of either does not fit the run's budget. So a JSON Lines records file is
indexed by id → byte offset (about 100 bytes a record) and read *in step*
with the predictions: a prediction's record is looked for by scanning ahead
in the records file, and the last few thousand records scanned are kept
parsed. When both files list the ids in the same order (predictions made by
walking the records, or both sorted by id), each record is therefore read
and parsed once and found at once; in any other order, a record scanned
earlier is read again by its offset. Records from anywhere else (a list in
memory, stdin, a JSON array, a table) are kept whole, as they must be.

Unreadable rows and rows without an ``id`` are reported as they are scanned,
and the batch goes on. A repeated id is not a bad row but a file that cannot
be matched by id: which of two records would a prediction for that id be
scored against? Never silently the first: the lookup raises the one-line
:func:`repeated_records` error naming the id (records read whole are scanned
to the end first, so the error names every repeated id and comes before any
score; a JSON Lines file read in step stops at the first repeat it meets).
``tsolve verify --match order`` pairs records and predictions by position
instead (:mod:`tsolve.verifiers.verify_batch`).

Ids are matched by :func:`tsolve.records.id_key` (``1`` finds ``"1"``); the
ids the lookup hands back (:meth:`RecordLookup.ids`) are the records' own values.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records import BadRow, RowsAt, id_key, iter_json_rows, located_json_lines

Record = dict[str, Any]

LOOKAHEAD = 4_096
"""Records kept parsed after they are scanned, so that a prediction arriving
a little out of step with its record does not read it again."""


class RecordLookup:
    """Records by id, scanned from ``rows`` (``(locator, row)`` pairs) on demand.

    ``load(locator)`` reads a record again; without it the locator is the
    record itself (records in memory). ``on_error`` receives each bad row
    (the caller may set it later, before the first lookup); ``close``
    releases what ``load`` reads from (:meth:`close`, or use the lookup as a
    context manager)."""

    def __init__(
        self,
        rows: Iterable[tuple[Any, Record | BadRow]],
        on_error: Callable[[str], None] | None = None,
        load: Callable[[Any], Record | BadRow] | None = None,
        close: Callable[[], None] | None = None,
    ) -> None:
        self._rows: Iterator[tuple[Any, Record | BadRow]] | None = iter(rows)
        self.on_error: Callable[[str], None] = on_error or _unreported
        self._load = load
        self._close = close
        self._index: dict[str, tuple[Any, Any]] = {}  # id_key -> (locator, id), file order
        self._recent: OrderedDict[str, Record] = OrderedDict()
        self._repeats: list[Any] | None = None  # scan_all collects repeats here

    @property
    def in_memory(self) -> bool:
        """Are the records kept whole (no file to read them again from)?"""
        return self._load is None

    def get(self, rid: str) -> Record | None:
        """The record whose :func:`~tsolve.records.id_key` is ``rid``, or None
        if the records have none."""
        if rid in self._index:
            return self._fetch(rid)
        while self._scan_one():
            if rid in self._index:
                return self._fetch(rid)
        return None

    def scan_all(self) -> None:
        """Read the records to the end (so every bad row is reported); raises
        :func:`repeated_records` naming every repeated id, if any."""
        self._repeats = []
        try:
            while self._scan_one():
                pass
            if self._repeats:
                raise repeated_records(self._repeats)
        finally:
            self._repeats = None

    def ids(self) -> list[Any]:
        """Every record's id value, in file order (after :meth:`scan_all`)."""
        self.scan_all()
        return [rid for _loc, rid in self._index.values()]

    def close(self) -> None:
        """Stop scanning and close the records file, if any."""
        stop = getattr(self._rows, "close", None)  # a generator holding the file open
        if stop is not None:
            stop()
        self._rows = None
        if self._close is not None:
            self._close()
            self._close = None

    def __enter__(self) -> RecordLookup:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fetch(self, rid: str) -> Record | None:
        loc = self._index[rid][0]
        if self._load is None:
            return loc
        rec = self._recent.pop(rid, None)
        if rec is not None:
            return rec
        again = self._load(loc)
        if isinstance(again, BadRow) or id_key(again.get("id")) != rid:
            self.on_error(f"puzzles: id {rid!r}: the file changed while it was read")
            return None
        return again

    def _scan_one(self) -> bool:
        """Index the next row; False at the end."""
        if self._rows is None:
            return False
        nxt = next(self._rows, None)
        if nxt is None:
            self._rows = None
            return False
        loc, rec = nxt
        if isinstance(rec, BadRow):
            self.on_error(f"puzzles {rec}")
            return True
        rid = rec.get("id")
        if rid is None:
            self.on_error("puzzles: a record has no 'id'")
            return True
        key = id_key(rid)
        if key in self._index:
            if self._repeats is None:  # read in step: stop at the first repeat
                raise repeated_records([rid])
            self._repeats.append(rid)
            return True
        self._index[key] = (loc, rid)
        if self._load is not None:
            self._recent[key] = rec
            if len(self._recent) > LOOKAHEAD:
                self._recent.popitem(last=False)
        return True


def repeated_records(ids: list[Any]) -> TsolveError:
    """The one-line error for records that repeat an id, naming the first few."""
    if len(ids) == 1:
        what = f"id {ids[0]!r} is used by more than one record"
    else:
        firsts: dict[str, Any] = {}
        for rid in ids:
            firsts.setdefault(id_key(rid), rid)
        shown = ", ".join(repr(r) for r in list(firsts.values())[:5])
        more = ", ..." if len(firsts) > 5 else ""
        what = f"{len(ids)} records repeat an earlier record's id ({shown}{more})"
    return TsolveError(
        f"puzzles: {what}; predictions are matched to records by id, so record ids must be "
        "unique (or pass --match order to pair the i-th prediction with the i-th record)"
    )


def records_in_memory(records: Iterable[Record | BadRow]) -> RecordLookup:
    """A lookup over records already read, kept whole."""
    return RecordLookup((rec, rec) for rec in records)


def records_from_file(path: str | Path) -> RecordLookup:
    """A lookup over a records file: indexed by offset and read in step when
    it is JSON Lines, else read whole (:func:`records_in_memory`)."""
    located = located_json_lines(path)
    if located is None:
        return records_in_memory(iter_json_rows(path))
    rows_at = RowsAt(path)
    return RecordLookup(located, load=rows_at.row_at, close=rows_at.close)


def _unreported(message: str) -> None:
    raise TsolveError(f"records: {message}")
