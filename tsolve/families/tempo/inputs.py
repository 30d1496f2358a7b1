"""Reading TEMPO inputs: queries, documents, runs and qrels (formats in ``docs/tempo.md``).

Every reader returns what it could read plus a list of :class:`BadRow`, so a
batch reports a bad row and goes on; only a file that cannot be read at all
raises :class:`TsolveError`. JSON inputs go through the one reader,
:func:`tsolve.records.iter_json_rows`; TREC run and qrels files are
whitespace-separated text, told apart from JSON by their first character.

A query or document without an annotated ``scope`` gets one from the tagger
(:func:`tsolve.families.tempo.tagger.scope_of`) over its ``text``, counted from its
``reference_date`` (or the command's); ``scope_source`` records which.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.calendars.domain import parse_iso
from tsolve.errors import TsolveError, unexpected
from tsolve.families.tempo.intervals import Interval, parse_scope
from tsolve.families.tempo.tagger import scope_of
from tsolve.records import BadRow, iter_json_rows
from tsolve.records.validation import bad, expect_dict, expect_list, expect_str, refuse_misnamed

MAX_ID = 200
_INT = re.compile(r"-?[0-9]{1,9}")


@dataclass(frozen=True)
class Query:
    id: str
    scope: tuple[Interval, ...]
    periods: tuple[tuple[str, tuple[Interval, ...]], ...]
    scope_source: str  # annotated | tagged | none


@dataclass(frozen=True)
class Document:
    id: str
    scope: tuple[Interval, ...]
    scope_source: str


@dataclass
class Loaded:
    """What a reader got: the items by id, and the rows it could not use."""

    items: dict[str, Any] = field(default_factory=dict)
    bad_rows: list[BadRow] = field(default_factory=list)


def _id(row: dict[str, Any], keys: tuple[str, ...], where: str) -> str:
    for k in keys:
        if k in row:
            v = row[k]
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                raise bad(k, "a string or an integer id", v)
            text = str(v)
            if not text.strip() or len(text) > MAX_ID or any(c.isspace() for c in text):
                raise bad(k, f"a non-empty id without spaces, at most {MAX_ID} characters", v)
            return text
    raise TsolveError(
        f"{where}: missing field {keys[0]!r} (has: {', '.join(sorted(row)) or 'none'})"
    )


def _reference(row: dict[str, Any], default: _dt.date | None) -> _dt.date | None:
    v = row.get("reference_date")
    if v is None:
        return default
    return parse_iso(expect_str(v, "reference_date", 40), "reference_date")


def _scope(row: dict[str, Any], reference: _dt.date | None) -> tuple[tuple[Interval, ...], str]:
    if row.get("scope") is not None:
        return tuple(parse_scope(row["scope"], "scope")), "annotated"
    if row.get("text") is not None:
        found = scope_of(expect_str(row["text"], "text", 1_000_000), reference)
        return tuple(found), ("tagged" if found else "none")
    return (), "none"


def parse_query(row: Any, reference: _dt.date | None = None) -> Query:
    """One query row -> :class:`Query`. Without ``periods``, each interval of
    the scope is one required period (a scope "2017..2024" is one period;
    ["2017", "2024"] or a text naming 2017 and 2024 are two)."""
    row = expect_dict(row, "query")
    qid = _id(row, ("id", "qid"), "query")
    refuse_misnamed(row, ("scope", "text", "periods", "reference_date"), f"query {qid!r}",
                    ("id", "qid"))  # fmt: skip
    scope, source = _scope(row, _reference(row, reference))
    raw = row.get("periods")
    periods: list[tuple[str, tuple[Interval, ...]]]
    if raw is None:
        periods = [(f"p{i + 1}", (x,)) for i, x in enumerate(scope)]
    elif isinstance(raw, dict):
        if not raw or len(raw) > 100:
            raise bad("periods", "1..100 named periods", raw)
        periods = [(str(k), tuple(parse_scope(v, f"periods.{k}"))) for k, v in raw.items()]
    else:
        items = expect_list(raw, "periods", 100, 1)
        periods = [
            (f"p{i + 1}", tuple(parse_scope(v, f"periods[{i}]"))) for i, v in enumerate(items)
        ]
    if raw is not None and not scope:
        # Periods but no scope: relevance is to any required period.
        scope, source = tuple(x for _, p in periods for x in p), "periods"
    return Query(qid, scope, tuple(periods), source)


def parse_document(row: Any, reference: _dt.date | None = None) -> Document:
    row = expect_dict(row, "document")
    did = _id(row, ("id", "docid"), "document")
    refuse_misnamed(row, ("scope", "text", "reference_date"), f"document {did!r}", ("id", "docid"))
    scope, source = _scope(row, _reference(row, reference))
    return Document(did, scope, source)


def _read_json_items(path: str | Path, parse: Any, reference: _dt.date | None, what: str) -> Loaded:
    out = Loaded()
    for i, row in enumerate(iter_json_rows(path), start=1):
        if isinstance(row, BadRow):
            out.bad_rows.append(row)
            continue
        try:
            item = parse(row, reference)
        except TsolveError as exc:
            out.bad_rows.append(BadRow(f"{Path(str(path)).name}:{i}", str(exc)))
            continue
        except Exception as exc:  # one row never sinks the batch (the backstop)
            out.bad_rows.append(BadRow(f"{Path(str(path)).name}:{i}", unexpected(exc)))
            continue
        if item.id in out.items:
            out.bad_rows.append(
                BadRow(f"{Path(str(path)).name}:{i}", f"duplicate {what} id {item.id!r}")
            )
            continue
        out.items[item.id] = item
    return out


def read_queries(path: str | Path, reference: _dt.date | None = None) -> Loaded:
    """QUERIES (JSON array or JSON Lines) -> ``Loaded`` of :class:`Query` by id."""
    return _read_json_items(path, parse_query, reference, "query")


def read_documents(path: str | Path, reference: _dt.date | None = None) -> Loaded:
    """DOCS (JSON array or JSON Lines) -> ``Loaded`` of :class:`Document` by id."""
    return _read_json_items(path, parse_document, reference, "document")


# ------------------------------------------------------------ runs and qrels


def _is_json(path: str | Path) -> bool:
    p = Path(path)
    if str(path) == "-":
        raise TsolveError("run/qrels: reading stdin is not supported here; give a file")
    if p.is_dir():
        raise TsolveError(f"file: {str(path)!r} is a directory")
    try:
        with p.open("rb") as fh:
            head = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except FileNotFoundError:
        raise TsolveError(f"file: {str(path)!r} not found") from None
    except OSError as exc:
        raise TsolveError(f"file: cannot read {str(path)!r} ({exc.strerror})") from None
    return head[:1] in (b"{", b"[")


def _text_rows(path: str | Path) -> Iterator[tuple[str, list[str] | BadRow]]:
    name = Path(str(path)).name
    with Path(path).open("rb") as fh:
        for n, raw in enumerate(fh, start=1):
            where = f"{name}:{n}"
            try:
                line = raw.decode("utf-8-sig" if n == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                yield (
                    where,
                    BadRow(
                        where, f"not UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
                    ),
                )
                continue
            parts = line.split()
            if parts and not parts[0].startswith("#"):
                yield where, parts


def _number(text: str, field: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise bad(field, "a number", text) from None
    if not math.isfinite(x):
        raise bad(field, "a finite number", text)
    return x


def read_run(path: str | Path) -> Loaded:
    """RUN -> ``Loaded`` of ranked doc-id lists by query id.

    TREC (``qid Q0 docid rank score tag``): ordered as trec_eval orders them,
    by score descending, ties by docid descending; the rank column is
    checked to be an integer but not used. JSON Lines: ``{"qid": ..., "docs":
    [docid, ...]}`` in rank order. A docid listed twice for one query is a
    bad row (its first listing is kept)."""
    out = Loaded()
    name = Path(str(path)).name
    if _is_json(path):
        for i, row in enumerate(iter_json_rows(path), start=1):
            if isinstance(row, BadRow):
                out.bad_rows.append(row)
                continue
            where = f"{name}:{i}"
            try:
                row = expect_dict(row, "run row")
                qid = _id(row, ("qid", "id"), "run row")
                docs = expect_list(row.get("docs"), "docs", 1_000_000)
                ids = [_id({"docid": d}, ("docid",), "docs") for d in docs]
            except TsolveError as exc:
                out.bad_rows.append(BadRow(where, str(exc)))
                continue
            if qid in out.items:
                out.bad_rows.append(BadRow(where, f"query {qid!r} is ranked twice"))
                continue
            kept: list[str] = []
            seen: set[str] = set()
            for d in ids:
                if d in seen:
                    out.bad_rows.append(
                        BadRow(where, f"docid {d!r} listed twice for query {qid!r}")
                    )
                else:
                    seen.add(d)
                    kept.append(d)
            out.items[qid] = kept
        return out
    scored: dict[str, dict[str, float]] = {}
    for where, parts in _text_rows(path):
        if isinstance(parts, BadRow):
            out.bad_rows.append(parts)
            continue
        try:
            if len(parts) != 6:
                raise bad("run line", "6 fields: qid Q0 docid rank score tag", " ".join(parts))
            qid, _q0, did, rank, score, _tag = parts
            if not _INT.fullmatch(rank):
                raise bad("rank", "an integer", rank)
            s = _number(score, "score")
        except TsolveError as exc:
            out.bad_rows.append(BadRow(where, str(exc)))
            continue
        per = scored.setdefault(qid, {})
        if did in per:
            out.bad_rows.append(BadRow(where, f"docid {did!r} listed twice for query {qid!r}"))
            continue
        per[did] = s
    for qid, per in scored.items():
        # trec_eval: score descending, then docid descending.
        out.items[qid] = [
            d for d, _ in sorted(per.items(), key=lambda t: (t[1], t[0]), reverse=True)
        ]
    return out


def read_qrels(path: str | Path) -> Loaded:
    """QRELS -> ``Loaded`` of ``{docid: grade}`` by query id.

    TREC (``qid iter docid grade``) or JSON Lines ``{"qid", "docid",
    "relevance"}``; grades are integers, negative grades count as 0 gain."""
    out = Loaded()
    name = Path(str(path)).name

    def put(qid: str, did: str, grade: int, where: str) -> None:
        per = out.items.setdefault(qid, {})
        if did in per:
            out.bad_rows.append(BadRow(where, f"docid {did!r} judged twice for query {qid!r}"))
        else:
            per[did] = grade

    if _is_json(path):
        for i, row in enumerate(iter_json_rows(path), start=1):
            if isinstance(row, BadRow):
                out.bad_rows.append(row)
                continue
            where = f"{name}:{i}"
            try:
                row = expect_dict(row, "qrels row")
                qid = _id(row, ("qid",), "qrels row")
                did = _id(row, ("docid",), "qrels row")
                g = row.get("relevance")
                if isinstance(g, bool) or not isinstance(g, int) or abs(g) > 1000:
                    raise bad("relevance", "an integer in -1000..1000", g)
            except TsolveError as exc:
                out.bad_rows.append(BadRow(where, str(exc)))
                continue
            put(qid, did, g, where)
        return out
    for where, parts in _text_rows(path):
        if isinstance(parts, BadRow):
            out.bad_rows.append(parts)
            continue
        if len(parts) != 4 or not _INT.fullmatch(parts[3]) or abs(int(parts[3])) > 1000:
            expected = "4 fields: qid iter docid grade (an integer in -1000..1000)"
            out.bad_rows.append(BadRow(where, str(bad("qrels line", expected, " ".join(parts)))))
            continue
        put(parts[0], parts[2], int(parts[3]), where)
    return out


__all__ = [
    "Document",
    "Loaded",
    "Query",
    "parse_document",
    "parse_query",
    "read_documents",
    "read_qrels",
    "read_queries",
    "read_run",
]  # fmt: skip
