"""The Hub and ``datasets`` tables' plain ``question`` and ``answer`` columns,
one config per style or difficulty, and tsolve's own citation.

The derived columns are checked against the prompt and gold that the facade
and the family's scorer give, independently of the table writer; a tampered
``answer`` is a bad row; the records still come back byte-identical."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

datasets = pytest.importorskip("datasets", reason="the hf extra (datasets) is not installed")
yaml = pytest.importorskip("yaml", reason="pyyaml comes with datasets")

import pyarrow.parquet as pq  # noqa: E402

from tsolve.datasets import write_dataset  # noqa: E402
from tsolve.datasets.card import PAPERS, TSOLVE, tsolve_bibtex  # noqa: E402
from tsolve.datasets.hub import write_hub  # noqa: E402
from tsolve.facade import create_dataset, record_of  # noqa: E402
from tsolve.records import BadRow, dumps, iter_json_rows  # noqa: E402
from tsolve.records.hf import from_dataset, to_dataset  # noqa: E402

datasets.disable_progress_bars()
ROOT = Path(__file__).parent.parent
FAMILIES = ["time-puzzles", "relational-puzzles", "span", "logistics"]


def _front_matter(card: Path) -> dict[str, Any]:
    head = card.read_text(encoding="utf-8")[4:].partition("\n---\n")[0]
    meta: dict[str, Any] = yaml.safe_load(head)
    return meta


def _load(folder: Path, name: str | None = None) -> Any:
    cache = str(folder.parent / f"cache-{folder.name}")
    return datasets.load_dataset(str(folder.resolve()), name=name, cache_dir=cache)


def _gold_text(rec: dict[str, Any]) -> str:
    """The gold as text, rendered here from the record's own fields in the
    format docs/hf.md states for each family (not through tsolve's code)."""
    if rec["family"] == "span":
        return str(rec["answer"])
    if rec["family"] == "relational-puzzles" and rec["asked"].get("mode") == "tuples":
        names = [e["name"] for e in rec["events"]]
        lines = [
            "; ".join(f"{n} = {d}" for n, d in zip(names, row, strict=True))
            for row in rec["answers"]
        ]
        return "\n".join(lines) or "None"
    return ", ".join(rec["answers"]) or ("None" if rec["family"] != "logistics" else "")


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_has_plain_question_and_answer(family: str) -> None:
    """The columns equal the facade's item (an independent path to the same
    prompt and gold), and the gold answer scores 1.0 with the family's scorer."""
    items = create_dataset(family, seed=5, size=3)
    recs = [record_of(item) for item in items]
    ds = to_dataset(recs)
    assert ds.column_names[0] == "question" and "answer" in ds.column_names
    assert ds.features["question"].dtype == ds.features["answer"].dtype == "string"
    for row, item, rec in zip(ds, items, recs, strict=True):
        assert row["question"] == item["question"] == rec["prompt"]
        assert row["answer"] == item["answer"] == _gold_text(rec)
        assert items.score_answer(row["answer"], item) == 1.0
    assert [dumps(r) for r in from_dataset(ds)] == [dumps(r) for r in recs]


def test_a_record_field_of_that_name_is_kept_beside_it() -> None:
    """Logistics records hold their own ``question`` (the last sentence only):
    it is kept as ``record_question`` and read back under its name, in place."""
    recs = [record_of(item) for item in create_dataset("logistics", seed=1, size=2)]
    ds = to_dataset(recs)
    assert ds["record_question"] == [r["question"] for r in recs]
    assert ds["question"] == [r["prompt"] for r in recs]
    assert [list(r) for r in from_dataset(ds)] == [list(r) for r in recs]
    span = to_dataset([record_of(i) for i in create_dataset("span", seed=1, size=2)])
    assert span.features["answer"].id is None  # SPAN's own answer is the gold text: no copy


def test_records_of_no_family_get_no_derived_columns() -> None:
    recs = [{"id": "a", "family": "no-such-family", "x": 1}, {"id": "b", "x": 2}]
    ds = to_dataset(recs)
    assert ds.column_names == ["id", "family_json", "x"]
    assert from_dataset(ds) == recs


@pytest.fixture(scope="module")
def tp_hub(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    base = tmp_path_factory.mktemp("hubcols")
    out = base / "tp"
    write_hub("time-puzzles", {}, count=8, out=out, seed=3, balance="style")
    plain = base / "plain.jsonl"
    write_dataset("time-puzzles", {}, count=8, out=plain, seed=3, balance="style")
    return out, plain.read_text(encoding="utf-8").splitlines()


def test_hub_folder_round_trip_stays_byte_identical(tp_hub: tuple[Path, list[str]]) -> None:
    out, plain = tp_hub
    ds = _load(out)
    assert ds["train"].column_names[:2] == ["question", "answer"]
    lines = [dumps(r) for split in ("train", "test") for r in from_dataset(ds[split])]
    assert lines == plain
    files = [out / "data" / f"{s}-00000-of-00001.parquet" for s in ("train", "test")]
    assert [dumps(r) for f in files for r in iter_json_rows(f)] == plain


def test_one_config_per_style_loads_offline(tp_hub: tuple[Path, list[str]]) -> None:
    out, plain = tp_hub
    meta = _front_matter(out / "README.md")
    names = [c["config_name"] for c in meta["configs"]]
    assert names[0] == "default" and {"style-implicit", "style-explicit"} <= set(names)
    assert "M-1" not in names  # every puzzle has M = 1: that config would be default again
    assert [d["config_name"] for d in meta["dataset_info"]] == names
    by_style: dict[str, list[str]] = {}
    for line in plain:
        rec = yaml.safe_load(line)  # JSON is YAML
        by_style.setdefault(rec["style"], []).append(line)
    for style, want in by_style.items():
        ds = _load(out, f"style-{style}")
        got = [dumps(r) for split in ds for r in from_dataset(ds[split])]
        assert sorted(got) == sorted(want)
        assert all(row["question"] for split in ds for row in ds[split])


@pytest.mark.parametrize(
    ("family", "balance", "field", "label", "values"),
    [
        ("logistics", "difficulty", "data_split", "difficulty", ("easy", "medium", "hard")),
        ("span", None, "type", "type", ("date", "festival")),
        ("span", None, "format", "format", ("polar", "content")),
    ],
)
def test_one_config_per_difficulty_type_and_format(
    tmp_path: Path, family: str, balance: str | None, field: str, label: str, values: tuple[str]
) -> None:
    out = tmp_path / family
    # SPAN's first block is in a seeded order: its first four may share a type
    write_hub(family, {}, count=3 if balance else 12, out=out, seed=0, balance=balance)
    names = [c["config_name"] for c in _front_matter(out / "README.md")["configs"]]
    want = {f"{label}-{v}" for v in values}
    assert want <= set(names)
    whole = _load(out)
    everything = {r["id"] for split in whole for r in from_dataset(whole[split])}
    seen: set[str] = set()
    for name in sorted(want):
        ds = _load(out, name)
        recs = [r for split in ds for r in from_dataset(ds[split])]
        assert recs and {r[field] for r in recs} == {name.split("-", 1)[1]}
        seen |= {r["id"] for r in recs}
    assert seen == everything  # the configs of one field partition the records


def test_a_tampered_answer_is_a_bad_row(tp_hub: tuple[Path, list[str]], tmp_path: Path) -> None:
    """Editing the derived ``answer`` cell is detected (the row is bad, the
    rest go on), never taken for the gold nor silently dropped."""
    out, plain = tp_hub
    src = out / "data" / "train-00000-of-00001.parquet"
    table = pq.read_table(src)
    answers = table.column("answer").to_pylist()
    answers[1] = "1999-01-01"
    idx = table.schema.get_field_index("answer")
    table = table.set_column(idx, table.schema.field("answer"), [answers])
    bad = tmp_path / "tampered.parquet"
    pq.write_table(table, bad)
    rows = list(iter_json_rows(bad))
    assert isinstance(rows[1], BadRow) and "'answer' is derived" in str(rows[1])
    assert [dumps(r) for r in rows if not isinstance(r, BadRow)] == [plain[0], *plain[2:6]]
    ds = datasets.Dataset.from_parquet(str(bad), cache_dir=str(tmp_path / "c"))
    with pytest.raises(Exception, match="does not match"):
        from_dataset(ds)


def test_a_tampered_answer_in_an_hf_folder_is_a_bad_row(tmp_path: Path) -> None:
    out = tmp_path / "hf"
    write_dataset("relational-puzzles", {}, count=3, out=out, seed=2, fmt="hf")
    ds = datasets.load_from_disk(str(out))
    assert "\n" in "".join(ds["answer"]) or all(ds["answer"])  # one line per combination
    fixed = ds.map(lambda r, i: {"answer": "None" if i == 0 else r["answer"]}, with_indices=True)
    rows = list(iter_json_rows(out))
    assert not any(isinstance(r, BadRow) for r in rows)
    with pytest.raises(Exception, match=r"\[0\].*'answer' is derived"):
        from_dataset(fixed)


def _pandas_copy(src: Path, dst: Path, edit: Any = None) -> Path:
    """``src`` through pandas, as a user copies a split: read, (edit,) write.
    pandas keeps the columns but writes its own schema metadata only."""
    pd = pytest.importorskip("pandas")
    frame = pd.read_parquet(src)
    if edit is not None:
        edited = edit(frame)  # a new frame, or None for an edit in place
        frame = frame if edited is None else edited
    frame.to_parquet(dst)
    meta = pq.ParquetFile(dst).schema_arrow.metadata or {}
    assert b"huggingface" not in meta and b"tsolve.records.columns" not in meta
    return dst


@pytest.mark.parametrize("family", FAMILIES)
def test_a_split_copied_through_pandas_reads_back_as_its_records(
    family: str, tmp_path: Path
) -> None:
    """Before: without the metadata the derived ``question`` and ``answer``
    came back as record fields; a SPAN record's ``question`` was replaced by
    the prompt, with a stray ``record_question``, and no word said."""
    out = tmp_path / "hub"
    write_hub(family, {}, count=6, out=out, seed=1)
    plain = tmp_path / "plain.jsonl"
    write_dataset(family, {}, count=6, out=plain, seed=1)
    want = plain.read_text(encoding="utf-8").splitlines()
    split = out / "data" / "train-00000-of-00001.parquet"
    copy = _pandas_copy(split, tmp_path / "copy.parquet")
    got = [dumps(r) for r in iter_json_rows(copy)]
    assert got == [dumps(r) for r in iter_json_rows(split)]
    assert set(got) <= set(want) and len(got) >= 4
    if family == "span":  # the record's own question, not the prompt
        rec = iter_json_rows(copy).__next__()
        assert isinstance(rec, dict) and "record_question" not in rec
        assert rec["question"] != rec["prompt"] and rec["prompt"].startswith(rec["question"])


def test_a_filtered_pandas_copy_keeps_no_index_column(
    tp_hub: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """A filtered frame writes its index as ``__index_level_0__``, which
    is pandas', not a record field: the kept rows read back as their records."""
    out, plain = tp_hub
    src = out / "data" / "train-00000-of-00001.parquet"

    def keep_some(frame: Any) -> Any:
        return frame.drop(index=[1, 2])

    copy = _pandas_copy(src, tmp_path / "some.parquet", keep_some)
    assert "__index_level_0__" in pq.ParquetFile(copy).schema_arrow.names
    assert [dumps(r) for r in iter_json_rows(copy)] == [plain[0], *plain[3:6]]


def test_a_tampered_answer_in_a_pandas_copy_is_still_a_bad_row(
    tp_hub: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Before: the copy's ``answer`` was read as a record field, unchecked."""
    out, plain = tp_hub
    src = out / "data" / "train-00000-of-00001.parquet"

    def tamper(frame: Any) -> None:
        frame.loc[1, "answer"] = "1999-01-01"

    copy = _pandas_copy(src, tmp_path / "tampered.parquet", tamper)
    rows = list(iter_json_rows(copy))
    assert isinstance(rows[1], BadRow) and "'answer' is derived" in str(rows[1])
    assert [dumps(r) for r in rows if not isinstance(r, BadRow)] == [plain[0], *plain[2:6]]
    ds = datasets.Dataset.from_parquet(str(copy), cache_dir=str(tmp_path / "c"))
    with pytest.raises(Exception, match="does not match"):
        from_dataset(ds)


def test_a_table_of_records_led_by_their_id_is_not_taken_for_a_hub_table(
    tmp_path: Path,
) -> None:
    """Only the Hub layout is read as one: a plain Parquet file of SPAN
    records (own ``question`` and ``answer`` fields, led by ``id``) copied
    through pandas keeps both fields as they are."""
    plain = tmp_path / "span.parquet"
    write_dataset("span", {}, count=4, out=plain, seed=1)
    copy = _pandas_copy(plain, tmp_path / "copy.parquet")
    assert [dumps(r) for r in iter_json_rows(copy)] == [dumps(r) for r in iter_json_rows(plain)]


def test_the_card_says_what_answer_holds(tp_hub: tuple[Path, list[str]]) -> None:
    text = (tp_hub[0] / "README.md").read_text(encoding="utf-8")
    assert "| `answer` | string | the gold as the family's scorer reads" in text
    assert "comma-separated" in text and "## Configs" in text


def test_citation_cff_holds_tsolves_own_citation_and_every_paper() -> None:
    """CITATION.cff gives tsolve's own fields as the card's one home does,
    the version pyproject gives, no invented URL, and every paper the card
    cites, with the same arXiv id and link."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"$', pyproject, re.M).group(1)  # type: ignore[union-attr]
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert data["cff-version"] == "1.2.0" and data["message"] and data["type"] == "software"
    assert data["title"] == TSOLVE["title"] and data["version"] == version
    assert data["license"] == TSOLVE["license"] and data["abstract"] == TSOLVE["abstract"]
    assert data["authors"] == [{"name": TSOLVE["authors"]}]
    assert not {"url", "repository-code", "doi"} & set(data)  # tsolve has none yet
    refs = "\n".join(yaml.safe_dump(r) for r in data["references"])
    for key, entry in PAPERS.items():
        title = re.search(r"title = \{(.*?)\},\n  author", entry, re.S).group(1)  # type: ignore[union-attr]
        words = re.sub(r"\s+", " ", title.replace("{", "").replace("}", "")).strip()
        assert any(re.sub(r"\s+", " ", r["title"]) == words for r in data["references"]), key
        for found in re.findall(r"(?:eprint|url) = \{([^}]*)\}", entry):
            assert found in refs, (key, found)
    bib = tsolve_bibtex(version)
    assert TSOLVE["title"] in bib and f"version = {{{version}}}" in bib and "url" not in bib


def test_inferred_marks_follow_the_writers_layout() -> None:
    """The column-set rule on its own: derived columns lead, in order, as
    text, beside ``family``; the longest ``record_`` name is the renamed one."""
    from tsolve.records.hub_columns import inferred_marks

    names = ["question", "answer", "id", "family", "record_question", "record_record_question"]
    marks = inferred_marks(names, {"question", "answer"})
    assert marks.derived == {"question", "answer"}
    assert dict(marks.renamed) == {"record_record_question": "question"}
    assert not inferred_marks(names[:3] + names[4:], {"question", "answer"})  # no family
    assert not inferred_marks(["id", "family", "question", "answer"], {"question", "answer"})
    assert inferred_marks(["question", "answer", "family"], {"answer"}).derived == set()
    assert inferred_marks(["answer", "question", "family"], {"answer", "question"}).derived == {
        "answer"
    }
