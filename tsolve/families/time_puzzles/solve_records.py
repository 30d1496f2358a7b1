"""``tsolve solve``: recompute the answer sets of a file of puzzle records.

The batch policy lives here, not in the CLI. Every row is solved, in input
order, whatever its id: an id that repeats an earlier row's is solved like any
other, and counted (:class:`tsolve.records.RepeatedIds`) for the command's one
warning. A row that cannot be read or solved (malformed JSON, a record the
solver rejects, even an unexpected crash) is reported as :class:`Skipped` and
the batch goes on. A
batch is clean only when every row was solved to the end: skipped rows,
answer sets cut short (status ``partial`` or ``timeout``: an unfinished answer
set is not a result) and, with ``check``, stored answers that differ from the
recomputed ones each count as a problem, and any problem makes the command
exit with 1. ``tsolve solve --text`` uses the same policy for puzzles written
in English (:mod:`tsolve.families.time_puzzles.solve_text`); with ``strict``, a puzzle with
a sentence that was not read counts as a problem too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError, unexpected
from tsolve.families.time_puzzles.solve import solve_record
from tsolve.records import BadRow, RepeatedIds, counted_rows, iter_json_rows
from tsolve.solver.backend_names import check_backend

UNFINISHED = ("partial", "timeout")
"""Statuses of an enumeration stopped before its end by the time limit."""


@dataclass(frozen=True)
class Skipped:
    """A row that was not solved; ``message`` is one line naming the row."""

    message: str

    def __str__(self) -> str:
        return self.message


@dataclass
class SolveReport:
    """How a batch went: the results (when kept), the skipped rows, and the
    counts that decide the exit code."""

    check: bool = False
    strict: bool = False  # text puzzles: an unread sentence is a problem
    results: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    differing: int = 0  # with ``check``: stored answers that differ
    same: int = 0  # with ``check``: stored answers the solver confirmed
    solved: int = 0  # rows solved (kept in ``results`` or not)
    unfinished: int = 0  # answer sets cut short by the time limit
    with_unread: int = 0  # text puzzles with a sentence that was not read
    repeated: RepeatedIds = field(default_factory=RepeatedIds)  # for the one warning

    @property
    def problems(self) -> int:
        """Rows that make the batch fail: skipped, unfinished, (with ``check``)
        differing or (with ``strict``) not fully read."""
        return (len(self.skipped) + self.unfinished + (self.differing if self.check else 0)
                + (self.with_unread if self.strict else 0))  # fmt: skip

    @property
    def exit_code(self) -> int:
        """0 for a clean batch, 1 when any row is a problem."""
        return 1 if self.problems else 0


def solve_row(
    row: dict[str, Any] | BadRow,
    backend: str = "cpsat",
    limit: int | None = None,
    time_limit: float | None = None,
    solve: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> dict[str, Any] | Skipped:
    """One row's :func:`tsolve.families.time_puzzles.solve.solve_record` result (or
    ``solve``'s, when given), or why it was skipped. The result's ``id`` is
    the row's own value (the solvers read ids as text; an integer id must stay
    an integer so that the output joins back to the input)."""
    if isinstance(row, BadRow):
        return Skipped(str(row))
    try:
        out = solve(row) if solve is not None else solve_record(row, backend, limit, time_limit)
        if row.get("id") is not None and "id" in out:
            out["id"] = row["id"]
        return out
    except TsolveError as exc:
        msg = str(exc)
        return Skipped(msg if msg.startswith("record") else f"record {row.get('id')!r}: {msg}")
    except Exception as exc:  # the backstop: one row never sinks the batch
        return Skipped(f"record {row.get('id')!r}: {unexpected(exc)}")


def solve_records(
    rows: Iterable[dict[str, Any] | BadRow],
    backend: str = "cpsat",
    limit: int | None = None,
    time_limit: float | None = None,
    check: bool = False,
    on_outcome: Callable[[dict[str, Any] | Skipped], None] | None = None,
    keep_results: bool = True,
    solve: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    strict: bool = False,
) -> SolveReport:
    """Solve every row (see the module docstring for the policy); ``solve``
    replaces :func:`~tsolve.families.time_puzzles.solve.solve_record` for rows that are not
    records (puzzle texts).

    ``on_outcome`` sees each row's result or :class:`Skipped` as soon as it is
    known, in input order (the CLI streams JSON Lines and error lines through
    it); ``keep_results=False`` leaves :attr:`SolveReport.results` empty, so a
    streamed batch holds no result in memory."""
    check_backend(backend)
    report = SolveReport(check=check, strict=strict)
    for row in rows:
        outcome = solve_row(row, backend, limit, time_limit, solve)
        if isinstance(outcome, Skipped):
            report.skipped.append(outcome)
        else:
            report.solved += 1
            report.differing += outcome.get("matches") is False
            report.same += outcome.get("matches") is True
            report.unfinished += outcome["status"] in UNFINISHED
            report.with_unread += bool(outcome.get("unread"))
            if keep_results:
                report.results.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    return report


def solve_file(
    path: str | Path,
    backend: str = "cpsat",
    limit: int | None = None,
    time_limit: float | None = None,
    check: bool = False,
    on_outcome: Callable[[dict[str, Any] | Skipped], None] | None = None,
    keep_results: bool = True,
    track: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
) -> SolveReport:
    """:func:`solve_records` over a file of records (JSON, JSON array or JSONL;
    ``-`` is stdin). A repeated id is solved like any other row and counted in
    ``report.repeated``; a file with no row at all is a :class:`TsolveError`.
    ``track`` wraps the stream of rows (the CLI passes a progress bar)."""
    repeated = RepeatedIds()
    rows: Iterable[Any] = counted_rows(iter_json_rows(path), str(path), repeated)
    if track is not None:
        rows = track(rows)
    report = solve_records(rows, backend, limit, time_limit, check, on_outcome, keep_results)
    report.repeated = repeated
    return report
