"""``tsolve dataset --balance``: equal counts per stratum, each record still a
pure function of (seed, index, options)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from budget import examples
from cli_main import run_main
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.contract import get_family
from tsolve.datasets import write_dataset
from tsolve.datasets.balance import strata_of, stratum_index
from tsolve.records import dumps

LOG_KEYS = ("difficulty", "execution")


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32), k=st.integers(1, 18), n=st.integers(0, 400))
def test_any_prefix_holds_each_stratum_floor_or_ceil_times(seed: int, k: int, n: int) -> None:
    counts = Counter(stratum_index(seed, i, k) for i in range(n))
    assert set(counts) <= set(range(k))
    assert all(n // k <= counts[s] <= -(-n // k) for s in range(k))


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32), k=st.integers(1, 18), block=st.integers(0, 10**6))
def test_each_block_is_a_permutation_fixed_by_seed_and_block(seed: int, k: int, block: int) -> None:
    order = [stratum_index(seed, block * k + j, k) for j in range(k)]
    assert sorted(order) == list(range(k))
    assert order == [stratum_index(seed, block * k + j, k) for j in range(k)]


def test_blocks_are_not_all_in_one_order() -> None:
    """The per-block shuffle keeps strata from lining up with index cycles
    (time puzzles cycle ``solutions`` by index)."""
    orders = {tuple(stratum_index(0, b * 3 + j, 3) for j in range(3)) for b in range(30)}
    assert len(orders) > 1


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_a_balanced_run_is_the_stratum_run_record_by_record(tmp_path: Path) -> None:
    """Record i of a balanced run is record i of an unbalanced run with its
    stratum's options: an independent way to produce each expected line."""
    fam = get_family("logistics")
    out = tmp_path / "bal.jsonl"
    s = write_dataset("logistics", {}, count=12, out=out, seed=5, balance=",".join(LOG_KEYS))
    assert s.failures == 0
    got = _lines(out)
    strata = strata_of(fam, LOG_KEYS)
    assert len(strata) == 6
    for i, line in enumerate(got):
        stratum = strata[stratum_index(5, i, 6)]
        assert line == dumps(fam.make_record(5, i, fam.make_options(stratum)))
    recs = [json.loads(x) for x in got]
    assert Counter(r["data_split"] if "data_split" in r else r["difficulty"] for r in recs) == {
        "easy": 4, "medium": 4, "hard": 4,
    }  # fmt: skip
    assert Counter(r["execution"] for r in recs) == {"serial": 6, "parallel": 6}
    assert s.to_json()["counts"]["execution"] == {"parallel": 6, "serial": 6}


def test_balanced_shards_and_workers_give_the_same_bytes(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    write_dataset("logistics", {}, count=10, out=whole, seed=1, balance="question")
    parts = []
    for k in range(3):
        p = tmp_path / f"s{k}.jsonl"
        write_dataset("logistics", {}, count=10, out=p, seed=1, balance="question", shard=(k, 3))
        parts.append(p.read_bytes())
    assert b"".join(parts) == whole.read_bytes()
    two = tmp_path / "two.jsonl"
    write_dataset("logistics", {}, count=10, out=two, seed=1, balance="question", workers=2)
    assert two.read_bytes() == whole.read_bytes()


def test_resume_continues_a_balanced_run(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    write_dataset("logistics", {}, count=9, out=whole, seed=2, balance="difficulty")
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(x + b"\n" for x in whole.read_bytes().splitlines()[:4]))
    write_dataset("logistics", {}, count=9, out=cut, seed=2, balance="difficulty", resume=True)
    assert cut.read_bytes() == whole.read_bytes()
    # Resuming with another balance is refused: the file is not that run's prefix.
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"".join(x + b"\n" for x in whole.read_bytes().splitlines()[:4]))
    with pytest.raises(Exception, match="resume"):
        write_dataset("logistics", {}, count=9, out=other, seed=2, balance="question", resume=True)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--balance", "colour"], "not a stratum of family logistics"),
        (["--balance", "difficulty", "--difficulty", "easy"], "cannot also be set"),
        (["--balance", ","], "name an option to balance"),
        (["--balance", "question,question"], "named twice"),
    ],
)
def test_bad_balance_is_one_line_exit_2(
    args: list[str], why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.jsonl"
    code, _, err = run_main(
        capsys, "dataset", "logistics", "--count", "3", "--out", str(out), *args
    )
    assert code == 2 and why in err and len(err.strip().splitlines()) == 1
    assert not out.exists() or out.read_bytes() == b""


def test_span_declares_no_strata(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(
        capsys, "dataset", "span", "--count", "2", "--balance", "direction",
        "--out", str(tmp_path / "s.jsonl"),
    )  # fmt: skip
    assert code == 2 and "(strata: none)" in err


def test_a_balanced_hub_folder_says_so_in_its_card(tmp_path: Path) -> None:
    pytest.importorskip("datasets", reason="the hf extra (datasets) is not installed")
    from tsolve.datasets.hub import write_hub

    out = tmp_path / "hub"
    s = write_hub("logistics", {}, count=6, out=out, seed=4, split="train=3,test=3",
                  balance="difficulty")  # fmt: skip
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "- balanced by index over: difficulty" in card and "--balance difficulty" in card
    per_split = {
        name: part.to_json()["counts"]["difficulty"] for name, part in s.split.parts.items()
    }
    # Split at a block boundary (k = 3): each split holds each difficulty once.
    assert per_split == {n: {"easy": 1, "hard": 1, "medium": 1} for n in ("train", "test")}


def test_a_stratum_brings_the_options_that_reach_it_unless_the_user_set_them() -> None:
    """Time puzzles measure easy / medium only with few facts: those strata ask
    for 4, and a user's --facts wins (the record then fails honestly if the
    stratum cannot be reached)."""
    from tsolve.datasets.balance import balanced_config

    fam = get_family("time-puzzles")
    plain = balanced_config(fam, {}, ["difficulty"], 0).configs
    assert [(c.difficulty, c.facts) for c in plain] == [("easy", 4), ("medium", 4), ("hard", None)]
    mine = balanced_config(fam, {"facts": "5"}, ["difficulty"], 0).configs
    assert [c.facts for c in mine] == [5, 5, 5]
    assert len(strata_of(fam, ["difficulty", "style"])) == 6
