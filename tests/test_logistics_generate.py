"""Generated records: determinism, shards, read-back, depth, plan validity."""

from __future__ import annotations

import hashlib
import json
from itertools import product

import pytest

from tsolve.errors import TsolveError
from tsolve.families.logistics.answer_items import answer_item
from tsolve.families.logistics.generate import GenerateParams, generate_record, generate_records
from tsolve.families.logistics.model import Scenario
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.rules import check_plan
from tsolve.families.logistics.solve import answer_question
from tsolve.families.logistics.timeline import Timeline

BENCHMARK_FIELDS = {
    "domain_description", "objects_description", "initial_states_description", "events",
    "question", "answers", "depth", "data_split", "execution", "question_type",
}  # fmt: skip
COMBOS = list(
    product(
        ("easy", "medium", "hard"), ("serial", "parallel"), ("static", "relative", "hypothetical")
    )
)


@pytest.mark.parametrize(("difficulty", "execution", "question"), COMBOS)
def test_records_read_back_to_their_answers(difficulty: str, execution: str, question: str) -> None:
    """The text alone (no structured copy) reproduces the answer, as
    ``tsolve logistics answer`` would read it."""
    params = GenerateParams(difficulty, execution, question)  # type: ignore[arg-type]
    for rec in generate_records(4, 11, params):
        text_only = {k: v for k, v in rec.items() if k in BENCHMARK_FIELDS}
        r = answer_item(text_only)
        assert r.error is None, r.error
        assert r.answers == rec["answers"]
        assert rec["data_split"] == difficulty and rec["execution"] == execution
        assert rec["question_type"] == f"{question}_time"


def test_record_format() -> None:
    rec = generate_record(5, 2, GenerateParams("medium", "serial", "hypothetical", 9))
    assert set(rec) >= BENCHMARK_FIELDS
    options = {"difficulty": "medium", "execution": "serial", "question": "hypothetical",
               "depth": 9, "asked_minute": "tracked"}  # fmt: skip
    fp = hashlib.sha256(json.dumps(options, sort_keys=True, separators=(",", ":")).encode())
    assert rec["id"] == f"logistics-5-2-{fp.hexdigest()[:6]}" and rec["family"] == "logistics"
    assert rec["generator"]["seed"] == 5 and rec["generator"]["index"] == 2
    assert rec["generator"]["params"]["depth"] == 9
    assert rec["events"][0] == "Given the initial states, the following events occur:"
    assert rec["question"].startswith("If ")
    assert " is delayed by " in rec["question"] or " is expedited by " in rec["question"]
    json.dumps(rec)  # JSON-serialisable as is


def test_same_seed_same_bytes_and_shards_agree() -> None:
    params = GenerateParams("hard", "parallel", "relative")
    a = [json.dumps(r) for r in generate_records(6, 3, params)]
    b = [json.dumps(r) for r in generate_records(6, 3, params)]
    assert a == b
    shard = [json.dumps(r) for r in generate_records(3, 3, params, start=3)]
    assert shard == a[3:]
    other = [json.dumps(r) for r in generate_records(6, 4, params)]
    assert other != a


@pytest.mark.parametrize("depth", [1, 6, 13, 20, 25])
def test_depth_is_the_distance_to_the_event_in_progress(depth: int) -> None:
    """§4.5: the asked minute lies inside event first(p) + depth and no later-listed
    event is in progress then."""
    for execution in ("serial", "parallel"):
        params = GenerateParams("hard", execution, "static", depth)
        for rec in generate_records(3, 2, params):
            assert rec["depth"] == depth
            sc, q = parse_item(rec)
            res = answer_question(sc, q)
            first = next(e.index for e in sc.events if e.package == q.package)
            j = first + depth
            s = res.schedule
            assert s.start[j] <= res.minute < s.end[j]
            assert not any(
                s.start[k] <= res.minute < s.end[k] for k in range(j + 1, len(sc.events))
            )


def test_generated_plans_are_valid_and_deliver_everything() -> None:
    for k in range(20):
        rec = generate_record(8, k, GenerateParams("easy", "serial", "static"))
        sc = Scenario.from_json(rec["scenario"])
        final = check_plan(sc)
        assert sc.goals and all(final[p] == g for p, g in sc.goals.items())


def test_questions_are_not_on_boundaries() -> None:
    """A generated minute is never a change point of the package's answer."""
    for k in range(10):
        rec = generate_record(9, k, GenerateParams("hard", "parallel", "hypothetical"))
        sc, q = parse_item(rec)
        res = answer_question(sc, q)
        tl = Timeline(sc, res.schedule, q.package)
        assert tl.at(res.minute - 1).answers == tl.at(res.minute).answers


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"difficulty": "extreme"}, "difficulty"), ({"execution": "random"}, "execution"),
     ({"question": "why"}, "question"), ({"depth": 0}, "depth"), ({"depth": 99}, "depth")],
)  # fmt: skip
def test_bad_params_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(TsolveError) as exc:
        GenerateParams(**kwargs)  # type: ignore[arg-type]
    assert str(exc.value).startswith(field)


def test_negative_count_is_an_error() -> None:
    with pytest.raises(TsolveError, match="count"):
        list(generate_records(-1, 0, GenerateParams()))


def test_records_do_not_depend_on_the_hash_seed() -> None:
    """Byte identity across processes: string hashing (PYTHONHASHSEED) must not
    leak into record order through set iteration."""
    import os
    import subprocess
    import sys

    code = (
        "import json\n"
        "from tsolve.families.logistics.generate import GenerateParams, generate_records\n"
        "for e in ('serial', 'parallel'):\n"
        "    for r in generate_records(6, 7, GenerateParams('hard', e, 'hypothetical')):\n"
        "        print(json.dumps(r))\n"
    )
    outs = set()
    for hashseed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        r = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outs.add(r.stdout)
    assert len(outs) == 1
