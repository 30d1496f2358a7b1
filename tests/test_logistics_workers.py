"""``tsolve logistics answer --workers N``: the parent hands out raw lines, the
workers decode them, and the output is the same bytes for any N.

The reader is split in two for this (:func:`tsolve.records.iter_raw_rows`
finds the rows, :func:`tsolve.records.read_row` decodes one), so the first
tests check that the two steps read every file exactly as ``json.loads`` line
by line says it should; the rest run the command with 1, 2 and 3 workers over
files with bad lines, repeats, a BOM, CRLF line ends and UTF-16.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.families.logistics.answer_items import answer_file
from tsolve.records import BadRow, RawLine, RepeatedIds, iter_json_rows, iter_raw_rows, read_row

SAMPLE = Path(__file__).parent / "fixtures" / "unseentimeqa_sample.jsonl"
ITEMS = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
runner = CliRunner()

# ------------------------------------------------------------ the reader, in two steps

_objects = st.dictionaries(
    st.text(max_size=4), st.one_of(st.integers(), st.text(max_size=6), st.none()), max_size=3
)
_lines = st.one_of(
    _objects.map(lambda d: json.dumps(d, ensure_ascii=False).encode()),
    st.sampled_from([b"", b"  ", b"\t", b"{not json", b"42", b'"text"', b"null", b"{}x"]),
    st.just(b'{"bad": "\xff"}'),  # not UTF-8
)


def _expected(lines: list[bytes], name: str) -> list[tuple[str, Any]]:
    """What each line should read as, from ``json.loads`` alone: ``("row",
    object)`` or ``("bad", where)``, blank lines skipped."""
    out: list[tuple[str, Any]] = []
    for lineno, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw.decode("utf-8"))
        except ValueError:  # UnicodeDecodeError and JSONDecodeError alike
            value = None
        out.append(("row", value) if isinstance(value, dict) else ("bad", f"{name}:{lineno}"))
    return out


def _got(rows: list[Any]) -> list[tuple[str, Any]]:
    return [("bad", r.where) if isinstance(r, BadRow) else ("row", r) for r in rows]


@settings(max_examples=examples(60), deadline=None)
@given(
    first=_objects,
    rest=st.lists(_lines, max_size=12),
    crlf=st.booleans(),
    bom=st.booleans(),
)
def test_raw_rows_decode_to_what_json_loads_reads_line_by_line(
    tmp_path_factory: pytest.TempPathFactory,
    first: dict[str, Any],
    rest: list[bytes],
    crlf: bool,
    bom: bool,
) -> None:
    lines = [json.dumps(first).encode(), *rest]
    end = b"\r\n" if crlf else b"\n"
    path = tmp_path_factory.mktemp("raw") / "items.jsonl"
    path.write_bytes((codecs.BOM_UTF8 if bom else b"") + b"".join(x + end for x in lines))
    raw = list(iter_raw_rows(path))
    # the first row is read to tell JSON Lines from one object; the rest stay bytes
    assert all(isinstance(r, RawLine) for r in raw[1:])
    decoded = [read_row(r) for r in raw]
    assert _got(decoded) == _expected(lines, path.name)
    assert decoded == list(iter_json_rows(path))


def test_utf16_lines_come_back_as_utf8_raw_lines(tmp_path: Path) -> None:
    path = tmp_path / "wide.jsonl"
    text = '{"id": "é"}\r\n\r\n{"id": "\u2028"}\r\n{broken\r\n'
    path.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    raw = list(iter_raw_rows(path))
    assert raw[1:] == [
        RawLine("wide.jsonl:3", '{"id": "\u2028"}\r'.encode()),
        RawLine("wide.jsonl:4", b"{broken\r"),
    ]
    rows = [read_row(r) for r in raw]
    assert rows[:2] == [{"id": "é"}, {"id": "\u2028"}]
    assert isinstance(rows[2], BadRow) and rows[2].where == "wide.jsonl:4"


def test_an_array_file_is_decoded_whole(tmp_path: Path) -> None:
    path = tmp_path / "items.json"
    path.write_text(json.dumps([{"id": 1}, 2]))
    rows = list(iter_raw_rows(path))
    assert rows == [{"id": 1}, BadRow("items.json[1]", "expected a JSON object, got a number")]


# ------------------------------------------------------------ answer_file


@pytest.mark.parametrize("workers", [1, 2])
def test_answer_file_answers_repeats_in_input_order(tmp_path: Path, workers: int) -> None:
    a, b = ITEMS[0], ITEMS[1]
    path = tmp_path / "rep.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in (a, b, a, {**a, "source_file": "other"})))
    repeated = RepeatedIds()
    results = list(answer_file(path, workers=workers, chunk=1, repeated=repeated))
    assert [r.error for r in results] == [None] * 4  # a repeated id is answered like any other
    assert [r.id for r in results] == [a["id"], b["id"], a["id"], a["id"]]  # the item's own id
    assert results[2].answers == results[3].answers == results[0].answers == a["answers"]
    assert repeated.count == 2 and repeated.first == [a["id"]]


# ------------------------------------------------------------ the command, 1 vs 2 vs 3 workers


def _messy_lines() -> list[str]:
    """The 120 sample items and, spread over several 64-item chunks, a line
    that is not JSON, one that is not an object, a repeat, an item whose
    English cannot be read, and a blank line."""
    lines = [json.dumps(x, ensure_ascii=False) for x in ITEMS]
    lines.insert(5, "{not json")
    lines.insert(70, "[1, 2]")
    lines.insert(100, json.dumps(ITEMS[3]))  # a repeat of an earlier item
    lines.insert(110, json.dumps({**ITEMS[0], "id": "garbled", "events": ["nothing happens."]}))
    lines.insert(111, "   ")
    return lines


def _write(path: Path, lines: list[str], variant: str) -> Path:
    if variant == "utf-8":
        path.write_bytes("".join(x + "\n" for x in lines).encode())
    elif variant == "bom-crlf":
        path.write_bytes(codecs.BOM_UTF8 + "".join(x + "\r\n" for x in lines).encode())
    else:  # utf-16, with its BOM
        path.write_bytes("".join(x + "\n" for x in lines).encode("utf-16"))
    return path


@pytest.mark.parametrize("variant", ["utf-8", "bom-crlf", "utf-16"])
def test_any_number_of_workers_writes_the_same_bytes(tmp_path: Path, variant: str) -> None:
    path = _write(tmp_path / "messy.jsonl", _messy_lines(), variant)
    runs = {}
    for workers in (1, 2, 3):
        args = ["logistics", "answer", str(path), "--format", "jsonl", "--score"]
        out = runner.invoke(app, [*args, "--workers", str(workers)])
        assert out.exit_code == 1, out.output  # bad rows: reported, and the batch went on
        runs[workers] = (out.stdout_bytes, out.stderr_bytes)
    assert runs[2] == runs[1] and runs[3] == runs[1]

    rows = [json.loads(line) for line in runs[1][0].decode().splitlines()]
    assert len(rows) == 124  # every non-blank line, in order
    errors = {k: r["error"] for k, r in enumerate(rows) if "error" in r}
    assert set(errors) == {5, 70, 110}  # the repeat on line 101 is answered too
    assert errors[5].startswith("messy.jsonl:6: malformed JSON")  # file:line of the bad line
    assert errors[70] == "messy.jsonl:71: expected a JSON object, got an array"
    assert rows[100]["id"] == ITEMS[3]["id"] and rows[100]["answers"] == ITEMS[3]["answers"]
    # 120 items under 10 ids (several benchmark files), and the repeat: warned once
    assert "111 rows repeat the id of an earlier row" in " ".join(runs[1][1].decode().split())
    assert errors[110].startswith("events") and rows[110]["id"] == "garbled"
    good = [r for k, r in enumerate(rows) if k not in errors and k != 100]
    assert [r["id"] for r in good] == [x["id"] for x in ITEMS]
    assert [r["answers"] for r in good] == [x["answers"] for x in ITEMS]  # the items' own labels
    summary = runs[1][1].decode()
    assert "exact set match: 121/124" in summary and "could not be read: 3" in summary


def test_a_chunk_of_raw_lines_is_named_by_its_lines() -> None:
    """What a :class:`~tsolve.engines.pool.WorkerLost` message says the worker held."""
    from tsolve.families.logistics.answer_items import _describe_chunk

    chunk = [(2, RawLine("items.jsonl:3", b"{}")), (9, RawLine("items.jsonl:70", b"{}"))]
    assert _describe_chunk(chunk) == "lines items.jsonl:3..70"
    assert _describe_chunk([(0, {"id": 1}), (1, RawLine("a:2", b"{}"))]) == "input items 1..2"
