"""Records that went through an Arrow table score exactly like the JSON they
came from (Hugging Face ``datasets`` is Arrow underneath).

Two things Arrow does to tsolve's records: a table has one struct type for
every row, so each fact (or mapping) gets the other rows' keys as ``None``;
and ``pyarrow.json`` reads ISO date strings back as timestamps. Both are
reproduced here with pyarrow itself (a test dependency)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.json as pj
import pytest

from tsolve.families.logistics.generate import GenerateParams, generate_records
from tsolve.families.span.generate import SpanConfig, generate_questions
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.verifiers.verify_batch import verify


def _records(family: str) -> list[dict[str, Any]]:
    if family == "time-puzzles":
        return list(generate_puzzles(40, 3, PuzzleConfig(solutions=(0, 1, 2, 3))))
    if family == "span":
        return list(generate_questions(48, 3, SpanConfig(date="2024-03-01")))
    return list(generate_records(24, 3, GenerateParams("hard", "parallel", "relative", None)))


def _outputs(rec: dict[str, Any], k: int) -> str:
    """Right for even k, wrong (so that diagnosis runs) for odd k."""
    fam = rec["family"]
    if fam == "time-puzzles":
        dates = list(rec["answers"]) + (["1999-01-01"] if k % 2 else [])
        return "MY ANSWER: " + (", ".join(dates) or "None")
    if fam == "span":
        if rec["format"] == "polar":
            return "MY ANSWER: " + ({"Yes": "No", "No": "Yes"}[rec["answer"]] if k % 2
                                    else rec["answer"])  # fmt: skip
        return "MY ANSWER: " + rec["gold"]["text"].replace("1", "2" if k % 2 else "1")
    return "Answer: " + ("t0" if k % 2 else ", ".join(rec["answers"]))


@pytest.mark.parametrize("family", ["time-puzzles", "span", "logistics"])
def test_arrow_rows_score_like_their_json(family: str, tmp_path: Path) -> None:
    recs = _records(family)
    preds = [{"id": r["id"], "output": _outputs(r, k)} for k, r in enumerate(recs)]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    want = verify(recs, preds, keep_items=True).to_json()
    assert want["errors"] == []
    for rows in (pa.Table.from_pylist(recs).to_pylist(), pj.read_json(path).to_pylist()):
        got = verify(rows, preds, keep_items=True).to_json()
        assert got["errors"] == []
        assert got["items"] == want["items"]
