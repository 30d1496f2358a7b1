"""The 120 real UnSeenTimeQA items: per-split exact-set-match accuracy, plan
validity under the IPC rules, CP-SAT agreement, and the benchmark's depth."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tsolve.families.logistics.answer_items import answer_item
from tsolve.families.logistics.event_graph import build_graph, earliest_schedule
from tsolve.families.logistics.parse.item import parse_item
from tsolve.families.logistics.rules import check_plan
from tsolve.families.logistics.schedule_cpsat import cpsat_schedule
from tsolve.families.logistics.solve import answer_question

# The public UnSeenTimeQA sample (MIT), shipped with the tests: see fixtures/README.md.
SAMPLE = Path(__file__).resolve().parent / "fixtures" / "unseentimeqa_sample.jsonl"


@pytest.fixture(scope="module")
def items() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]


def _split(item: dict[str, Any]) -> str:
    return f"{item['data_split']}-{item['execution']}"


def test_sample_has_all_splits(items: list[dict[str, Any]]) -> None:
    assert Counter(_split(i) for i in items) == {
        "easy-serial": 30, "medium-serial": 30, "hard-serial": 30, "hard-parallel": 30,
    }  # fmt: skip


@pytest.mark.parametrize("split", ["easy-serial", "medium-serial", "hard-serial"])
def test_exact_match_on_serial_splits(items: list[dict[str, Any]], split: str) -> None:
    wrong = []
    for k, item in enumerate(i for i in items if _split(i) == split):
        r = answer_item(item, k)
        assert r.error is None, r.error
        if set(r.answers or []) != set(item["answers"]):
            wrong.append((item["question_type"], item["id"], r.answers, item["answers"]))
    assert not wrong, wrong


def test_hard_parallel_figure(
    items: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue asks for the figure to be reported; it is 30/30 at the time of
    writing, and a drop below 90% means rule 3 broke."""
    par = [i for i in items if _split(i) == "hard-parallel"]
    ok = sum(set(answer_item(i).answers or []) == set(i["answers"]) for i in par)
    with capsys.disabled():
        print(f"\nhard-parallel exact set match on the sample: {ok}/{len(par)}")
    assert ok >= 0.9 * len(par)


def test_answers_do_not_need_the_depth_field(items: list[dict[str, Any]]) -> None:
    """Depth only breaks ties for plans longer than a day; none of these needs it."""
    for item in items:
        sc, q = parse_item(item)
        assert set(answer_question(sc, q).answers) == set(item["answers"])


def test_benchmark_plans_obey_the_rules(items: list[dict[str, Any]]) -> None:
    for item in items:
        sc, _ = parse_item(item)
        check_plan(sc)


def test_graph_schedule_equals_cpsat_on_benchmark_plans(items: list[dict[str, Any]]) -> None:
    seen = set()
    for item in items:
        sc, _ = parse_item(item)
        key = (tuple(sc.events), sc.execution)
        if key in seen:
            continue
        seen.add(key)
        g = build_graph(sc)
        assert earliest_schedule(sc, g) == cpsat_schedule(sc, g)


def test_asked_minute_lies_in_event_first_plus_depth(items: list[dict[str, Any]]) -> None:
    """§4.5: depth is the list distance from the package's first event to the
    event in progress at the asked minute. This is what lets the answerer
    break day ties and what the generator reproduces."""
    for item in items:
        sc, q = parse_item(item)
        res = answer_question(sc, q)
        first = next(e.index for e in sc.events if e.package == q.package)
        j = first + item["depth"]
        assert res.schedule.start[j] <= res.minute < res.schedule.end[j], item["id"]


def test_workers_give_the_same_results_in_the_same_order(items: list[dict[str, Any]]) -> None:
    from tsolve.errors import TsolveError
    from tsolve.families.logistics.answer_items import answer_items

    rows: list[tuple[int, Any]] = list(enumerate(items))
    rows.insert(7, (7, TsolveError("line 8: malformed JSON")))  # a bad row stays in its place
    rows.insert(50, (50, {"id": "garbage", "events": 42}))
    one = [r.to_json(with_gold=True) for r in answer_items(rows)]
    two = [r.to_json(with_gold=True) for r in answer_items(rows, workers=2, chunk=16)]
    assert two == one
    assert [r["id"] for r in one].count("garbage") == 1 and "error" in one[50]
    assert sum(bool(r.get("correct")) for r in one) == len(items)
