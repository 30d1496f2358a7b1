"""``tsolve dataset FAMILY --format hub``: a folder ``datasets.load_dataset``
loads, whose records read back byte-identical, with splits disjoint by content."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main

datasets = pytest.importorskip("datasets", reason="the hf extra (datasets) is not installed")
yaml = pytest.importorskip("yaml", reason="pyyaml comes with datasets")

from tsolve.contract import Family, register_family, unregister_family  # noqa: E402
from tsolve.datasets import write_dataset  # noqa: E402
from tsolve.datasets.card import size_category  # noqa: E402
from tsolve.datasets.hub import write_hub  # noqa: E402
from tsolve.datasets.overlap import find_overlap  # noqa: E402
from tsolve.records import dumps, iter_json_rows  # noqa: E402
from tsolve.records.hf import from_dataset  # noqa: E402

N = 5


def _front_matter(card: Path) -> dict[str, Any]:
    text = card.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    head, sep, _ = text[4:].partition("\n---\n")
    assert sep, "the front matter is not closed"
    meta: dict[str, Any] = yaml.safe_load(head)
    return meta


def _load(folder: Path) -> Any:
    # A local path, given as a path: a bare name would be looked up on the Hub.
    # Its own cache: `datasets` keys a local folder's cache by path and config,
    # not by content, so a folder rewritten at a path used before (pytest
    # reuses its numbered temp dirs) would load the old rows.
    return datasets.load_dataset(str(folder.resolve()), cache_dir=str(folder.parent / "hf-cache"))


@pytest.fixture(scope="module")
def tp_hub(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The contract command's folder, and the plain JSON Lines of the same run."""
    base = tmp_path_factory.mktemp("hub")
    capsys_free = base / "hub"
    code = _cli(
        "dataset", "time-puzzles", "--count", str(N), "--seed", "2", "--format", "hub",
        "--out", str(capsys_free), "-q",
    )  # fmt: skip
    assert code == 0
    plain = base / "plain.jsonl"
    write_dataset("time-puzzles", {}, count=N, out=plain, seed=2)
    return capsys_free, plain


def _cli(*args: str) -> int:
    from typer.testing import CliRunner

    from tsolve.cli.app import app

    return CliRunner().invoke(app, list(args)).exit_code


def test_card_front_matter_names_license_configs_and_features(tp_hub: tuple[Path, Path]) -> None:
    folder, _ = tp_hub
    meta = _front_matter(folder / "README.md")
    assert meta["license"] == "mit"
    assert meta["task_categories"] == ["question-answering"]
    assert meta["size_categories"] == ["n<1K"]
    files = meta["configs"][0]["data_files"]
    assert [f["split"] for f in files] == ["train", "test"]
    for f in files:
        assert (folder / f["path"]).is_file()
    names = [f["name"] for f in meta["dataset_info"][0]["features"]]
    assert "facts_json" in names and "answers" in names
    prose = (folder / "README.md").read_text(encoding="utf-8")
    for heading in ("## How it was generated", "## Splits", "## Label balance and strata",
                    "## Readings checked", "## Known limitations", "## Source papers"):  # fmt: skip
        assert heading in prose


def test_load_dataset_gives_the_records_byte_identical(tp_hub: tuple[Path, Path]) -> None:
    folder, plain = tp_hub
    ds = _load(folder)
    assert sum(len(ds[s]) for s in ds) == N
    lines = [dumps(r) for split in ("train", "test") for r in from_dataset(ds[split])]
    assert lines == plain.read_text(encoding="utf-8").splitlines()
    # A nested null survives (generator.params.facts is None by default).
    rec = from_dataset(ds["train"])[0]
    assert "facts" in rec["generator"]["params"] and rec["generator"]["params"]["facts"] is None


def test_every_tsolve_reader_reads_the_split_files(tp_hub: tuple[Path, Path]) -> None:
    folder, plain = tp_hub
    rows = list(iter_json_rows(folder / "data" / "test-00000-of-00001.parquet"))
    assert [dumps(r) for r in rows] == plain.read_text(encoding="utf-8").splitlines()[4:]


def _repeating(seed: int, index: int, config: Any) -> dict[str, Any]:
    """A family whose content repeats every 13 records (a small domain), with a
    nested null and a null top-level field to carry through."""
    return {
        "id": f"rep-{seed}-{index}",
        "family": "test-repeating",
        "generator": {"name": "test-repeating", "seed": seed, "index": index, "p": None},
        "question": f"q{index % 13}",
        "note": None,
    }


@pytest.fixture
def repeating() -> Any:
    fam = register_family(Family(name="test-repeating", generate=_repeating))
    yield fam
    unregister_family("test-repeating")


def test_splits_are_disjoint_by_content(tmp_path: Path, repeating: Family) -> None:
    """Content that repeats across the split point is dropped from the later
    split, so ``dataset overlap`` finds nothing between the split files."""
    out = tmp_path / "rep"
    s = write_hub("test-repeating", {}, count=20, out=out, seed=0, split="train=10,test=10")
    assert s.rows == {"train": 10, "test": 3}  # test: q10..q12 are new, q0..q6 repeat train
    assert s.split.dropped == {"train": 0, "test": 7}
    report = find_overlap(
        str(out / "data" / "train-00000-of-00001.parquet"),
        str(out / "data" / "test-00000-of-00001.parquet"),
    )
    assert report.overlap == 0 and report.eval_records == 3
    ds = _load(out)
    got = [dumps(r) for split in ("train", "test") for r in from_dataset(ds[split])]
    assert '"note": null' in got[0] and '"p": null' in got[0]
    kept = [dumps(_repeating(0, i, None)) for i in range(20)]
    assert got == [x for x in kept if x in got] and len(got) == 13


def test_an_empty_split_is_left_out_of_the_card(tmp_path: Path) -> None:
    out = tmp_path / "one"
    s = write_hub("logistics", {}, count=1, out=out, seed=0)  # 0.8 * 1 -> train 1, test 0
    assert s.files == {"train": "data/train-00000-of-00001.parquet"}
    assert [f["split"] for f in _front_matter(out / "README.md")["configs"][0]["data_files"]] == [
        "train"
    ]
    assert len(_load(out)["train"]) == 1


def test_a_hub_folder_is_replaced_but_no_other_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "h"
    write_hub("logistics", {}, count=2, out=out, seed=0)
    write_hub("logistics", {}, count=3, out=out, seed=1)  # an earlier hub folder: replaced
    assert sum(len(d) for d in _load(out).values()) == 3
    capsys.readouterr()  # datasets' own progress bars
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    for target, why in ((other, "was not written by --format hub"), (tmp_path / "no" / "x", "")):
        code, _, err = run_main(
            capsys, "dataset", "logistics", "--count", "2", "--format", "hub", "--out", str(target)
        )
        assert code == 2 and len(err.strip().splitlines()) == 1 and why in err
    assert (other / "notes.txt").read_text() == "keep me"
    code, _, err = run_main(
        capsys, "dataset", "logistics", "--count", "2", "--format", "hub", "--shard", "0/2",
        "--out", str(tmp_path / "s"),
    )  # fmt: skip
    assert code == 2 and "cannot be sharded" in err


@pytest.mark.parametrize(
    ("n", "bucket"),
    [(0, "n<1K"), (999, "n<1K"), (1000, "1K<n<10K"), (99_999, "10K<n<100K"), (10**7, "n>10M")],
)
def test_size_categories_follow_the_hub_buckets(n: int, bucket: str) -> None:
    assert size_category(n) == bucket


def test_foreign_tables_keep_the_nulls_arrow_typed_null(tmp_path: Path) -> None:
    """A table ``datasets`` typed itself (``load_dataset("json")``): a key that
    is null in every row (``generator.params.facts``) is the records' own and
    comes back; a key Arrow added to unify objects (a fact kind's params) is
    dropped again. Before, both were dropped."""
    recs = [
        {
            "id": f"r{i}",
            "generator": {"params": {"facts": None, "n": i}},
            "facts": [
                {"kind": "month", "params": {"month": i + 1}},
                {"kind": "weekday", "params": {"weekday": "Monday"}},
            ],
        }
        for i in range(3)
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(dumps(r) + "\n" for r in recs), encoding="utf-8")
    ds = datasets.load_dataset("json", data_files=str(path))["train"]
    assert [dumps(r) for r in from_dataset(ds)] == [dumps(r) for r in recs]
    assert [dumps(r) for r in from_dataset(datasets.Dataset.from_list(recs))] == [
        dumps(r) for r in recs
    ]


def test_the_cards_command_regenerates_the_same_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re
    import shlex

    first = tmp_path / "first"
    write_hub("logistics", {"question": "relative", "depth": 5}, count=6, out=first, seed=3,
              split="train=4,test=2", balance="difficulty")  # fmt: skip
    card = (first / "README.md").read_text(encoding="utf-8")
    [command] = re.findall(r"to regenerate the same records: `([^`]+)`", card)
    again = tmp_path / "again"
    argv = [str(again) if w == "DIR" else w for w in shlex.split(command)]
    assert argv[:2] == ["tsolve", "dataset"]
    code, _, _ = run_main(capsys, *argv[1:], "-q")
    assert code == 0
    for name in ("train", "test"):
        part = f"data/{name}-00000-of-00001.parquet"
        assert (again / part).read_bytes() == (first / part).read_bytes()
    assert (again / "README.md").read_text(encoding="utf-8") == card
