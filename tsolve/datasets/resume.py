"""``--resume``: check that an existing file is a prefix of this run, and say
where to go on.

The file is validated without touching it: every complete line must be UTF-8
JSON, a record of this family and seed, with indices strictly increasing
inside the shard; every index missing between them must be one that fails to
generate (a skipped record), else a line was deleted and the file is refused;
all lines must end alike (a CRLF file stays CRLF; mixed endings are refused);
and the last record and the records on lines 1, 2, 4, 8, ... are regenerated
(at the redraw attempt each names, :mod:`tsolve.datasets.distinct`)
and compared byte for byte (so a file written with other options, or by a
changed generator, is refused rather than extended). Only then does the writer
cut off a partial last line (an interrupted write, whatever its bytes) and
continue at the next index.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tsolve.contract import Family
from tsolve.datasets.chunks import generate_line
from tsolve.datasets.summary import DatasetSummary
from tsolve.errors import TsolveError
from tsolve.records import MAX_LINE_BYTES, loads_row

# The longest line ``--resume`` reads is every reader's (records.MAX_LINE_BYTES,
# 64 MiB): records are a few kilobytes, and a longer line is not one tsolve wrote.


def _complete_size(path: Path) -> int:
    """The file's size up to and including its last newline: what is left
    after dropping a partial last line (an interrupted write)."""
    with path.open("rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        pos = size
        block = 1 << 16
        while pos > 0:
            lo = max(0, pos - block)
            fh.seek(lo)
            k = fh.read(pos - lo).rfind(b"\n")
            if k >= 0:
                return lo + k + 1
            pos = lo
        return 0


def _parse_record_line(raw: bytes, where: str) -> tuple[dict[str, Any], str]:
    """One JSON Lines record (its bytes without the line ending) -> ``(record,
    text)``; anything else is a one-line :class:`TsolveError` beginning with
    ``where``. Resume must not guess, so a bad line stops it (the readers'
    reasons, from :func:`tsolve.records.loads_row`, say what is wrong)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TsolveError(
            f"{where} is not UTF-8 text (byte {exc.start + 1} is 0x{raw[exc.start]:02x}); "
            "is this a file tsolve dataset wrote?"
        ) from None
    rec, why = loads_row(text)
    if why is not None:
        raise TsolveError(f"{where} is not JSON: {why}; is this a file tsolve dataset wrote?")
    if not isinstance(rec, dict):
        raise TsolveError(f"{where} is not a JSON object")
    return rec, text


def _ending_name(ending: bytes) -> str:
    return "CRLF" if ending == b"\r\n" else "LF"


@dataclass
class ResumePoint:
    """Where a run continues: the next index, the byte size to keep (a
    partial last line is cut off), and the line ending new records get."""

    start: int
    keep: int
    newline: bytes = b"\n"


def existing_records(path: Path, keep: int) -> Iterator[dict[str, Any]]:
    """The records of the first ``keep`` bytes of ``path``, a file
    :func:`resume_point` has validated (so every line is a record)."""
    with path.open("rb") as fh:
        while fh.tell() < keep:
            rec, _ = loads_row(fh.readline(MAX_LINE_BYTES + 1).decode("utf-8").rstrip("\r\n"))
            if isinstance(rec, dict):
                yield rec


def resume_point(
    path: Path, fam: Family, cfg: Any, seed: int, indices: range, summary: DatasetSummary
) -> ResumePoint:
    """Validate an existing file, without changing it, and say where to go on.

    The kept lines must be exactly what this run wrote, up to records it
    skipped: same seed, indices strictly increasing inside the shard, each
    missing index one that fails to generate (else a line was deleted and the
    file is not a prefix of this run), one line ending throughout, and the
    sampled lines byte-equal to a regeneration. The records found are counted
    into ``summary``.
    """
    if not path.exists():
        return ResumePoint(indices.start, 0)
    if not path.is_file():
        raise TsolveError(f"out: {str(path)!r} is not a regular file")
    keep = _complete_size(path)
    summary.dropped_bytes = path.stat().st_size - keep
    prev: int | None = None
    last_line: str | None = None
    newline: bytes | None = None
    probes: list[tuple[int, str]] = []
    with path.open("rb") as fh:
        lineno = 0
        while fh.tell() < keep:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            lineno += 1
            where = f"resume: {path.name} line {lineno}"
            if not raw.endswith(b"\n"):
                raise TsolveError(f"{where} is longer than {MAX_LINE_BYTES} bytes; not a record")
            ending = b"\r\n" if raw.endswith(b"\r\n") else b"\n"
            if newline is None:
                newline = ending
            elif ending != newline:
                raise TsolveError(
                    f"{where} ends in {_ending_name(ending)} but line 1 in "
                    f"{_ending_name(newline)}: mixed line endings; convert the file to one "
                    "convention before resuming"
                )
            rec, text = _parse_record_line(raw[: -len(ending)], where)
            try:
                idx = fam.index_of(rec)
            except TsolveError as exc:
                raise TsolveError(f"{where}: {exc}") from None
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
            expected = indices.start if prev is None else prev + 1
            for missing in range(expected, idx):
                if not isinstance(generate_line(fam, cfg, seed, missing), str):
                    raise TsolveError(
                        f"{where} has index {idx}, but record {missing} is missing and seed "
                        f"{seed} generates it: a line was deleted or lost, so the file is not "
                        "a prefix of this run; restore it, or write a new --out"
                    )
            summary.gaps += idx - expected
            try:
                buckets = fam.buckets(rec)
            except Exception as exc:
                raise TsolveError(
                    f"{where} is not a {fam.name} record ({type(exc).__name__}: {exc})"
                ) from None
            summary.existing += 1
            summary.add(buckets)
            if lineno & (lineno - 1) == 0:  # lines 1, 2, 4, 8, ...: a log-size sample
                probes.append((idx, text))
            prev, last_line = idx, text
    point = ResumePoint(indices.start, keep, newline or b"\n")
    if prev is None or last_line is None:
        return point
    if not probes or probes[-1][0] != prev:
        probes.append((prev, last_line))
    for idx, text in probes:
        rec, _ = loads_row(text)
        made = generate_line(fam, cfg, seed, idx, fam.redraw_of(rec))
        if isinstance(made, str) or made[0] != text:
            raise TsolveError(
                f"resume: record {idx} of {path.name} is not what seed {seed} and these options "
                "generate (other options, or another tsolve version); rerun with the original "
                "options or write a new --out"
            )
    point.start = prev + 1
    return point
