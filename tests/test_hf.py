"""Hugging Face ``datasets`` and Parquet: exact round trips
of every family's records through :mod:`tsolve.records.hf` and the table sinks, and
the one reader giving ``verify``, ``solve`` and ``audit`` JSONL, JSON,
Parquet and a ``datasets`` folder alike, including records a user saved the
naive way (``load_dataset("json")``, ``Dataset.from_list``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.contract import all_families, get_family
from tsolve.datasets import write_dataset
from tsolve.errors import TsolveError
from tsolve.records import BadRow, counted_rows, dumps, iter_json_rows
from tsolve.records.columns import decode_row, layout
from tsolve.records.hf import from_dataset, to_dataset
from tsolve.verifiers.gold_answers import as_output, gold_answer
from tsolve.verifiers.verify_batch import verify

datasets.disable_progress_bars()

GENERATING = [
    f.name for f in all_families(include_entry_points=False) if f.generate and f.available()
]


def _records(family: str, seed: int, indices: list[int]) -> list[dict[str, Any]]:
    fam = get_family(family)
    cfg = fam.make_options({})
    return [fam.make_record(seed, i, cfg) for i in indices]


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("family", GENERATING)
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), indices=st.lists(st.integers(0, 10_000), min_size=1,
                                                      max_size=4, unique=True))  # fmt: skip
def test_family_records_round_trip_exactly(family: str, seed: int, indices: list[int]) -> None:
    recs = _records(family, seed, indices)
    back = from_dataset(to_dataset(recs))
    assert [dumps(r) for r in back] == [dumps(r) for r in recs]  # values and key order


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
_keys = st.sampled_from(["id", "a", "b_json", "dates", "n", "x"])


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.dictionaries(_keys, _json | st.lists(st.text(max_size=5), max_size=3),
                                min_size=1, max_size=5), min_size=1, max_size=5))  # fmt: skip
def test_any_json_records_round_trip(recs: list[dict[str, Any]]) -> None:
    """Mixed types, missing fields, None, big integers, lone surrogates, a
    field named like a JSON column: all come back equal (key order follows
    the columns when records disagree on it)."""
    back = from_dataset(to_dataset(recs))
    assert back == recs


def test_records_without_fields_are_refused() -> None:
    with pytest.raises(TsolveError, match="no columns"):
        to_dataset([{}, {}])
    assert from_dataset(to_dataset([{}, {"a": 1}])) == [{}, {"a": 1}]


def test_features_are_explicit_and_hold_no_timestamps() -> None:
    for family in GENERATING:
        feats = to_dataset(_records(family, 1, [0, 1])).features
        text = json.dumps(feats.to_dict())
        assert "timestamp" not in text and "date32" not in text
        assert all(name == name.strip() for name in feats)
    tp = to_dataset(_records("time-puzzles", 1, [0])).features
    assert tp["answers"] == datasets.List(datasets.Value("string"))
    assert tp["facts_json"] == datasets.Value("string")
    assert tp["solution_count"] == datasets.Value("int64")
    assert "facts" not in tp


def test_json_columns_are_named_and_decoded_by_suffix() -> None:
    cols = layout([{"id": "a", "p": {"x": 1}, "q_json": "text"}, {"id": "b", "p": None}])
    assert [(c.name, c.kind) for c in cols] == [
        ("id", "string"), ("p_json", "json"), ("q_json_json", "json")]  # fmt: skip
    row = {"id": "a", "p_json": None, "q_json_json": '"t"'}
    assert decode_row(row) == {"id": "a", "q_json": "t"}
    with pytest.raises(ValueError, match="p_json"):
        decode_row({"p_json": "{not json"})


# ---------------------------------------------------------------- tsolve dataset --format hf


def _folder_bytes(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def test_dataset_hf_folder_opens_with_load_from_disk(tmp_path: Path) -> None:
    out, out2, ref = tmp_path / "hf", tmp_path / "hf2", tmp_path / "ref.jsonl"
    res = CliRunner().invoke(
        app, ["dataset", "span", "-n", "12", "--seed", "4", "--format", "hf", "--out", str(out),
              "--quiet"])  # fmt: skip
    assert res.exit_code == 0, res.output
    write_dataset("span", {}, count=12, out=out2, seed=4, fmt="hf", workers=2, chunk=3)
    write_dataset("span", {}, count=12, out=ref, seed=4)
    assert _folder_bytes(out) == _folder_bytes(out2)  # workers do not change bytes
    ds = datasets.load_from_disk(str(out))
    assert len(ds) == 12
    want = ref.read_text(encoding="utf-8").splitlines()
    assert [dumps(r) for r in from_dataset(ds)] == want
    # shards are datasets of their index range; concatenated they are the whole
    parts = []
    for k in range(3):
        part = tmp_path / f"part{k}"
        write_dataset("span", {}, count=12, out=part, seed=4, fmt="hf", shard=(k, 3))
        parts.append(datasets.load_from_disk(str(part)))
    whole = datasets.concatenate_datasets(parts)
    assert [dumps(r) for r in from_dataset(whole)] == want
    # writing again replaces the folder
    write_dataset("span", {}, count=3, out=out, seed=4, fmt="hf")
    assert len(datasets.load_from_disk(str(out))) == 3


def test_dataset_hf_refusals_are_one_line(tmp_path: Path) -> None:
    out = tmp_path / "hf"
    write_dataset("span", {}, count=2, out=out, seed=1, fmt="hf")
    with pytest.raises(TsolveError, match=r"resume: only jsonl .* rerun without --resume"):
        write_dataset("span", {}, count=4, out=out, seed=1, fmt="hf", resume=True)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(TsolveError, match="not written by tsolve"):
        write_dataset("span", {}, count=2, out=busy, fmt="hf")
    assert (busy / "notes.txt").read_text() == "mine"
    res = CliRunner().invoke(app, ["dataset", "span", "-n", "2", "--format", "hf", "--out",
                                   str(out), "--resume"])  # fmt: skip
    assert res.exit_code != 0
    assert isinstance(res.exception, TsolveError) and "resume" in str(res.exception)
    with pytest.raises(TsolveError, match="no records"):
        write_dataset("span", {}, count=0, out=tmp_path / "empty", fmt="hf")
    assert not (tmp_path / "empty").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no spool left
    write_dataset("span", {}, count=0, out=tmp_path / "empty.parquet")
    with pytest.raises(TsolveError, match="no records"):  # read back: empty, as JSONL would be
        list(counted_rows(iter_json_rows(tmp_path / "empty.parquet"), "empty.parquet"))


def test_parquet_is_the_same_layout_and_reads_back(tmp_path: Path) -> None:
    a, b, j = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "a.jsonl"
    write_dataset("time-puzzles", {}, count=6, out=a, seed=2)
    write_dataset("time-puzzles", {}, count=6, out=b, seed=2, workers=2, chunk=2)
    write_dataset("time-puzzles", {}, count=6, out=j, seed=2)
    assert a.read_bytes() == b.read_bytes()
    table = pq.read_table(a)
    assert table.schema.field("answers").type == pa.list_(pa.string())
    assert table.schema.field("facts_json").type == pa.string()
    rows = [r for r in iter_json_rows(a)]
    assert [dumps(r) for r in rows] == j.read_text(encoding="utf-8").splitlines()


# ---------------------------------------------------------------- the reader


def _bad_cell_parquet(path: Path) -> None:
    table = pa.table({"id": ["a", "b"], "facts_json": ['{"x": 1}', "{oops"]},
                     metadata={b"tsolve.records.columns": b"1"})  # fmt: skip
    pq.write_table(table, path)


def test_reader_bad_rows_and_files_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.parquet"
    _bad_cell_parquet(bad)
    rows = list(iter_json_rows(bad))
    assert rows[0] == {"id": "a", "facts": {"x": 1}}
    assert isinstance(rows[1], BadRow) and "facts_json" in str(rows[1])
    assert str(rows[1]).startswith("bad.parquet[1]:")
    old = tmp_path / "old.parquet"  # the layout before this one: every value as text
    pq.write_table(pa.table({"index": pa.array([0], pa.int64()), "id": ["x"],
                             "facts": ['[{"kind": "month"}]']}), old)  # fmt: skip
    with pytest.raises(TsolveError, match=r"older tsolve.*--format parquet"):
        list(iter_json_rows(old))
    plain_dir = tmp_path / "plain"
    plain_dir.mkdir()
    with pytest.raises(TsolveError, match="not a datasets folder"):
        list(iter_json_rows(plain_dir))
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 not really")
    with pytest.raises(TsolveError, match="cannot read Parquet"):
        list(iter_json_rows(broken))


def _write_all_formats(family: str, tmp_path: Path) -> dict[str, Path]:
    """The same records as JSONL, a JSON array, tsolve's Parquet and hf folder,
    and the naive ways: load_dataset("json") then save_to_disk / to_parquet,
    and Dataset.from_list then save_to_disk."""
    jl = tmp_path / f"{family}.jsonl"
    write_dataset(family, {}, count=6, out=jl, seed=5)
    recs = [json.loads(x) for x in jl.read_text(encoding="utf-8").splitlines()]
    paths = {"jsonl": jl, "json": tmp_path / f"{family}.json"}
    paths["json"].write_text(json.dumps(recs, indent=1), encoding="utf-8")
    paths["parquet"] = tmp_path / f"{family}.parquet"
    write_dataset(family, {}, count=6, out=paths["parquet"], seed=5)
    paths["hf"] = tmp_path / f"{family}-hf"
    write_dataset(family, {}, count=6, out=paths["hf"], seed=5, fmt="hf")
    naive = datasets.load_dataset("json", data_files=str(jl), split="train",
                                  cache_dir=str(tmp_path / "cache"))  # fmt: skip
    paths["naive-hf"] = tmp_path / f"{family}-naive"
    naive.save_to_disk(str(paths["naive-hf"]))
    paths["naive-parquet"] = tmp_path / f"{family}-naive.parquet"
    naive.to_parquet(str(paths["naive-parquet"]))
    paths["from-list"] = tmp_path / f"{family}-from-list"
    datasets.Dataset.from_list(recs).save_to_disk(str(paths["from-list"]))
    return paths


@pytest.mark.parametrize("family", ["time-puzzles", "relational-puzzles", "span", "logistics"])
def test_verify_solve_audit_read_every_format_alike(family: str, tmp_path: Path) -> None:
    paths = _write_all_formats(family, tmp_path)
    fam = get_family(family)
    recs = [json.loads(x) for x in paths["jsonl"].read_text(encoding="utf-8").splitlines()]
    preds = tmp_path / "preds.jsonl"
    lines = []
    for k, r in enumerate(recs):  # right for even k, a wrong answer for odd k
        output = as_output(gold_answer(r, fam), fam.answer_marker) if k % 2 == 0 else "no idea"
        lines.append(json.dumps({"id": r["id"], "output": output}))
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    runner = CliRunner()
    want: dict[str, str] = {}
    for name, path in paths.items():
        got = {
            "verify": runner.invoke(app, ["verify", str(path), str(preds), "--format", "json"]),
            "solve": runner.invoke(app, ["solve", str(path), "--format", "jsonl"]),
            "audit": runner.invoke(app, ["audit", str(path), "--format", "jsonl"]),
        }
        for command, res in got.items():
            assert res.exit_code in (0, 1), (name, command, res.output)
            if name == "jsonl":
                want[command] = res.output
            else:
                assert res.output == want[command], (name, command)
    report = json.loads(want["verify"])
    assert report["errors"] == [] and len(report["items"]) == len(recs)


@pytest.mark.parametrize("family", ["time-puzzles", "relational-puzzles", "span", "logistics"])
def test_from_dataset_is_the_fix_for_naive_datasets_in_memory(family: str) -> None:
    """Rows that Arrow chose types for (None-filled params, timestamps) score
    like their JSON once read through ``from_dataset``."""
    recs = _records(family, 3, [0, 1, 2, 3])
    fam = get_family(family)
    preds = [{"id": r["id"], "output": as_output(gold_answer(r, fam), fam.answer_marker)}
             for r in recs]  # fmt: skip
    want = verify(recs, preds, keep_items=True).to_json()
    assert want["errors"] == []
    got = verify(from_dataset(datasets.Dataset.from_list(recs)), preds, keep_items=True).to_json()
    assert got["errors"] == []
    assert got["items"] == want["items"]


def test_docs_list_every_column_of_every_family() -> None:
    """docs/hf.md says what each column is; a new field must be documented."""
    doc = (Path(__file__).parent.parent / "docs" / "hf.md").read_text(encoding="utf-8")
    for family in GENERATING:
        head = f"### {family}\n"
        assert head in doc, f"docs/hf.md has no section {head.strip()!r}"
        section = doc.split(head, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
        for col in layout(_records(family, 0, [0, 1, 2])):
            assert f"`{col.name}`" in section, f"docs/hf.md: {family} lacks column {col.name}"
