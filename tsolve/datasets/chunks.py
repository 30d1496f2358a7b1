"""Generating records in chunks of consecutive indices, in one process or many.

Record ``i`` is a pure function of ``(seed, i)`` and the options, so which
process makes it does not matter: chunks are computed by a pool and yielded
strictly in index order (a bounded window of in-flight chunks, consumed oldest
first), and the output is the same for any number of workers and on any
engine (:mod:`tsolve.engines`: the local pool or a Ray cluster). Each worker
builds its own generator config and solver state once per run (``_setup``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tsolve.contract import Family, Lazy, get_family
from tsolve.datasets.balance import balanced_config, config_for
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


def generate_line(fam: Family, cfg: Any, seed: int, index: int) -> tuple[str, Any] | str:
    """Record ``index`` as ``(line, summary buckets)``, or why it failed. The one
    place that decides whether a record exists, so resume can tell a record the
    run skipped from a line that went missing. ``cfg`` may be a balanced
    run's :class:`~tsolve.datasets.balance.BalancedConfig`."""
    try:
        rec = fam.make_record(seed, index, config_for(cfg, index))
        return dumps(rec), fam.buckets(rec)
    except TsolveError as exc:
        return str(exc)
    except Exception as exc:  # one bad record must not stop a long run
        return f"{type(exc).__name__}: {exc}"


def _make_chunk(fam: Family, cfg: Any, seed: int, lo: int, hi: int) -> Chunk:
    chunk = Chunk(lo, hi)
    lines: list[str] = []
    for i in range(lo, hi):
        made = generate_line(fam, cfg, seed, i)
        if isinstance(made, str):
            chunk.failures.append((i, made))
            continue
        line, buckets = made
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
) -> Iterator[Chunk]:
    """:class:`Chunk` results covering ``indices`` in index order, computed by
    ``engine`` (default: ``workers`` local processes; this process when
    ``workers`` is 1).

    Engines keep a bounded window of chunks in flight, so memory stays
    bounded however long the range is (``Pool.imap`` would queue every task
    up front). The chunk size only sets how the work is cut, never the bytes.
    ``balance`` names the options balanced by index (:mod:`tsolve.datasets.balance`).
    """
    opts = dict(options or {})
    fam = get_family(family, need="generate")
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
