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

import pytest

from tsolve.contract import get_family
from tsolve.datasets.writer import write_dataset
from tsolve.errors import TsolveError
from tsolve.stress import shortcuts
from tsolve.stress.shortcut_cells import Cell, cells_for, drop_shared, select_cells

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
    assert row["train_shared"] == FESTIVAL.training().run(60, 1, exclude=evald).shared
    assert row["n"] == 60 and row["train_n"] == 60
    assert row["train_options"] == FESTIVAL.training().options


def _gregorian_year(record: dict) -> int:
    return int(record["params"]["reference_date"]["gregorian"][:4])


@pytest.mark.parametrize("cell", ["polar/date", "content/festival"])
def test_span_probes_learn_in_other_years(cell: str) -> None:
    """SPAN's answers are entries of a finite table (the day each month
    starts), so its probes are fitted on reference dates of other years than
    the evaluated window's: what they learn there is a rule, not the
    entries. Evaluated records keep SPAN's window, 1960-2060."""
    (c,) = select_cells(cells_for("span"), [cell])
    evald = c.records(20, 0)
    train = c.training().run(20, 1, exclude=evald).records
    assert all(1960 <= _gregorian_year(r) <= 2060 for r in evald)
    assert train and all(1905 <= _gregorian_year(r) <= 1959 for r in train)
    assert {k: v for k, v in c.training().options.items() if k != "date_range"} == c.options


def test_span_training_window_avoids_the_evaluated_one() -> None:
    """A cell whose window covers the first training window learns in the
    second; one that leaves no other years is a one-line error."""
    from tsolve.families.span.family import TRAIN_WINDOWS, shortcut_train_options

    early = shortcut_train_options({"format": "polar", "date_range": "1920-01-01..1950-12-31"})
    assert early["date_range"] == TRAIN_WINDOWS[1]
    with pytest.raises(TsolveError, match="no window of other years"):
        shortcut_train_options({"date_range": "1901-01-01..2099-12-31"})
