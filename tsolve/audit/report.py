"""``tsolve audit``: audit every record of a file, whatever its family.

Each record's family (:func:`tsolve.families.family_of`: tsolve's own
``family`` field, or the public benchmarks' own fields) picks its auditor
(:func:`tsolve.audit.base.auditor_for`). As in every batch job, one bad row
does not stop the others: a row that cannot be read, a record whose family has
no auditor yet, one its auditor rejects (``TsolveError``) and, as a backstop,
one on which an auditor crashes (an ``internal error``, which the fuzz suite
treats as a bug) is reported as a :class:`RowError` and the batch goes on.

Every row gives one result, in input order, whatever its id: each verdict
carries the record's own ``id`` value (an integer stays an integer, so the
output joins back to the input), and an id that repeats an earlier row's is
audited like any other and counted in ``AuditReport.repeated`` for the
command's one warning (:class:`tsolve.records.RepeatedIds`).

:func:`iter_audit` streams the results (the CLI prints each as it comes);
:func:`audit` and :func:`audit_file` collect them into an :class:`AuditReport`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.audit.base import VERDICTS, AuditVerdict, auditor_for
from tsolve.contract import family_of
from tsolve.errors import TsolveError, unexpected
from tsolve.records import BadRow, RepeatedIds, iter_json_rows


@dataclass(frozen=True)
class RowError:
    """A row that could not be audited: ``where`` names it (the record's id, or
    its position when it has none), ``message`` is the one-line reason, ``id``
    the record's own id value (None when it has none or could not be read)."""

    where: str
    message: str
    family: str | None = None
    id: Any = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "id": self.id, "family": self.family, "error": self.message}


@dataclass
class AuditReport:
    """Every audited item and every row that could not be audited."""

    items: list[AuditVerdict] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    repeated: RepeatedIds = field(default_factory=RepeatedIds)  # for the one warning

    def add(self, result: AuditVerdict | RowError) -> None:
        self.repeated.note(result.id)
        if isinstance(result, RowError):
            self.errors.append(result)
        else:
            self.items.append(result)

    @property
    def all_ok(self) -> bool:
        """True when every row was audited and every item is ``ok`` (exit code 0)."""
        return not self.errors and all(v.verdict == "ok" for v in self.items)

    def counts(self) -> dict[str, dict[str, int]]:
        """Items per verdict per family (every verdict present, zeros included)."""
        per: dict[str, Counter[str]] = defaultdict(Counter)
        for v in self.items:
            per[v.family][v.verdict] += 1
        return {
            fam: {verdict: c[verdict] for verdict in VERDICTS} for fam, c in sorted(per.items())
        }

    def summary(self) -> dict[str, Any]:
        total = Counter(v.verdict for v in self.items)
        return {
            "items": len(self.items),
            **{verdict: total[verdict] for verdict in VERDICTS},
            "errors": len(self.errors),
            "families": self.counts(),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary(),
            "items": [v.to_json() for v in self.items],
            "errors": [e.to_json() for e in self.errors],
        }


def audit_record(record: dict[str, Any] | BadRow, position: int = 0) -> AuditVerdict | RowError:
    """Audit one row; never raises for bad input (a :class:`RowError` instead)."""
    if isinstance(record, BadRow):
        return RowError(record.where, record.message)
    if not isinstance(record, dict):
        return RowError(
            f"row {position + 1}", f"expected a JSON object, got {type(record).__name__}"
        )
    rid = record.get("id")
    where = f"id {rid!r}" if rid is not None else f"row {position + 1}"
    family: str | None = None
    try:
        family = family_of(record)
        verdict = auditor_for(family)(record)
    except TsolveError as exc:
        return RowError(where, str(exc), family, rid)
    except Exception as exc:  # the backstop: one row never sinks the batch
        return RowError(where, unexpected(exc), family, rid)
    # The record's own id value, whatever the auditor made of it (auditors
    # read ids as text); a reader must be able to find an item without one.
    verdict.id = rid if rid is not None else f"row {position + 1}"
    return verdict


def iter_audit(records: Iterable[dict[str, Any] | BadRow]) -> Iterator[AuditVerdict | RowError]:
    """Audit each row in order, yielding its verdict or its error."""
    for position, record in enumerate(records):
        yield audit_record(record, position)


def audit(records: Iterable[dict[str, Any] | BadRow]) -> AuditReport:
    """Audit every record (rows as :func:`tsolve.records.iter_json_rows` yields
    them, or plain dicts) and collect the report. The garbage collector is left
    alone; a caller may wrap a large batch in
    :func:`tsolve.engines.gc_tuning.fewer_gc_pauses`."""
    report = AuditReport()
    for result in iter_audit(records):
        report.add(result)
    return report


def audit_file(path: str | Path) -> AuditReport:
    """:func:`audit` over a JSON array, JSON object or JSON Lines file (``-``: stdin).

    Raises :class:`TsolveError` when the file itself cannot be read (missing,
    not UTF-8, a malformed JSON array, or no JSON object in it at all)."""
    return audit(read_records(path))


def read_records(path: str | Path) -> list[dict[str, Any] | BadRow]:
    """The rows of ``path``, or a one-line error when the file is not records at all.

    A file with no rows, or in which not a single row is a JSON object, is bad
    input rather than a batch with bad rows: it is most likely not the file
    meant, and "every item is ok" would be vacuously true of it."""
    rows = list(iter_json_rows(path))
    if not rows:
        raise TsolveError(f"file: {str(path)!r} holds no records")
    if all(isinstance(r, BadRow) for r in rows):
        raise TsolveError(f"file: {str(path)!r} holds no JSON object ({rows[0]})")
    return rows
