"""``tsolve report`` on scores out of range, long sample ids, pictures at a
link, and an 80-column terminal.

One real, offline Inspect run (the scripted solver answers the gold, so
every metric the scorer writes is 1 or 0) of three time puzzles whose ids are
220 characters long and share their first 200, for two epochs. Inspect itself
counts three samples (its ``results``); the report must too. Copies of the
log with a score value made huge (``1e308``) or negative are reported as bad
samples by name, beside the good log, in strict JSON.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.report import build_report
from tsolve.adapters.inspect_ai.scripted import scripted

PREFIX = "p" * 200
EPOCHS = 2


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("logs")
    task = family_task("time-puzzles", seed=0, count=3, solutions="1")
    for k, sample in enumerate(task.dataset):
        sample.id = f"{PREFIX}{k:020d}"  # 220 characters, the first 200 shared
    (log,) = inspect_eval(task, model="mockllm/model", solver=scripted(), epochs=EPOCHS,
                          log_dir=str(folder), display="none")  # fmt: skip
    path = Path(log.location.removeprefix("file://"))
    return {"log": read_eval_log(str(path)), "path": path}


def _copy(log: EvalLog, name: str) -> EvalLog:
    """A copy of ``log`` as another run (its own eval and task id, so the
    report does not read it as a rewrite of the first)."""
    out = copy.deepcopy(log)
    out.eval.eval_id = f"{name}-eval"
    out.eval.task_id = f"{name}-task"
    return out


def _strict(text: str) -> Any:
    return json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))


def test_long_ids_sharing_a_prefix_are_distinct_samples(run: dict[str, Any]) -> None:
    log: EvalLog = run["log"]
    assert log.results is not None and log.samples is not None
    ids = {s.id for s in log.samples}
    assert len(ids) == 3 and {str(i)[:200] for i in ids} == {PREFIX}
    report = build_report([run["path"]])
    assert report.exit_code == 0
    (row,) = [r for r in report.rows if r["M"] == "all"]
    # Inspect's own count of the run's (epoch-reduced) samples, and its sample-epochs
    assert [s.scored_samples for s in log.results.scores] == [3]
    assert row["n"] == 3
    assert row["sample_epochs"] == len(log.samples) == log.results.total_samples == 3 * EPOCHS
    assert row["accuracy"] == 1.0


@pytest.mark.parametrize(("value", "shown"), [(1e308, "1e+308"), (-5, "-5.0"), (1.5, "1.5")])
def test_a_score_out_of_range_is_a_named_bad_sample(
    value: float, shown: str, run: dict[str, Any], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Every sample of one log is given ``em = value``, one sample (each of
    its epochs) of another;
    the good log is reported whole, the bad samples are named, exit 1, and no
    figure is averaged from them (no inf, no accuracy below 0)."""
    every = _copy(run["log"], "every")
    one = _copy(run["log"], "one")
    assert every.samples is not None and one.samples is not None
    for sample in every.samples:
        (score,) = sample.scores.values()
        score.value["em"] = value
    for sample in one.samples:  # the first sample, in each of its epochs
        if sample.id == one.samples[0].id:
            (score,) = sample.scores.values()
            score.value["em"] = value
    write_eval_log(every, str(tmp_path / "every.eval"))
    write_eval_log(one, str(tmp_path / "one.eval"))
    good = str(run["path"])
    args = (good, str(tmp_path / "every.eval"), str(tmp_path / "one.eval"))

    code, out, err = run_main(capsys, "report", *args, "--format", "json")
    assert code == 1 and "Traceback" not in err, err
    rows = _strict(out)
    by_log = {r["log"]: r for r in rows if r["M"] == "all"}
    assert by_log[good]["n"] == 3 and by_log[good]["accuracy"] == 1.0
    assert str(tmp_path / "every.eval") not in by_log  # no sample of it is left
    assert by_log[str(tmp_path / "one.eval")]["n"] == 2  # the one sample left out
    assert by_log[str(tmp_path / "one.eval")]["accuracy"] == 1.0
    assert f"value.em: {shown} is outside [0, 1]" in err
    assert f"{3 * EPOCHS + EPOCHS} left out" in err
    # each named by its id's start and end (ids that share their start differ there)
    for k in range(3):
        full = f"{PREFIX}{k:020d}"
        assert f"sample '{full[:98]}...{full[-99:]}' epoch" in err
    for fmt in ((), ("--table", "time-puzzles")):
        code, out, err = run_main(capsys, "report", *args, *fmt)
        assert code == 1 and "Traceback" not in err, err
        assert "inf" not in out and "-5" not in out and "nan" not in out.lower()


def test_a_count_too_large_to_average_exactly_is_a_bad_sample(
    run: dict[str, Any], tmp_path: Path
) -> None:
    """``1e308`` turns would make a mean of 3e307 turns: a corrupt count."""
    log = _copy(run["log"], "turns")
    assert log.samples is not None
    (score,) = log.samples[0].scores.values()
    score.metadata["run"]["turns"] = 1e308
    write_eval_log(log, str(tmp_path / "turns.eval"))
    report = build_report([tmp_path / "turns.eval"])
    assert [b["error"] for b in report.bad_samples] == [
        "run.turns: expected a count, got float 1e+308"
    ]
    assert all(r["mean_turns"] == 1.0 for r in report.rows)


def test_a_score_metadata_metric_out_of_range_is_a_bad_sample(
    run: dict[str, Any], tmp_path: Path
) -> None:
    log = _copy(run["log"], "meta")
    assert log.samples is not None
    (score,) = log.samples[0].scores.values()
    score.metadata["metrics"]["f1"] = -0.5
    write_eval_log(log, str(tmp_path / "meta.eval"))
    report = build_report([tmp_path / "meta.eval"])
    assert [b["error"] for b in report.bad_samples] == ["metrics.f1: -0.5 is outside [0, 1], "
                                                        "a score's range"]  # fmt: skip
    assert report.bad_samples[0]["sample"] == str(log.samples[0].id)  # the full id


@pytest.mark.parametrize("at", ["derived", "derived, dangling", "out"])
def test_plot_never_draws_through_a_link(
    at: str, run: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link standing where ``--plot OUT --figure all`` draws (``OUT-NAME.svg``),
    or at ``OUT`` itself, refuses the command in one line before anything is
    printed; the file it names, outside the folder, is untouched (a dangling
    link's target is not created)."""
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
    outside = tmp_path / "outside"
    outside.mkdir()
    keep = outside / "keep.svg"
    if at != "derived, dangling":
        keep.write_bytes(b"the user's picture")
    folder = tmp_path / "figures"
    folder.mkdir()
    out = folder / "fig.svg"
    (out if at == "out" else folder / "fig-time-puzzles.svg").symlink_to(keep)
    figure = ("--figure", "time-puzzles") if at == "out" else ("--figure", "all")
    code, stdout, err = run_main(capsys, "report", str(run["path"]), "--plot", str(out), *figure)
    assert code == 2 and "symbolic link" in err and len(err.strip().splitlines()) == 1, err
    assert stdout == ""
    if at == "derived, dangling":
        assert not keep.exists()
    else:
        assert keep.read_bytes() == b"the user's picture"
    assert sorted(p.name for p in folder.iterdir()) == [
        "fig-time-puzzles.svg" if at != "out" else "fig.svg"
    ]


def test_plot_figure_all_draws_each_derived_name(
    run: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
    out = tmp_path / "fig.svg"
    (tmp_path / "fig-time-puzzles.svg").write_text("an earlier picture", encoding="utf-8")
    code, _, err = run_main(capsys, "report", str(run["path"]), "--plot", str(out),
                            "--figure", "all", "--format", "json")  # fmt: skip
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig-time-puzzles.svg"]
    assert (tmp_path / "fig-time-puzzles.svg").read_text(encoding="utf-8").startswith("<?xml")


@pytest.mark.parametrize("columns", [80, 60])
def test_text_fits_the_terminal_and_keeps_every_figure(
    columns: int, run: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """At 80 (or 60) columns every line fits; a table too wide is printed in
    blocks with its keys repeated, and each figure of the JSON rows is there
    whole, beside its row's condition, style and M (no ellipsis, no wrap).
    Two runs told apart by a long tag make a ``run`` column, which wraps."""
    monkeypatch.setenv("COLUMNS", str(columns))
    tags = {"a": ["a rather long tag with words and temperature sweep 0.7"], "b": ["baseline"]}
    for name, tag in tags.items():
        log = _copy(run["log"], name)
        log.eval.tags = tag
        write_eval_log(log, str(tmp_path / f"{name}.eval"))
    code, out, err = run_main(capsys, "report", str(tmp_path), "--format", "json")
    assert code == 0, err
    rows = _strict(out)
    code, out, err = run_main(capsys, "report", str(tmp_path))
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert "…" not in out and "..." not in out
    # each figure, formatted as the table does (2 decimals), on a line of its row
    for row in rows:
        cells = {row["n"], row["accuracy"], *row["metrics"].values(), row["mean_tool_calls"],
                 row["mean_turns"], row["mean_output_tokens"], row["errors"]}  # fmt: skip
        want = {f"{v:.2f}" if isinstance(v, float) else str(v) for v in cells}
        mine = [
            line.split() for line in lines
            if f" {row['condition']} " in f" {line} "
            and f" {row['style']} " in line and f" {row['M']} " in f" {line} "
        ]  # fmt: skip
        found = {tok for toks in mine for tok in toks}
        assert want <= found, (row["M"], want - found)
    # the long tag is all there, wrapped at its spaces
    words = tags["a"][0].split()
    assert all(any(f" {w} " in f" {line} " for line in lines) for w in words)
    for heading in ("acc", "se", "em", "f1", "jac", "tools", "turns", "out_tok", "err"):
        assert any(heading in line.split() for line in lines), heading
    code, out, err = run_main(capsys, "report", str(tmp_path), "--table", "all")
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= columns
    assert "100.0 ±0.0" in out  # a cell with a space is never wrapped
