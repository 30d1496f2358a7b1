"""The ``schedule`` and ``prompt`` fields of logistics records (generator 3).

The schedule is checked against an independent recomputation (a chain of
durations for serial plans, a longest-path pass over the dependency edges in
networkx's own topological order for parallel ones), and the invariants must
catch a tampered schedule. The prompt must carry the whole item and ask for
the answer in the form the scorer reads.
"""

from __future__ import annotations

import copy

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schedule_oracle import independent_starts

from tsolve.families.logistics.generate import GenerateParams, generate_record
from tsolve.families.logistics.invariants import logistics_invariants, schedule_violations
from tsolve.families.logistics.model import Question, Scenario
from tsolve.families.logistics.score import score_logistics

CASES = [
    GenerateParams("hard", "serial", "static", None),
    GenerateParams("hard", "serial", "hypothetical", None),
    GenerateParams("hard", "parallel", "static", None),
    GenerateParams("hard", "parallel", "relative", None),
]


@pytest.mark.parametrize("params", CASES, ids=lambda p: f"{p.execution}-{p.question}")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_schedule_field_equals_an_independent_recomputation(
    params: GenerateParams, seed: int
) -> None:
    rec = generate_record(seed, 0, params)
    starts = independent_starts(rec)
    events = rec["schedule"]["events"]
    assert [e["start"] for e in events] == starts
    durations = [e["duration"] for e in rec["scenario"]["events"]]
    assert [e["end"] - e["start"] for e in events] == durations
    # the vehicle lanes hold exactly the events, each on its own vehicle
    lanes = rec["schedule"]["vehicles"]
    on_lanes = sorted(
        (b["event"], b["start"], b["end"], v) for v, bars in lanes.items() for b in bars
    )
    expected = [
        (k, starts[k], starts[k] + durations[k], e["vehicle"])
        for k, e in enumerate(rec["scenario"]["events"])
    ]
    assert on_lanes == expected
    # the solution minute lies in the asked package's state whose answer is the gold
    pkg = rec["structured_question"]["package"]
    t = rec["solution"]["minute"]
    (state,) = [
        s
        for s in rec["schedule"]["packages"][pkg]
        if (s["start"] is None or s["start"] <= t) and (s["end"] is None or t < s["end"])
    ]
    assert state["where"] == rec["answers"]


def test_invariants_catch_a_tampered_schedule() -> None:
    params = GenerateParams("hard", "parallel", "static", None)
    rec = generate_record(3, 0, params)
    assert logistics_invariants(rec, 3, 0, params) == []
    bad = copy.deepcopy(rec)
    bad["schedule"]["events"][2]["start"] -= 1
    assert "schedule" in {kind for kind, _ in logistics_invariants(bad, 3, 0, params)}


def test_schedule_violations_name_a_broken_dependency_and_duration() -> None:
    rec = generate_record(4, 0, GenerateParams("hard", "serial", "static", None))
    scen = Scenario.from_json(rec["scenario"])
    q = Question.from_json(rec["structured_question"])
    sched = copy.deepcopy(rec["schedule"])
    assert schedule_violations(scen, q, sched) == []
    sched["events"][5]["start"] -= 3  # starts before event 4 ends, and lasts 3 min too long
    kinds = {kind for kind, _ in schedule_violations(scen, q, sched)}
    assert kinds == {"schedule-dependency", "schedule-duration"}


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    difficulty=st.sampled_from(["easy", "medium", "hard"]),
    execution=st.sampled_from(["serial", "parallel"]),
    question=st.sampled_from(["static", "relative", "hypothetical"]),
)
def test_schedule_respects_every_dependency_and_duration(
    seed: int, difficulty: str, execution: str, question: str
) -> None:
    params = GenerateParams(difficulty, execution, question, None)  # type: ignore[arg-type]
    rec = generate_record(seed, 0, params)
    scen = Scenario.from_json(rec["scenario"])
    q = Question.from_json(rec["structured_question"])
    assert schedule_violations(scen, q, rec["schedule"]) == []


def test_prompt_holds_the_item_and_an_answer_in_its_form_scores_one() -> None:
    rec = generate_record(5, 0, GenerateParams("hard", "parallel", "hypothetical", None))
    prompt = rec["prompt"]
    for key in ("domain_description", "question"):
        assert rec[key] in prompt
    for sentence in [*rec["objects_description"], *rec["initial_states_description"]]:
        assert sentence in prompt
    for sentence in rec["events"]:
        assert f"\n{sentence}\n" in prompt  # one event per line
    assert prompt.index("[Events]") < prompt.index("[Question]") < prompt.index("Answer:")
    gold = ", ".join(rec["answers"])
    reply = f"The format asks for a line like 'Answer: l0_0, a0'. Reasoning...\nAnswer: {gold}"
    assert score_logistics(rec, reply).metrics["accuracy"] == 1.0  # the last marker counts
