"""Relational puzzles: several events, one or more unknown dates.

Independent references used here: Python's ``datetime`` (ISO calendar weeks,
months, years, day differences) for the relations; plain nested loops for the
generator's tree counting; hand-solved puzzles (worked out in comments) for
the reader, the solver dispatch and the verifier.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import random

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import FACT_TYPES, domain_view, fact_constraint
from tsolve.encodings.ir import evaluate
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.encoding import (
    RELATION_TYPES,
    DaysAfter,
    DaysAfterWithin,
    Earlier,
    SamePeriod,
    SameWeek,
    WeeksAfter,
    lunar_allowed,
    retarget,
)
from tsolve.families.relational_puzzles.generate import (
    RelationalConfig,
    count_answers,
    generate_relational_puzzle,
)
from tsolve.families.relational_puzzles.score import parse_tuple_answer, score_relational
from tsolve.families.relational_puzzles.solve import problem_of, relational_from_record
from tsolve.families.time_puzzles.solve import solve_record
from tsolve.records import dumps
from tsolve.solver import get_backend

SMALL = DateDomain.from_dates("2023-12-01", "2024-03-31")  # spans a year and a leap day


def _date(day: int) -> dt.date:
    return dt.date.fromordinal(day)


def reference_truth(rel: object, x: int, y: int) -> bool:
    """Each relation by datetime, written without the IR or NumPy."""
    a, b = _date(x), _date(y)
    if isinstance(rel, DaysAfter):
        return (a - b).days == rel.days
    if isinstance(rel, WeeksAfter):
        return (a - b).days == 7 * rel.weeks
    if isinstance(rel, DaysAfterWithin):
        d = (a - b).days if rel.direction == "after" else (b - a).days
        return rel.lo <= d <= rel.hi
    if isinstance(rel, Earlier):
        return a < b
    if isinstance(rel, SameWeek):  # ISO weeks run Monday to Sunday
        return a.isocalendar()[:2] == b.isocalendar()[:2]
    assert isinstance(rel, SamePeriod)
    if rel.unit == "month":
        return (a.year, a.month) == (b.year, b.month)
    return a.year == b.year


RELATIONS = [DaysAfter(17), DaysAfter(-3), WeeksAfter(2), WeeksAfter(-1),
             DaysAfterWithin(3, 10), DaysAfterWithin(2, 5, "before"), Earlier(), SameWeek(),
             SamePeriod("month"), SamePeriod("year")]  # fmt: skip


@pytest.mark.parametrize("rel", RELATIONS, ids=lambda r: f"{r.kind}{r.params}")
def test_relation_ir_matrix_and_propagation_agree_with_datetime(rel: object) -> None:
    days = SMALL.days
    ref = np.array([[reference_truth(rel, int(x), int(y)) for y in days] for x in days])
    assert ref.any() and not ref.all()
    ir = evaluate(rel.ir("x", "y", SMALL), {"x": days[:, None], "y": days[None, :]})  # type: ignore[attr-defined]
    assert (ir == ref).all()
    assert (rel.matrix(SMALL) == ref).all()  # type: ignore[attr-defined]
    v = np.random.default_rng(1).integers(0, 4, days.size).astype(float)
    assert (rel.propagate(SMALL, v) == ref @ v).all()  # type: ignore[attr-defined]
    assert (rel.propagate(SMALL, v, transpose=True) == ref.T @ v).all()  # type: ignore[attr-defined]


def test_every_relation_kind_is_covered() -> None:
    assert {type(r) for r in RELATIONS} == set(RELATION_TYPES.values())


@pytest.mark.parametrize("kind", ["weekday", "weekdays", "month", "day_of_month", "lunar_month"])
def test_retargeted_fact_means_the_same_on_the_event_variable(kind: str) -> None:
    rng = random.Random(kind)
    view = domain_view(SMALL)
    seed = type(view)(np.asarray([SMALL.start + 40]))
    fact = FACT_TYPES[kind].sample(rng, seed, SMALL, None)
    assert fact is not None
    f = retarget(fact_constraint(fact, SMALL), "e2")
    assert (evaluate(f, {"e2": SMALL.days}) == fact.holds(view)).all()


def test_lunar_facts_are_kept_away_from_disputed_months() -> None:
    assert lunar_allowed(SMALL)
    assert not lunar_allowed(DateDomain.from_dates("2057-01-01", "2058-12-31"))
    # The Chinese tables cover 1800-01-01..2100-12-31.
    assert lunar_allowed(DateDomain.from_dates("1890-01-01", "1901-01-01"))
    assert not lunar_allowed(DateDomain.from_dates("1790-01-01", "1801-01-01"))


@given(st.integers(0, 10_000), st.integers(2, 3))
@settings(max_examples=examples(25))
def test_tree_counting_matches_nested_loops(seed: int, n: int) -> None:
    rng = random.Random(seed)
    dom = DateDomain.from_dates("2024-02-01", "2024-03-15")
    unary = [np.array([rng.random() < 0.4 for _ in range(dom.size)]) for _ in range(n)]
    rels = [(k, rng.randrange(k), rng.choice(RELATIONS)) for k in range(1, n)]
    rels = [(s, r, rel) if rng.random() < 0.5 else (r, s, rel) for s, r, rel in rels]
    sols = [
        combo for combo in itertools.product(range(dom.size), repeat=n)
        if all(unary[i][combo[i]] for i in range(n))
        and all(reference_truth(rel, dom.start + combo[s], dom.start + combo[r])
                for s, r, rel in rels)
    ]  # fmt: skip
    assert count_answers(n, unary, rels, dom) == len(sols)
    for asked in range(n):
        assert count_answers(n, unary, rels, dom, asked) == len({c[asked] for c in sols})


def _domain_for(n: int) -> DateDomain:
    """Small enough that the enumerator stays far below its 5M-combination bound."""
    days = {2: 150, 3: 70, 4: 28}[n]
    start = dt.date(2024, 1, 15)
    return DateDomain.from_dates(start.isoformat(), (start + dt.timedelta(days - 1)).isoformat())


@given(
    seed=st.integers(0, 1000), index=st.integers(0, 50), n=st.integers(2, 4),
    m=st.integers(0, 4), ask=st.sampled_from(["tuples", "event"]),
    style=st.sampled_from(["implicit", "explicit"]),
)  # fmt: skip
@settings()
def test_backends_agree_gold_holds_and_counts_are_exact(
    seed: int, index: int, n: int, m: int, ask: str, style: str
) -> None:
    cfg = RelationalConfig(events=n, solutions=m, ask=ask, style=style, domain=_domain_for(n))
    rec = generate_relational_puzzle(seed, index, cfg)
    assert rec["solution_count"] == len(rec["answers"]) == m
    assert rec["solver"]["status"] == ("complete" if m else "unsat")
    for backend in ("cpsat", "z3", "enumerator"):
        res = solve_record(rec, backend)
        assert res["status"] == rec["solver"]["status"]
        assert res["matches"] is True, (backend, res["answers"], rec["answers"])
    puzzle = relational_from_record(rec)
    if ask == "tuples":  # every gold tuple satisfies every fact and relation
        full = problem_of(puzzle)
        for t in rec["answers"]:
            pairs = zip(puzzle.events, t, strict=True)
            env = {e.var: dt.date.fromisoformat(d).toordinal() for e, d in pairs}
            assert all(get_backend("cpsat").check(full, env))
    # The seed tuple is a solution, so the hidden dates appear in the gold answers.
    seeds = rec["generator"]["seed_dates"]
    if m and ask == "tuples":
        assert seeds in rec["answers"]
    elif m:
        asked = [e["var"] for e in rec["events"]].index(rec["asked"]["event"])
        assert seeds[asked] in rec["answers"]
    assert rec["graph"]["depth"] >= 1 and len(rec["graph"]["edges"]) == n - 1


def test_same_seed_same_bytes_and_record_is_a_function_of_index() -> None:
    cfg = RelationalConfig(events=3, solutions=(1, 2, 3), ask="mixed")
    a = [dumps(generate_relational_puzzle(5, i, cfg)) for i in range(4)]
    assert a == [dumps(generate_relational_puzzle(5, i, cfg)) for i in range(4)]
    assert dumps(generate_relational_puzzle(5, 3, cfg)) == a[3]  # no dependence on earlier records
    assert len(set(a)) == 4


# A hand-solved record. Domain: March 2024. The product launch (e2) is 17 days
# after the board meeting (e1); the board meeting is a Tuesday in March 2024
# (the 5th, 12th, 19th, 26th); the launch is in March too, so the meeting is
# on or before March 14: the 5th or the 12th, with launches on the 22nd and 29th.
HAND = {
    "id": "hand-1", "family": "relational-puzzles", "kind": "relational",
    "style": "implicit", "domain": {"start": "2024-03-01", "end": "2024-03-31"},
    "events": [{"name": "the board meeting", "var": "e1"},
               {"name": "the product launch", "var": "e2"}],
    "asked": {"mode": "tuples"},
    "facts": [
        {"kind": "days_after", "events": ["e2", "e1"], "params": {"days": 17}},
        {"kind": "weekday", "event": "e1", "params": {"weekday": "Tuesday"}},
    ],
    "answers": [["2024-03-05", "2024-03-22"], ["2024-03-12", "2024-03-29"]],
    "solution_count": 2,
}  # fmt: skip


@pytest.mark.parametrize("backend", ["cpsat", "z3", "enumerator"])
def test_hand_solved_record(backend: str) -> None:
    res = solve_record(HAND, backend)
    assert res["answers"] == HAND["answers"] and res["matches"] is True
    one = dict(HAND, asked={"mode": "event", "event": "e2"}, answers=["2024-03-22", "2024-03-29"])
    res = solve_record(one, backend)
    assert res["answers"] == ["2024-03-22", "2024-03-29"] and res["matches"] is True


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"events": [{"name": "x", "var": "e1"}, {"name": "x", "var": "e2"}]}, "share a name"),
        (
            {"facts": [{"kind": "weekday", "event": "e9", "params": {"weekday": "Monday"}}]},
            "facts[0].event",
        ),
        (
            {"facts": [{"kind": "days_after", "events": ["e1", "e1"], "params": {"days": 3}}]},
            "two different events",
        ),
        (
            {"facts": [{"kind": "days_after", "events": ["e2", "e1"], "params": {"days": 0}}]},
            "days_after.days",
        ),
        ({"facts": [{"kind": "us_president", "event": "e1", "params": {}}]}, "calendar fact"),
        ({"asked": {"mode": "event", "event": "nope"}}, "asked.event"),
        ({"domain": {"start": "1900-01-01", "end": "2100-01-01"}}, "at most 20000 days"),
        ({"domain": {"start": "2024-01-01"}}, "domain.end"),
    ],
)
def test_bad_records_are_one_line_errors(change: dict[str, object], needle: str) -> None:
    with pytest.raises(TsolveError, match=None) as exc:
        relational_from_record({**HAND, **change})
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_tuple_answer_parsing_takes_the_last_block_and_flags_bad_lines() -> None:
    names = ["the board meeting", "the product launch"]
    text = (
        "Draft: MY ANSWER: nonsense\nthinking...\n"
        "MY ANSWER: The Board Meeting = 2024-03-05; product launch = 2024-03-22\n\n"
        "**MY ANSWER:** product launch = 2024-03-29; board meeting = 2024-03-12\n"
        "MY ANSWER: board meeting = 2024-02-30; product launch = 2024-03-22\n"
        "MY ANSWER: board meeting = 2024-03-05\n"
    )
    p = parse_tuple_answer(text, names)
    assert not p.failed
    assert p.tuples == [("2024-03-05", "2024-03-22"), ("2024-03-12", "2024-03-29")]
    assert len(p.invalid) == 2  # an impossible date; a missing event
    assert parse_tuple_answer("so...\nMY ANSWER: None", names).is_none
    # A marker inside a sentence is not a final answer line, and text
    # without one is read as a bare answer, which must be tuples only.
    assert parse_tuple_answer("so... MY ANSWER: None", names).failed
    assert parse_tuple_answer("no marker here", names).failed
    both = parse_tuple_answer("MY ANSWER: None\nMY ANSWER: board meeting = 2024-03-05; "
                              "product launch = 2024-03-22", names)  # fmt: skip
    assert both.failed


def test_verify_scores_tuples_and_names_the_broken_relation() -> None:
    good = (
        "MY ANSWER: the board meeting = 2024-03-05; the product launch = 2024-03-22\n"
        "MY ANSWER: the board meeting = 2024-03-12; the product launch = 2024-03-29"
    )
    assert score_relational(HAND, good).metrics["em"] == 1.0
    # 2024-03-12 is a Tuesday, but 03-12 + 17 days is 03-29, not 03-23: only the offset breaks.
    wrong = "MY ANSWER: the board meeting = 2024-03-12; the product launch = 2024-03-23"
    item = score_relational(HAND, wrong)
    assert item.metrics == {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
    broken = item.diagnosis["wrong"]["2024-03-12|2024-03-23"]["violates"]
    assert [(b["kind"], b["relation"]) for b in broken] == [("days_after", True)]
    assert sorted(item.diagnosis["missed"]) == ["2024-03-05|2024-03-22", "2024-03-12|2024-03-29"]
    # 2024-03-06 is a Wednesday: both facts fail.
    item = score_relational(HAND, "MY ANSWER: board meeting = 2024-03-06; product launch = "
                                  "2024-03-22")  # fmt: skip
    kinds = {b["kind"] for b in item.diagnosis["wrong"]["2024-03-06|2024-03-22"]["violates"]}
    assert kinds == {"days_after", "weekday"}


def test_verify_one_event_mode_explains_a_wrong_date_by_a_minimal_core() -> None:
    one = dict(HAND, asked={"mode": "event", "event": "e2"}, answers=["2024-03-22", "2024-03-29"])
    item = score_relational(one, "MY ANSWER: 2024-03-22, 2024-03-23")
    assert item.metrics["em"] == 0.0 and item.metrics["jaccard"] == pytest.approx(1 / 3)
    # A launch on 03-23 needs a meeting on 03-06, a Wednesday: it takes both facts.
    core = item.diagnosis["wrong"]["2024-03-23"]["violates"]
    assert {c["kind"] for c in core} == {"days_after", "weekday"}
    # A launch on 03-10 would need a meeting in February, outside the domain: the offset alone.
    item = score_relational(one, "MY ANSWER: 2024-03-10")
    assert [c["kind"] for c in item.diagnosis["wrong"]["2024-03-10"]["violates"]] == ["days_after"]


def test_cli_puzzle_events_solve_check_and_verify(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess
    from pathlib import Path

    from cli_main import run_cli

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        """In-process: the README tour runs these commands as processes."""
        return run_cli(capsys, *args)

    r = run("puzzle", "--events", "2", "--solutions", "1-2", "--count", "2", "--seed", "2",
            "--format", "jsonl")  # fmt: skip
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [len(x["answers"]) for x in recs] == [1, 2]
    assert all(x["family"] == "relational-puzzles" and len(x["events"]) == 2 for x in recs)
    path = Path(str(tmp_path)) / "rel.jsonl"
    path.write_text(r.stdout)
    s = run("solve", str(path), "--check", "--backend", "z3", "--format", "json")
    assert s.returncode == 0, s.stderr
    assert all(x["matches"] and x["status"] == "complete" for x in json.loads(s.stdout))
    preds = Path(str(tmp_path)) / "pred.jsonl"
    names = [[e["name"] for e in x["events"]] for x in recs]
    lines = []
    for x, ns in zip(recs, names, strict=True):
        out = [
            "MY ANSWER: " + "; ".join(f"{n} = {d}" for n, d in zip(ns, t, strict=True))
            for t in x["answers"]
        ]
        lines.append(json.dumps({"id": x["id"], "output": "\n".join(out)}))
    preds.write_text("\n".join(lines) + "\n")
    v = run("verify", str(path), str(preds), "--format", "json")
    assert v.returncode == 0, v.stderr
    assert json.loads(v.stdout)["summary"]["families"]["relational-puzzles"]["overall"]["em"] == 1.0
    t = run("puzzle", "--events", "3", "--ask", "event", "--seed", "1")
    assert t.returncode == 0 and "MY ANSWER" in t.stdout and "graph (depth" in t.stdout
    bad = run("puzzle", "--events", "9")
    assert bad.returncode == 2 and "events" in bad.stderr


@pytest.mark.parametrize("backend", ["cpsat", "z3", "enumerator"])
def test_limit_on_one_event_mode_is_reported_as_limit(backend: str) -> None:
    one = dict(HAND, asked={"mode": "event", "event": "e2"}, answers=["2024-03-22", "2024-03-29"])
    res = solve_record(one, backend, limit=1)
    assert res["status"] == "limit" and not res["complete"] and res["matches"] is None
    assert res["answers"] in (["2024-03-22"], ["2024-03-29"])
    full = solve_record(one, backend, limit=2)  # exactly the answer count: more may not exist
    assert full["answers"] == ["2024-03-22", "2024-03-29"]


def test_stress_family_is_clean_and_its_invariants_can_fail() -> None:
    from tsolve.contract import get_family
    from tsolve.families.relational_puzzles.invariants import relational_invariants
    from tsolve.stress import run_stress

    report = run_stress("relational-puzzles", n=6, seed=2, cross_process=0)
    assert report.ok, [v.line() for v in report.violations]
    cfg = get_family("relational-puzzles").make_options(
        {"events": 2, "solutions": 2, "domain_start": "2024-01-15", "domain_end": "2024-03-01"}
    )
    rec = generate_relational_puzzle(4, 0, cfg)
    assert relational_invariants(rec, 4, 0, cfg) == []
    tampered = json.loads(dumps(rec))
    tampered["answers"] = tampered["answers"][:1]
    tampered["graph"]["depth"] = 5
    checks = {name for name, _msg in relational_invariants(tampered, 4, 0, cfg)}
    assert {"regenerate", "count", "backends", "graph"} <= checks


def test_diagnosis_work_per_item_is_bounded() -> None:
    from tsolve.families.relational_puzzles.score import MAX_DIAGNOSED

    one = dict(HAND, asked={"mode": "event", "event": "e2"}, answers=["2024-03-22", "2024-03-29"])
    days = [dt.date(2024, 1, 1) + dt.timedelta(k) for k in range(MAX_DIAGNOSED + 10)]
    item = score_relational(one, "MY ANSWER: " + ", ".join(d.isoformat() for d in days))
    assert len(item.diagnosis["wrong"]) == MAX_DIAGNOSED + 10
    assert sum(bool(v) for v in item.diagnosis["wrong"].values()) == MAX_DIAGNOSED
    assert "first 50" in item.diagnosis["note"]
