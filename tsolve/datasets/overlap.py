"""``tsolve dataset overlap TRAIN EVAL``: eval records that repeat a train record.

A model trained on one tsolve run and evaluated on another has learnt the
eval set wherever the two share content, whatever the records' ids: the same
facts in another order, the same puzzle in the other wording, the same SPAN
question or logistics scenario under another id. :func:`find_overlap`
compares the two files by each record's content fingerprint
(``Family.content_fingerprint``, :mod:`tsolve.generators.fingerprints`), keyed
by family so two families never match each other.

It also counts, under ``answer_overlap``, the eval records whose
*answer-determining* content repeats a train record's
(``Family.answer_content_fingerprint``, each family's ``fingerprint.py``): a
SPAN question with the same calendars, reference day and offset or festival,
whatever candidate a polar item offers; a time puzzle with the same facts in
any order and either style; a logistics item with the same scenario and
asked minute, whatever its objects are named. A model that learnt those train
records has learnt these eval answers, though the questions differ. Every
record that overlaps by content overlaps by answer too.

The train file is held as two fingerprints per distinct record; the eval
file is streamed, keeping one fingerprint per distinct record (to count its
repeats within), so memory grows with the distinct records, never with bad
rows or pairs. Rows that cannot
be read, or whose family is unknown, are counted and skipped, and the first
:data:`MAX_BAD_ROWS` are named; the rest go on. Standard input can be one of
the two files, not both (it can be read only once).
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
#: Bad rows named in the report; the rest are only counted, so a file of
#: nothing but bad rows costs a count, not a copy of itself.
MAX_BAD_ROWS = 20
#: What decides the exit status (``--by``): overlap by content, or by answer.
OVERLAP_KINDS = ("content", "answer")
#: Names of standard input: ``-`` and the device files that are the same stream.
_STDIN = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


@dataclass
class OverlapReport:
    """What :func:`find_overlap` found. ``overlap`` is the number of eval
    records whose content equals some train record's; ``answer_overlap`` the
    number whose answer-determining content does (at least ``overlap``).
    ``by`` says which of the two decides :attr:`exit_code`."""

    train_records: int = 0
    eval_records: int = 0
    overlap: int = 0
    answer_overlap: int = 0
    by_family: dict[str, Counter[str]] = field(default_factory=dict)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    answer_pairs: list[dict[str, Any]] = field(default_factory=list)
    repeats: Counter[str] = field(default_factory=Counter)
    bad_rows: list[str] = field(default_factory=list)
    bad_row_count: int = 0
    by: str = "content"

    @property
    def exit_code(self) -> int:
        """1 if any eval record repeats a train record (by content, or by
        answer with ``by="answer"``); else 2 if a row could not be checked
        (the files may overlap there); else 0."""
        if self.overlap or (self.by == "answer" and self.answer_overlap):
            return 1
        return 2 if self.bad_row_count else 0

    def bad(self, line: str) -> None:
        """Count a row that could not be checked; name the first few."""
        self.bad_row_count += 1
        if len(self.bad_rows) < MAX_BAD_ROWS:
            self.bad_rows.append(line)

    def to_json(self) -> dict[str, Any]:
        return {
            "overlap": self.overlap,
            "answer_overlap": self.answer_overlap,
            "train_records": self.train_records,
            "eval_records": self.eval_records,
            "by_family": {
                name: {
                    "eval_records": c["eval"],
                    "overlap": c["overlap"],
                    "answer_overlap": c["answer"],
                }
                for name, c in sorted(self.by_family.items())
            },
            "pairs": self.pairs,
            "pairs_truncated": self.overlap > len(self.pairs),
            "answer_pairs": self.answer_pairs,
            "answer_pairs_truncated": self.answer_overlap > len(self.answer_pairs),
            "repeats_within": {"train": self.repeats["train"], "eval": self.repeats["eval"]},
            "bad_rows": self.bad_rows,
            "bad_row_count": self.bad_row_count,
            "bad_rows_truncated": self.bad_row_count > len(self.bad_rows),
            "complete": self.bad_row_count == 0,
        }


def _keyed(row: dict[str, Any]) -> tuple[str, str, str]:
    """(family, family-qualified content key, family-qualified answer key) of one record."""
    name = family_of(row)
    fam = get_family(name)
    return (
        name,
        f"{name}:{fam.content_fingerprint(row)}",
        f"{name}:{fam.answer_content_fingerprint(row)}",
    )


def _rows(
    path: str | Path, what: str, report: OverlapReport
) -> Iterator[tuple[int, dict[str, Any], str, str, str]]:
    """(row number, record, family, content key, answer key) for each record
    of ``path`` that can be fingerprinted; the others go to ``report.bad``."""
    for n, row in enumerate(iter_json_rows(path), 1):
        if isinstance(row, BadRow):
            report.bad(f"{what}: {row}")
            continue
        try:
            name, key, answer_key = _keyed(row)
        except TsolveError as exc:
            report.bad(f"{what}: row {n}: {exc}")
            continue
        yield n, row, name, key, answer_key


def find_overlap(train: str | Path, eval_: str | Path, by: str = "content") -> OverlapReport:
    """Compare every record of ``eval_`` with those of ``train`` by content
    and by answer (see the module docstring). Files are any format tsolve
    reads (JSON Lines, a JSON array, Parquet, a ``datasets`` folder; ``-``
    for standard input, as one of the two); a file that cannot be read at all
    is a one-line :class:`TsolveError`. ``by`` (``content`` or ``answer``)
    says which overlap makes :attr:`OverlapReport.exit_code` 1."""
    if by not in OVERLAP_KINDS:
        raise TsolveError(f"by: expected one of {', '.join(OVERLAP_KINDS)}, got {by!r}")
    if str(train) in _STDIN and str(eval_) in _STDIN:
        raise TsolveError(
            "eval: standard input can be read once; give TRAIN or EVAL as a file, not both as '-'"
        )
    for path, what in ((train, "train"), (eval_, "eval")):
        if str(path) != "-" and not Path(path).exists():
            raise TsolveError(f"{what}: no such file {str(path)!r}")
    report = OverlapReport(by=by)
    seen: dict[str, tuple[Any, int]] = {}  # key -> (first train id, its row)
    seen_answers: dict[str, tuple[Any, int]] = {}
    for n, row, _name, key, answer_key in _rows(train, "train", report):
        report.train_records += 1
        if key in seen:
            report.repeats["train"] += 1
        else:
            seen[key] = (row.get("id"), n)
        seen_answers.setdefault(answer_key, (row.get("id"), n))
    eval_seen: set[str] = set()
    for n, row, name, key, answer_key in _rows(eval_, "eval", report):
        report.eval_records += 1
        counts = report.by_family.setdefault(name, Counter())
        counts["eval"] += 1
        if key in eval_seen:
            report.repeats["eval"] += 1
        eval_seen.add(key)
        answer_hit = seen_answers.get(answer_key)
        if answer_hit is not None:
            report.answer_overlap += 1
            counts["answer"] += 1
            if len(report.answer_pairs) < MAX_PAIRS:
                report.answer_pairs.append(_pair(name, row, n, answer_hit))
        hit = seen.get(key)
        if hit is None:
            continue
        report.overlap += 1
        counts["overlap"] += 1
        if len(report.pairs) < MAX_PAIRS:
            report.pairs.append(_pair(name, row, n, hit))
    return report


def _pair(name: str, row: dict[str, Any], n: int, hit: tuple[Any, int]) -> dict[str, Any]:
    return {"family": name, "eval_id": row.get("id"), "eval_row": n,
            "train_id": hit[0], "train_row": hit[1]}  # fmt: skip
