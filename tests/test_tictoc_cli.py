"""``tsolve tictoc`` end to end: reading the formats, scoring synthetic
predictions with known answers, exit codes, and the sample bundles (the
invented fixture, and the shared sample when present)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from tictoc_fixtures import (
    GAPS,
    SAMPLE_BUNDLES,
    TABLE4_SECONDS,
    item,
    parse_z,
    raw_final_gaps,
    raw_level,
    reference_levels,
    write_bundle,
    write_rows,
)

from tsolve.cli.app import main
from tsolve.families.tictoc.baseline import baseline_report
from tsolve.families.tictoc.data import iter_samples, split_samples


def run(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["tsolve", "tictoc", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    out = capsys.readouterr()
    return int(exc.value.code or 0), out.out, out.err


CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    ],
}


def dataset(tmp_path: Path) -> Path:
    """Benchmark-named files: 4 prefer-Tool samples and 4 prefer-noTool samples."""
    d = tmp_path / "data"
    d.mkdir()
    tool = [item(f"t{i}", GAPS["high"]) for i in range(4)]
    notool = [item(f"n{i}", GAPS["low"]) for i in range(4)]
    (d / "preferTool_elapse_2.json").write_text(json.dumps(tool))
    (d / "preferNoTool_elapse_0.json").write_text(json.dumps(notool))
    return d


def predictions(tmp_path: Path) -> Path:
    # prefer-Tool: 3 attempts (three formats) + 1 answer -> TP 3, FN 1
    # prefer-noTool: 2 answers + 2 attempts -> TN 2, FP 2;  NAR = ½(3/4 + 2/4) = 0.625
    rows = [
        {"id": "t0", "level": 2, "output": CALL},
        {
            "id": "t1",
            "level": 2,
            "output": '<tool_call>{"name": "lookup", "arguments": {}}</tool_call>',
        },
        {"id": "t2", "level": 2, "output": '{"name": "lookup", "arguments": {}}'},
        {"id": "t3", "level": 2, "output": "It is still open."},
        {"id": "n0", "level": 0, "output": {"role": "assistant", "content": "Still open."}},
        {"id": "n1", "level": 0, "output": "Nothing changed."},
        {"id": "n2", "level": 0, "output": CALL},
        {"id": "n3", "level": 0, "output": "[TOOL_CALLS] lookup"},
    ]
    return write_rows(tmp_path / "preds.jsonl", rows)


def test_score_synthetic_predictions_exactly(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    d = dataset(tmp_path)
    files = [str(d / "preferTool_elapse_2.json"), str(d / "preferNoTool_elapse_0.json")]
    code, out, err = run(
        ["score", *files, str(predictions(tmp_path)), "--format", "json"], monkeypatch, capsys
    )
    assert code == 0, err
    rep = json.loads(out)
    assert rep["n"] == 8 and rep["confusion"] == {"tp": 3, "fn": 1, "tn": 2, "fp": 2}
    assert rep["nar"] == pytest.approx(0.625) and rep["attempt_rate"] == pytest.approx(5 / 8)
    assert rep["by_level"]["2"]["nar"] is None and rep["by_level"]["2"]["tpr"] == 0.75
    assert rep["by_sensitivity"]["high"]["n"] == 4 and rep["by_sensitivity"]["low"]["n"] == 4
    assert rep["by_length"]["short"]["n"] == 8  # 6 messages each
    assert rep["missing"]["count"] == rep["malformed"]["count"] == rep["bad_rows"]["count"] == 0


def test_score_reports_missing_unmatched_malformed_and_bad_rows(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    d = dataset(tmp_path)
    preds = [json.loads(x) for x in predictions(tmp_path).read_text().splitlines()]
    preds[0]["output"] = "<tool_call>{oops"  # malformed, still an attempt
    rows: list[Any] = [
        *preds[:-1],
        {"id": "zz", "level": 1, "output": "x"},
        "{not json",
        {"id": "n1", "level": 5, "output": "x"},
        {"id": "t1", "level": 2},
    ]
    path = write_rows(tmp_path / "p.jsonl", rows)
    code, out, err = run(
        [
            "score",
            str(d / "preferTool_elapse_2.json"),
            str(d / "preferNoTool_elapse_0.json"),
            str(path),
            "--format",
            "json",
        ],
        monkeypatch,
        capsys,
    )
    assert code == 1
    rep = json.loads(out)
    assert rep["missing"]["items"] == [
        {"id": "n3", "level": 0, "source": "preferNoTool_elapse_0.json"}
    ]
    assert rep["unmatched"]["count"] == 1 and rep["malformed"]["count"] == 1
    assert rep["malformed"]["items"][0]["attempted"] is True
    assert rep["bad_rows"]["count"] == 3
    assert "level: expected an integer in 0..2, got 5" in err and "output: missing" in err
    assert rep["n"] == 7 and rep["confusion"]["tp"] == 3  # the malformed call still counts


def test_three_input_shapes_read_the_same_samples(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    d = dataset(tmp_path)
    files = sorted(str(p) for p in d.iterdir())
    bundle = write_bundle(
        tmp_path / "bundle.json", {Path(f).name: json.loads(Path(f).read_text()) for f in files}
    )
    code, out, _ = run(["convert", str(bundle)], monkeypatch, capsys)
    assert code == 0
    own = tmp_path / "own.jsonl"
    own.write_text(out)
    keys = []
    for src in (files, [str(bundle)], [str(own)]):
        samples, bad = split_samples(iter_samples(src))
        assert not bad
        keys.append(sorted((s.id, s.level, s.preference, len(s.history)) for s in samples))
    assert keys[0] == keys[1] == keys[2] and len(keys[0]) == 8


def test_audit_jsonl_contract_and_exit_codes(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    good = write_bundle(
        tmp_path / "g.json", {"preferTool_elapse_1.json": [item("a", GAPS["medium"])]}
    )
    code, out, _ = run(["audit", str(good), "--format", "jsonl"], monkeypatch, capsys)
    assert code == 0
    (row,) = [json.loads(x) for x in out.splitlines()]
    assert row["id"] == "a" and row["sensitivity"] == "medium" and row["violations"] == []
    t = item("b", GAPS["medium"])
    bad = write_bundle(
        tmp_path / "b.json", {"preferTool_elapse_0.json": [t], "preferNoTool_elapse_1.json": [t]}
    )
    code, out, _ = run(["audit", str(bad)], monkeypatch, capsys)
    assert code == 1 and "preference_reversal" in out


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    code, _, err = run(["audit", str(tmp_path / "nope.json")], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    broken = tmp_path / "preferTool_elapse_0.json"
    broken.write_text("[{]")
    code, _, err = run(["audit", str(broken)], monkeypatch, capsys)
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1
    code, _, err = run(["score", str(broken)], monkeypatch, capsys)
    assert code == 2 and "at least two paths" in err


def test_a_bad_item_is_a_reported_row_and_the_rest_is_audited(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    t = item("ok", GAPS["high"])
    broken = item("broken", GAPS["high"])
    broken["history"][2]["time"] = "yesterday[/]"
    path = write_bundle(tmp_path / "x.json", {"preferTool_elapse_0.json": [broken, t]})
    code, out, err = run(["audit", str(path), "--format", "jsonl"], monkeypatch, capsys)
    assert code == 1
    assert [json.loads(x)["id"] for x in out.splitlines()] == ["ok"]
    assert "history[2].time: expected an ISO 8601 timestamp, got 'yesterday[/]'" in err


def test_timestamp_command(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    conv = [
        {"role": "user", "content": "hello there"},
        {"role": "assistant", "content": "hi"},
        {"role": "user", "content": "still there?"},
    ]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(conv))
    args = ["timestamp", str(path), "--sensitivity", "medium", "--seed", "4"]
    code, out, _ = run(args, monkeypatch, capsys)
    assert code == 0
    rec = json.loads(out)
    assert rec["sensitivity"] == "medium" and len(rec["history"][-1]["time"]) == 3
    _code2, out2, _ = run(args, monkeypatch, capsys)
    assert out2 == out
    code, _, err = run(["timestamp", str(path), "--sensitivity", "extreme"], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1


def test_baseline_command_on_fixtures(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    d = dataset(tmp_path)
    code, out, _ = run(
        ["baseline", *sorted(str(p) for p in d.iterdir()), "--format", "json"], monkeypatch, capsys
    )
    assert code == 0
    rep = json.loads(out)
    assert rep["always_tool"]["nar"] == 0.5 and rep["never_tool"]["nar"] == 0.5
    # prefer-Tool items: high sensitivity, large gap (3 h) -> stale under both presets -> call;
    # prefer-noTool items: low sensitivity, small gap (3 min + 5 s since the tool) -> fresh
    assert rep["freshness_small"]["nar"] == 1.0 and rep["freshness_medium"]["nar"] == 1.0


def recount_freshness(raw: dict[str, list[dict[str, Any]]], gap: int) -> dict[str, int]:
    """The freshness rule's confusion, recounted with plain datetimes from the raw
    JSON: call when the seconds from the last tool result to the final question
    exceed the upper bound of Table 4's ``gap`` column (0 small, 1 medium) for
    the one row the raw gaps fit; with no tool result or no single row, call."""
    counts = {"tp": 0, "fn": 0, "tn": 0, "fp": 0}
    for name, items in raw.items():
        for it in items:
            h = it["history"]
            final = parse_z(h[-1]["time"][raw_level(name)])
            tool_times = [parse_z(m["time"]) for m in h[:-1] if m["role"] == "tool"]
            rows = reference_levels(raw_final_gaps(it))
            if tool_times and len(rows) == 1:
                bound = TABLE4_SECONDS[rows.pop()][gap][1]
                calls = (final - max(tool_times)).total_seconds() > bound
            else:
                calls = True
            if name.startswith("preferTool"):
                counts["tp" if calls else "fn"] += 1
            else:
                counts["fp" if calls else "tn"] += 1
    return counts


@pytest.mark.parametrize("bundle", SAMPLE_BUNDLES)
def test_baselines_on_a_sample_bundle(bundle: Path) -> None:
    raw = json.loads(bundle.read_text())
    assert any(k.startswith("preferTool") for k in raw)
    assert any(k.startswith("preferNoTool") for k in raw)
    samples, bad = split_samples(iter_samples([bundle]))
    assert not bad
    rep = baseline_report(samples)
    assert rep["always_tool"]["nar"] == 0.5 and rep["never_tool"]["nar"] == 0.5
    for gap, preset in enumerate(("small", "medium")):
        c = recount_freshness(raw, gap)
        assert rep[f"freshness_{preset}"]["confusion"] == c, preset
        nar = 0.5 * (c["tp"] / (c["tp"] + c["fn"]) + c["tn"] / (c["tn"] + c["fp"]))
        assert rep[f"freshness_{preset}"]["nar"] == pytest.approx(nar), preset


@pytest.mark.parametrize("bundle", SAMPLE_BUNDLES)
def test_score_on_a_sample_bundle_with_oracle_predictions(
    bundle: Path, tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    raw = json.loads(bundle.read_text())
    rows = [
        {
            "id": it["id"],
            "level": raw_level(k),
            "output": CALL if k.startswith("preferTool") else "No need to check again.",
        }
        for k, items in raw.items()
        for it in items
    ]
    preds = write_rows(tmp_path / "oracle.jsonl", rows)
    code, out, err = run(
        ["score", str(bundle), str(preds), "--format", "json"], monkeypatch, capsys
    )
    assert code == 0, err
    rep = json.loads(out)
    n_tool = sum(len(v) for k, v in raw.items() if k.startswith("preferTool"))
    assert rep["n"] == len(rows) and rep["nar"] == 1.0 and rep["missing"]["count"] == 0
    assert rep["confusion"] == {"tp": n_tool, "fn": 0, "tn": len(rows) - n_tool, "fp": 0}


def test_throughput_function_scores_every_synthetic_sample() -> None:
    from tsolve.families.tictoc.bench import score_throughput

    out = score_throughput(12)
    assert out["items"] == 36 and out["trajectories"] == 12
    assert out["items_per_second"] is None or out["items_per_second"] > 0
