"""``tsolve solve --text`` / ``--text-file``: solve puzzles written in English.

The text is read into facts by :func:`tsolve.families.time_puzzles.parse.read_puzzle`,
and the facts go through the same path as a record's
(:func:`~tsolve.families.time_puzzles.solve.puzzle_from_record`, :func:`solve_puzzle`), so
the answer set and its status mean what they mean for ``tsolve solve FILE``.
The result also lists every fact with the sentence it was read from and every
sentence that was not read: an unread sentence may be a constraint tsolve
missed, and then the answer set is too large, so it is never hidden. Nor is
such a reading ever called complete: its status is ``partial-reading``
(:data:`PARTIAL_READING`), ``complete`` is false, the solver's own status for
the facts read is ``solver_status``, and the batch fails (exit 1), however
the solver's search went.

A file of puzzles (:func:`text_puzzles`): JSON, JSON Lines, Parquet or a
``datasets`` folder holds one puzzle per row, in its ``text`` field (or
``prompt``, so tsolve's own records read back); any other file is plain text,
one puzzle per paragraph, or, when it has a line of three or more dashes, one
puzzle between such lines (so a puzzle may span several paragraphs, as
tsolve's prompts do); ``-`` reads plain text from stdin.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain, iso
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.solve import answers_iso, puzzle_from_record, solve_puzzle
from tsolve.families.time_puzzles.solve_records import Skipped, SolveReport, solve_records
from tsolve.records import BadRow, RepeatedIds, counted_rows, iter_json_rows
from tsolve.records.text_source import read_text_source

_RECORD_SUFFIXES = (".json", ".jsonl", ".parquet")
PARTIAL_READING = "partial-reading"
"""The status of a puzzle text with a sentence that was not read: its answers
are those of the facts read, a superset of the text's if the sentence held one."""
_SEPARATOR = re.compile(r"^\s*-{3,}\s*$", re.MULTILINE)


def solve_text(
    text: str,
    puzzle_id: str = "text",
    backend: str = "cpsat",
    limit: int | None = None,
    time_limit: float | None = None,
    domain: DateDomain = DEFAULT_DOMAIN,
) -> dict[str, Any]:
    """Read ``text`` into facts and solve them over ``domain``.

    Returns ``id``, ``answers`` (ISO dates), ``count``, ``status``
    (``partial-reading`` when a sentence was not read; otherwise the solver's:
    ``complete``, ``unsat``, ``limit``, ``partial`` or ``timeout``, as for
    ``tsolve solve``), ``solver_status`` (always the solver's), ``complete``
    (false for a partial reading), ``backend``, ``facts`` (each with its
    ``line``, ``sentence``, ``kind``, ``params`` and ``form``), ``unread``
    (``line`` and ``text`` of each sentence not read) and ``skipped`` (the
    sentences of tsolve's own prompt wording). A text with no fact in it is a
    :class:`TsolveError`: its "answer set" would be the whole domain.
    """
    from tsolve.families.time_puzzles.parse import read_puzzle

    reading = read_puzzle(text)
    unread = [{"line": s.line, "text": s.text} for s in reading.unread]
    if not reading.facts:
        first = f"; first unread: {unread[0]['text']!r}" if unread else ""
        raise TsolveError(
            f"puzzle {puzzle_id!r}: no fact read ({len(unread)} sentence(s) unread{first})"
        )
    record = {
        "id": puzzle_id,
        "facts": [r.fact.to_json() for r in reading.facts],
        "domain": {"start": iso(domain.start), "end": iso(domain.end)},
    }
    result = solve_puzzle(puzzle_from_record(record), backend, limit, time_limit)
    return {
        "id": puzzle_id,
        "answers": answers_iso(result),
        "count": result.count,
        "status": PARTIAL_READING if unread else result.status,
        "solver_status": result.status,
        "complete": result.complete and not unread,
        "backend": result.backend,
        "facts": [r.to_json() for r in reading.facts],
        "unread": unread,
        "skipped": [{"line": s.line, "text": s.text} for s in reading.skipped],
    }


def text_puzzles(path: str | Path) -> Iterator[dict[str, Any] | BadRow]:
    """The puzzles in a file, each ``{"id", "text"}`` (see the module docstring
    for the formats); a row without a text is a :class:`BadRow`."""
    p = Path(path)
    stdin = str(path) == "-"  # stdin, even beside a folder named "-"
    if not stdin and (p.is_dir() or p.suffix.lower() in _RECORD_SUFFIXES):
        for n, row in enumerate(iter_json_rows(p), start=1):
            if isinstance(row, BadRow):
                yield row
                continue
            text = row.get("text", row.get("prompt"))
            rid = row.get("id", f"{p.name}:{n}")  # its own value: an integer id stays one
            if not isinstance(text, str) or not text.strip():
                yield BadRow(f"{p.name}:{n}", f"record {rid!r}: no 'text' (or 'prompt') string")
            else:
                yield {"id": rid, "text": text}
        return
    content = read_text_source(str(path))  # '-' is stdin
    parts = _SEPARATOR.split(content) if _SEPARATOR.search(content) else re.split(
        r"\n\s*\n", content
    )  # fmt: skip
    texts = [t.strip() for t in parts if t.strip()]
    stem = "stdin" if stdin else p.stem
    for n, text in enumerate(texts, start=1):
        yield {"id": f"{stem}-{n}", "text": text}


def solve_texts(
    rows: Iterable[dict[str, Any] | BadRow],
    backend: str = "cpsat",
    limit: int | None = None,
    time_limit: float | None = None,
    domain: DateDomain = DEFAULT_DOMAIN,
    strict: bool = True,
    on_outcome: Callable[[dict[str, Any] | Skipped], None] | None = None,
    keep_results: bool = True,
) -> SolveReport:
    """Each ``{"id", "text"}`` row through :func:`solve_text`, under ``tsolve
    solve``'s batch policy (:mod:`tsolve.families.time_puzzles.solve_records`); a puzzle with an
    unread sentence makes the batch fail too, unless ``strict`` is false (for
    a library caller that reads ``unread`` itself; the CLI never passes it)."""

    def one(row: dict[str, Any]) -> dict[str, Any]:
        return solve_text(str(row["text"]), str(row["id"]), backend, limit, time_limit, domain)

    return solve_records(rows, backend, limit, time_limit, on_outcome=on_outcome,
                         keep_results=keep_results, solve=one, strict=strict)  # fmt: skip


def solve_text_file(
    path: str | Path,
    backend: str = "cpsat",
    limit: int | None = None,
    time_limit: float | None = None,
    domain: DateDomain = DEFAULT_DOMAIN,
    strict: bool = True,
    on_outcome: Callable[[dict[str, Any] | Skipped], None] | None = None,
    keep_results: bool = True,
) -> SolveReport:
    """:func:`solve_texts` over :func:`text_puzzles` of ``path`` (a repeated id
    is solved like any other row and counted in ``report.repeated``; a file
    with no puzzle is a :class:`TsolveError`)."""
    if str(path) != "-" and not Path(path).exists():
        raise TsolveError(f"file not found: {path}")
    repeated = RepeatedIds()
    rows = counted_rows(text_puzzles(path), str(path), repeated)
    report = solve_texts(rows, backend, limit, time_limit, domain, strict, on_outcome, keep_results)
    report.repeated = repeated
    return report
