"""``tsolve dataset``: byte identity across workers and shards, resume, failures, formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.contract import Family, get_family, register_family, unregister_family
from tsolve.datasets import parse_shard, shard_range, write_dataset
from tsolve.errors import TsolveError
from tsolve.generators.options import parse_int_list

TP = {"solutions": "1-6"}
N = 18


@pytest.fixture(scope="module")
def tp_single(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The reference file: time puzzles, one worker, no shards."""
    out = tmp_path_factory.mktemp("ds") / "one.jsonl"
    s = write_dataset("time-puzzles", TP, count=N, out=out, seed=3, workers=1)
    assert s.written == N and s.failures == 0
    return out.read_bytes()


def test_jsonl_lines_are_records_in_index_order(tp_single: bytes) -> None:
    lines = tp_single.decode().splitlines()
    assert len(lines) == N
    recs = [json.loads(x) for x in lines]
    assert [r["generator"]["index"] for r in recs] == list(range(N))
    assert [r["solution_count"] for r in recs] == [1, 2, 3, 4, 5, 6] * 3


def test_two_workers_byte_identical(tp_single: bytes, tmp_path: Path) -> None:
    out = tmp_path / "two.jsonl"
    write_dataset("time-puzzles", TP, count=N, out=out, seed=3, workers=2, chunk=2)
    assert out.read_bytes() == tp_single


def test_shards_concatenate_to_the_whole(tp_single: bytes, tmp_path: Path) -> None:
    parts = []
    for i in range(4):
        out = tmp_path / f"s{i}.jsonl"
        write_dataset("time-puzzles", TP, count=N, out=out, seed=3, shard=(i, 4))
        parts.append(out.read_bytes())
    assert b"".join(parts) == tp_single


@given(count=st.integers(0, 500), n=st.integers(1, 40))
def test_shard_ranges_partition_the_indices(count: int, n: int) -> None:
    covered = [i for k in range(n) for i in shard_range(count, (k, n))]
    assert covered == list(range(count))


def test_parse_shard_errors() -> None:
    assert parse_shard("2/5") == (2, 5)
    for bad in ("5/5", "1", "a/b", "-1/3", "0/0"):
        with pytest.raises(TsolveError, match="shard"):
            parse_shard(bad)


def test_parse_int_list() -> None:
    assert parse_int_list("1-6", "s") == (1, 2, 3, 4, 5, 6)
    assert parse_int_list("3", "s") == 3
    assert parse_int_list("1,3,5", "s") == (1, 3, 5)
    assert parse_int_list([2, 4], "s") == (2, 4)
    with pytest.raises(TsolveError, match="s:"):
        parse_int_list("6-1", "s")
    with pytest.raises(TsolveError, match="s:"):
        parse_int_list("x", "s")


# ---------------------------------------------------------------- resume


def test_resume_after_truncation_mid_line(tp_single: bytes, tmp_path: Path) -> None:
    out = tmp_path / "cut.jsonl"
    cut = tp_single.index(b"\n", len(tp_single) // 2) - 37  # inside a record
    out.write_bytes(tp_single[:cut])
    s = write_dataset("time-puzzles", TP, count=N, out=out, seed=3, resume=True)
    assert s.dropped_bytes > 0
    assert s.existing + s.written == N
    assert out.read_bytes() == tp_single


def test_resume_at_line_boundary_and_when_complete(tp_single: bytes, tmp_path: Path) -> None:
    out = tmp_path / "cut.jsonl"
    lines = tp_single.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:5]))
    s = write_dataset("time-puzzles", TP, count=N, out=out, seed=3, resume=True, workers=2)
    assert (s.existing, s.written, s.dropped_bytes) == (5, N - 5, 0)
    assert out.read_bytes() == tp_single
    again = write_dataset("time-puzzles", TP, count=N, out=out, seed=3, resume=True)
    assert (again.existing, again.written) == (N, 0)
    assert out.read_bytes() == tp_single
    # The summary counts the records already present too.
    assert sum(again.counts["solutions"].values()) == N


def test_resume_missing_file_starts_fresh(tp_single: bytes, tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    write_dataset("time-puzzles", TP, count=N, out=out, seed=3, resume=True)
    assert out.read_bytes() == tp_single


def test_resume_refuses_other_options_or_seed(tp_single: bytes, tmp_path: Path) -> None:
    out = tmp_path / "cut.jsonl"
    out.write_bytes(b"".join(tp_single.splitlines(keepends=True)[:4]))
    with pytest.raises(TsolveError, match="resume"):
        write_dataset("time-puzzles", {"solutions": "1-6", "style": "explicit"}, count=N,
                      out=out, seed=3, resume=True)  # fmt: skip
    with pytest.raises(TsolveError, match="seed"):
        write_dataset("time-puzzles", TP, count=N, out=out, seed=4, resume=True)
    with pytest.raises(TsolveError, match="outside"):
        write_dataset("time-puzzles", TP, count=N, out=out, seed=3, resume=True, shard=(1, 2))


def test_resume_refuses_duplicates_and_garbage(tp_single: bytes, tmp_path: Path) -> None:
    lines = tp_single.splitlines(keepends=True)
    out = tmp_path / "dup.jsonl"
    out.write_bytes(lines[0] + lines[1] + lines[1])
    with pytest.raises(TsolveError, match="duplicated"):
        write_dataset("time-puzzles", TP, count=N, out=out, seed=3, resume=True)
    out.write_bytes(b"not json\n")
    with pytest.raises(TsolveError, match="not JSON"):
        write_dataset("time-puzzles", TP, count=N, out=out, seed=3, resume=True)


# ---------------------------------------------------------------- failures, families, formats


@pytest.fixture
def flaky_family() -> Any:
    """A family whose record 3 always fails and record 5 crashes."""

    def gen(seed: int, index: int, cfg: Any) -> dict[str, Any]:
        if index == 3:
            raise TsolveError("no record here")
        if index == 5:
            raise ZeroDivisionError("boom")
        return {"id": f"f-{seed}-{index}", "family": "test-flaky",
                "generator": {"seed": seed, "index": index}, "value": index * cfg}  # fmt: skip

    fam = Family(
        name="test-flaky", description="test",
        options={"k": lambda v, n: int(v)}, build=lambda o: o.get("k", 1), generate=gen,
        summarize=lambda r: {"parity": [str(r["value"] % 2)]},
    )  # fmt: skip
    register_family(fam)
    yield fam
    unregister_family("test-flaky")


def test_failures_are_reported_and_the_rest_go_on(flaky_family: Any, tmp_path: Path) -> None:
    out = tmp_path / "f.jsonl"
    seen: list[int] = []
    s = write_dataset("test-flaky", {"k": "2"}, count=8, out=out,
                      on_failure=lambda i, m: seen.append(i))  # fmt: skip
    assert seen == [3, 5] and s.failures == 2 and s.written == 6
    assert "ZeroDivisionError" in dict(s.failure_examples)[5]
    idx = [json.loads(x)["generator"]["index"] for x in out.read_text().splitlines()]
    assert idx == [0, 1, 2, 4, 6, 7]
    # Resuming past failures: the gap is counted, nothing is duplicated.
    out.write_text("".join(out.read_text().splitlines(keepends=True)[:4]))
    r = write_dataset("test-flaky", {"k": "2"}, count=8, out=out, resume=True)
    assert (r.existing, r.gaps, r.written, r.failures) == (4, 1, 2, 1)
    assert [json.loads(x)["generator"]["index"] for x in out.read_text().splitlines()] == idx


def test_worker_setup_failure_is_reported_not_hung(flaky_family: Any, tmp_path: Path) -> None:
    """Workers import tsolve afresh, so a family registered only in this
    process is unknown there: every record fails with the reason, no hang."""
    s = write_dataset("test-flaky", {"k": "2"}, count=4, out=tmp_path / "w.jsonl", workers=2)
    assert (s.written, s.failures) == (0, 4)
    assert "worker set-up failed" in s.failure_examples[0][1]


@pytest.mark.parametrize(
    ("fam", "opts"),
    [("span", {}), ("logistics", {"execution": "parallel"})],
)
def test_other_families_byte_identical(fam: str, opts: dict[str, Any], tmp_path: Path) -> None:
    if not get_family(fam).available():
        pytest.skip(f"{fam} not installed")
    a, b = tmp_path / f"{fam}1.jsonl", tmp_path / f"{fam}2.jsonl"
    write_dataset(fam, opts, count=30, out=a, seed=1, workers=1)
    write_dataset(fam, opts, count=30, out=b, seed=1, workers=2, chunk=3)
    assert a.stat().st_size > 0
    assert a.read_bytes() == b.read_bytes()


def test_parquet_matches_jsonl(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    a, b, j = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "a.jsonl"
    write_dataset("span", {}, count=25, out=a, seed=2)
    write_dataset("span", {}, count=25, out=b, seed=2, workers=2, chunk=4)
    write_dataset("span", {}, count=25, out=j, seed=2)
    assert a.read_bytes() == b.read_bytes()
    rows = pq.read_table(a).to_pylist()
    recs = [json.loads(x) for x in j.read_text().splitlines()]
    assert [json.loads(r["generator_json"])["index"] for r in rows] == list(range(25))
    for row, rec in zip(rows, recs, strict=True):
        assert row["id"] == rec["id"]
        assert json.loads(row["gold_json"]) == rec["gold"]  # nested values: JSON text
    with pytest.raises(TsolveError, match="resume"):
        write_dataset("span", {}, count=25, out=a, resume=True)


def test_bad_input_is_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(TsolveError, match="family"):
        write_dataset("nope", count=1, out=tmp_path / "x.jsonl")
    with pytest.raises(TsolveError, match="option"):
        write_dataset("span", {"facts": 3}, count=1, out=tmp_path / "x.jsonl")
    with pytest.raises(TsolveError, match="directory"):
        write_dataset("span", count=1, out=tmp_path / "missing" / "x.jsonl")
    with pytest.raises(TsolveError, match="format"):
        write_dataset("span", count=1, out=tmp_path / "x.csv", fmt="csv")


# ---------------------------------------------------------------- CLI


def test_cli_dataset_summary_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "tp.jsonl"
    res = runner.invoke(app, ["dataset", "time-puzzles", "-n", "6", "-o", str(out), "--solutions",
                              "1-3", "--facts", "5", "--summary-json", "-q"])  # fmt: skip
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["written"] == 6
    assert summary["counts"]["solutions"] == {"1": 2, "2": 2, "3": 2}
    assert summary["counts"]["facts"] == {"5": 6}
    assert sum(summary["counts"]["difficulty"].values()) == 6  # measured labels
    text = runner.invoke(app, ["dataset", "span", "-n", "4", "-o", str(tmp_path / "s.jsonl"),
                               "--set", "max_days=5", "-q"])  # fmt: skip
    assert text.exit_code == 0 and "written" in text.stdout
    for argv, word in (
        (["dataset", "span", "-n", "2", "-o", str(out), "--facts", "3"], "facts"),
        (["dataset", "span", "-n", "2", "-o", str(out), "--shard", "2/2"], "shard"),
        (["dataset", "bogus", "-n", "2", "-o", str(out)], "family"),
        (["dataset", "span", "-n", "2", "-o", str(out), "--set", "nokey"], "set"),
    ):
        bad = runner.invoke(app, argv)
        assert bad.exit_code != 0
        assert isinstance(bad.exception, TsolveError) and word in str(bad.exception)
