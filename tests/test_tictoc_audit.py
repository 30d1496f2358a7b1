"""The TicToc audit on hand-built trajectories, the sensitivity model against a
plain-Python reading of Table 4, and the sample bundles (the invented fixture,
and the shared sample when ``../shared`` exists)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from tictoc_fixtures import (
    DAY,
    GAPS,
    HOUR,
    SAMPLE_BUNDLES,
    START,
    item,
    raw_final_gaps,
    reference_levels,
    write_bundle,
)

from tsolve.families.tictoc.audit import audit_samples
from tsolve.families.tictoc.data import iter_samples, split_samples
from tsolve.families.tictoc.sensitivity import GapSpec, add_months, infer_sensitivity


def audit(tmp_path: Path, files: dict[str, list[dict]]) -> dict[str, dict]:
    samples, bad = split_samples(iter_samples([write_bundle(tmp_path / "b.json", files)]))
    assert not bad
    return {a.id: a.to_json() for a in audit_samples(samples)}


def rules(result: dict) -> list[str]:
    return [v["rule"] for v in result["violations"]]


@pytest.mark.parametrize("level", ["low", "medium", "high"])
def test_each_table4_row_is_inferred(tmp_path: Path, level: str) -> None:
    out = audit(tmp_path, {"preferTool_elapse_2.json": [item("t", GAPS[level])]})
    assert out["t"]["sensitivity"] == level and out["t"]["violations"] == []
    assert {r["level"] for r in out["t"]["readings"]} == {level}


def test_bounds_are_closed(tmp_path: Path) -> None:
    # exactly 1 day and exactly 6 hours: the truncation bounds themselves
    out = audit(tmp_path, {"preferNoTool_elapse_0.json": [item("t", (60, HOUR * 6, DAY))]})
    assert out["t"]["sensitivity"] == "medium" and out["t"]["violations"] == []


def test_non_monotone_history_is_a_violation(tmp_path: Path) -> None:
    bad = item("t", GAPS["high"], offsets=(0, 0, 5, 3, 11))  # the tool answers before the call
    out = audit(tmp_path, {"preferTool_elapse_0.json": [bad]})
    assert "non_monotone" in rules(out["t"])
    assert "message 3" in out["t"]["violations"][0]["message"]


def test_final_time_before_last_message_is_a_violation(tmp_path: Path) -> None:
    out = audit(tmp_path, {"preferTool_elapse_0.json": [item("t", (-5, 180, 3 * HOUR))]})
    assert "non_monotone" in rules(out["t"]) and out["t"]["sensitivity"] is None


def test_gaps_fitting_no_level(tmp_path: Path) -> None:
    # 30 s is neither a seconds gap (1-6 s) nor a minutes gap (1-6 min)
    out = audit(tmp_path, {"preferTool_elapse_1.json": [item("t", (30, 180, 3 * HOUR))]})
    assert out["t"]["sensitivity"] is None
    assert "fits_no_level" in rules(out["t"]) and out["t"]["readings"] == []


def test_gaps_fitting_two_levels_with_an_overlapping_table() -> None:
    # Table 4's rows are disjoint, so two levels need a table whose rows overlap.
    cell = GapSpec(3, 1, 1, 6, "minute")
    table = {"low": (cell, cell, cell), "medium": (cell, cell, cell),
             "high": (GapSpec(3, 1, 1, 6, "second"),) * 3}  # fmt: skip
    inf = infer_sensitivity((120, 180, 240), START, table=table)  # type: ignore[arg-type]
    assert inf.sensitivity is None and inf.problem is not None
    assert inf.problem.startswith("fits several levels (low, medium)")


def test_month_convention_can_decide_the_level() -> None:
    # 28 days after 1 Feb 2023 is exactly one calendar month, but less than a 30-day month
    anchor = dt.datetime(2023, 2, 1, tzinfo=dt.timezone.utc)
    inf = infer_sensitivity((180, 3 * DAY, 28 * DAY), anchor)
    assert inf.levels("calendar") == ["low"] and inf.levels("30d") == []
    assert inf.sensitivity is None and inf.problem is not None and "month convention" in inf.problem


def test_b5_reversal_is_reported(tmp_path: Path) -> None:
    t = item("t", GAPS["medium"])
    out = audit(tmp_path, {"preferTool_elapse_0.json": [t], "preferNoTool_elapse_2.json": [t]})
    assert rules(out["t"]) == ["preference_reversal"]
    assert out["t"]["preferences"] == {"0": ["tool"], "2": ["no_tool"]}


def test_b5_allows_moving_toward_tool(tmp_path: Path) -> None:
    t = item("t", GAPS["medium"])
    files = {"preferNoTool_elapse_0.json": [t], "preferNoTool_elapse_1.json": [t],
             "preferTool_elapse_2.json": [t]}  # fmt: skip
    assert audit(tmp_path, files)["t"]["violations"] == []


def test_conflicting_labels_and_differing_copies(tmp_path: Path) -> None:
    t = item("t", GAPS["low"])
    other = item("t", GAPS["low"], offsets=(0, 0, 5, 6, 12))
    out = audit(tmp_path, {"preferTool_elapse_1.json": [t], "preferNoTool_elapse_1.json": [other]})
    assert set(rules(out["t"])) == {"conflicting_labels", "copies_differ"}


def test_add_months_clamps_to_the_month_end() -> None:
    t = dt.datetime(2024, 1, 31, 12, tzinfo=dt.timezone.utc)
    assert add_months(t, 1) == dt.datetime(2024, 2, 29, 12, tzinfo=dt.timezone.utc)
    assert add_months(t, 6) == dt.datetime(2024, 7, 31, 12, tzinfo=dt.timezone.utc)
    assert add_months(dt.datetime(2023, 8, 31, tzinfo=dt.timezone.utc), 6).month == 2


GAP = st.one_of(st.integers(0, 400), st.integers(0, 30 * HOUR), st.integers(0, 200 * DAY))


@settings(max_examples=examples(60))
@given(GAP, GAP, GAP)
def test_solver_model_agrees_with_plain_interval_checks(g0: int, g1: int, g2: int) -> None:
    inf = infer_sensitivity((g0, g1, g2), None, conventions=("30d",))
    assert set(inf.levels("30d")) == reference_levels((g0, g1, g2))


@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_backends_agree_with_the_enumerator(backend: str) -> None:
    anchor = dt.datetime(2023, 2, 1, tzinfo=dt.timezone.utc)
    cases = [GAPS["low"], GAPS["medium"], GAPS["high"], (30, 180, 3 * HOUR),
             (180, 3 * DAY, 28 * DAY), (60, 6 * HOUR, DAY)]  # fmt: skip
    for gaps in cases:
        a = infer_sensitivity(gaps, anchor)
        b = infer_sensitivity(gaps, anchor, backend=backend)
        assert sorted(a.readings) == sorted(b.readings)
        assert (a.sensitivity, a.problem) == (b.sensitivity, b.problem)


@pytest.mark.parametrize("bundle", SAMPLE_BUNDLES)
def test_a_sample_bundle_has_one_level_per_trajectory_and_no_violation(bundle: Path) -> None:
    raw = json.loads(bundle.read_text())
    samples, bad = split_samples(iter_samples([bundle]))
    assert not bad and len(samples) == sum(len(items) for items in raw.values())
    results = audit_samples(samples)
    # one result per trajectory id, however many files it appears in
    first_item: dict[str, dict] = {}
    for items in raw.values():
        for it in items:
            first_item.setdefault(it["id"], it)
    assert [r.id for r in results] == list(first_item)
    assert [r.id for r in results if r.violations] == []
    # the level is the single Table 4 row (30-day months) that the raw gaps fit
    for r in results:
        assert {r.sensitivity} == reference_levels(raw_final_gaps(first_item[r.id])), r.id
    # each trajectory has exactly one (level) reading under each of the three conventions
    assert all(len(r.readings) == 3 and len({lv for lv, _ in r.readings}) == 1 for r in results)


@settings(max_examples=examples(80))
@given(
    st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2100, 1, 1)),
    st.integers(0, 24),
)
def test_add_months_agrees_with_dateutil(t: dt.datetime, months: int) -> None:
    relativedelta = pytest.importorskip("dateutil.relativedelta").relativedelta
    t = t.replace(tzinfo=dt.timezone.utc)
    assert add_months(t, months) == t + relativedelta(months=months)


def test_a_row_label_that_disagrees_with_its_file_name_is_reported(tmp_path: Path) -> None:
    # The file name labels the row prefer-Tool at level 2; the row's own
    # fields say otherwise. The reader keeps the file name's label, so the
    # audit must say the two forms disagree, quoting both.
    files = {
        "preferTool_elapse_2.json": [{**item("t1"), "preference": "no_tool", "level": 1}],
        "preferTool_elapse_1.json": [{**item("t2"), "preference": "tool", "level": 1}],
    }
    res = audit(tmp_path, files)
    found = [v["message"] for v in res["t1"]["violations"] if v["rule"] == "label_forms_disagree"]
    assert len(found) == 2
    assert any("'tool'" in m and "'no_tool'" in m for m in found)
    assert any("level 2" in m and "level field says 1" in m for m in found)
    assert "label_forms_disagree" not in rules(res["t2"])  # agreeing forms are no finding


@settings(max_examples=examples(20), deadline=None)
@given(
    file_pref=st.sampled_from(["Tool", "NoTool"]),
    file_level=st.integers(0, 2),
    own_pref=st.sampled_from(["tool", "no_tool"]),
    own_level=st.integers(0, 2),
)
def test_label_forms_disagree_exactly_when_the_row_and_its_file_name_differ(
    tmp_path_factory: pytest.TempPathFactory,
    file_pref: str,
    file_level: int,
    own_pref: str,
    own_level: int,
) -> None:
    name = f"prefer{file_pref}_elapse_{file_level}.json"
    row = {**item("t1"), "preference": own_pref, "level": own_level}
    res = audit(tmp_path_factory.mktemp("b"), {name: [row]})["t1"]
    named = ("tool" if file_pref == "Tool" else "no_tool", file_level)
    found = [v for v in res["violations"] if v["rule"] == "label_forms_disagree"]
    assert len(found) == (own_pref != named[0]) + (own_level != named[1])
