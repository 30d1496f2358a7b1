"""Generating records in chunks of consecutive indices, in one process or many.

Record ``i`` is a pure function of ``(seed, i)`` and the options, so which
process makes it does not matter: chunks are computed by a pool and yielded
strictly in index order (a bounded window of in-flight chunks, consumed oldest
first), and the output is the same for any number of workers and on any
engine (:mod:`tsolve.engines`: the local pool or a Ray cluster). Each worker
builds its own generator config and solver state once per run (``_setup``).

Chunks pass through the run's acceptance pass (:mod:`tsolve.datasets.distinct`)
in index order before they are yielded: a record that repeats an earlier
one's answer is drawn again here, in this process, so no worker count, chunk
size or starting index changes which records are kept.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tsolve.contract import Family, Lazy, get_family
from tsolve.datasets.balance import balanced_config, config_for
from tsolve.datasets.distinct import DistinctPass, Key, key_of, replace_lines
from tsolve.engines.base import Engine
from tsolve.engines.local import LocalEngine
from tsolve.errors import TsolveError
from tsolve.records import dumps


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
    keys: list[Key] = field(default_factory=list)  # per written record, for the pass


def _setup(
    context: tuple[str, dict[str, Any], int, tuple[str, ...]],
) -> tuple[Family, Any, int] | str:
    """Per-process set-up: the family's config (and so its solver state) is
    built once per worker process, never shared; a balanced run builds one
    per stratum (:mod:`tsolve.datasets.balance`). A failure here is kept and
    reported per record, so a family that cannot load in a worker shows up as
    failed records rather than as a dead pool."""
    family, options, seed, balance = context
    try:
        fam = get_family(family, need="generate")
        if balance:
            return fam, balanced_config(fam, options, balance, seed), seed
        return fam, fam.make_options(options), seed
    except Exception as exc:
        return f"worker set-up failed: {type(exc).__name__}: {exc}"


def make_one(
    fam: Family, cfg: Any, seed: int, index: int, redraw: int = 0
) -> tuple[dict[str, Any], str] | str:
    """Attempt ``redraw`` of record ``index`` as ``(record, line)``, or why it
    failed (see :func:`generate_line`)."""
    try:
        rec = fam.make_record(seed, index, config_for(cfg, index), redraw)
        return rec, dumps(rec)
    except TsolveError as exc:
        return str(exc)
    except Exception as exc:  # one bad record must not stop a long run
        return f"{type(exc).__name__}: {exc}"


def generate_line(
    fam: Family, cfg: Any, seed: int, index: int, redraw: int = 0
) -> tuple[str, Any] | str:
    """Record ``index`` (at redraw attempt ``redraw``) as ``(line, summary
    buckets)``, or why it failed. The one place that decides whether a record
    exists, so resume can tell a record the run skipped from a line that went
    missing. ``cfg`` may be a balanced run's
    :class:`~tsolve.datasets.balance.BalancedConfig`."""
    made = make_one(fam, cfg, seed, index, redraw)
    if isinstance(made, str):
        return made
    try:
        return made[1], fam.buckets(made[0])
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def _make_chunk(fam: Family, cfg: Any, seed: int, lo: int, hi: int) -> Chunk:
    chunk = Chunk(lo, hi)
    lines: list[str] = []
    for i in range(lo, hi):
        made = make_one(fam, cfg, seed, i)
        if isinstance(made, str):
            chunk.failures.append((i, made))
            continue
        rec, line = made
        try:
            buckets = fam.buckets(rec)
        except Exception as exc:
            chunk.failures.append((i, f"{type(exc).__name__}: {exc}"))
            continue
        if fam.distinct_runs:
            chunk.keys.append(key_of(fam, rec))
        lines.append(line)
        chunk.indices.append(i)
        for key, values in buckets.items():
            chunk.counts.setdefault(key, Counter()).update(values)
    chunk.blob = "".join(x + "\n" for x in lines).encode("utf-8")
    return chunk


def _run_chunk(state: tuple[Family, Any, int] | str, bounds: tuple[int, int]) -> Chunk:
    lo, hi = bounds
    if isinstance(state, str):
        return Chunk(lo, hi, failures=[(i, state) for i in range(lo, hi)])
    fam, cfg, seed = state
    return _make_chunk(fam, cfg, seed, lo, hi)


def generate_chunks(
    family: str,
    options: Mapping[str, Any] | None,
    seed: int,
    indices: range,
    workers: int = 1,
    chunk: int | None = None,
    engine: Engine | None = None,
    balance: tuple[str, ...] = (),
    distinct: DistinctPass | None = None,
) -> Iterator[Chunk]:
    """:class:`Chunk` results covering ``indices`` in index order, computed by
    ``engine`` (default: ``workers`` local processes; this process when
    ``workers`` is 1).

    Engines keep a bounded window of chunks in flight, so memory stays
    bounded however long the range is (``Pool.imap`` would queue every task
    up front). The chunk size only sets how the work is cut, never the bytes.
    ``balance`` names the options balanced by index (:mod:`tsolve.datasets.balance`).

    For a ``distinct`` family every chunk goes through the acceptance pass
    (:mod:`tsolve.datasets.distinct`). ``distinct`` is a pass that already
    knows every record kept before ``indices.start`` (resume); without one,
    a range that starts after 0 first runs a new pass over the records
    before it (made, not yielded).
    """
    opts = dict(options or {})
    fam = get_family(family, need="generate")
    if not fam.distinct_runs:
        yield from _raw_chunks(fam, opts, seed, indices, workers, chunk, engine, balance)
        return
    if distinct is None:
        distinct = primed_pass(fam, opts, seed, indices.start, workers, chunk, engine, balance)
    yield from _settled(
        fam, opts, seed, balance, distinct,
        _raw_chunks(fam, opts, seed, indices, workers, chunk, engine, balance),
    )  # fmt: skip


def run_records(
    family: str,
    options: Mapping[str, Any] | None,
    seed: int,
    n: int,
    known: Iterable[Key] = (),
) -> tuple[list[dict[str, Any]], DistinctPass | None]:
    """Records ``0 .. n-1`` of run ``seed`` as ``tsolve dataset make`` writes
    them (in this process; a record that fails is left out, as the run
    reports and skips it), with the run's acceptance pass (None for a family
    whose runs are not distinct). ``known`` are answers no record may have,
    as ``--exclude`` gives them (:func:`tsolve.datasets.distinct.excluded_keys`);
    the pass's ``excluded`` says how many first draws had one."""
    opts = dict(options or {})
    fam = get_family(family, need="generate")
    distinct = primed_pass(fam, opts, seed, 0, known=known) if fam.distinct_runs else None
    out: list[dict[str, Any]] = []
    for ch in generate_chunks(family, opts, seed, range(n), distinct=distinct):
        out.extend(json.loads(line) for line in ch.blob.decode("utf-8").split("\n") if line)
    return out, distinct


def primed_pass(
    fam: Family,
    opts: dict[str, Any],
    seed: int,
    upto: int,
    workers: int = 1,
    chunk: int | None = None,
    engine: Engine | None = None,
    balance: tuple[str, ...] = (),
    known: Iterable[Key] = (),
) -> DistinctPass:
    """The acceptance pass of run ``seed`` after records ``0 .. upto-1``
    (made on ``engine`` and settled, not kept): where a shard, a split's later
    part or a resumed shard starts. ``known`` are answers it holds from the
    start (``--exclude``)."""
    distinct = DistinctPass(fam)
    for key in known:
        distinct.keep(key)
    if upto > 0:
        prefix = range(0, upto)
        made = _raw_chunks(fam, opts, seed, prefix, workers, chunk, engine, balance)
        for _ in _settled(fam, opts, seed, balance, distinct, made):
            pass
    return distinct


def _settled(
    fam: Family,
    opts: dict[str, Any],
    seed: int,
    balance: tuple[str, ...],
    distinct: DistinctPass,
    chunks: Iterator[Chunk],
) -> Iterator[Chunk]:
    """``chunks`` through the acceptance pass, in order: repeats redrawn here."""
    state: tuple[Family, Any, int] | str | None = None

    def make(index: int, attempt: int) -> tuple[dict[str, Any], str] | str:
        nonlocal state
        if state is None:  # the config, built in this process on the first redraw
            state = _setup((fam.name, opts, seed, balance))
        if isinstance(state, str):
            return state
        return make_one(state[0], state[1], seed, index, attempt)

    for ch in chunks:
        changes: dict[int, tuple[dict[str, Any], str] | str] = {}
        for i, key in zip(ch.indices, ch.keys, strict=True):
            settled = distinct.settle(i, key, make)
            if settled is not None:
                changes[i] = settled
        if changes:
            ch.blob, ch.indices, failed = replace_lines(fam, ch.blob, ch.indices, ch.counts,
                                                        changes)  # fmt: skip
            ch.failures = sorted(ch.failures + failed)
        ch.keys = []
        yield ch


def _raw_chunks(
    fam: Family,
    opts: dict[str, Any],
    seed: int,
    indices: range,
    workers: int,
    chunk: int | None,
    engine: Engine | None,
    balance: tuple[str, ...],
) -> Iterator[Chunk]:
    """The chunks as the workers make them (attempt 0 of every record)."""
    n = len(indices)
    if engine is None or (isinstance(engine, LocalEngine) and n <= 1):
        engine = LocalEngine(workers if engine is None and n > 1 else 1)  # 1: this process
    size = chunk or max(1, min(64, n // (engine.slots * 32)))
    bounds = ((lo, min(lo + size, indices.stop)) for lo in range(indices.start, indices.stop, size))
    yield from engine.map(
        _setup,
        _run_chunk,
        (fam.name, opts, seed, tuple(balance)),
        bounds,
        describe=_describe_bounds,
        preload=[__name__] + ([fam.generate.module] if isinstance(fam.generate, Lazy) else []),
    )


def _describe_bounds(bounds: tuple[int, int]) -> str:
    lo, hi = bounds
    return f"record {lo}" if hi - lo == 1 else f"records {lo}..{hi - 1}"
