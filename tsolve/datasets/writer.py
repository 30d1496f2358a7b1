"""``write_dataset``: one dataset run, from options to a finished file.

Together the modules of :mod:`tsolve.datasets` give a run these properties
(see the package docstring); this one ties them together and owns the file:
it validates the options in the parent before any work, checks or creates the
output, streams chunks to a sink in index order, and closes the file back to
whole records however the run ends.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from tsolve.contract import get_family
from tsolve.datasets.balance import balanced_config, parse_balance
from tsolve.datasets.chunks import generate_chunks, primed_pass
from tsolve.datasets.distinct import DistinctPass, excluded_keys
from tsolve.datasets.resume import ResumePoint, existing_records, resume_point
from tsolve.datasets.shards import shard_range
from tsolve.datasets.sinks import (
    HF_FOLDER,
    HfSink,
    JsonlSink,
    ParquetSink,
    TableSink,
    infer_format,
)
from tsolve.datasets.summary import DatasetSummary
from tsolve.engines import open_engine
from tsolve.engines.pool import WorkerLost
from tsolve.errors import TsolveError
from tsolve.records.folders import check_target


def write_dataset(
    family: str,
    options: Mapping[str, Any] | None = None,
    *,
    count: int,
    out: str | Path,
    seed: int = 0,
    workers: int | None = None,
    shard: tuple[int, int] | None = None,
    resume: bool = False,
    fmt: str | None = None,
    chunk: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_failure: Callable[[int, str], None] | None = None,
    engine: str = "local",
    engine_address: str | None = None,
    on_warning: Callable[[str], None] | None = None,
    index_range: range | None = None,
    balance: str | Sequence[str] | None = None,
    distinct: DistinctPass | None = None,
    exclude: Sequence[str | Path] = (),
) -> DatasetSummary:
    """Write records ``shard_range(count, shard)`` of run ``seed`` to ``out``.

    ``options`` are the family's generator options (names as on the command
    line, values as JSON or CLI text). ``progress(done, total)`` and
    ``on_failure(index, message)`` are optional callbacks. Ctrl-C stops the
    run cleanly: the summary comes back with ``interrupted=True`` and the
    file holds whole records only, ready for ``resume=True``.

    ``engine`` runs the generation (:func:`tsolve.engines.open_engine`):
    ``local``, ``workers`` processes (default 1), or ``ray``, a Ray cluster
    at ``engine_address`` (default: a new local instance of ``workers``
    CPUs, default all). The bytes written are the same on every engine.

    A run larger than the family's content domain can keep distinct (see
    ``Family.coverage_warnings``) is still written; its warnings go to
    ``on_warning`` before any record is made, and into the summary.

    ``index_range`` writes exactly those indices of the run instead of a
    shard (a part of ``--split``, :mod:`tsolve.datasets.split`).

    ``balance`` names options whose values are spread evenly by index
    (``"difficulty"``, ``["difficulty", "style"]``; the family's ``strata``):
    :mod:`tsolve.datasets.balance`.

    No two records of the run share an answer (a repeat is drawn again,
    :mod:`tsolve.datasets.distinct`); a run that starts after index 0 (a
    shard, a split's later part) first settles the records before it, unless
    ``distinct`` is the pass that already has (the split's previous part).
    ``exclude`` names files whose answers the run must not repeat either
    (:func:`tsolve.datasets.distinct.excluded_keys`; read before any work).
    """
    for name, v, lo in (("count", count, 0), ("seed", seed, 0), ("workers", workers or 1, 1)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise TsolveError(f"{name}: expected an integer >= {lo}, got {v!r}")
    fam = get_family(family, need="generate")
    opts = dict(options or {})
    cfg = fam.make_options(opts)  # validate in the parent: one-line errors before any work
    keys = parse_balance(fam, balance)
    known = excluded_keys(fam, exclude) if exclude else []
    run_cfg = balanced_config(fam, opts, keys, seed) if keys else cfg
    kind = infer_format(str(out), fmt)
    indices = shard_range(count, shard) if index_range is None else index_range
    to_stdout = str(out) == "-"
    if to_stdout and (resume or kind != "jsonl"):
        raise TsolveError("out: '-' (stdout) works only for jsonl without --resume")
    path = Path(out)
    if not to_stdout and not path.parent.exists():
        raise TsolveError(f"out: directory {str(path.parent)!r} does not exist")
    if resume and kind != "jsonl":
        raise TsolveError(
            f"resume: only jsonl files can be resumed ({kind} is written whole at the end); "
            "rerun without --resume"
        )

    if not to_stdout and kind != "hf" and path.is_dir():
        raise TsolveError(f"out: {str(path)!r} is a directory; give a file name")
    if kind == "hf":  # the folder is checked before any work, and again by the sink
        check_target(path, HF_FOLDER)

    summary = DatasetSummary(fam.name, seed, str(out), kind, indices.start, indices.stop, 1)
    summary.warnings = fam.coverage_warnings(seed, indices.start, len(indices), cfg)
    for line in summary.warnings:
        if on_warning is not None:
            on_warning(line)
    t0 = time.perf_counter()
    point = (
        resume_point(path, fam, run_cfg, seed, indices, summary)
        if resume
        else ResumePoint(indices.start, 0)
    )
    todo = range(point.start, indices.stop)
    total = len(indices)
    done = len(range(indices.start, point.start))

    # Started before the output is touched: a cluster that cannot be reached
    # leaves the file as it was.
    runner = open_engine(engine, workers=workers, address=engine_address)
    summary.workers = runner.slots
    sink: JsonlSink | TableSink
    fh: IO[bytes] | None = None
    try:
        if kind == "parquet":
            sink = ParquetSink(path)
        elif kind == "hf":
            sink = HfSink(path)
        elif to_stdout:
            fh = sys.stdout.buffer
            sink = JsonlSink(fh)
        else:
            try:
                fh = path.open("r+b" if resume and path.exists() else "wb")
                fh.truncate(point.keep)  # resume: drop a partial last line (only now, once valid)
                fh.seek(point.keep)
            except OSError as exc:
                raise TsolveError(f"out: cannot write {str(path)!r} ({exc.strerror})") from None
            sink = JsonlSink(fh, point.newline)
    except BaseException:
        runner.close()
        raise
    good = point.keep  # bytes of whole records in the file
    if progress is not None:
        progress(done, total)
    lost: WorkerLost | None = None
    try:
        resumed = resume and fam.distinct_runs and point.start > indices.start
        if distinct is None and (resumed or known):
            distinct = primed_pass(fam, opts, seed, indices.start, 1, chunk, runner, keys, known)
        if resumed and distinct is not None:
            # the file's records are the ones the pass kept (resume checked them)
            distinct.learn(existing_records(path, point.keep))
        for ch in generate_chunks(
            fam.name, opts, seed, todo, chunk=chunk, engine=runner, balance=keys,
            distinct=distinct,
        ):  # fmt: skip
            good += sink.write(ch)
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
    except WorkerLost as exc:
        lost = exc
    except OSError as exc:  # disk full, file removed under us, ...
        raise TsolveError(f"out: cannot write {str(out)!r} ({exc.strerror or exc})") from None
    finally:
        try:
            _close(sink, fh, path if fh is not None and not to_stdout else None, good)
        finally:
            runner.close()
    summary.seconds = time.perf_counter() - t0
    if not to_stdout and path.exists():
        summary.bytes = _size(path)
    if lost is not None:
        where = (
            f"; {summary.records} records are in {out}: rerun the same command with --resume "
            "to continue"
            if kind == "jsonl" and not to_stdout
            else ""
        )
        raise WorkerLost(f"{lost}{where}")
    return summary


def _size(path: Path) -> int:
    """Bytes of the output: the file, or every file of a ``datasets`` folder."""
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


def _close(sink: JsonlSink | TableSink, fh: IO[bytes] | None, path: Path | None, good: int) -> None:
    """Close the output however the run ended. A jsonl file is cut back to
    ``good`` bytes, the end of the last record written whole, so a Ctrl-C in
    the middle of a write cannot leave a partial line behind."""
    try:
        sink.close()
    finally:
        if fh is not None and path is not None:
            try:
                fh.truncate(good)
            finally:
                fh.close()
