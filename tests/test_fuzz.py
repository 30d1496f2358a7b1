"""The fast slice of the fuzz suite (``tsolve stress FAMILY --fuzz`` runs the
long campaigns): hypothesis drives model outputs, JSON lines and record
mutations through every entry point, asserting the robustness promises of
``docs/robustness.md``."""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tsolve.errors import INTERNAL, TsolveError
from tsolve.records import BadRow, iter_json_rows
from tsolve.stress.fuzz import (
    base_records,
    check_case,
    fuzz_campaign,
    fuzzable_families,
    mutate,
    random_output,
)
from tsolve.stress.fuzz_surfaces import (
    SURFACES,
    budget_split,
    mcp_wire_campaign,
    surface_campaign,
)

FAMILIES = fuzzable_families()
#: Seconds an input may take before the campaign calls it a hang: a guard, not
#: a speed limit (the inputs here score in milliseconds; a hang never ends).
HANG_GUARD = 300
BASES = {fam: base_records(fam) for fam in FAMILIES}

pieces = st.sampled_from(
    ["MY ANSWER:", "Answer:", "final answer is", "2024-02-29", "2024-02-30", "None", "Yes",
     "No", "l1_0", "t1", "5 Adar 5784", "day 5 of Month 3, 1950", "Leap Month 4", "\n", " ",
     "*", "[/]", "\ud800", "\u2028", "ſ"]
)  # fmt: skip
outputs = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(pieces, st.text(max_size=10)), max_size=30).map("".join),
    st.tuples(pieces, st.sampled_from([" ", "\n", "*", "x"]), st.integers(1, 20_000)).map(
        lambda t: t[0] + t[1] * t[2] + "x"
    ),
)


@settings(max_examples=examples(60))
@given(family=st.sampled_from(FAMILIES), k=st.integers(0, 20), output=outputs)
@example(family="logistics", k=0, output="Answer" + " " * 50_000 + "x")
@example(family="logistics", k=1, output="final" + " " * 50_000 + "x")
@example(family="relational-puzzles", k=0, output="MY ANSWER: " + "x " * 40_000)  # was 4 s+
def test_any_output_scores_in_range_without_crashing(family: str, k: int, output: str) -> None:
    rec = BASES[family][k % len(BASES[family])]
    failure, _reported, _took = check_case(family, rec, output, timeout=HANG_GUARD)
    assert failure is None, failure.message


@settings(max_examples=examples(80))
@given(family=st.sampled_from(FAMILIES), k=st.integers(0, 20), seed=st.integers(0, 2**32))
def test_any_mutated_record_is_scored_or_reported(family: str, k: int, seed: int) -> None:
    rng = random.Random(seed)
    rec, what = mutate(BASES[family][k % len(BASES[family])], rng)
    failure, _reported, _took = check_case(family, rec, random_output(rng, 300), timeout=HANG_GUARD)
    assert failure is None, f"{what}: {failure.message}"


lines = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=100).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.builds(json.dumps, st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=4),
        max_leaves=20)).map(str.encode),
    st.sampled_from([b"[" * 5000, b"{" * 5000, b"9" * 5000, b"\xef\xbb\xbf{}", b"\r", b"{}\r"]),
)  # fmt: skip


@settings(max_examples=examples(150))
@given(rows=st.lists(lines, min_size=1, max_size=6))
def test_any_file_reads_as_rows_or_one_error(tmp_path_factory: Any, rows: list[bytes]) -> None:
    p = tmp_path_factory.mktemp("f") / "x.jsonl"
    p.write_bytes(b"\n".join(rows))
    try:
        got = list(iter_json_rows(p))
    except TsolveError as exc:  # a file that is not readable as a whole: one line, named
        assert "\n" not in str(exc) and "x.jsonl" in str(exc)
        return
    assert all(isinstance(r, dict | BadRow) for r in got)


def test_well_formed_rows_survive_a_hostile_neighbour(tmp_path: Path) -> None:
    """Each good row is read back exactly, whatever sits on the lines around it."""
    good = [{"id": i, "output": f"a\u2028b\u0085{i}"} for i in range(3)]
    hostile = [b"[" * 100_000, b"9" * 5000, b"\xff\xfe", b"{", b""]
    blob = b"\n".join(
        x for g, h in zip(good, hostile, strict=False)
        for x in (json.dumps(g, ensure_ascii=False).encode(), h)
    )  # fmt: skip
    (tmp_path / "m.jsonl").write_bytes(blob)
    got = [r for r in iter_json_rows(tmp_path / "m.jsonl") if isinstance(r, dict)]
    assert got == good


def test_the_fuzzer_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scorer that crashes on some input is caught, with its case."""
    from tsolve.contract import REGISTRY, get_family
    from tsolve.verifiers import registry

    real = registry.scorer_for("span")

    def fragile(record: dict[str, Any], output: str, **kw: Any) -> Any:
        if "Yes" in output:
            raise KeyError("boom")
        return real(record, output, **kw)

    span = get_family("span")
    monkeypatch.setitem(REGISTRY.families, "span", dataclasses.replace(span, score=fragile))
    failure, _r, _t = check_case("span", BASES["span"][0], "MY ANSWER: Yes")
    assert failure is not None and failure.kind == "exception" and "KeyError" in failure.message
    failure, _r, _t = check_case("span", BASES["span"][0], "MY ANSWER: No")
    assert failure is None


def test_a_small_campaign_is_clean_and_reproducible() -> None:
    a = fuzz_campaign("span", 100, 100, seed=7)
    b = fuzz_campaign("span", 100, 100, seed=7)
    assert a.ok and a.outputs == 100 and a.mutations == 100
    assert a.reported_rows == b.reported_rows > 0  # same seed, same cases


def test_cli_on_a_file_of_mutated_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One line per bad row on stderr, exit 1, no traceback, every good row scored."""
    from tsolve.cli.app import main

    rng = random.Random(3)
    recs, preds = [], []
    for fam in FAMILIES:
        for k, base in enumerate(BASES[fam]):
            rec, _ = mutate(base, rng) if k % 2 else (base, "")
            rec["id"] = f"{fam}-{k}"
            recs.append(rec)
            preds.append({"id": rec["id"], "output": random_output(rng, 200)})
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    sys.argv = ["tsolve", "verify", str(tmp_path / "r.jsonl"), str(tmp_path / "p.jsonl"),
                "--format", "json"]  # fmt: skip
    with pytest.raises(SystemExit) as done:
        main()
    out, err = capsys.readouterr()
    assert done.value.code in (0, 1)
    report = json.loads(out)
    assert report["summary"]["scored"] + len(report["errors"]) == len(recs)
    assert "Traceback" not in err and INTERNAL not in out


# ------------------------------------------------ the surfaces beyond scoring


@pytest.mark.parametrize("surface", SURFACES)
def test_every_surface_reports_or_answers_in_strict_json(surface: str) -> None:
    """A small slice of ``tsolve stress all --fuzz --budget N``: each input is
    answered in strict JSON or refused with a TsolveError, never a crash."""
    reports = surface_campaign(examples(6), seed=0, timeout=HANG_GUARD, surfaces=(surface,))
    report = reports[surface]
    assert report.outputs == examples(6)
    assert not report.failures, [(f.kind, f.message, f.case) for f in report.failures[:3]]


def test_the_mcp_wire_answers_every_request() -> None:
    report = mcp_wire_campaign(examples(15), seed=0, timeout=HANG_GUARD)
    assert report.outputs == examples(15)
    assert not report.failures, [(f.kind, f.message, f.case) for f in report.failures[:3]]
    assert report.reported_rows > 0  # the hostile lines did reach the screen


def test_surface_campaign_can_fail() -> None:
    """The harness itself: a crash, a hang and non-strict JSON are failures."""
    import tsolve.stress.fuzz_surfaces as fs

    def crash(_rng: random.Random) -> tuple[str, Any]:
        return "crash", lambda: 1 / 0

    def nan(_rng: random.Random) -> tuple[str, Any]:
        return "nan", lambda: {"x": float("nan")}

    def hang(_rng: random.Random) -> tuple[str, Any]:
        def forever() -> None:
            while True:
                pass

        return "hang", forever

    saved = dict(fs._SURFACE_CALLS)
    try:
        fs._SURFACE_CALLS.update({"claims": crash, "audit": nan, "mcp": hang})
        kinds = {
            s: fs.check_surface(s, random.Random(0), 0.5)[0] for s in ("claims", "audit", "mcp")
        }
    finally:
        fs._SURFACE_CALLS.clear()
        fs._SURFACE_CALLS.update(saved)
    assert {s: f.kind for s, f in kinds.items() if f is not None} == {
        "claims": "exception", "audit": "non-strict-json", "mcp": "hang"}  # fmt: skip


def test_budget_split_adds_up() -> None:
    for budget in (100, 10_000, 100_000):
        outputs, mutations, surfaces, wire = budget_split(budget, len(FAMILIES))
        total = len(FAMILIES) * (outputs + mutations) + surfaces + wire
        assert budget - len(FAMILIES) <= total <= budget


# ------------------------------------------------ the adapters' surfaces find the old defects
#
# Each new surface is run against the behaviour it was built to catch, put
# back by hand: the check that fixed it replaced by what was there before.


def test_mcp_args_finds_coercion_and_the_generic_prompt_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("mcp", reason="the mcp extra is not installed")
    import tsolve.adapters.mcp_server as server
    from tsolve.stress import fuzz_adapters as fa

    call = {"facts": [{"kind": "month", "params": {"month": 2}}], "limit": True}
    month = {"calendar_name": "gregorian", "year": 2024, "month": True, "day": 1}
    with pytest.raises(TsolveError):  # refused today
        fa.check_tool_call("solve_facts", call, must_refuse=True)
    with pytest.raises(TsolveError):
        fa.check_prompt_call({"family": "span", "seed": "²"}, "seed", "²")

    def old_int_arg(text: str, name: str) -> int:
        if not str(text).strip().isdigit():
            raise TsolveError(f"{name}: expected a non-negative integer, got {text!r}")
        return int(text)

    monkeypatch.setattr(server, "check_tool_arguments", lambda *a: None)  # the SDK's lax mode
    monkeypatch.setattr(server, "_int_arg", old_int_arg)
    with pytest.raises(AssertionError, match="accepted"):  # true became a limit of 1
        fa.check_tool_call("solve_facts", call, must_refuse=True)
    with pytest.raises(AssertionError, match="accepted"):  # and January
        fa.check_tool_call("search_calendar", month, must_refuse=True)
    with pytest.raises(AssertionError, match="-32602"):  # int('²') inside the prompt
        fa.check_prompt_call({"family": "span", "seed": "²"}, "seed", "²")


def test_tictoc_args_finds_the_arguments_json_cannot_read(monkeypatch: pytest.MonkeyPatch) -> None:
    import tsolve.families.tictoc.inspect_task as tt
    from tsolve.contract import get_family
    from tsolve.families.tictoc import fuzz as fa
    from tsolve.stress import fuzz_adapters

    assert "tictoc-args" in get_family("tictoc").fuzz_surfaces  # the family's own surface
    assert fuzz_adapters.check_tictoc_arguments is fa.check_arguments  # the old name stays
    with pytest.raises(TsolveError, match="skipped 1 bad item"):  # the good one kept
        fa.check_arguments("[" * 100_000)

    def old_call(call: Any, i: int, k: int) -> Any:  # only JSONDecodeError caught
        fn = call["function"]
        raw = fn.get("arguments")
        try:
            args = json.loads(raw) if isinstance(raw, str) else (raw or {})
        except json.JSONDecodeError:
            args = {"arguments": raw}
        return tt.ToolCall(id="c", function=fn["name"], arguments=args)

    monkeypatch.setattr(tt, "_call", old_call)
    for arguments in ("[" * 100_000, "9" * 5000):
        with pytest.raises(Exception) as err:
            fa.check_arguments(arguments)
        assert not isinstance(err.value, TsolveError | AssertionError)  # a crash, as before


def test_configs_finds_what_validate_let_through(monkeypatch: pytest.MonkeyPatch) -> None:
    import tsolve.facade as facade
    from tsolve.stress import fuzz_adapters as fa

    for field, value in (("reward_metric", "bogus"), ("size", 10**30)):
        with pytest.raises(TsolveError):  # refused today, at creation
            fa.check_config("facade", "span", field, value)
    monkeypatch.setattr(facade, "check_reward_metric", lambda *a: None)
    monkeypatch.setattr(facade, "check_size", lambda value, *a: value)
    with pytest.raises(AssertionError, match="accepted reward_metric='bogus', then TsolveError"):
        fa.check_config("facade", "span", "reward_metric", "bogus")
    with pytest.raises(AssertionError, match="then OverflowError"):
        fa.check_config("facade", "span", "size", 10**30)


def _surface_failures(surface: str, n: int) -> list[Any]:
    from tsolve.stress.fuzz_surfaces import check_surface

    rng = random.Random(f"finds-the-defect:{surface}")
    found = []
    for _ in range(n):
        failure, _reported, _took, _label = check_surface(surface, rng, HANG_GUARD)
        if failure is not None:
            found.append(failure)
    return found


def test_report_surface_finds_non_finite_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the finite-number check taken out of the report's reader, a NaN
    or an infinite value is reported as a figure again: the surface must see
    it (a non-strict JSON report or a NaN metric)."""
    pytest.importorskip("inspect_ai", reason="the inspect extra is not installed")
    import tsolve.adapters.inspect_ai.report as rep
    from tsolve.stress import fuzz_outputs as fo

    def lax_number(value: Any, what: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise rep.BadSample(f"{what}: expected a number")
        return float(value)

    monkeypatch.setattr(rep, "_number", lax_number)
    monkeypatch.setattr(rep, "_metric", lax_number)  # its range check refuses NaN too
    monkeypatch.setattr(fo, "_PLACES", ("value.em",))
    monkeypatch.setattr(fo, "_HOSTILE", (("NaN", lambda: float("nan")),))
    found = _surface_failures("report", 2)
    assert found and all(f.kind in ("exception", "internal", "non-strict-json") for f in found)


def test_out_folders_surface_finds_a_target_written_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the target checks taken out (a link, the working folder, a
    folder tsolve did not write are all accepted), the surface must find a
    write outside the target, a lost user file or a lost working folder."""
    import os
    from pathlib import Path

    import tsolve.records.folders as folders

    monkeypatch.setattr(
        folders, "check_target", lambda out, kind, what="out": Path(os.path.abspath(out))
    )
    monkeypatch.setattr(folders, "_why_not_ours", lambda root, kind: None)
    found = _surface_failures("out-folders", 40)
    assert found, "no defect found with every target check removed"


def test_report_surface_finds_a_score_out_of_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the range check taken out of the report's reader, ``em = -5`` is
    averaged into an accuracy below 0 again: the surface must see it."""
    pytest.importorskip("inspect_ai", reason="the inspect extra is not installed")
    import math

    import tsolve.adapters.inspect_ai.report as rep
    from tsolve.stress import fuzz_outputs as fo

    monkeypatch.setattr(rep, "METRIC_RANGE", (-math.inf, math.inf))
    monkeypatch.setattr(fo, "_PLACES", ("value.em",))
    monkeypatch.setattr(fo, "_HOSTILE", (("-5", lambda: -5),))
    found = _surface_failures("report", 4)
    assert any("outside [0, 1]" in f.message for f in found), found


def test_report_surface_finds_long_ids_pooled(monkeypatch: pytest.MonkeyPatch) -> None:
    """With samples keyed by their id cut to 200 characters (as they were),
    long ids sharing that prefix are pooled into one sample: the surface must
    count fewer samples than the log holds."""
    pytest.importorskip("inspect_ai", reason="the inspect extra is not installed")
    import tsolve.adapters.inspect_ai.report as rep

    monkeypatch.setattr(rep, "_sample_key", lambda sample: str(sample.id)[:200])
    found = _surface_failures("report", 30)
    assert any("counted" in f.message for f in found), found


def test_report_plot_surface_finds_a_picture_drawn_through_a_link(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the link checks taken out of the picture writer, ``--figure all``
    draws through a link at a derived name: the surface must see a file
    outside the folder change."""
    pytest.importorskip("inspect_ai", reason="the inspect extra is not installed")
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
    import tsolve.plots.output as out
    from tsolve.stress import fuzz_outputs as fo

    monkeypatch.setattr(out, "_refuse_link", lambda p, what: None)
    monkeypatch.setattr(out, "_NOFOLLOW", 0)
    monkeypatch.setattr(fo, "_PLOT_LAYOUTS", ("a link to a file outside",))
    found = _surface_failures("report-plot", 6)
    assert any("outside the figures' folder" in f.message for f in found), found
