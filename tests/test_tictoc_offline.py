"""TicToc offline: the scripted solver runs a TicToc file with no model and no
network, and a file whose name does not label its rows says how to label them.

The fixture ``tests/fixtures/tictoc_invented.json`` is invented for tsolve
(made by ``make_tictoc_invented.py`` beside it), so no public data is needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai._util.error import PrerequisiteError

from tsolve.adapters.inspect_ai.scripted import scripted
from tsolve.families.tictoc.inspect_task import tictoc

FIXTURE = Path(__file__).parent / "fixtures" / "tictoc_invented.json"


def _run(tmp_path: Path, answer: str, **options: object) -> dict[str, float]:
    task = tictoc(file=str(FIXTURE), **options)  # type: ignore[arg-type]
    (log,) = inspect_eval(
        task, model="mockllm/model", solver=scripted(answer), log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success", log.error
    assert log.results is not None
    return {k: m.value for k, m in log.results.scores[0].metrics.items()}


def test_the_scripted_gold_move_scores_one_and_refusing_does_not(tmp_path: Path) -> None:
    gold = _run(tmp_path, "gold")
    assert gold["mean"] == 1.0 and gold["nar"] == 1.0
    never = _run(tmp_path, "refuse")  # never calls a tool: wrong on every prefer-tool item
    assert never["mean"] < 1.0
    assert never["accuracy_prefer_tool"] == 0.0 and never["accuracy_prefer_no_tool"] == 1.0


def _renamed(tmp_path: Path) -> Path:
    """The fixture's prefer-tool level-2 items saved under a name that labels nothing."""
    items = json.loads(FIXTURE.read_text())["preferTool_elapse_2.json"]
    path = tmp_path / "my_copy.json"
    path.write_text(json.dumps(items))
    return path


def test_a_renamed_file_says_how_to_give_the_preference(tmp_path: Path) -> None:
    with pytest.raises(PrerequisiteError) as err:
        tictoc(file=str(_renamed(tmp_path)))
    message = str(err.value)
    assert "-T preference=tool|no_tool" in message and "\n" not in message


def test_the_preference_and_level_can_be_given(tmp_path: Path) -> None:
    task = tictoc(file=str(_renamed(tmp_path)), preference="tool", level=2)
    metas = [s.metadata or {} for s in task.dataset]
    assert metas and all(m["preference"] == "tool" and m["level"] == 2 for m in metas)
    with pytest.raises(PrerequisiteError, match="preference"):
        tictoc(file=str(_renamed(tmp_path)), preference="sometimes")


def test_a_file_name_still_wins_over_the_option(tmp_path: Path) -> None:
    task = tictoc(file=str(FIXTURE), preference="no_tool")
    assert {(s.metadata or {})["preference"] for s in task.dataset} == {"tool", "no_tool"}
