"""``tsolve stress`` and the shared hypothesis strategies, used here as property tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import examples
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain, iso
from tsolve.cli.app import app
from tsolve.contract import Family, get_family, register_family, unregister_family
from tsolve.encodings.facts import DayView, Fact
from tsolve.encodings.ir import DATE_VAR
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.generate import generate_puzzle
from tsolve.families.time_puzzles.solve import build_problem
from tsolve.solver import get_backend
from tsolve.stress import (
    StressConfig,
    check_case,
    load_stress_config,
    replay_case,
    run_stress,
)
from tsolve.testing.cases import StressCase
from tsolve.testing.strategies import (
    domains,
    fact_sets,
    option_dicts,
    puzzle_configs,
    stress_cases,
)

CAP = 40
FEW = settings(
    max_examples=examples(12, ci=6), deadline=None, suppress_health_check=list(HealthCheck)
)


# ---------------------------------------- property tests (shared strategies)


def _agree(facts: list[Fact], domain: DateDomain) -> None:
    """CP-SAT == Z3 == enumerator, and every answer satisfies every fact."""
    problem = build_problem(facts, domain)
    ref = get_backend("enumerator").solve(problem)
    assert ref.complete
    for name in ("cpsat", "z3"):
        got = get_backend(name).solve(problem, limit=CAP)
        if ref.count <= CAP:
            assert got.solutions == ref.solutions, name
        else:  # capped: a subset of the true answers, flagged incomplete
            assert got.count == CAP and not got.complete
            assert set(got.solutions) <= set(ref.solutions), name
    for d in ref.solutions[:10]:
        assert all(get_backend("enumerator").check(problem, {DATE_VAR: d}))
        assert all(bool(f.holds(DayView(np.asarray([d])))[0]) for f in facts), iso(d)


@FEW
@given(fact_sets(max_size=5, max_days=2))
def test_backends_agree_on_random_fact_sets(facts: list[Fact]) -> None:
    _agree(facts, DEFAULT_DOMAIN)


@FEW
@given(fact_sets(min_size=2, max_size=4, max_days=1))
def test_single_day_fact_sets_contain_the_day(facts: list[Fact]) -> None:
    """Facts sampled on one day are all true on it: the set is never empty."""
    problem = build_problem(facts, DEFAULT_DOMAIN)
    assert get_backend("cpsat").solve(problem, limit=1).count == 1


@settings(max_examples=examples(6), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_backends_agree_on_sub_domains(data: st.DataObject) -> None:
    domain = data.draw(domains(min_years=5, max_years=60))
    _agree(data.draw(fact_sets(domain, max_size=3)), domain)


@settings(max_examples=examples(8), deadline=None, suppress_health_check=list(HealthCheck))
@given(stress_cases("time-puzzles", choices={"backend": ["cpsat"], "domain": [None]}))
def test_generated_puzzles_hold_every_invariant(case: StressCase) -> None:
    """Gold == Z3 == enumerator; gold dates satisfy every fact; count exact;
    regenerated identically; JSON round trip (see invariants.py)."""
    violations, skip = check_case(case)
    # A case the generator declines checks nothing: it must not count as a pass
    # (hypothesis fails the test, Unsatisfiable, if every case is declined).
    note(f"skipped: {skip}")
    assume(skip is None)
    assert not violations, [v.line() for v in violations]


@settings(max_examples=examples(5), deadline=None, suppress_health_check=list(HealthCheck))
@given(puzzle_configs(choices={"backend": ["cpsat"], "solutions": [1, 2, 3]}))
def test_same_seed_same_record(cfg: Any) -> None:
    a = generate_puzzle(11, 4, cfg)
    assert json.dumps(a) == json.dumps(generate_puzzle(11, 4, cfg))
    assert a["solution_count"] == cfg.target(4)


@settings(max_examples=examples(30), deadline=None)
@given(option_dicts("time-puzzles", fixed={"style": "explicit"}, choices={"facts": [4, 5]}))
def test_option_dicts_respect_fixed_and_choices(opts: dict[str, Any]) -> None:
    assert opts["style"] == "explicit"
    assert opts["facts"] in (4, 5)
    assert ("domain_start" in opts) == ("domain_end" in opts)
    get_family("time-puzzles").make_options(opts)  # always valid


# ---------------------------------------------------------------- run_stress


@pytest.mark.parametrize(("family", "n"), [("time-puzzles", 4), ("span", 25), ("logistics", 8)])
def test_run_stress_is_clean(family: str, n: int) -> None:
    if not get_family(family).available():
        pytest.skip(f"{family} not installed")
    cfg = StressConfig(choices={"backend": ["cpsat"]}) if family == "time-puzzles" else None
    report = run_stress(family, n=n, seed=5, config=cfg, cross_process=0)
    checked = report.cases - len(report.skipped)
    assert checked >= 1, f"every case was skipped: {[r for _, r in report.skipped][:3]}"
    assert not report.violations, [v.line() for v in report.violations]


def test_run_stress_is_deterministic() -> None:
    a = run_stress("span", n=10, seed=3, cross_process=0)
    b = run_stress("span", n=10, seed=3, cross_process=0)
    assert a.to_json()["by_option"] == b.to_json()["by_option"]


def test_cross_process_check_on_a_deterministic_family() -> None:
    report = run_stress("span", n=5, seed=1, cross_process=5)
    assert report.ok, [v.line() for v in report.violations]


@pytest.fixture
def broken_family() -> Any:
    """A family whose records are wrong for odd indices and crash at index 7."""

    def gen(seed: int, index: int, cfg: Any) -> dict[str, Any]:
        if index % 100 == 7:
            raise KeyError("oops")
        if index % 100 == 9:
            raise TsolveError("cannot make this one")
        return {"id": f"b-{index}", "generator": {"seed": seed, "index": index}, "v": index}

    def inv(rec: dict[str, Any], seed: int, index: int, cfg: Any) -> list[tuple[str, str]]:
        return [("odd", f"value {rec['v']} is odd")] if rec["v"] % 2 else []

    fam = Family(
        name="test-broken", description="test",
        options={"k": lambda v, n: v}, build=lambda o: o, generate=gen,
        summarize=lambda r: {}, invariants=inv,
        stress_choices=lambda: {"k": [1, 2]},
    )  # fmt: skip
    register_family(fam)
    yield fam
    unregister_family("test-broken")


def test_violations_carry_their_reproduction(broken_family: Any) -> None:
    cfg = StressConfig(index_range=(0, 10))
    report = run_stress("test-broken", n=30, seed=2, config=cfg, cross_process=0)
    assert not report.ok
    checks = {v.check for v in report.violations}
    assert "odd" in checks
    for v in report.violations:
        if v.check == "odd":
            assert v.case.index % 2 == 1
            assert f"index={v.case.index}" in v.line() and "--case" in v.line()
    if any(v.case.index == 7 for v in report.violations):
        assert "generate-crash" in checks
    again = replay_case(report.violations[0].case.to_json())
    assert [v.check for v in again.violations] == [report.violations[0].check]
    skipped = replay_case({"family": "test-broken", "seed": 0, "index": 9, "options": {}})
    assert skipped.ok and skipped.skipped


def test_cli_stress_exit_codes(broken_family: Any, tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["stress", "span", "--n", "5", "-q"])
    assert ok.exit_code == 0 and "OK stress span" in ok.stdout
    conf = tmp_path / "c.json"
    conf.write_text(json.dumps({"n": 12, "index_range": [0, 10]}))
    bad = runner.invoke(app, ["stress", "test-broken", "--config", str(conf), "-q"])
    assert bad.exit_code == 1 and "[odd]" in bad.stdout and "reproduce:" in bad.stdout
    js = runner.invoke(app, ["stress", "test-broken", "--config", str(conf), "--format", "json"])
    data = json.loads(js.stdout)
    assert data["ok"] is False and data["violations"][0]["case"]["family"] == "test-broken"
    case = json.dumps(data["violations"][0]["case"])
    rep = runner.invoke(app, ["stress", "test-broken", "--case", case])
    assert rep.exit_code == 1


def test_stress_config_errors(tmp_path: Path) -> None:
    p = tmp_path / "c.json"
    for content, word in (
        ("{", "not valid JSON"),
        ('{"optons": {}}', "unknown keys"),
        ('{"choices": {"facts": []}}', "non-empty list"),
        ('{"n": -1}', "n:"),
        ('{"index_range": [5, 1]}', "index_range"),
    ):
        p.write_text(content)
        with pytest.raises(TsolveError, match=word):
            load_stress_config(p)
    with pytest.raises(TsolveError, match="style"):
        run_stress("time-puzzles", n=1, config=StressConfig(options={"style": "loud"}))
    with pytest.raises(TsolveError, match="not an option"):
        run_stress("span", n=1, config=StressConfig(choices={"facts": [3]}))
    runner = CliRunner()
    res = runner.invoke(app, ["stress", "span", "--case", "{nope"])
    assert res.exit_code != 0 and isinstance(res.exception, TsolveError)
