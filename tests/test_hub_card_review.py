"""The Hub card a reviewer accepts: the metadata fields the Hub's validator
checks, each from the vocabulary ``datasets`` ships (the Hub's own
``DatasetCard.validate()`` needs the network, so this is its offline
equivalent), a field table, and full citations; the folder still loads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("datasets", reason="the Hub folder is datasets' own layout")
pytest.importorskip("huggingface_hub", reason="the card is read with huggingface_hub")

from tsolve.datasets.card import FAMILY_PAPER, PAPERS
from tsolve.datasets.hub import write_hub


def _vocabulary(name: str) -> object:
    import datasets

    path = Path(datasets.__file__).parent / "utils" / "resources" / name
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def card(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("hub") / "tp"
    write_hub("time-puzzles", None, count=6, out=out, seed=0)
    return out, (out / "README.md").read_text(encoding="utf-8")


def test_the_metadata_passes_the_offline_checks(card: tuple[Path, str]) -> None:
    from huggingface_hub import DatasetCard

    data = DatasetCard(card[1]).data.to_dict()
    creators = _vocabulary("creators.json")
    assert isinstance(creators, dict)
    assert data["annotations_creators"] == ["machine-generated"]
    assert set(data["annotations_creators"]) <= set(creators["annotations"])
    assert set(data["language_creators"]) <= set(creators["language"])
    assert set(data["multilinguality"]) <= set(_vocabulary("multilingualities.json"))  # type: ignore[arg-type]
    assert set(data["size_categories"]) <= set(_vocabulary("size_categories.json"))  # type: ignore[arg-type]
    assert set(data["language"]) <= set(_vocabulary("languages.json"))  # type: ignore[arg-type]
    assert data["source_datasets"] == ["original"]
    assert data["task_categories"] == ["question-answering"]
    assert data["task_ids"] == ["closed-domain-qa"]


def test_the_card_has_a_field_table_and_loads(card: tuple[Path, str]) -> None:
    import datasets

    out, text = card
    table = re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \|$", text, re.M)
    loaded = datasets.load_dataset(str(out))
    assert {name for name, _, _ in table} == set(loaded["train"].column_names)
    assert all(note.strip() for _, _, note in table)


def test_every_paper_is_cited_in_full(card: tuple[Path, str]) -> None:
    text = card[1]
    assert set(FAMILY_PAPER.values()) == set(PAPERS)  # every family's paper is in the list
    for key, entry in PAPERS.items():
        assert entry in text, key
        assert "title = " in entry and "author = " in entry, key
        # a year and a link, or the paper's own statement that it gives none
        assert (
            ("year = " in entry and "url = " in entry) or "stated" in entry or "names no" in entry
        )
    for arxiv in re.findall(r"eprint = \{([^}]*)\}", text):
        assert re.fullmatch(r"\d{4}\.\d{5}", arxiv)
    assert "@software{tsolve," in text
