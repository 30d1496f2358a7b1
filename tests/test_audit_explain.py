"""Proofs a person can read: ``tsolve audit --format text`` writes each proof
as a few numbered lines quoting the item's own text, while ``--format json``
keeps the exact proof."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main

from tsolve.audit.base import AuditVerdict
from tsolve.audit.explain import explain
from tsolve.audit.report import audit_record
from tsolve.contract import get_family
from tsolve.families.logistics.parse.lexicon import sentences

SAMPLE = Path(__file__).parent / "fixtures" / "unseentimeqa_sample.jsonl"
ROWS = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
QUOTED = re.compile("“([^”]*)”")


def wrong_location(row: dict[str, Any]) -> dict[str, Any]:
    """A benchmark item whose gold is a location of its world the package never
    visits at the asked minute (the audit proves it by cases)."""
    words = " ".join(row["objects_description"]).replace(",", " ").replace(".", " ").split()
    places = sorted({w for w in words if re.fullmatch(r"l\d+_\d+", w)})
    return {**row, "answers": [next(p for p in places if p not in row["answers"])]}


@pytest.mark.parametrize("k", [0, 1, 4, 40])
def test_a_logistics_proof_is_a_few_lines_quoting_the_story(k: int) -> None:
    row = wrong_location(ROWS[k])
    v = audit_record(row)
    assert v.verdict == "inconsistent"
    lines = explain(v, row)
    assert lines and all(line.startswith(f"{i}. ") for i, line in enumerate(lines, 1))
    # a few lines, far shorter than the exact proof
    assert len(lines) <= 15
    assert len("\n".join(lines)) < len(json.dumps(v.detail["proof"])) / 2
    text = "\n".join(lines)
    # every quote is the item's own words: its question or one of its sentences
    story = {row["question"], *sentences(row["events"], "events")}
    quotes = QUOTED.findall(text)
    assert quotes and all(q in story for q in quotes), [q for q in quotes if q not in story]
    assert f"“{row['question']}”" in lines[0]
    # it ends on why the gold fails, naming it
    assert row["answers"][0] in lines[-1] and "No reading gives the gold" in lines[-1]
    # each step it cites by number is quoted by that number's sentence
    events = [s for s in sentences(row["events"], "events") if "truck" in s or "plane" in s]
    for line in lines[1:]:
        m = re.match(r"\d+\. (?:Under [^:]*: )?“([^”]*)” \(#(\d+)\)", line)
        if m:
            assert events[int(m[2])] == m[1]


def test_a_time_puzzle_proof_quotes_the_fact_the_gold_breaks() -> None:
    fam = get_family("time-puzzles")
    rec = fam.make_record(0, 0, fam.make_options({}))
    day = rec["answers"][0]
    wrong = copy.deepcopy(rec)
    wrong["answers"] = [day[:-2] + f"{int(day[-2:]) % 28 + 1:02d}"]
    v = audit_record(wrong)
    assert v.verdict == "inconsistent"
    lines = explain(v, wrong)
    k = v.detail["violates"]["index"]
    assert any(f"Fact {k + 1} says “{rec['facts'][k]['text']}”" in line for line in lines)
    assert wrong["answers"][0] in lines[0] and wrong["answers"][0] in lines[-1]


def test_a_relational_proof_quotes_the_broken_fact() -> None:
    fam = get_family("relational-puzzles")
    rec = fam.make_record(0, 0, fam.make_options({}))
    wrong = copy.deepcopy(rec)
    row = wrong["answers"][0]
    row[0] = row[0][:-2] + f"{int(row[0][-2:]) % 28 + 1:02d}"
    v = audit_record(wrong)
    lines = explain(v, wrong)
    facts = [f["text"] for f in rec["facts"]]
    quoted = [q for line in lines for q in QUOTED.findall(line)]
    assert any(q in facts for q in quoted), lines
    assert any(row[0] in q for q in quoted)


def test_ok_has_no_lines_and_an_ambiguous_item_names_its_readings() -> None:
    verdicts = [(audit_record(r), r) for r in ROWS[:12]]
    ok, ok_row = next((v, r) for v, r in verdicts if v.verdict == "ok")
    assert explain(ok, ok_row) == []
    amb, row = next((v, r) for v, r in verdicts if v.verdict == "ambiguous")
    lines = explain(amb, row)
    assert any(amb.detail["reading"] in line for line in lines)
    assert any(", ".join(amb.detail["answers"]) in line for line in lines)


def test_text_output_numbers_the_lines_and_json_keeps_the_exact_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = {**wrong_location(ROWS[0]), "id": "wrong-0"}
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(row) + "\n")
    code, out, _err = run_main(capsys, "audit", str(path))
    assert code == 1
    numbered = [line.strip() for line in out.splitlines() if re.match(r"\s+\d+\. ", line)]
    assert numbered == explain(audit_record(row), row)
    assert f"“{row['question']}”" in out
    code, out, _err = run_main(capsys, "audit", str(path), "--format", "json")
    item = json.loads(out)["items"][0]
    # the fields the JSON proof always had, exactly as the auditor wrote them
    assert set(item["detail"]) == {"summary", "answers", "readings", "proof", "item"}
    assert set(item["detail"]["proof"]) == {
        "asked", "anchor", "what_if", "shared_rules", "schedule", "cases", "gold",
        "why_gold_is_impossible",
    }  # fmt: skip
    assert item["detail"] == json.loads(json.dumps(audit_record(row).detail))


STEP_REF = re.compile(r"\(#(\d+)\)")
TIMES = re.compile(r"\d\d:\d\d [AP]M–\d\d:\d\d [AP]M")


def _argument(row: dict[str, Any]) -> tuple[Any, ...]:
    """What a logistics proof argues, whatever its words: the verdict, the
    steps its lines cite (by number, in order) with the times they give, and
    its conclusions."""
    v = audit_record(row)
    assert isinstance(v, AuditVerdict)
    lines = explain(v, row)
    cited = [(STEP_REF.findall(line), TIMES.findall(line)) for line in lines]
    return v.verdict, v.readings, len(lines), cited, lines[-2:]


@pytest.mark.parametrize("k", [0, 1, 4, 40])
def test_rewording_a_proof_template_changes_no_argument(
    k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chain of steps in a proof is its structure, not its words: with
    every "why" sentence reworded (no "#N", no "the question states"), the
    same steps are cited with the same times."""
    import tsolve.families.logistics.proof_text as text

    row = wrong_location(ROWS[k])
    before = _argument(row)
    reworded = {
        "what-if": "moved {minutes} minutes ({what}) off {planned}{waits}",
        "question-start": "given in the question{waits}",
        "after": "once step {cause} is over, {when} ({rule})",
        "text-start": "its sentence gives this start",
        "plan-start": "where the plan begins",
        "plan-start-placed": "where the plan begins (set by step {cause}'s given start)",
    }
    monkeypatch.setattr(text, "BECAUSE", reworded)
    monkeypatch.setattr(text, "WAITS", " (planned right after step {cause})")
    monkeypatch.setattr(
        text, "READING_RULES", {key: f"{key} rules it" for key in text.READING_RULES}
    )
    v = audit_record(row)
    assert isinstance(v, AuditVerdict)
    because = [r["because"] for r in v.detail["proof"]["schedule"]]
    assert because and not any("#" in b or "states" in b for b in because)  # reworded
    assert _argument(row) == before


def test_a_logistics_verdict_read_back_from_json_is_explained_alike() -> None:
    """A verdict loaded from a JSON report holds no structure: the proof is
    built afresh from the record, and the lines are the same."""
    row = wrong_location(ROWS[1])
    v = audit_record(row)
    assert isinstance(v, AuditVerdict)
    back = AuditVerdict(**json.loads(json.dumps(v.to_json())))
    assert type(back.detail["proof"]) is dict
    assert explain(back, row) == explain(v, row)
    assert len(explain(v, row)) > 3
    # the record's gold no longer contradicted: no proof to follow, the summary instead
    fixed = {**row, "answers": v.detail["answers"]}
    lines = explain(back, fixed)
    assert lines[0] == "1. " + v.detail["summary"] and not any("“" in line for line in lines)
