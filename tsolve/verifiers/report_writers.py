"""Writing a ``tsolve verify`` report while the predictions stream through.

``--format jsonl`` (:class:`JsonlReportWriter`) is the streaming form: one
line per scored item as soon as it is scored (the object ``--format json``
lists under ``items``), and last one ``{"summary": ..., "missing": [...]}``
line. A bad row is no item: it goes to stderr as it is found, one
``error: ...`` line, so the stdout stream holds items and the summary only
(the summary counts the errors; ``--format json`` lists them). Into a file
or a pipe every bad row is written; onto a terminal the first
:data:`SHOWN_ON_A_TERMINAL`, then one line with the number of the others, as
the text report does, since a wrong predictions file makes one per row.

``--format json`` (:class:`JsonReportWriter`) is one document whose summary
comes first, so it cannot be written before the last item is scored; the
items are spooled to a temporary file as they come instead of kept in
memory, and the document is put together at the end, byte for byte what
``json.dumps(report, indent=2)`` of a report holding every item gives. It
lists every error, read back from the report's spill
(:meth:`~tsolve.verifiers.verify_batch.VerifyReport.all_errors`).
"""

from __future__ import annotations

import shutil
import tempfile
from typing import IO, Any, Protocol

from tsolve.contract.item import ItemScore
from tsolve.records import json_text

SHOWN_ON_A_TERMINAL = 20
"""Bad rows shown one by one on a terminal; the others are counted in one line."""


def _json(obj: Any, indent: int | None = None) -> str:
    return json_text(obj, indent)  # the one strict writer (no NaN, surrogates escaped)


def more_line(count: int, shown: int = SHOWN_ON_A_TERMINAL) -> str | None:
    """The line that stands for the errors not shown on a terminal, or None."""
    rest = count - shown
    return f"… {rest} more (all of them: --format json)" if rest > 0 else None


class ReportWriter(Protocol):
    """Where a streamed report goes: ``item`` and ``error`` as they come
    (:func:`tsolve.verifiers.verify_batch.verify`'s ``on_item``/``on_error``), then
    ``finish`` with the report."""

    def item(self, item: ItemScore) -> None: ...

    def error(self, message: str) -> None: ...

    def finish(self, report: Any) -> None: ...


def report_writer(fmt: str, out: IO[str], err: IO[str] | None = None) -> ReportWriter | None:
    """The writer of ``tsolve verify --format fmt`` (None for ``text``, which
    is printed from the summary at the end); ``err`` takes the bad rows of
    ``jsonl`` (default: ``sys.stderr``)."""
    if fmt == "jsonl":
        return JsonlReportWriter(out, err)
    if fmt == "json":
        return JsonReportWriter(out)
    return None


class JsonlReportWriter:
    """Items as JSON Lines on ``out`` as they come, the summary last; bad rows
    as ``error:`` lines on ``err`` (never in the item stream)."""

    def __init__(self, out: IO[str], err: IO[str] | None = None) -> None:
        import sys

        self.out = out
        self.err = sys.stderr if err is None else err
        isatty = getattr(self.err, "isatty", None)
        self.shown = SHOWN_ON_A_TERMINAL if callable(isatty) and isatty() else None
        self.errors = 0

    def item(self, item: ItemScore) -> None:
        self.out.write(_json(item.to_json()) + "\n")

    def error(self, message: str) -> None:
        self.errors += 1
        if self.shown is None or self.errors <= self.shown:
            self.err.write("error: " + " ".join(message.split()) + "\n")

    def finish(self, report: Any) -> None:
        """The closing ``{"summary", "missing"}`` line of ``report`` (a
        :class:`~tsolve.verifiers.verify_batch.VerifyReport`), and on a
        terminal the count of the errors not shown."""
        if self.shown is not None and (more := more_line(self.errors, self.shown)) is not None:
            self.err.write(more + "\n")
        self.out.write(_json({"summary": report.summary(), "missing": report.missing}) + "\n")


_ITEMS = "\x00items\x00"  # stands in for the items while the rest is rendered
_ERRORS = "\x00errors\x00"  # and for the errors
_ITEM_INDENT = "    "  # items sit two levels deep: {"items": [ {...} ]}


class JsonReportWriter:
    """The ``--format json`` document, its items spooled to disk on the way."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        # closed by finish(); on an error before it, the file goes with the object
        self._spool = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self._count = 0

    def item(self, item: ItemScore) -> None:
        text = _json(item.to_json(), indent=2).replace("\n", "\n" + _ITEM_INDENT)
        self._spool.write((",\n" if self._count else "") + _ITEM_INDENT + text)
        self._count += 1

    def error(self, message: str) -> None:
        """Errors are listed from the report at the end."""

    def finish(self, report: Any) -> None:
        """Write the document: ``report.to_json(detail=False)`` with every
        error (streamed from the report, not listed in memory), the spooled
        items and the missing ids after the errors."""
        doc = {"summary": report.summary(), "errors": _ERRORS, "items": _ITEMS,
               "missing": report.missing}  # fmt: skip
        head, rest = _json(doc, indent=2).split(_json(_ERRORS))
        middle, tail = rest.split(_json(_ITEMS))
        self.out.write(head)
        first = True
        for message in report.all_errors():  # as json.dumps(indent=2) lays out a list
            self.out.write(("[\n" if first else ",\n") + "    " + _json(message))
            first = False
        self.out.write("[]" if first else "\n  ]")
        self.out.write(middle)
        if self._count:
            self.out.write("[\n")
            self._spool.seek(0)
            shutil.copyfileobj(self._spool, self.out)
            self.out.write("\n  ]")
        else:
            self.out.write("[]")
        self.out.write(tail + "\n")
        self._spool.close()
