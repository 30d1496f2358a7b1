"""Batch commands never drop a row.

``logistics answer``, ``solve``, ``audit`` and ``verify --match order`` write
one output row per input row, in input order, whatever the ids; ids keep
their JSON type and value; repeated ids are warned about once (or, where rows
are matched by id, refused with one line); every reader shares one line
limit; non-finite numbers are bad rows, and every writer is strict JSON.

Expected values come from the inputs the tests build (the ids drawn, the
items' own benchmark labels), never from the code's own output.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from cli_main import run_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import tsolve.records.rows as records_mod
from tsolve.audit.report import iter_audit
from tsolve.cli.app import app
from tsolve.errors import TsolveError
from tsolve.families.logistics.answer_items import answer_file
from tsolve.families.time_puzzles.solve_records import solve_file
from tsolve.records import (
    BadRow,
    RepeatedIds,
    dumps,
    id_key,
    iter_json_rows,
    json_text,
    loads_row,
)
from tsolve.verifiers.verify_batch import verify
from tsolve.verifiers.verify_files import verify_files

SAMPLE = Path(__file__).parent / "fixtures" / "unseentimeqa_sample.jsonl"
POOL = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()][:6]
runner = CliRunner()

# Ids as benchmarks write them: integers (UnSeenTimeQA), strings, finite floats;
# drawn from a small set so that they repeat.
_IDS = st.one_of(
    st.integers(-3, 3),
    st.sampled_from(["a", "b", "é", "1"]),
    st.sampled_from([0.5, -2.25, 1e300]),
)
_ROWS = st.lists(st.tuples(st.integers(0, len(POOL) - 1), _IDS), min_size=1, max_size=8)
_SETTINGS = settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``tsolve ARGS`` through the real entry point: (exit code, stdout, stderr)."""
    return run_main(capsys, *args)


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return path


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values, type included (1 is not 1.0, True is not 1)."""
    return type(a) is type(b) and a == b


def _repeats(ids: list[Any]) -> int:
    return len(ids) - len({id_key(i) for i in ids})


# ------------------------------------------------------------ logistics answer


@_SETTINGS
@given(rows=_ROWS)
def test_logistics_answer_keeps_every_row_in_order(tmp_path: Path, rows: list[Any]) -> None:
    items = [{**POOL[k], "id": rid} for k, rid in rows]
    repeated = RepeatedIds()
    results = list(answer_file(_write(tmp_path / "in.jsonl", items), repeated=repeated))
    assert len(results) == len(items)
    for res, item in zip(results, items, strict=True):
        assert _same_json(res.id, item["id"])
        assert res.error is None and set(res.answers or []) == set(item["answers"])
    assert repeated.count == _repeats([i["id"] for i in items])


def test_logistics_answer_cli_writes_ids_with_their_json_type(tmp_path: Path) -> None:
    ids: list[Any] = [7, "7", 7, 2.5, "x", 7]
    path = _write(tmp_path / "in.jsonl", [{**POOL[k % 3], "id": i} for k, i in enumerate(ids)])
    out = runner.invoke(app, ["logistics", "answer", str(path), "--format", "jsonl"])
    assert out.exit_code == 0, out.output
    got = [json.loads(line)["id"] for line in out.stdout.splitlines()]
    assert len(got) == len(ids) and all(_same_json(g, i) for g, i in zip(got, ids, strict=True))
    # 7, "7" (the same id once written as text), 7 and 7 again: three repeats, one warning
    err = " ".join(out.stderr.split())
    assert err.count("warning:") == 1 and "3 rows repeat the id of an earlier row" in err


# ------------------------------------------------------------ audit


@_SETTINGS
@given(rows=_ROWS)
def test_audit_keeps_every_row_in_order(rows: list[Any]) -> None:
    items: list[dict[str, Any] | BadRow] = [{**POOL[k], "id": rid} for k, rid in rows]
    items.insert(len(items) // 2, BadRow("x.jsonl:9", "malformed JSON"))
    results = list(iter_audit(items))
    assert len(results) == len(items)
    for res, item in zip(results, items, strict=True):
        if isinstance(item, BadRow):
            assert res.message == "malformed JSON"
        else:
            assert _same_json(res.id, item["id"])


def test_audit_survives_bad_rows_of_every_kind(tmp_path: Path) -> None:
    """Rows that crashed audit are one error line each."""
    item = POOL[0]
    lines = [
        json.dumps({**item, "id": 1}),
        '{"id": NaN, "events": []}',  # Python's reader takes NaN; strict JSON has none
        '{"id": 3, "gold": {"month": 1e400}}',  # overflows to infinity
        json.dumps({**item, "id": 4}),
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = runner.invoke(app, ["audit", str(path), "--format", "jsonl"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert [json.loads(line)["id"] for line in out.stdout.splitlines()] == [1, 4]
    err = " ".join(out.stderr.split())
    assert "in.jsonl:2: not strict JSON (holds NaN" in err
    assert "in.jsonl:3: not strict JSON (holds 1e400, which overflows to infinity" in err


def test_audit_refuses_bad_stored_answers_of_relational_and_span_records() -> None:
    from tsolve.families.relational_puzzles.generate import (
        RelationalConfig,
        generate_relational_puzzles,
    )

    rec = next(generate_relational_puzzles(1, 5, RelationalConfig(events=2)))
    width = len(rec["answers"][0])
    wide = {**rec, "id": "wide", "answers": [[*rec["answers"][0], "2024-01-01"]]}
    short = {**rec, "id": "short", "answers": [["202", *rec["answers"][0][1:]]]}
    gold = {"calendar": "gregorian", "year": 2024, "month": math.inf, "day": 1}
    span = {"id": "s", "family": "span", "format": "content", "answer": "x", "gold": gold}
    results = list(iter_audit([wide, short, span, rec]))
    assert [getattr(r, "message", None) is None for r in results] == [False, False, False, True]
    assert f"expected a list of {width}..{width} items" in results[0].message
    assert "answers[0][0]: expected a date in YYYY-MM-DD form, got '202'" in results[1].message
    assert "gold.month: expected an integer in 1..14, got inf" in results[2].message
    assert "internal error" not in " ".join(r.message for r in results[:3])


def test_audit_backstop_reports_a_crashing_auditor(monkeypatch: pytest.MonkeyPatch) -> None:
    import tsolve.audit.report as report

    def crash(_record: dict[str, Any]) -> Any:
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(report, "auditor_for", lambda _family: crash)
    results = list(iter_audit([{**POOL[0], "id": 1}, {**POOL[1], "id": 2}]))
    assert [r.id for r in results] == [1, 2]
    assert all("internal error (OverflowError" in r.message for r in results)


# ------------------------------------------------------------ solve


@pytest.fixture(scope="module")
def puzzles() -> list[dict[str, Any]]:
    from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles

    return list(generate_puzzles(2, 3, PuzzleConfig(solutions=(1, 2))))


@settings(max_examples=examples(10), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(rows=st.lists(st.tuples(st.integers(0, 1), _IDS), min_size=1, max_size=5))
def test_solve_keeps_every_row_in_order(
    tmp_path: Path, puzzles: list[dict[str, Any]], rows: list[Any]
) -> None:
    recs = [{**puzzles[k], "id": rid} for k, rid in rows]
    report = solve_file(_write(tmp_path / "in.jsonl", recs), check=True)
    assert not report.skipped and report.differing == 0  # every row solved, each to its gold
    assert len(report.results) == len(recs)
    assert all(_same_json(r["id"], x["id"]) for r, x in zip(report.results, recs, strict=True))
    assert report.repeated.count == _repeats([x["id"] for x in recs])


# ------------------------------------------------------------ verify


def _gold_output(item: dict[str, Any]) -> str:
    return "Answer: " + ", ".join(item["answers"])


@_SETTINGS
@given(rows=_ROWS, with_ids=st.booleans())
def test_verify_by_order_scores_every_pair_in_order(rows: list[Any], with_ids: bool) -> None:
    recs = [{**POOL[k], "id": rid} for k, rid in rows]
    preds = [{**({"id": r["id"]} if with_ids else {}), "output": _gold_output(r)} for r in recs]
    report = verify(recs, preds, keep_items=True, match="order")
    assert report.error_count == 0 and report.missing == []
    assert len(report.items) == len(recs)
    assert all(_same_json(it.id, r["id"]) for it, r in zip(report.items, recs, strict=True))
    assert all(it.metrics["accuracy"] == 1.0 for it in report.items)  # each against its own


def test_verify_by_id_refuses_repeated_ids_in_one_line() -> None:
    a, b = {**POOL[0], "id": 1}, {**POOL[1], "id": 2}
    preds = [{"id": 1, "output": _gold_output(a)}, {"id": 2, "output": _gold_output(b)}]
    with pytest.raises(TsolveError, match=r"^puzzles: id '1' is used by more than one record"):
        verify([a, b, {**POOL[2], "id": "1"}], preds)  # "1" is id 1 written as text
    with pytest.raises(TsolveError, match=r"^predictions: id 2 has more than one prediction"):
        verify([a, b], [*preds, preds[1]])
    report = verify([a, b], preds, keep_items=True)  # unique ids: matched, types kept
    assert [it.id for it in report.items] == [1, 2] and report.error_count == 0


def test_verify_by_order_reports_misaligned_rows_and_unequal_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = [{**POOL[k], "id": k} for k in range(3)]
    preds = [{"id": 0, "output": "x"}, {"id": 5, "output": "x"}, {"output": "x"}]
    report = verify(recs, preds, keep_items=True, match="order")
    assert [it.id for it in report.items] == [0, 2]
    assert report.errors == [
        "predictions: row 2: id 5, but record row 2 has id 1; --match order pairs rows by "
        "position, so the files are out of step here"
    ]
    r, p = _write(tmp_path / "r.jsonl", recs), _write(tmp_path / "p.jsonl", preds[:2])
    with pytest.raises(TsolveError, match="there are 3 records and 2 predictions"):
        verify_files(r, p, match="order")
    code, _out, err = _cli(capsys, "verify", str(r), str(p), "--match", "order")
    assert code == 2 and "3 records and 2 predictions" in err


# ------------------------------------------------------------ reading and writing


_FINITE_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
              st.floats(allow_nan=False, allow_infinity=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=10,
)  # fmt: skip


@settings(max_examples=examples(200), deadline=None)
@given(value=_FINITE_JSON)
def test_finite_json_round_trips_through_the_one_writer(value: Any) -> None:
    back, why = loads_row(dumps(value))
    assert why is None and back == value
    assert json.loads(json_text(value, indent=2)) == value


@settings(max_examples=examples(100), deadline=None)
@given(
    value=_FINITE_JSON,
    bad=st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-2.5E+999", "1" * 400 + ".0"]),
)
def test_non_finite_numbers_are_bad_rows_anywhere(value: Any, bad: str) -> None:
    text = json.dumps({"id": 1, "v": value, "deep": [{"x": "__BAD__"}]}).replace('"__BAD__"', bad)
    got, why = loads_row(text)
    assert got is None and why is not None and why.startswith("not strict JSON")
    for nonfinite in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            json_text({"id": 1, "v": [nonfinite]})


def test_every_reader_stops_at_the_line_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(records_mod, "MAX_LINE_BYTES", 1000)
    ok = '{"id": 1, "pad": "' + "x" * (1000 - 21) + '"}\n'  # exactly 1000 bytes with its "\n"
    assert len(ok.encode()) == 1000
    path = tmp_path / "long.jsonl"
    path.write_text(ok + '{"id": 2, "pad": "' + "y" * 2000 + '"}\n' + ok)
    with pytest.raises(TsolveError, match=r"^long\.jsonl:2: a line longer than"):
        list(iter_json_rows(path))
    with pytest.raises(TsolveError, match="a line longer than"):  # no newline for ever
        next(iter(iter_json_rows("/dev/zero")))
    first = tmp_path / "first.jsonl"
    first.write_text("z" * 5000)
    with pytest.raises(TsolveError, match=r"^first\.jsonl:1: a line longer than"):
        list(iter_json_rows(first))
    for args in (["audit", str(path)], ["solve", str(path)], ["verify", str(path), str(path)],
                 ["logistics", "answer", str(path)]):  # fmt: skip
        code, _out, err = _cli(capsys, *args)
        assert code == 2 and "long.jsonl:2: a line longer than 1000 bytes" in err, args


def test_hf_refuses_non_finite_numbers_in_one_line() -> None:
    pytest.importorskip("datasets")
    from tsolve.records.hf import to_dataset

    for value in (math.inf, -math.inf, math.nan, [1.0, math.inf], {"a": math.nan}):
        with pytest.raises(TsolveError, match=r"^record 'a': x: "):
            to_dataset([{"id": "a", "x": value}, {"id": "b", "x": 1.0}])
    import datasets

    from tsolve.records.hf import from_dataset

    foreign = datasets.Dataset.from_list([{"id": "a", "x": 1.5}, {"id": "b", "x": math.nan}])
    with pytest.raises(TsolveError, match=r"^dataset\[1\]: column 'x' holds nan"):
        from_dataset(foreign)  # a NaN cell is a bad row, never a record no writer can write


@settings(max_examples=examples(100), deadline=None)
@given(ids=st.lists(_IDS, max_size=20))
def test_repeated_ids_are_counted_and_named_once(ids: list[Any]) -> None:
    repeated = RepeatedIds()
    for rid in [*ids, None, None]:  # rows without an id are never repeats
        repeated.note(rid)
    assert repeated.count == _repeats(ids)
    named = list(dict.fromkeys(id_key(i) for k, i in enumerate(ids)
                               if any(id_key(j) == id_key(i) for j in ids[:k])))  # fmt: skip
    assert [id_key(r) for r in repeated.first] == named[: RepeatedIds.SHOWN]
    warning = repeated.warning("answered")
    assert (warning is None) == (repeated.count == 0)
    if warning is not None:
        assert "\n" not in warning and f"{repeated.count} row" in warning


@pytest.mark.parametrize("family", ["time-puzzles", "relational-puzzles", "span", "logistics"])
def test_audit_meets_non_finite_numbers_with_checks_not_the_backstop(family: str) -> None:
    """Non-finite numbers at their root: a non-finite number handed over in memory
    (files never get one past the reader) in place of any number of a record
    is a checked field error or an audit, never an ``internal error``."""
    import copy

    from tsolve.audit.report import RowError, audit_record
    from tsolve.stress.fuzz import _get, _paths, base_records

    record = base_records(family, 0)[0]
    numbers = [p for p in _paths(record) if p and type(_get(record, p)) in (int, float)]
    assert numbers  # something was checked
    step = max(1, len(numbers) // 60)  # a logistics record has hundreds: every step-th
    for k, path in enumerate(numbers[::step]):
        for value in ((math.inf, -math.inf, math.nan)[k % 3],):
            rec = copy.deepcopy(record)
            _get(rec, path[:-1])[path[-1]] = value
            result = audit_record(rec)
            assert not (isinstance(result, RowError) and "internal error" in result.message), (
                path,
                value,
                result,
            )
