"""Bad rows of a records file given to an Inspect task: reported, and the rest evaluated.

A file mixing good rows with a malformed JSON line, a record whose gold field
is misnamed and one whose gold date does not exist is run through the real
``inspect_ai.eval`` (the registered ``tsolve/time_puzzles`` task, as ``-T
file=...`` reaches it) against Inspect's offline ``mockllm/model``: the good
rows are the samples and score 1, each bad row is named once on stderr with
its row number and reason, and the log counts them. Only a file with no
usable row is an error. The records are built here from generated ones, with
the damage applied by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

import tsolve.adapters.inspect_ai._registry  # noqa: F401  (registers tsolve/time_puzzles)
from tsolve.adapters.inspect_ai import family_task, file_records, generated_records
from tsolve.adapters.inspect_ai.dataset import file_samples
from tsolve.adapters.inspect_ai.skipped import SHOWN_BAD
from tsolve.errors import TsolveError

Record = dict[str, Any]


@pytest.fixture(scope="module")
def records() -> list[Record]:
    """Four time-puzzle records (generated once for the module)."""
    return generated_records("time-puzzles", seed=3, count=4)


def _mixed_file(records: list[Record], path: Path) -> tuple[list[str], dict[int, str]]:
    """Good, malformed-JSON, misnamed-field, good, bad-date rows: the good
    ids, and each bad row's number with a word its reason must hold."""
    good, misnamed, bad_date, good2 = (json.loads(json.dumps(r)) for r in records)
    misnamed["answer"] = misnamed.pop("answers")
    bad_date["answers"] = ["2023-02-30"]
    lines = [
        json.dumps(good),
        '{"id": "cut-short", "family": "time-puzzles", ',
        json.dumps(misnamed),
        json.dumps(good2),
        json.dumps(bad_date),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [good["id"], good2["id"]], {2: "malformed JSON", 3: "'answers'", 5: "2023-02-30"}


def _scripted(by_prompt: dict[str, Record]) -> Any:
    """A mock model answering each prompt with its record's gold, in the
    answer format the prompt asks for (written here, not by tsolve)."""

    def reply(messages: list[ChatMessage], *rest: Any) -> ModelOutput:
        record = by_prompt[messages[-1].text]
        out = ModelOutput.from_content(
            "mockllm/model", "MY ANSWER: " + ", ".join(record["answers"])
        )
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=reply)


def test_good_rows_are_evaluated_and_each_bad_row_is_named_once(
    records: list[Record], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mixed.jsonl"
    good_ids, bad = _mixed_file(records, path)
    by_prompt = {r["prompt"]: r for r in records}

    (log,) = inspect_eval(
        "tsolve/time_puzzles", task_args={"file": str(path)}, model=_scripted(by_prompt),
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    assert log.samples is not None
    assert sorted(str(s.id) for s in log.samples) == sorted(good_ids)
    for sample in log.samples:
        (score,) = (sample.scores or {}).values()
        assert score.metadata is not None and score.metadata["metrics"]["em"] == 1.0
    assert log.eval.metadata is not None and log.eval.metadata["skipped_rows"] == len(bad)

    err = capsys.readouterr().err
    assert f"skipped {len(bad)} bad row(s) of 5" in err
    for row, why in bad.items():
        (line,) = [line for line in err.splitlines() if f"mixed.jsonl row {row}:" in line]
        assert why in line
    assert len(re.findall(r"mixed\.jsonl row \d+:", err)) == len(bad)  # none named twice
    assert "Traceback" not in err


def test_the_list_names_the_first_twenty_and_counts_all(
    records: list[Record], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text(json.dumps(records[0]) + "\n" + "{oops\n" * 25, encoding="utf-8")
    assert [r["id"] for r in file_records(path, "time-puzzles")] == [records[0]["id"]]
    err = capsys.readouterr().err.splitlines()
    assert "skipped 25 bad row(s) of 26" in err[0]
    named = [line for line in err if "many.jsonl row" in line]
    assert len(named) == SHOWN_BAD == 20
    assert named[0].endswith(
        "malformed JSON (Expecting property name enclosed in double quotes, column 2)"
    )
    assert "many.jsonl row 2:" in named[0] and "many.jsonl row 21:" in named[-1]
    assert "and 5 more bad row(s)" in err[-1]


def test_a_file_with_no_usable_row_is_one_line_error(records: list[Record], tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    wrong = dict(records[0], answers=["2023-13-01"])
    path.write_text(json.dumps(wrong) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(TsolveError) as caught:
        family_task("time-puzzles", file=str(path))
    message = str(caught.value)
    assert "\n" not in message
    assert "no usable row" in message and "bad.jsonl row 1:" in message
    assert "2023-13-01" in message and "1 more bad row(s)" in message
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(TsolveError, match="holds no records"):
        file_samples(empty, "time-puzzles")


def test_a_row_the_condition_cannot_show_is_skipped_too(
    records: list[Record], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under ``context=knowledge`` a record's facts are pasted before its
    prompt; a record whose facts are not a list is one bad row, not the end."""
    path = tmp_path / "facts.jsonl"
    odd = dict(records[1], id="odd", facts="a Monday")
    path.write_text(json.dumps(records[0]) + "\n" + json.dumps(odd) + "\n", encoding="utf-8")
    task = family_task("time-puzzles", file=str(path), context="knowledge")
    assert [s.id for s in task.dataset] == [records[0]["id"]]
    assert "facts.jsonl row 2: record 'odd': facts: expected a list" in capsys.readouterr().err
