"""The Time Puzzles paper's experiment on its own data, through Inspect.

A few puzzles of the release (Wang and Dong 2026, arXiv:2601.07148), read from
its encrypted ``data.zip`` and imported (``tsolve import time-puzzles``), run
as ``inspect eval tsolve/time_puzzles -T file=...`` with the offline model in
each style: the prompt shown is the paper's over that style's published
sentences, the gold is tsolve's, and the score also judges the answer
against the release's published gold, side by side in ``tsolve report``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_cli

pytest.importorskip("inspect_ai", reason="the Inspect tasks need inspect-ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from tsolve.adapters.inspect_ai import family_task
from tsolve.adapters.inspect_ai.report import build_report
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.release import iter_release_records, read_release
from tsolve.plots.paper_tables import paper_table

ZIP = Path(__file__).parent / "fixtures" / "time_puzzles_release" / "data.zip"
PASSWORD = "timepuzzles"  # the authors' README: the repository name, lower case, no hyphens

#: Release puzzles whose published answers differ from tsolve's: a strict
#: superset of tsolve's two (one 1802 lunar month wrong), and two of two
#: sharing one; and one whose published answers tsolve's solver agrees with.
DIFFERING = ("8f7bed22-d106-4d81-b37e-38165502ea6d", "e32ff301-53a8-4f1d-8429-9708ffaefb74")


@pytest.fixture(scope="module")
def puzzles() -> list[dict[str, Any]]:
    release = read_release(ZIP, PASSWORD)
    chosen = [p for p in release if p["identifier"] in DIFFERING]
    agreeing = next(p for p in release[:20] if _agrees(p))
    return [*chosen, agreeing]


def _agrees(puzzle: dict[str, Any]) -> bool:
    (record,) = iter_release_records([puzzle])
    assert isinstance(record, dict)
    return bool(record["answers"]) and record["answers"] == sorted(puzzle["solutions"])


@pytest.fixture(scope="module")
def imported(puzzles: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("release") / "imported.jsonl"
    records = list(iter_release_records(puzzles))
    assert all(isinstance(r, dict) for r in records)
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    return out


def _eval(task: Any, log_dir: Path) -> EvalLog:
    (log,) = inspect_eval(task, model="tsolve/gold", log_dir=str(log_dir), display="none")
    assert log.status == "success", log.error
    return log


def _hand_metrics(gold: list[str], published: list[str]) -> dict[str, float]:
    """EM / F1 / Jaccard of answering ``gold`` against ``published``, worked
    out here: sets, and tsolve's rule that naming more dates than the gold has
    scores 0 in all three."""
    g, p = set(gold), set(published)
    if len(g) > len(p):
        return {"em": 0.0, "f1": 0.0, "jaccard": 0.0}
    if not g and not p:
        return {"em": 1.0, "f1": 1.0, "jaccard": 1.0}
    both = len(g & p)
    return {"em": float(g == p), "f1": 2 * both / (len(g) + len(p)),
            "jaccard": both / len(g | p)}  # fmt: skip


@pytest.mark.parametrize("style", ["implicit", "explicit"])
def test_imported_release_runs_with_the_papers_prompt_in_each_style(
    style: str, puzzles: list[dict[str, Any]], imported: Path, tmp_path: Path
) -> None:
    task = family_task("time-puzzles", file=str(imported), style=style)
    by_id = {p["identifier"]: p for p in puzzles}
    sentences = "constraints" if style == "implicit" else "explicit_constraints"
    for sample in task.dataset:
        puzzle = by_id[str(sample.id)]
        assert isinstance(sample.input, str)
        # the published sentences, verbatim, one "- " line each, in the paper's prompt
        listed = "\n".join(f"- {s}" for s in puzzle[sentences])
        assert f"The constraints are as follows:\n\n{listed}\n\nCarefully review" in sample.input
        assert sample.input.startswith("From the time-related constraints below")
        assert sample.metadata is not None
        assert sample.metadata["record"]["style"] == style
    log = _eval(task, tmp_path)
    assert log.samples is not None and len(log.samples) == len(puzzles)
    for sample in log.samples:
        (score,) = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        assert score.value["em"] == 1.0  # the gold model answers tsolve's gold
        assert score.metadata is not None
        assert score.metadata["published"]["answers"] == by_id[str(sample.id)]["solutions"]


def test_published_metrics_equal_a_hand_computation(
    puzzles: list[dict[str, Any]],
    imported: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = _eval(family_task("time-puzzles", file=str(imported)), tmp_path)
    records = {r["id"]: r for r in map(json.loads, imported.read_text().splitlines())}
    by_id = {p["identifier"]: p for p in puzzles}
    assert log.samples is not None
    for sample in log.samples:
        (score,) = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        hand = _hand_metrics(records[str(sample.id)]["answers"], by_id[str(sample.id)]["solutions"])
        for name, expected in hand.items():
            assert score.value[f"{name}_published"] == pytest.approx(expected), (sample.id, name)
    # the superset puzzle: 2 right of 3 published, so F1 4/5 and Jaccard 2/3
    superset = next(s for s in log.samples if s.id == DIFFERING[0])
    (score,) = (superset.scores or {}).values()
    assert isinstance(score.value, dict)
    assert (score.value["em_published"], score.value["f1_published"]) == (0.0, pytest.approx(0.8))
    assert score.value["jaccard_published"] == pytest.approx(2 / 3)

    rows = build_report([tmp_path]).rows
    (row,) = [r for r in rows if r["M"] == "all"]
    hands = [_hand_metrics(records[i]["answers"], by_id[i]["solutions"]) for i in records]
    assert row["accuracy"] == 1.0
    assert row["n_published"] == len(records)
    assert row["accuracy_published"] == pytest.approx(sum(h["em"] for h in hands) / len(hands))
    assert row["metrics"]["f1_published"] == pytest.approx(sum(h["f1"] for h in hands) / len(hands))
    assert row["accuracy_published"] < row["accuracy"]
    # the paper's table (tsolve report --table time-puzzles) has it too
    (cell,) = [t for t in paper_table(rows, "time-puzzles") if t["M"] == "all"]
    assert (cell["em"], cell["em_published"]) == (1.0, row["accuracy_published"])
    # and the text table, side by side
    out = run_cli(capsys, "report", str(tmp_path), columns=250)
    assert out.returncode == 0, out.stderr
    header = next(line.split() for line in out.stdout.splitlines() if "acc_pub" in line)
    assert header.index("acc_pub") == header.index("acc") + 3  # acc, se, n_pub, acc_pub
    assert header.index("em_published") == header.index("em") + 1


def test_records_without_a_published_gold_report_none(tmp_path: Path) -> None:
    from tsolve.adapters.inspect_ai.dataset import generated_records

    records = generated_records("time-puzzles", count=2)
    path = tmp_path / "gen.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    log = _eval(family_task("time-puzzles", file=str(path)), tmp_path / "logs")
    assert log.samples is not None
    for sample in log.samples:
        (score,) = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        assert not any(k.endswith("_published") for k in score.value)
    (row,) = [r for r in build_report([tmp_path / "logs"]).rows if r["M"] == "all"]
    assert (row["n_published"], row["accuracy_published"]) == (0, None)


def test_a_bad_published_gold_or_a_missing_style_is_a_bad_row(
    imported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tsolve.adapters.inspect_ai.dataset import generated_records

    rows = [json.loads(line) for line in imported.read_text().splitlines()]
    rows[0]["published_answers"] = ["1802-02-30"]
    generated = generated_records("time-puzzles", count=1)[0]  # implicit, no prompts
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [*rows, generated]))
    task = family_task("time-puzzles", file=str(path), style="explicit")
    assert task.metadata is not None and task.metadata["skipped_rows"] == 2
    assert sorted(str(s.id) for s in task.dataset) == sorted(r["id"] for r in rows[1:])
    err = capsys.readouterr().err
    assert "published_answers[0]" in err and "no explicit prompt" in err


@pytest.mark.parametrize("style", ["implicit,explicit", "bold"])
def test_a_file_is_shown_in_one_known_style(style: str, imported: Path) -> None:
    with pytest.raises(TsolveError, match="style: a file's records are shown in one style"):
        family_task("time-puzzles", file=str(imported), style=style)


def test_style_is_no_option_for_a_family_without_styles(tmp_path: Path) -> None:
    path = tmp_path / "span.jsonl"
    path.write_text("{}\n")
    with pytest.raises(TsolveError, match="style: an option for generating records"):
        family_task("span", file=str(path), style="explicit")
