"""The library functions behind thin CLI commands: ``tsolve solve``'s batch
policy (:mod:`tsolve.families.time_puzzles.solve_records`), the calendar conversion table
(:func:`tsolve.calendars.conversion.conversion_items`) and the shared answer
markers (:func:`tsolve.verifiers.answer_parsing.last_marker_end`)."""

from __future__ import annotations

import datetime as _dt
import re
from pathlib import Path

import numpy as np
import pytest

from tsolve.calendars.conversion import calendar_list, conversion_items
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.families.time_puzzles.solve_records import (
    Skipped,
    SolveReport,
    solve_file,
    solve_records,
)
from tsolve.records import BadRow, dumps
from tsolve.verifiers.answer_parsing import LOOSE_MARKER, MARKER, PLAIN_MARKER, last_marker_end


def test_solve_records_reports_bad_rows_and_goes_on() -> None:
    seen: list[object] = []
    rows = [BadRow("x.jsonl:1", "malformed JSON"), {"id": "p", "facts": []}]
    report = solve_records(rows, "enumerator", on_outcome=seen.append)
    assert [str(s) for s in report.skipped] == [
        "x.jsonl:1: malformed JSON",
        "record p: 'facts' must be a non-empty list",
    ]
    assert seen == report.skipped and report.results == []
    assert report.problems == 2 and report.exit_code == 1


def test_solve_report_counts_differing_answers_only_with_check() -> None:
    report = SolveReport(check=False, differing=3)
    assert report.exit_code == 0
    assert SolveReport(check=True, differing=1).exit_code == 1
    assert SolveReport(unfinished=1).exit_code == 1


def test_solve_file_solves_and_can_stream_without_keeping(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.jsonl"
    path.write_text("".join(dumps(r) + "\n" for r in generate_puzzles(3, 0, PuzzleConfig())))
    streamed: list[object] = []
    report = solve_file(path, "cpsat", check=True, on_outcome=streamed.append,
                        keep_results=False)  # fmt: skip
    assert report.results == [] and len(streamed) == 3
    assert not any(isinstance(s, Skipped) for s in streamed)
    assert report.exit_code == 0


def test_solve_records_rejects_an_unknown_backend_first() -> None:
    with pytest.raises(TsolveError, match="backend: expected cpsat, z3 or enumerator"):
        solve_records([], "gurobi")


def test_conversion_items_null_outside_a_range_unless_named() -> None:
    day = np.array([_dt.date(1910, 5, 5).toordinal()], dtype=np.int64)
    items = conversion_items(day)
    assert items[0]["islamic-umalqura"] is None and items[0]["hebrew"] is not None
    with pytest.raises(TsolveError, match="outside the islamic-umalqura") as exc:
        conversion_items(day, calendar_list("islamic-umalqura"))
    assert "\n" not in str(exc.value)
    assert calendar_list(None) is None and calendar_list("") is None
    with pytest.raises(TsolveError, match="names no calendar"):
        calendar_list(",")


@pytest.mark.parametrize("marker", [MARKER, PLAIN_MARKER, LOOSE_MARKER])
@pytest.mark.parametrize(
    "text",
    ["no marker", "MY ANSWER: 1\nmy answer: 2", "**My Answer:** x", "Final answer - t1",
     "the answer is: l1_0", "myanswer:", "anſwer: é"],
)  # fmt: skip
def test_last_marker_end_is_the_regex_last_match(marker: re.Pattern[str], text: str) -> None:
    ends = [m.end() for m in marker.finditer(text)]
    assert last_marker_end(text, marker) == (ends[-1] if ends else None)
