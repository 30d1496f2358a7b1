"""Reading task records and predictions: JSON array, JSON object or JSON Lines,
from a path or ``-`` (stdin); and the tables tsolve writes, Parquet files and
Hugging Face ``datasets`` folders (:mod:`tsolve.records.columns`), so that every
command that reads records reads all four.

This is the one reader every command uses, with one error model: batch jobs
must report one bad row and go on, so the readers yield either a record or a
:class:`BadRow` rather than raising on the first malformed line. Only a file
that cannot be read at all (missing, a directory, an unreadable JSON array)
raises :class:`~tsolve.errors.TsolveError`.

Hostile input it survives (``docs/robustness.md``):

* JSON Lines are split on ``\\n`` only (``\\r\\n`` accepted): U+2028, U+2029
  and U+0085 are legal inside a JSON string and stay raw in files written with
  ``ensure_ascii=False``, so ``str.splitlines`` would cut valid rows apart;
* a line nested deeper than Python's recursion limit, or an integer longer
  than the interpreter's 4,300-digit conversion limit, is one bad row;
* a line that is not UTF-8 is one bad row (naming the byte); a UTF-8 BOM is
  skipped, and UTF-16/32 files with a BOM are decoded;
* JSON Lines are read line by line, so memory follows the longest line, not
  the file; a line over :data:`MAX_LINE_BYTES` (64 MiB: ``/dev/zero``, a
  binary file) stops the file with one line, and a file read whole (a JSON
  array) is bounded by :data:`MAX_DOCUMENT_BYTES`;
* numbers are strict JSON: ``NaN``, ``Infinity`` and ``1e400`` (which
  overflows to infinity), all of which Python's reader accepts, make a bad
  row, since no output could carry them (:func:`strict_loads`).

Writing is strict too: :func:`json_text` is every output's writer
(``allow_nan=False``). And one rule for ids that repeat in a batch,
:class:`RepeatedIds`: every row is processed and written, one warning.

Reading is two steps so that the second can run elsewhere:
:func:`iter_raw_rows` finds the rows (a JSON Lines row stays the
:class:`RawLine` it was read as) and :func:`read_row` decodes one. A process
pool sends raw lines to its workers and decodes there
(:mod:`tsolve.families.logistics.answer_items`); :func:`iter_json_rows` does both
steps in turn.
"""

from __future__ import annotations

import codecs
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

from tsolve.errors import TsolveError
from tsolve.records.json_text import NonFiniteNumber, strict_loads

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest line any reader reads (64 MiB): every JSON Lines reader, the
first line of any file, ``--resume``. Rows are kilobytes; a longer line is not
a row (``/dev/zero``, a binary file), and reading it whole could exhaust
memory. Such a line stops the file with one line saying so."""

MAX_DOCUMENT_BYTES = 1024 * 1024 * 1024
"""The largest file read whole (1 GiB): a JSON array, one pretty-printed
object, a UTF-16/32 file. JSON Lines files are read a line at a time and have
no such limit."""


def _line_too_long(where: str) -> TsolveError:
    size = _size_text(MAX_LINE_BYTES)
    return TsolveError(
        f"{where}: a line longer than {size}; tsolve reads lines of at most {size} "
        "(is this a records file?)"
    )


def _size_text(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n} bytes"


def read_line(fh: IO[bytes], where: str) -> bytes:
    """The next line of ``fh`` (ending included; ``b""`` at the end), or a
    :class:`TsolveError` when it is longer than :data:`MAX_LINE_BYTES`."""
    raw = fh.readline(MAX_LINE_BYTES + 1)
    if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
        raise _line_too_long(where)
    return raw


def _bounded_lines(fh: IO[bytes], name: str, lineno: int = 1) -> Iterator[bytes]:
    """The lines of ``fh`` (split on ``\\n`` only), each at most
    :data:`MAX_LINE_BYTES`; ``lineno`` is the number of the first, for the error."""
    while raw := read_line(fh, f"{name}:{lineno}"):
        yield raw
        lineno += 1


def _read_rest(fh: IO[bytes], name: str) -> bytes:
    """The rest of ``fh``, read whole, or a :class:`TsolveError` past
    :data:`MAX_DOCUMENT_BYTES`."""
    data = fh.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise TsolveError(
            f"{name}: a JSON document larger than {_size_text(MAX_DOCUMENT_BYTES)}; tsolve reads "
            "JSON arrays of at most that whole (write JSON Lines for more)"
        )
    return data


@dataclass(frozen=True)
class BadRow:
    """A row that could not be read; ``where`` is e.g. ``preds.jsonl:17``."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class RawLine(NamedTuple):
    """One non-blank JSON Lines row as read, not yet decoded: its bytes (UTF-8,
    line end included) and where it is, e.g. ``items.jsonl:17``. Cheap to
    pickle, so a pool's parent can hand lines to workers without reading them;
    :func:`read_row` makes it a record or a :class:`BadRow`."""

    where: str
    data: bytes


Row = dict[str, Any] | BadRow
"""A record, or the reason a row is not one."""

_WIDE_BOMS = (  # longest first: the UTF-32-LE BOM starts with the UTF-16-LE one
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _open(path: str | Path) -> tuple[IO[bytes], str, bool]:
    """The file as bytes, its display name, and whether we must close it."""
    if str(path) == "-":
        return sys.stdin.buffer, "<stdin>", False
    p = Path(path)
    if not p.exists():
        raise TsolveError(f"file: {str(path)!r} does not exist")
    if p.is_dir():
        raise TsolveError(f"file: {str(path)!r} is a directory")
    try:
        return p.open("rb"), p.name, True
    except OSError as exc:
        raise TsolveError(f"file: cannot read {str(path)!r} ({exc.strerror})") from None


def loads_row(text: str | bytes) -> tuple[Any, str | None]:
    """``(value, None)`` for one JSON text, or ``(None, why)`` when it cannot be
    read. Never raises: besides malformed JSON, this catches the two ways
    ``json.loads`` fails on valid-looking input (nesting past the recursion
    limit, integers past the digit limit), and it refuses what strict JSON
    has not: ``NaN``, ``Infinity`` and numbers that overflow to infinity."""
    try:
        return strict_loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"malformed JSON ({exc.msg}, column {exc.colno})"
    except NonFiniteNumber as exc:
        return None, f"not strict JSON ({exc}; NaN and infinite numbers are not JSON numbers)"
    except RecursionError:
        return None, "malformed JSON (nests too deeply to read)"
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start]
        return None, f"not UTF-8 text (byte 0x{byte:02x} at column {exc.start + 1})"
    except ValueError as exc:  # int() refuses integers of over 4,300 digits
        if "digits" in str(exc):
            return None, "malformed JSON (holds an integer too long to read, over 4,300 digits)"
        return None, f"malformed JSON ({' '.join(str(exc).split())[:120]})"


def _decode_line(raw: bytes) -> tuple[str | None, str | None]:
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})"


def iter_json_rows(path: str | Path) -> Iterator[Row]:
    """Each record in the file, or a :class:`BadRow` where one cannot be read.

    A file whose first non-blank character is ``[`` is a JSON array; a file
    holding one (possibly pretty-printed) JSON object is that object; anything
    else is JSON Lines. A Parquet file (by its magic bytes) and a folder
    written by ``datasets``' ``save_to_disk`` are read as tables of records
    (:func:`iter_table_rows`)."""
    for row in iter_raw_rows(path):
        yield read_row(row)


def iter_raw_rows(path: str | Path) -> Iterator[RawLine | Row]:
    """:func:`iter_json_rows` without decoding JSON Lines: each of their rows is
    the :class:`RawLine` it was read as, for :func:`read_row` to decode later
    (in a worker process, say). Blank lines are already skipped, so the rows
    are the same in number and order. Rows of a JSON array or a table, and the
    first row of a JSON Lines file (read to tell the formats apart), come
    decoded; a file in UTF-16 or UTF-32 is decoded whole and its lines come
    back as UTF-8."""
    if str(path) != "-" and _is_table(Path(path)):
        yield from iter_table_rows(path)
        return
    fh, name, close = _open(path)
    try:
        yield from _rows(fh, name)
    finally:
        if close:
            fh.close()


def read_row(row: RawLine | Row) -> Row:
    """The record a row of :func:`iter_raw_rows` holds, or the :class:`BadRow`
    saying why it holds none (not UTF-8, malformed JSON, not an object).
    Decoded rows are returned as they are."""
    if not isinstance(row, RawLine):
        return row
    text, why = _decode_line(row.data)
    if text is None:
        return BadRow(row.where, str(why))
    value, why = loads_row(text)
    return BadRow(row.where, why) if why is not None else _as_object(value, row.where)


def _row_of_line(raw: bytes, where: str) -> Iterator[dict[str, Any] | BadRow]:
    """The row one raw JSON Lines line holds (none for a blank line)."""
    if raw.strip():
        yield read_row(RawLine(where, raw))


def located_json_lines(path: str | Path) -> Iterator[tuple[int, dict[str, Any] | BadRow]] | None:
    """``(byte offset, row)`` for each row of a JSON Lines file, the rows as
    :func:`iter_json_rows` reads them, so that a caller can index the rows by
    offset and read one again later (:class:`RowsAt`) instead of keeping it.
    ``None`` when ``path`` is not a plain JSON Lines file (stdin, a table, a
    JSON array or a single object, UTF-16/32 text, a first row that does not
    read, a pipe): read those with :func:`iter_json_rows`."""
    if str(path) == "-" or not Path(path).is_file() or _is_table(Path(path)):
        return None  # a pipe cannot be read again; what is not there, _open reports later
    fh, name, _close = _open(path)
    head = _peek(fh)
    if any(head.startswith(bom) for bom, _encoding in _WIDE_BOMS):
        fh.close()
        return None
    offset = len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0
    fh.seek(offset)
    lineno = 1
    while (raw := read_line(fh, f"{name}:{lineno}")) and not raw.strip():
        offset += len(raw)
        lineno += 1
    if raw and (raw.lstrip()[:1] != b"{" or loads_row(raw)[1] is not None):
        fh.close()
        return None
    return _located_rows(fh, name, offset, lineno)


def _located_rows(
    fh: IO[bytes], name: str, offset: int, lineno: int, stop: int | None = None
) -> Iterator[tuple[int, dict[str, Any] | BadRow]]:
    try:
        fh.seek(offset)
        for n, raw in enumerate(_bounded_lines(fh, name, lineno), lineno):
            if stop is not None and offset >= stop:
                break
            for row in _row_of_line(raw, f"{name}:{n}"):
                yield offset, row
            offset += len(raw)
    finally:
        fh.close()


def located_rows_between(
    path: str | Path, start: int, stop: int, lineno: int
) -> Iterator[tuple[int, dict[str, Any] | BadRow]]:
    """The rows of :func:`located_json_lines` whose lines start at a byte in
    ``[start, stop)``; ``start`` is the start of line number ``lineno``. So
    that workers can read one block each of a JSON Lines file that
    :func:`located_json_lines` accepted (a UTF-8 BOM at byte 0 is skipped)."""
    fh, name, _close = _open(path)
    if start == 0 and _peek(fh).startswith(codecs.BOM_UTF8):
        start = len(codecs.BOM_UTF8)
    return _located_rows(fh, name, start, lineno, stop)


class RowsAt:
    """Rows of a JSON Lines file read again by the offsets
    :func:`located_json_lines` gave; a context manager that closes the file."""

    def __init__(self, path: str | Path) -> None:
        self._fh, self._name, _close = _open(path)

    def row_at(self, offset: int) -> dict[str, Any] | BadRow:
        self._fh.seek(offset)
        where = f"{self._name} at byte {offset}"
        raw = read_line(self._fh, where)
        rows = list(_row_of_line(raw, where))
        return rows[0] if rows else BadRow(where, "empty line (the file changed while read)")

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> RowsAt:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_PARQUET_MAGIC = b"PAR1"


def _is_table(p: Path) -> bool:
    if p.is_dir():
        return True  # a datasets folder, or the one-line "is a directory" error
    if not p.is_file():
        return False  # a pipe or a device: reading its magic bytes would consume them
    try:
        with p.open("rb") as fh:
            return fh.read(4) == _PARQUET_MAGIC
    except OSError:
        return False  # _open says why in one line


def iter_table_rows(path: str | Path) -> Iterator[dict[str, Any] | BadRow]:
    """The records of a Parquet file or a ``datasets`` folder. Tables tsolve
    wrote come back exactly (their ``FIELD_json`` columns are parsed); other
    tables (``load_dataset("json")`` then ``save_to_disk``, ``to_parquet``)
    are read as Arrow typed them and repaired (dates, ``None``-filled objects:
    :func:`tsolve.records.columns.decode_row`), and the families' checks judge the
    rest. A row whose JSON cell cannot be read is a :class:`BadRow`."""
    p = Path(path)
    if p.is_dir():
        from tsolve.records.hf import is_dataset_folder, iter_folder_rows

        if not is_dataset_folder(p):
            raise TsolveError(
                f"file: {str(path)!r} is a directory, not a datasets folder "
                "(no dataset_info.json and state.json from save_to_disk)"
            )
        rows: Iterator[dict[str, Any] | Exception] = iter_folder_rows(p)
    else:
        from tsolve.records.parquet_rows import iter_parquet_rows

        rows = iter_parquet_rows(p)
    for i, row in enumerate(rows):
        yield BadRow(f"{p.name}[{i}]", str(row)) if isinstance(row, Exception) else row


def _rows(fh: IO[bytes], name: str) -> Iterator[RawLine | Row]:
    head = _peek(fh)
    for bom, encoding in _WIDE_BOMS:
        if head.startswith(bom):
            raw = _read_rest(fh, name)
            try:
                text = raw.decode(encoding)
            except UnicodeDecodeError:
                raise TsolveError(f"file: {name} is not valid {encoding.upper()} text") from None
            yield from _rows_of_text(text.lstrip("\ufeff"), name)
            return
    lines = _bounded_lines(fh, name)  # split on b"\n" only
    first_no = 0
    first = b""
    for first_no, first in enumerate(lines, 1):
        if first_no == 1 and first.startswith(codecs.BOM_UTF8):
            first = first[len(codecs.BOM_UTF8) :]
        if first.strip():
            break
    else:
        return  # empty file: no rows (callers decide whether that is an error)
    lead = first.lstrip()[:1]
    if lead == b"[":
        rest = _read_rest(fh, name)
        data, why = loads_row(first + rest)  # bytes: not-UTF-8 is a reason like any other
        # An array, readable or not: a pretty-printed one ("[" alone on its first
        # line) or a one-line file. Otherwise JSON Lines whose first row is broken.
        if why is None or first.strip() == b"[" or not rest.strip():
            yield from _rows_of_array(data, why, name)
            return
        # JSON Lines whose first row is broken and happens to start with "["
        lines = iter((first, *rest.split(b"\n")))
        first_no -= 1
    elif lead == b"{":
        value, why = loads_row(first)
        if why is not None:  # perhaps one pretty-printed object: try the whole file
            rest = fh.read(MAX_DOCUMENT_BYTES + 1)
            if len(rest) <= MAX_DOCUMENT_BYTES:  # else JSON Lines with a broken first row
                obj, whole_why = loads_row(first + rest)
                if whole_why is None and isinstance(obj, dict):
                    yield obj
                    return
            lines = _lines_after(first, rest, fh, name, first_no)
            first_no -= 1
        else:
            yield _as_object(value, f"{name}:{first_no}")
    else:
        lines = iter((first, *lines))
        first_no -= 1
    for lineno, raw in enumerate(lines, first_no + 1):
        if raw.strip():
            yield RawLine(f"{name}:{lineno}", raw)


def _lines_after(
    first: bytes, rest: bytes, fh: IO[bytes], name: str, first_no: int
) -> Iterator[bytes]:
    """Line ``first_no`` (``first``), then the lines of ``rest`` (read ahead
    of them) and of the rest of ``fh``: the last line of ``rest`` may go on
    in ``fh``."""
    yield first
    *whole, tail = rest.split(b"\n")
    yield from whole
    lineno = first_no + 1 + len(whole)
    tail += read_line(fh, f"{name}:{lineno}")
    if tail:
        yield tail
    yield from _bounded_lines(fh, name, lineno + 1)


def _as_object(value: Any, where: str) -> dict[str, Any] | BadRow:
    if isinstance(value, dict):
        return value
    return BadRow(where, f"expected a JSON object, got {_json_type(value)}")


def _json_type(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _peek(fh: IO[bytes]) -> bytes:
    peek = getattr(fh, "peek", None)
    return peek(4)[:4] if peek is not None else b""


def _rows_of_array(data: Any, why: str | None, name: str) -> Iterator[dict[str, Any] | BadRow]:
    if why is not None:
        raise TsolveError(f"{name}: malformed JSON array: {why}")
    if not isinstance(data, list):
        raise TsolveError(f"{name}: expected a JSON array, got {_json_type(data)}")
    for i, obj in enumerate(data):
        yield _as_object(obj, f"{name}[{i}]")


def _rows_of_text(text: str, name: str) -> Iterator[RawLine | Row]:
    """The rows of an already decoded file (a JSON array, or JSON Lines)."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        data, why = loads_row(stripped)
        if why is None or stripped.split("\n", 1)[0].strip() == "[":
            yield from _rows_of_array(data, why, name)
            return
    for lineno, line in enumerate(text.split("\n"), 1):
        raw = line.encode("utf-8", "surrogatepass")
        if raw.strip():  # bytes: only ASCII white space makes a line blank, as above
            yield RawLine(f"{name}:{lineno}", raw)


def counted_rows(
    rows: Iterable[Row], source: str, repeated: RepeatedIds | None = None
) -> Iterator[Row]:
    """``rows`` unchanged, every one of them (a repeated id is a row like any
    other), noting each id in ``repeated`` for the command's one warning;
    raises ``TsolveError`` at the end when there was no row at all, since an
    empty input is almost always a wrong path or a failed upstream step, and
    exiting 0 would hide it."""
    count = 0
    for row in rows:
        count += 1
        if repeated is not None and isinstance(row, dict):
            repeated.note(row.get("id"))
        yield row
    if count == 0:
        raise no_records(source)


def id_key(rid: Any) -> str:
    """What two ids must share to be the same id when rows are matched or
    counted: their text (``1`` and ``"1"`` are one id, as a prediction that
    wrote a number as a string must still find its record). The ids written
    out are always the rows' own values, never this key."""
    return rid if isinstance(rid, str) else str(rid)


class RepeatedIds:
    """The one rule for repeated ids in a batch (``logistics answer``,
    ``solve``, ``audit``): every row is processed and written, in input order,
    whatever its id; ids that repeat an earlier row's are counted here so that
    the command warns once, at the end (:meth:`warning`), with the count and
    the first few. Rows without an id are not counted.

    Why not reject repeats: benchmarks number items per file (UnSeenTimeQA's
    36 files each count from 0), so a user who concatenates them has distinct
    items under one id; answering only the first would drop thousands of rows.
    Commands that *match* rows by id (``verify``) cannot do that and refuse
    repeats instead (:mod:`tsolve.verifiers.record_lookup`)."""

    SHOWN = 5
    """Repeated ids named in the warning."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self.count = 0  # rows whose id an earlier row already had
        self.first: list[Any] = []  # the first SHOWN distinct repeated ids, as read
        self._named: set[str] = set()

    def note(self, rid: Any) -> None:
        """Count the row with id ``rid`` (None: a row without an id)."""
        if rid is None:
            return
        key = id_key(rid)
        if key not in self._seen:
            self._seen.add(key)
            return
        self.count += 1
        if len(self.first) < self.SHOWN and key not in self._named:
            self._named.add(key)
            self.first.append(rid)

    def warning(self, done: str = "processed") -> str | None:
        """The one-line warning (None when no id repeats); ``done`` says what
        happened to every row ("answered", "audited", ...)."""
        if not self.count:
            return None
        shown = ", ".join(_shown_id(r) for r in self.first)
        more = ", ..." if self.count > len(self.first) else ""
        rows = "row repeats the id" if self.count == 1 else "rows repeat the id"
        return (
            f"{self.count} {rows} of an earlier row (ids {shown}{more}); every row was {done} "
            "and written in input order, so match outputs to inputs by position, not by id"
        )


def _shown_id(rid: Any) -> str:
    text = json.dumps(rid, ensure_ascii=False) if isinstance(rid, (str, int, float)) else repr(rid)
    return text if len(text) <= 40 else text[:37] + "..."


def no_records(source: str) -> TsolveError:
    """The error for an input without a single row."""
    return TsolveError(f"file: {source} holds no records")


def read_json_file(path: str | Path, what: str = "config") -> Any:
    """A small JSON file (a config) read whole, or one :class:`TsolveError`
    beginning with ``what``. Unlike record files there is nothing to go on
    with after a bad line, so any fault stops the command."""
    p = Path(path)
    if not p.is_file():
        raise TsolveError(f"{what}: {str(path)!r} does not exist or is not a file")
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TsolveError(f"{what}: {p.name} is not valid JSON ({exc})") from None


def format_from_suffix(path: str | Path, suffixes: dict[str, str], default: str) -> str:
    """The output format ``path``'s suffix names (``suffixes`` maps ``.jsonl``
    to ``jsonl``, ...); ``default`` for ``-`` (stdout) or a name without a
    suffix. Any other suffix is the one-line error, never a file whose name
    says one format and whose bytes are another (``--out x.csv``)."""
    if str(path) == "-":
        return default
    suffix = Path(path).suffix.lower()
    if not suffix:
        return default
    if suffix not in suffixes:
        known = ", ".join(suffixes)
        raise TsolveError(f"out: {str(path)!r}: tsolve writes no {suffix} files here (use {known})")
    return suffixes[suffix]
