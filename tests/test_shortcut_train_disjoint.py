"""A shortcut probe learns from training records that share no answer with
the records it is scored on, and a cell's records are those a user's run
holds.

A SPAN festival's date in a given year is one answer whatever the question's
"today" is, and a direction has a few hundred of them, so two seeds' runs
share many: a classifier fitted on one answers the other's shared items from
memory. That is contamination of one file by the other (``dataset overlap``
counts it, ``--exclude`` removes it), so the probes are fitted on a training
run made as ``dataset make --exclude EVAL`` makes it, and the report says how
many training records it had to draw again.
"""

from __future__ import annotations

import json
from pathlib import Path

from tsolve.contract import get_family
from tsolve.datasets.writer import write_dataset
from tsolve.stress import shortcuts
from tsolve.stress.shortcut_cells import Cell, drop_shared

FESTIVAL = Cell("span", "polar/festival", {"format": "polar", "type": "festival"})


def _answers(records: list[dict]) -> list[str]:
    fam = get_family("span")
    return [fam.answer_content_fingerprint(r) for r in records]


def test_a_cells_records_are_the_dataset_runs(tmp_path: Path) -> None:
    """What the probes read is what ``tsolve dataset make`` writes with the
    cell's options: the same records, repeats drawn again (a polar festival
    run of 300 draws some festival-years twice before the pass)."""
    out = tmp_path / "run.jsonl"
    write_dataset("span", dict(FESTIVAL.options), count=300, out=out, seed=0)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert FESTIVAL.records(300, 0) == written
    assert len(set(_answers(written))) == len(written)
    fam = get_family("span", need="generate")
    config = fam.make_options(dict(FESTIVAL.options))
    raw = [fam.make_record(0, i, config) for i in range(300)]
    assert len(set(_answers(raw))) < len(raw)  # the pass had something to do


def test_training_records_share_no_answer_with_the_evaluated(tmp_path: Path) -> None:
    """The training run is ``dataset make --seed 1 --exclude EVAL``: no answer
    of the evaluated records, and ``shared`` counts the records of the plain
    seed-1 run that held one."""
    evald = FESTIVAL.records(300, 0)
    run = FESTIVAL.run(300, 1, exclude=evald)
    assert not set(_answers(run.records)) & set(_answers(evald))
    plain = FESTIVAL.records(300, 1)
    eval_answers = set(_answers(evald))
    # Counted on attempt 0 of each record; the plain run's redraws of its own
    # repeats can only land elsewhere, so this is at most the plain count.
    assert 0 < run.shared <= sum(a in eval_answers for a in _answers(plain))
    path = tmp_path / "eval.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in evald))
    made = tmp_path / "train.jsonl"
    write_dataset("span", dict(FESTIVAL.options), count=300, out=made, seed=1, exclude=[path])
    assert run.records == [json.loads(line) for line in made.read_text().splitlines()]


def test_given_training_records_are_dropped_where_they_share() -> None:
    evald = FESTIVAL.records(60, 0)
    train = [*FESTIVAL.records(60, 1), evald[0], evald[5]]
    kept = drop_shared("span", train, evald)
    assert evald[0] not in kept.records and evald[5] not in kept.records
    assert kept.shared >= 2
    assert not set(_answers(kept.records)) & set(_answers(evald))


def test_the_report_says_how_many_training_records_were_drawn_again() -> None:
    report = shortcuts.run_shortcuts(["span"], n=60, seed=0, cells={"span": ["polar/festival"]})
    (row,) = report.to_json()["cells"]["span"]
    evald = FESTIVAL.records(60, 0)
    assert row["train_shared"] == FESTIVAL.run(60, 1, exclude=evald).shared
    assert row["n"] == 60 and row["train_n"] == 60
