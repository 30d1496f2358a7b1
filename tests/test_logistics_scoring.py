"""Grading model outputs: tolerant parsing, exact set match, diagnosis."""

from __future__ import annotations

from typing import Any

import pytest

from tsolve.contract import family_of
from tsolve.families.logistics.generate import GenerateParams, generate_record
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.score import parse_model_answer, score_logistics
from tsolve.verifiers.registry import scorer_for

# Hand-made hard-serial item: load 30, drive 20, unload 10, then the airplane.
ITEM: dict[str, Any] = {
    "id": "hand-1",
    "data_split": "hard",
    "execution": "serial",
    "question_type": "hypothetical_time",
    "objects_description": [
        "there are 2 cities, c1 and c2.",
        "there are 3 locations, l1_1, l1_0, and l2_0.",
        "locations l1_1 and l1_0 are in city c1.",
        "location l2_0 is in city c2.",
        "there are 2 airports, The location of the airports are l1_0 and l2_0.",
        "there are 1 airplanes, a0.",
        "there are 1 trucks, t1.",
        "there are 1 packages, p2.",
    ],
    "initial_states_description": [
        "truck t1 is at the location l1_1.",
        "package p2 is at the location l1_1.",
        "airplane a0 is at the location l1_0.",
    ],
    "events": [
        "Given the initial states, the following events occur:",
        "loading package p2 into truck t1 at location l1_1 takes 30 minutes to finish.",
        "truck t1 transports from location l1_1 to location l1_0 for 20 minutes.",
        "package p2 unloaded from truck t1 at location l1_0 for 10 minutes.",
        "package p2 loaded into airplane a0 at location l1_0 for 15 minutes.",
        "airplane a0 flies from location l1_0 to location l2_0 for 60 minutes.",
    ],
    # 10:00 load, 10:30 drive (delayed 15: 10:45-11:05), unload 11:05-11:15,
    # load a0 11:15-11:30, fly 11:30-12:30. At 11:10 the package is being unloaded.
    "question": "If loading package p2 into truck t1 at location l1_1 starts at 10:00 AM and "
    "driving truck t1 from location l1_1 to location l1_0 is delayed by 15 minutes, "
    "where is the package p2 at 11:10 AM?",
    "answers": ["l1_0", "t1"],
    "depth": 2,
}


@pytest.mark.parametrize(
    "output",
    [
        "Reasoning steps: ...\nAnswer: l1_0, t1",
        "Reasoning steps: ...\nAnswer:\n\n['l1\\_0', 't1']",
        "**Final answer:** the package p2 is at location **l1_0**, inside truck t1.",
        "ANSWER - t1 and l1_0",
        "The answer is: l1_0 and t1.",
        "l1_0, t1",  # a bare answer
        "Steps.\n$\\boxed{l1\\_0, t1}$",
    ],
)
def test_tolerant_parsing_of_right_answers(output: str) -> None:
    s = score_logistics(ITEM, output)
    assert not s.parse_failed and s.metrics["accuracy"] == 1.0, s.parsed
    assert s.diagnosis == {}


@pytest.mark.parametrize(
    "output",
    [
        "blah blah\nThe package is at l1_0 and in t1",  # no answer line: free text is not searched
        "Reasoning steps: ... Answer: l1_0, t1",  # the marker must start its line
        "The package is at l1_0 and in t1",  # a bare answer must be names only
        "I am not sure.",
        "Answer: <names>",
    ],
)
def test_no_answer_line_is_a_parse_failure(output: str) -> None:
    s = score_logistics(ITEM, output)
    assert s.parse_failed and s.metrics == {"accuracy": 0.0, "partial": 0.0}, s


@pytest.mark.parametrize(
    "output",
    [
        "Answer: l1_0 or l1_1 or t1",  # two locations
        "Answer: l1_0, t1, a0",  # two vehicles
        "Answer: l1_1, l1_0, l2_0, a0, t1",  # every name of the scenario
    ],
)
def test_over_answers_score_nothing_in_any_metric(output: str) -> None:
    s = score_logistics(ITEM, output)
    assert not s.parse_failed and s.metrics == {"accuracy": 0.0, "partial": 0.0}, s
    assert "over_answer" in s.diagnosis


def test_only_the_first_answer_line_counts() -> None:
    out = "Answer: t1\nIt had left l1_1 at 10:30 AM."
    assert parse_model_answer(out, parse_item(ITEM)[0]) == ["t1"]


def test_partial_is_not_exact() -> None:
    s = score_logistics(ITEM, "Answer: t1")
    assert s.metrics == {"accuracy": 0.0, "partial": 1.0}
    assert s.diagnosis["truth"] == ["l1_0", "t1"]
    assert s.diagnosis["state"] == "unloading"
    assert s.diagnosis["since"] == "11:05 AM"


def test_unparseable_output_scores_zero_and_is_flagged() -> None:
    s = score_logistics(ITEM, "I am not sure.")
    assert s.parse_failed and s.parsed is None and s.metrics["accuracy"] == 0.0
    assert s.diagnosis["truth"] == ["l1_0", "t1"]


def test_ignoring_the_delay_is_diagnosed() -> None:
    # Without the delay the unload is over at 11:00 and p2 is loaded into a0 at 11:10.
    s = score_logistics(ITEM, "Answer: l1_0, a0")
    assert s.metrics["accuracy"] == 0.0
    miss = s.diagnosis["probable_miss"]
    assert miss["why"] == "ignored the what-if"
    assert miss["phrase"] == "driving truck t1 from location l1_1 to location l1_0"


def test_missed_event_is_named() -> None:
    # "in the moving truck" was right until 11:05: the model missed the unload.
    s = score_logistics(ITEM, "Answer: t1")
    miss = s.diagnosis["probable_miss"]
    assert miss["event"] == 2
    assert miss["phrase"] == "unloading package p2 from truck t1 at location l1_0"
    # "in the flying airplane" only happens from 11:30: the model jumped ahead.
    s = score_logistics(ITEM, "Answer: a0")
    assert s.diagnosis["probable_miss"]["why"].startswith("jumped ahead")


def test_registry_routes_benchmark_items_here() -> None:
    assert family_of(ITEM) == "logistics"
    assert scorer_for("logistics")(ITEM, "Answer: l1_0, t1").metrics["accuracy"] == 1.0


def test_generated_records_are_scored_from_their_structured_copy() -> None:
    rec = generate_record(1, 0, GenerateParams("hard", "parallel", "relative"))
    assert family_of(rec) == "logistics"
    right = "Answer: " + ", ".join(rec["answers"])
    s = score_logistics(rec, right)
    assert s.metrics["accuracy"] == 1.0
    assert s.groups == {
        "difficulty": "hard",
        "execution": "parallel",
        "question_type": "relative_time",
    }
    assert score_logistics(rec, "Answer: c0").metrics["accuracy"] == 0.0


def test_ignored_what_if_names_the_occurrence_the_default_reading_moves() -> None:
    # Split-1 items 51 and 98 (MIT, tests/fixtures/README.md) ask a what-if on
    # "flying airplane a0 from location l2_0 to location l1_0", which the plan
    # lists twice. The question's stated start is a later step, so the
    # anchored reading (the default) moves the first occurrence at or after
    # it; a model that ignored the what-if missed that one, not the first.
    import json
    from dataclasses import replace
    from pathlib import Path

    from tsolve.families.logistics.solve import answer_question

    path = Path(__file__).parent / "fixtures" / "unseentimeqa_split1_readings.jsonl"
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for item in (i for i in items if i["id"] in (51, 98)):
        scenario, question = parse_item(item)
        steps = [
            k
            for k, e in enumerate(scenario.events)
            if e.phrase() == "flying airplane a0 from location l2_0 to location l1_0"
        ]
        assert len(steps) == 2 and question.anchor is not None  # fmt: skip
        expected = next(k for k in steps if k >= question.anchor[0])
        assert expected != steps[0]
        plain = answer_question(scenario, replace(question, shifts=()))
        s = score_logistics(item, "Answer: " + ", ".join(plain.answers))
        miss = s.diagnosis["probable_miss"]
        assert miss["why"] == "ignored the what-if" and miss["event"] == expected
