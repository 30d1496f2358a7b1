"""Datasets at scale: ``tsolve dataset FAMILY --count N --out FILE``.

The one property everything here rests on is that record ``i`` of a run is a
pure function of ``(seed, i)`` and the generator options (every family in
:mod:`tsolve.generators.families` guarantees it). From it follow:

* **Workers don't change bytes.** Records are computed by a pool of processes
  in chunks of consecutive indices and written strictly in index order (a
  bounded window of in-flight chunks, consumed oldest first), so the file is
  the same for any ``workers``. Each process builds its own generator config
  and solver state once, in its initializer.
* **Shards concatenate.** Shard ``i/n`` (0-based) covers the contiguous index
  block ``[i*N//n, (i+1)*N//n)``; concatenating shards ``0..n-1`` in order gives
  the unsharded file byte for byte. Shards can run on different machines.
* **Resume is exact.** ``--resume`` drops a partial last line (an interrupted
  write), checks that every kept line is a record of this run (its seed, and
  strictly increasing indices inside the shard), regenerates the last kept
  record and compares bytes (so a file written with other options is refused
  rather than extended; so are the records on lines 1, 2, 4, 8, ..., which
  catches a generator that changed since the file was written), then continues
  at the next index.
* **Memory is flat.** Records are streamed to the file as they arrive; only
  the bounded summary counters and at most a window of chunks are held.

A record whose generation fails is reported (index and one-line reason) and
skipped; the run goes on. Skipping is deterministic too, so byte identity and
resume are unaffected.

Lines are :func:`tsolve.records.dumps` (canonical one-line JSON). Parquet
(``--format parquet``, needs ``pyarrow``: ``pip install 'tsolve[parquet]'``)
holds the same records as rows: an ``index`` column, then one column per
top-level field of the record, strings as they are and every other value as
its canonical JSON text, so the schema is stable however nested a family's
records are.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from tsolve.errors import TsolveError
from tsolve.generators.families import Family, get_family
from tsolve.parallel import ignore_sigint, ordered_map, pool_context
from tsolve.records import dumps

FORMATS = ("jsonl", "parquet")
#: Parquet row-group size. Fixed (not tied to workers) so output bytes are too.
PARQUET_BATCH = 1000
MAX_FAILURE_EXAMPLES = 20


# ---------------------------------------------------------------- shards


def parse_shard(text: str) -> tuple[int, int]:
    """``"i/n"`` (0-based ``i``) -> ``(i, n)``, with a one-line error."""
    try:
        a, b = str(text).split("/")
        i, n = int(a), int(b)
    except ValueError:
        raise TsolveError(f"shard: expected i/n such as 0/4, got {text!r}") from None
    if n < 1 or not 0 <= i < n:
        raise TsolveError(
            f"shard: index {i} is outside 0..{n - 1} (shards are 0-based: 0/{n} .. {n - 1}/{n})"
        )
    return i, n


def shard_range(count: int, shard: tuple[int, int] | None = None) -> range:
    """The indices shard ``(i, n)`` of a ``count``-record dataset covers."""
    if shard is None:
        return range(count)
    i, n = shard
    return range(count * i // n, count * (i + 1) // n)


# ---------------------------------------------------------------- generation


@dataclass
class Chunk:
    """The result of a run of consecutive indices, shipped from a worker in one
    piece: the written records' lines as one UTF-8 blob (each line ends in a
    newline), their indices, the summary counts, and the failures. Sending one
    blob per chunk rather than an object per record keeps the parent (which
    only writes) from becoming the bottleneck when records are cheap."""

    start: int
    stop: int
    indices: list[int] = field(default_factory=list)
    blob: bytes = b""
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    failures: list[tuple[int, str]] = field(default_factory=list)


_STATE: tuple[Family, Any, int] | str | None = None


def _init_worker(family: str, options: dict[str, Any], seed: int, quiet_sigint: bool) -> None:
    """Per-process set-up: the family's config (and so its solver state) is
    built once per process, never shared. Workers ignore Ctrl-C so that only
    the parent handles it (and stops the pool cleanly). A failure here is
    kept and reported per record: an initializer that raises would make the
    pool respawn workers forever."""
    global _STATE
    if quiet_sigint:
        ignore_sigint()
    try:
        fam = get_family(family)
        _STATE = (fam, fam.make_options(options), seed)
    except Exception as exc:
        _STATE = f"worker set-up failed: {type(exc).__name__}: {exc}"


def _make_chunk(fam: Family, cfg: Any, seed: int, lo: int, hi: int) -> Chunk:
    chunk = Chunk(lo, hi)
    lines: list[str] = []
    for i in range(lo, hi):
        try:
            rec = fam.generate(seed, i, cfg)
            line = dumps(rec)
            buckets = fam.summarize(rec)
        except TsolveError as exc:
            chunk.failures.append((i, str(exc)))
            continue
        except Exception as exc:  # one bad record must not stop a long run
            chunk.failures.append((i, f"{type(exc).__name__}: {exc}"))
            continue
        lines.append(line)
        chunk.indices.append(i)
        for key, values in buckets.items():
            chunk.counts.setdefault(key, Counter()).update(values)
    chunk.blob = "".join(x + "\n" for x in lines).encode("utf-8")
    return chunk


def _run_chunk(bounds: tuple[int, int]) -> Chunk:
    lo, hi = bounds
    if not isinstance(_STATE, tuple):
        reason = _STATE or "worker not initialised"
        return Chunk(lo, hi, failures=[(i, reason) for i in range(lo, hi)])
    fam, cfg, seed = _STATE
    return _make_chunk(fam, cfg, seed, lo, hi)


def generate_chunks(
    family: str,
    options: Mapping[str, Any] | None,
    seed: int,
    indices: range,
    workers: int = 1,
    chunk: int | None = None,
) -> Iterator[Chunk]:
    """:class:`Chunk` results covering ``indices`` in index order, computed by
    ``workers`` processes (in this process when ``workers`` is 1).

    At most ``4 * workers`` chunks are in flight, so memory stays bounded
    however long the range is (``Pool.imap`` would queue every task up front).
    """
    opts = dict(options or {})
    fam = get_family(family)
    n = len(indices)
    size = chunk or max(1, min(64, n // (max(workers, 1) * 32)))
    bounds = ((lo, min(lo + size, indices.stop)) for lo in range(indices.start, indices.stop, size))
    if workers <= 1 or n <= 1:
        cfg = fam.make_options(opts)
        for lo, hi in bounds:
            yield _make_chunk(fam, cfg, seed, lo, hi)
        return
    ctx = pool_context(["tsolve.generators.dataset", fam.module])
    with ctx.Pool(workers, initializer=_init_worker, initargs=(fam.name, opts, seed, True)) as pool:
        yield from ordered_map(pool, _run_chunk, bounds, 4 * workers)


# ---------------------------------------------------------------- summary


@dataclass
class DatasetSummary:
    """What a dataset run did; :meth:`to_json` is what ``--summary-json`` would print."""

    family: str
    seed: int
    out: str
    format: str
    start: int
    stop: int
    workers: int
    written: int = 0
    existing: int = 0  # records already in the file (resume)
    gaps: int = 0  # indices missing between existing records (earlier failures)
    dropped_bytes: int = 0  # partial last line removed on resume
    failures: int = 0
    failure_examples: list[tuple[int, str]] = field(default_factory=list)
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    seconds: float = 0.0
    bytes: int = 0
    interrupted: bool = False

    @property
    def records(self) -> int:
        return self.existing + self.written

    @property
    def rate(self) -> float:
        return self.written / self.seconds if self.seconds > 0 else 0.0

    def add(self, buckets: Mapping[str, Iterable[str] | Counter[str]]) -> None:
        for key, values in buckets.items():
            self.counts.setdefault(key, Counter()).update(values)

    def fail(self, index: int, message: str) -> None:
        self.failures += 1
        if len(self.failure_examples) < MAX_FAILURE_EXAMPLES:
            self.failure_examples.append((index, message))

    def to_json(self) -> dict[str, Any]:
        def order(k: str) -> tuple[int, Any]:
            return (0, int(k)) if k.lstrip("-").isdigit() else (1, k)

        return {
            "family": self.family,
            "seed": self.seed,
            "out": self.out,
            "format": self.format,
            "indices": [self.start, self.stop],
            "workers": self.workers,
            "records": self.records,
            "written": self.written,
            "existing": self.existing,
            "gaps": self.gaps,
            "dropped_bytes": self.dropped_bytes,
            "failures": self.failures,
            "failure_examples": [{"index": i, "error": m} for i, m in self.failure_examples],
            "counts": {
                k: dict(sorted(c.items(), key=lambda kv: order(kv[0])))
                for k, c in self.counts.items()
            },
            "seconds": round(self.seconds, 3),
            "records_per_second": round(self.rate, 2),
            "bytes": self.bytes,
            "interrupted": self.interrupted,
        }


# ---------------------------------------------------------------- resume


def _truncate_partial_line(path: Path) -> int:
    """Drop bytes after the last newline (an interrupted write); return how many."""
    with path.open("r+b") as fh:
        size = fh.seek(0, os.SEEK_END)
        if size == 0:
            return 0
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return 0
        pos = size
        block = 1 << 16
        while pos > 0:
            lo = max(0, pos - block)
            fh.seek(lo)
            buf = fh.read(pos - lo)
            k = buf.rfind(b"\n")
            if k >= 0:
                keep = lo + k + 1
                fh.truncate(keep)
                return size - keep
            pos = lo
        fh.truncate(0)
        return size


def _resume_point(
    path: Path, fam: Family, cfg: Any, seed: int, indices: range, summary: DatasetSummary
) -> int:
    """Validate an existing file and return the next index to generate."""
    if not path.exists():
        return indices.start
    if not path.is_file():
        raise TsolveError(f"out: {str(path)!r} is not a regular file")
    summary.dropped_bytes = _truncate_partial_line(path)
    prev: int | None = None
    last_line: str | None = None
    probes: list[tuple[int, str]] = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            text = line.rstrip("\n")
            where = f"resume: {path.name} line {lineno}"
            try:
                rec = json.loads(text)
            except json.JSONDecodeError:
                raise TsolveError(
                    f"{where} is not JSON; is this a file tsolve dataset wrote?"
                ) from None
            if not isinstance(rec, dict):
                raise TsolveError(f"{where} is not a JSON object")
            idx = fam.index_of(rec)
            if rec.get("family") not in (None, fam.name):
                raise TsolveError(f"{where} is a {rec.get('family')!r} record, not {fam.name}")
            if fam.seed_of(rec) != seed:
                raise TsolveError(
                    f"{where} has seed {fam.seed_of(rec)}, this run uses --seed {seed}"
                )
            if idx not in indices:
                raise TsolveError(
                    f"{where} has index {idx}, outside this run's "
                    f"{indices.start}..{indices.stop - 1}"
                )
            if prev is not None and idx <= prev:
                raise TsolveError(
                    f"{where} has index {idx} after {prev}: duplicated or out of order"
                )
            summary.gaps += idx - (indices.start if prev is None else prev + 1)
            summary.existing += 1
            summary.add(fam.summarize(rec))
            if lineno & (lineno - 1) == 0:  # lines 1, 2, 4, 8, ...: a log-size sample
                probes.append((idx, text))
            prev, last_line = idx, text
    if prev is None or last_line is None:
        return indices.start
    if not probes or probes[-1][0] != prev:
        probes.append((prev, last_line))
    for idx, text in probes:
        if dumps(fam.generate(seed, idx, cfg)) != text:
            raise TsolveError(
                f"resume: record {idx} of {path.name} is not what seed {seed} and these options "
                "generate (other options, or another tsolve version); rerun with the original "
                "options or write a new --out"
            )
    return prev + 1


# ---------------------------------------------------------------- sinks


class _JsonlSink:
    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh

    def write(self, chunk: Chunk) -> None:
        self.fh.write(chunk.blob)

    def close(self) -> None:
        self.fh.flush()


class _ParquetSink:
    """Streams rows to a Parquet file in fixed-size row groups."""

    def __init__(self, path: Path) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise TsolveError(
                "format: parquet needs pyarrow (pip install 'tsolve[parquet]')"
            ) from None
        self.pa, self.pq = pa, pq
        self.path = path
        self.columns: list[str] | None = None
        self.rows: list[tuple[int, dict[str, Any]]] = []
        self.writer: Any = None

    def write(self, chunk: Chunk) -> None:
        lines = chunk.blob.decode("utf-8").split("\n")[:-1]  # dumps escapes newlines
        for index, line in zip(chunk.indices, lines, strict=True):
            self._add(index, line)

    def _add(self, index: int, line: str) -> None:
        rec = json.loads(line)
        if self.columns is None:
            self.columns = list(rec)
        extra = [k for k in rec if k not in self.columns]
        if extra:
            raise TsolveError(
                f"format: record {index} has fields {extra} that the first record "
                "lacks; parquet needs one schema (use --format jsonl)"
            )
        self.rows.append((index, rec))
        if len(self.rows) >= PARQUET_BATCH:
            self._flush()

    def _flush(self) -> None:
        if not self.rows or self.columns is None:
            return
        pa = self.pa
        data: dict[str, Any] = {"index": pa.array([i for i, _ in self.rows], pa.int64())}
        for col in self.columns:
            vals = []
            for _, rec in self.rows:
                v = rec.get(col)
                vals.append(None if col not in rec else v if isinstance(v, str) else dumps(v))
            data[col] = pa.array(vals, pa.string())
        table = pa.table(data)
        if self.writer is None:
            self.writer = self.pq.ParquetWriter(str(self.path), table.schema)
        self.writer.write_table(table)
        self.rows = []

    def close(self) -> None:
        self._flush()
        if self.writer is None:  # no rows at all: still write a valid (empty) file
            pa = self.pa
            schema = pa.schema([("index", pa.int64())])
            self.writer = self.pq.ParquetWriter(str(self.path), schema)
        self.writer.close()


# ---------------------------------------------------------------- the run


def infer_format(out: str, fmt: str | None) -> str:
    if fmt is None:
        return "parquet" if str(out).lower().endswith(".parquet") else "jsonl"
    if fmt not in FORMATS:
        raise TsolveError(f"format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
    return fmt


def write_dataset(
    family: str,
    options: Mapping[str, Any] | None = None,
    *,
    count: int,
    out: str | Path,
    seed: int = 0,
    workers: int = 1,
    shard: tuple[int, int] | None = None,
    resume: bool = False,
    fmt: str | None = None,
    chunk: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_failure: Callable[[int, str], None] | None = None,
) -> DatasetSummary:
    """Write records ``shard_range(count, shard)`` of run ``seed`` to ``out``.

    ``options`` are the family's generator options (names as on the command
    line, values as JSON or CLI text). ``progress(done, total)`` and
    ``on_failure(index, message)`` are optional callbacks. Ctrl-C stops the
    run cleanly: the summary comes back with ``interrupted=True`` and the
    file holds whole records only, ready for ``resume=True``.
    """
    for name, v, lo in (("count", count, 0), ("seed", seed, 0), ("workers", workers, 1)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise TsolveError(f"{name}: expected an integer >= {lo}, got {v!r}")
    fam = get_family(family)
    opts = dict(options or {})
    cfg = fam.make_options(opts)  # validate in the parent: one-line errors before any work
    kind = infer_format(str(out), fmt)
    indices = shard_range(count, shard)
    to_stdout = str(out) == "-"
    if to_stdout and (resume or kind != "jsonl"):
        raise TsolveError("out: '-' (stdout) works only for jsonl without --resume")
    path = Path(out)
    if not to_stdout and not path.parent.exists():
        raise TsolveError(f"out: directory {str(path.parent)!r} does not exist")
    if resume and kind != "jsonl":
        raise TsolveError("resume: only jsonl files can be resumed (parquet is written whole)")

    summary = DatasetSummary(fam.name, seed, str(out), kind, indices.start, indices.stop, workers)
    t0 = time.perf_counter()
    start = _resume_point(path, fam, cfg, seed, indices, summary) if resume else indices.start
    todo = range(start, indices.stop)
    total = len(indices)
    done = len(range(indices.start, start))

    sink: _JsonlSink | _ParquetSink
    fh: IO[bytes] | None = None
    if kind == "parquet":
        sink = _ParquetSink(path)
    else:
        fh = sys.stdout.buffer if to_stdout else path.open("ab" if resume else "wb")
        sink = _JsonlSink(fh)
    if progress is not None:
        progress(done, total)
    try:
        for ch in generate_chunks(fam.name, opts, seed, todo, workers, chunk):
            sink.write(ch)
            summary.written += len(ch.indices)
            summary.add(ch.counts)
            for index, message in ch.failures:
                summary.fail(index, message)
                if on_failure is not None:
                    on_failure(index, message)
            done += ch.stop - ch.start
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        sink.close()
        if fh is not None and not to_stdout:
            fh.close()
    summary.seconds = time.perf_counter() - t0
    if not to_stdout and path.exists():
        summary.bytes = path.stat().st_size
    return summary


__all__ = [
    "FORMATS",
    "Chunk",
    "DatasetSummary",
    "generate_chunks",
    "infer_format",
    "parse_shard",
    "shard_range",
    "write_dataset",
]
