"""Nothing beside the prompt gives the answer away: ``visible(record)`` holds
no answer of the record anywhere in it, not even inside a field that is
otherwise safe to show (a generator's stamp, an imported record's source),
and ``whole(visible, gold_part)`` is the record again."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tsolve.contract import get_family
from tsolve.records.gold_fields import gold_part, record_in, split_metadata, visible, whole

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def _records(family: str, n: int, **options: Any) -> list[dict[str, Any]]:
    fam = get_family(family)
    opts = fam.make_options(options)
    return [fam.make_record(5, i, opts) for i in range(n)]


def _answer_dates(record: dict[str, Any]) -> set[str]:
    """Every ISO date the gold names: a puzzle's answers (tuples flattened),
    a SPAN record's gold date."""
    text = json.dumps({k: record[k] for k in ("answers", "answer", "gold") if k in record})
    return set(_ISO.findall(text))


@pytest.mark.parametrize(
    ("family", "options"),
    [
        ("time-puzzles", {"solutions": "1-3"}),
        ("relational-puzzles", {}),
        ("span", {"format": "content"}),
    ],
)
def test_no_answer_date_sits_beside_the_prompt(family: str, options: dict[str, Any]) -> None:
    """Before: a generated time puzzle's ``generator.seed_date`` (the day the
    puzzle was built around, one of its answers) was left in ``visible``, so
    every reasoning-gym item and trainer row carried an answer in its
    metadata. The prompt itself is allowed to state a date; nothing else is."""
    for record in _records(family, 6, **options):
        dates = _answer_dates(record)
        assert dates, record["id"]  # the check has something to find
        seen = visible(record)
        prompt = str(seen.get("prompt", seen.get("question", "")))
        leaked = {d for d in dates if d in json.dumps(seen) and d not in prompt}
        assert not leaked, (record["id"], leaked)


def test_hidden_parts_come_back_whole() -> None:
    record = _records("time-puzzles", 1, solutions="2")[0]
    assert "seed_date" in record["generator"]
    assert "seed_date" not in visible(record)["generator"]
    assert gold_part(record)["generator"] == {"seed_date": record["generator"]["seed_date"]}
    assert whole(visible(record), gold_part(record)) == record
    assert record_in(split_metadata(record)) == record


def test_an_imported_records_source_keeps_its_citation_not_its_seed() -> None:
    record = {
        "id": "x", "family": "time-puzzles", "answers": ["1828-09-06"],
        "published_answers": ["1828-09-06"],
        "source": {"paper": "Wang and Dong 2026", "seed_date": "1828-09-06",
                   "noise_date": "1887-11-19", "solution_count": 1},
    }  # fmt: skip
    seen = visible(record)
    assert seen["source"] == {"paper": "Wang and Dong 2026"}
    assert "published_answers" not in seen and "1828-09-06" not in json.dumps(seen)
    assert whole(seen, gold_part(record)) == record
