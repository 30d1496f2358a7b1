"""Where generated questions ask: the classifier against an independent
computation, the split-1 mix the generator draws from, and byte identity.

The independent computation reads the record's ``scenario`` and the
per-event times of its ``schedule`` field (start, end, the batch's
``busy_end``), never the timeline module: the package is *during* an event
while one of its own loads or unloads runs or a vehicle it is in moves,
*before* its first event starts, *after* its last state change, and
*between* otherwise.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.families.logistics.generate import GenerateParams, generate_record
from tsolve.families.logistics.generate.asked_minute import (
    KINDS,
    POSITION_OF,
    SPLIT1_KINDS,
    asked_minute,
    draw_kind,
    target_kinds,
)
from tsolve.families.logistics.model import Scenario
from tsolve.testing.strategies import logistics_params

FIXTURE = Path(__file__).parent / "fixtures" / "unseentimeqa_sample.jsonl"


def independent_kinds(rec: dict[str, Any]) -> set[str]:
    """The kinds the asked minute may have: one, or, where an expedited move
    overlaps a loading (the rules allow it), each of the overlapping ones."""
    sc = Scenario.from_json(rec["scenario"])
    package = rec["structured_question"]["package"]
    t = rec["solution"]["minute"]
    times = {e["index"]: e for e in rec["schedule"]["events"]}
    start = {i: e["start"] for i, e in times.items()}
    busy = {i: e.get("busy_end", e["end"]) for i, e in times.items()}
    own = [e for e in sc.events if e.package == package]
    spans: list[tuple[int, int, str]] = []  # (from, to, what the package does)
    inside: list[tuple[int, int]] = []  # when it is in a vehicle
    for k, e in enumerate(own):
        spans.append((start[e.index], busy[e.index], f"{e.kind}ing"))
        if e.kind != "load":
            continue
        unload = next((u for u in own[k + 1 :] if u.kind == "unload"), None)
        until = busy[unload.index] if unload else 10**9
        inside.append((start[e.index], until))
        for m in sc.events:
            carried = unload is None or start[m.index] < start[unload.index]
            ours = m.kind == "move" and m.vehicle == e.vehicle
            if ours and carried and start[e.index] <= start[m.index]:
                spans.append((start[m.index], times[m.index]["end"], "moving"))
    if t < min(a for a, _b, _w in spans):
        return {"before"}
    if t >= max(b for _a, b, _w in spans):
        return {"after"}
    doing = {w for a, b, w in spans if a <= t < b}
    if doing:
        return doing
    return {"parked"} if any(a <= t < b for a, b in inside) else {"at"}


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 10**6), index=st.integers(0, 50), params=logistics_params())
def test_generated_minute_kind_matches_an_independent_computation(
    seed: int, index: int, params: GenerateParams
) -> None:
    rec = generate_record(seed, index, params)
    found = asked_minute(rec)  # from the text alone
    assert found.kind in independent_kinds(rec), (found, rec["id"])
    assert found.position in ("during", "between")  # never answerable without the timing
    assert found.kind in target_kinds(params.difficulty, params.execution, params.question_type)
    # the event the depth counts to is one of the vehicle the package is with
    sc = Scenario.from_json(rec["scenario"])
    first = next(e.index for e in sc.events if e.package == rec["structured_question"]["package"])
    assert sc.events[first + rec["depth"]].vehicle in rec["answers"]
    assert json.dumps(generate_record(seed, index, params)) == json.dumps(rec)


def test_split1_table_is_whole_and_never_asks_outside_the_story() -> None:
    assert len(SPLIT1_KINDS) == 12
    for weights in SPLIT1_KINDS.values():
        assert sum(weights.values()) == 300
        assert set(weights) <= {"loading", "unloading", "moving", "parked"}


def test_benchmark_sample_falls_where_the_table_says() -> None:
    """The 120 shipped split-1 items (10 per stratum) ask only kinds the
    table gives weight to, in their own stratum."""
    seen: Counter[str] = Counter()
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        found = asked_minute(json.loads(line))
        assert SPLIT1_KINDS[found.stratum].get(found.kind, 0) > 0, found
        seen[found.kind] += 1
    assert sum(seen.values()) == 120 and seen["moving"] and seen["parked"]


def test_draws_follow_the_weights() -> None:
    rng = random.Random(3)
    for stratum, weights in SPLIT1_KINDS.items():
        got = Counter(draw_kind(rng, *stratum) for _ in range(2000))
        for kind in KINDS:
            assert abs(got[kind] / 2000 - weights.get(kind, 0) / 300) < 0.04, (stratum, kind)


def test_parallel_extension_takes_hard_parallel_weights() -> None:
    assert (
        target_kinds("easy", "parallel", "static_time")
        is SPLIT1_KINDS[("hard", "parallel", "static_time")]
    )
    assert set(POSITION_OF) == set(KINDS)
