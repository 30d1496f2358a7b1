"""Generated puzzles: gold answers are exact, agree across backends, satisfy
every fact, and depend only on (seed, index)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain
from tsolve.encodings.facts import DayView, Level, fact_from_json
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle, parse_solutions
from tsolve.families.time_puzzles.solve import build_problem, puzzle_from_record, solve_record
from tsolve.records import dumps
from tsolve.solver import get_backend

configs = st.builds(
    PuzzleConfig,
    solutions=st.integers(0, 6),
    facts=st.one_of(st.none(), st.integers(3, 6)),
    style=st.sampled_from(["implicit", "explicit"]),
)


def brute_force(record: dict) -> list[str]:
    """The answer set by checking every day of the domain against each fact's
    fast path (``holds``), independently of the IR and of every solver."""
    facts = [fact_from_json(f) for f in record["facts"]]
    dom = DateDomain.from_dates(record["domain"]["start"], record["domain"]["end"])
    view = DayView(dom.days)
    mask = np.logical_and.reduce([f.holds(view) for f in facts])
    return [dt.date.fromordinal(int(d)).isoformat() for d in dom.days[mask]]


@given(st.integers(0, 10**6), st.integers(0, 10**4), configs)
def test_gold_answers_are_exact_and_backends_agree(
    seed: int, index: int, cfg: PuzzleConfig
) -> None:
    rec = generate_puzzle(seed, index, cfg)
    m = cfg.target(index)
    assert rec["solution_count"] == m == len(rec["answers"])
    assert rec["answers"] == sorted(rec["answers"])
    assert rec["answers"] == brute_force(rec)
    for backend in ("z3", "enumerator"):
        assert solve_record(rec, backend)["answers"] == rec["answers"], backend
    # Every gold date satisfies every fact (the solver's check).
    puzzle = puzzle_from_record(rec)
    problem = build_problem(puzzle.facts, puzzle.domain)
    for a in rec["answers"]:
        assert all(get_backend("cpsat").check(problem, {"d": dt.date.fromisoformat(a).toordinal()}))
    # Distinct categories, and the seed date satisfies every fact when M > 0.
    kinds = [f["kind"] for f in rec["facts"]]
    assert len(set(kinds)) == len(kinds)
    if m > 0:
        assert rec["generator"]["seed_date"] in rec["answers"]


@given(st.integers(0, 10**6), st.integers(0, 10**4), configs)
def test_same_seed_same_record_and_json_round_trip(
    seed: int, index: int, cfg: PuzzleConfig
) -> None:
    a = generate_puzzle(seed, index, cfg)
    b = generate_puzzle(seed, index, cfg)
    assert dumps(a) == dumps(b)
    back = json.loads(dumps(a))
    assert back == a
    assert solve_record(back)["matches"] is True


def test_implicit_and_explicit_are_the_same_puzzle() -> None:
    imp = generate_puzzle(5, 3, solutions=2, style="implicit")
    exp = generate_puzzle(5, 3, solutions=2, style="explicit")
    assert [f["params"] for f in imp["facts"]] == [f["params"] for f in exp["facts"]]
    assert imp["answers"] == exp["answers"]


def test_prompt_follows_appendix_e() -> None:
    rec = generate_puzzle(1, 1, solutions=3)
    assert rec["prompt"].startswith("From the time-related constraints below")
    assert 'respond with "MY ANSWER: None"' in rec["prompt"]
    for i, f in enumerate(rec["facts"], 1):
        assert f"{i}. {f['text']}" in rec["prompt"]


def test_record_carries_generator_and_solver_metadata() -> None:
    rec = generate_puzzle(3, 4, solutions=2)
    # the documented id: SHA-256 of the content options' canonical JSON (docs/formats.md)
    content = {k: v for k, v in rec["generator"]["params"].items() if k not in ("style", "backend")}
    fp = hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode())
    assert rec["id"] == f"tp-3-4-{fp.hexdigest()[:6]}-implicit"
    assert rec["family"] == "time-puzzles"
    assert rec["pair"] == f"tp-3-4-{fp.hexdigest()[:6]}-explicit"
    gen = rec["generator"]
    assert (gen["name"], gen["seed"], gen["index"]) == ("time-puzzles", 3, 4)
    assert rec["solver"] == {"backend": "cpsat", "cap": 3, "count": 2, "complete": True}
    assert any(f["kind"] in {"person_alive", "us_president", "sports_event_year", "event_relation"}
               for f in rec["facts"])  # fmt: skip


def test_larger_answer_sets_are_reachable() -> None:
    for m in (10, 20):
        assert len(generate_puzzle(0, m, solutions=m)["answers"]) == m


def test_custom_domain_without_lunar_table() -> None:
    """A domain that reaches before the Chinese tables (which start on
    1800-01-01) draws no lunar fact; one inside them (1800-1950) may, and its
    gold is still what a second backend finds."""
    dom = DateDomain.from_dates("1750-01-01", "1850-12-31")
    rec = generate_puzzle(2, 0, solutions=2, domain=dom)
    kinds = {f["kind"] for f in rec["facts"]}
    assert not kinds & {"lunar_month", "chinese_zodiac"}
    assert all("1750-01-01" <= a <= "1850-12-31" for a in rec["answers"])
    assert solve_record(rec, "z3")["answers"] == rec["answers"]
    inside = DateDomain.from_dates("1800-01-01", "1950-12-31")
    recs = [generate_puzzle(s, 0, solutions=2, domain=inside) for s in range(3)]
    lunar = [r for r in recs if {f["kind"] for f in r["facts"]} & {"lunar_month", "chinese_zodiac"}]
    assert lunar, "the tables from 1800 let a lunar fact be drawn"
    assert solve_record(lunar[0], "z3")["answers"] == lunar[0]["answers"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"solutions": -1}, "solutions"),
        ({"solutions": 999}, "solutions"),
        ({"facts": 1}, "facts"),
        ({"style": "loud"}, "style"),
        ({"categories": ("month", "nope")}, "unknown fact kind"),
        ({"anchors": ("month",)}, "not a knowledge-based anchor"),
    ],
)
def test_bad_config_is_rejected(kwargs: dict, message: str) -> None:
    with pytest.raises(TsolveError, match=message):
        generate_puzzle(0, 0, **kwargs)


def test_parse_solutions() -> None:
    assert parse_solutions("3") == 3
    assert parse_solutions("1-6") == (1, 2, 3, 4, 5, 6)
    assert parse_solutions("1,3,5") == (1, 3, 5)
    with pytest.raises(TsolveError):
        parse_solutions("lots")


def test_default_domain_is_the_lunar_table_range() -> None:
    assert DEFAULT_DOMAIN.start_date == dt.date(1900, 1, 31)
    assert DEFAULT_DOMAIN.end_date == dt.date(2100, 12, 31)


def test_domain_without_any_anchor_is_a_clear_error() -> None:
    dom = DateDomain.from_dates("1500-01-01", "1600-01-01")
    with pytest.raises(TsolveError, match="no knowledge-base anchor"):
        generate_puzzle(0, 0, solutions=2, domain=dom)


@pytest.mark.parametrize(("m", "count"), [(1, "1 answer "), (2, "2 answers ")])
def test_a_search_that_runs_out_says_so_in_plain_words(m: int, count: str) -> None:
    # a president's term and a decade meet on weeks at the least, never on 1 or 2 days
    with pytest.raises(TsolveError, match=f"no puzzle with exactly {count}found in 3 attempts"):
        generate_puzzle(0, 0, solutions=m, facts=2, anchors=("us_president",),
                        categories=("decade",), max_attempts=3)  # fmt: skip


@given(
    st.integers(0, 10**6),
    st.integers(0, 10**4),
    st.builds(
        PuzzleConfig,
        solutions=st.integers(1, 6),
        facts=st.one_of(st.none(), st.integers(2, 6)),
        minimal=st.booleans(),
    ),
)
def test_fact_levels_cycle_from_the_anchors_as_algorithm_2_says(
    seed: int, index: int, cfg: PuzzleConfig
) -> None:
    """The chooser fills slots in its own order (generator version 7), but
    the levels are Algorithm 2's: the anchor's, then YEAR -> MONTH -> DAY
    cycling from the one after it, one per further fact."""
    rec = generate_puzzle(seed, index, cfg)
    facts = [fact_from_json(f) for f in rec["facts"]]
    levels = Counter(f.fact_level() for f in facts)
    cycle = [Level.YEAR, Level.MONTH, Level.DAY]

    def expected(anchor: Level) -> Counter[Level]:
        start = cycle.index(anchor)
        return Counter([anchor, *(cycle[(start + i) % 3] for i in range(1, len(facts)))])

    anchors = {f.fact_level() for f in facts if type(f).anchor}
    assert any(levels == expected(lv) for lv in anchors), (levels, anchors)
