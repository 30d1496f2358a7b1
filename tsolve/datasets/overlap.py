"""``tsolve dataset overlap TRAIN EVAL``: eval records that repeat a train record.

A model trained on one tsolve run and evaluated on another has learnt the
eval set wherever the two share content, whatever the records' ids: the same
facts in another order, the same puzzle in the other wording, the same SPAN
question or logistics scenario under another id. :func:`find_overlap`
compares the two files by each record's content fingerprint
(``Family.content_fingerprint``, :mod:`tsolve.generators.fingerprints`), keyed
by family so two families never match each other.

The train file is held as one fingerprint per distinct record (memory grows
with the train file, not the eval file, which is streamed). Rows that cannot
be read, or whose family is unknown, are reported and skipped; the rest go on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.contract import family_of, get_family
from tsolve.errors import TsolveError
from tsolve.records import BadRow, iter_json_rows

#: Overlapping pairs kept with their ids; the rest are only counted.
MAX_PAIRS = 1000


@dataclass
class OverlapReport:
    """What :func:`find_overlap` found. ``overlap`` is the number of eval
    records whose content equals some train record's."""

    train_records: int = 0
    eval_records: int = 0
    overlap: int = 0
    by_family: dict[str, Counter[str]] = field(default_factory=dict)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    repeats: Counter[str] = field(default_factory=Counter)
    bad_rows: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """1 if any eval record repeats a train record; else 2 if a row could
        not be checked (the files may overlap there); else 0."""
        if self.overlap:
            return 1
        return 2 if self.bad_rows else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "overlap": self.overlap,
            "train_records": self.train_records,
            "eval_records": self.eval_records,
            "by_family": {
                name: {"eval_records": c["eval"], "overlap": c["overlap"]}
                for name, c in sorted(self.by_family.items())
            },
            "pairs": self.pairs,
            "pairs_truncated": self.overlap > len(self.pairs),
            "repeats_within": {"train": self.repeats["train"], "eval": self.repeats["eval"]},
            "bad_rows": self.bad_rows,
        }


def _keyed(row: dict[str, Any]) -> tuple[str, str]:
    """(family, family-qualified fingerprint) of one record."""
    name = family_of(row)
    fam = get_family(name)
    return name, f"{name}:{fam.content_fingerprint(row)}"


def _rows(
    path: str | Path, what: str, report: OverlapReport
) -> Iterator[tuple[int, dict[str, Any], str, str]]:
    """(row number, record, family, key) for each record of ``path`` that can
    be fingerprinted; the others go to ``report.bad_rows``."""
    for n, row in enumerate(iter_json_rows(path), 1):
        if isinstance(row, BadRow):
            report.bad_rows.append(f"{what}: {row}")
            continue
        try:
            name, key = _keyed(row)
        except TsolveError as exc:
            report.bad_rows.append(f"{what}: row {n}: {exc}")
            continue
        yield n, row, name, key


def find_overlap(train: str | Path, eval_: str | Path) -> OverlapReport:
    """Compare every record of ``eval_`` with those of ``train`` by content
    (see the module docstring). Files are any format tsolve reads (JSON Lines,
    a JSON array, Parquet, a ``datasets`` folder); a file that cannot be read
    at all is a one-line :class:`TsolveError`."""
    for path, what in ((train, "train"), (eval_, "eval")):
        if str(path) != "-" and not Path(path).exists():
            raise TsolveError(f"{what}: no such file {str(path)!r}")
    report = OverlapReport()
    seen: dict[str, tuple[Any, int]] = {}  # key -> (first train id, its row)
    for n, row, _name, key in _rows(train, "train", report):
        report.train_records += 1
        if key in seen:
            report.repeats["train"] += 1
        else:
            seen[key] = (row.get("id"), n)
    eval_seen: set[str] = set()
    for n, row, name, key in _rows(eval_, "eval", report):
        report.eval_records += 1
        counts = report.by_family.setdefault(name, Counter())
        counts["eval"] += 1
        if key in eval_seen:
            report.repeats["eval"] += 1
        eval_seen.add(key)
        hit = seen.get(key)
        if hit is None:
            continue
        report.overlap += 1
        counts["overlap"] += 1
        if len(report.pairs) < MAX_PAIRS:
            report.pairs.append(
                {"family": name, "eval_id": row.get("id"), "eval_row": n,
                 "train_id": hit[0], "train_row": hit[1]}
            )  # fmt: skip
    return report
