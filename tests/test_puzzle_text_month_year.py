"""A month with its year in one sentence ("The date is in March 2024.") is
read as two facts, the month and the year; wordings a fact could misread
(a day after the month, a century, a two-digit decade) stay unread.

Expected answer sets are counted here with ``datetime`` alone."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from cli_main import run_cli

from tsolve.families.time_puzzles.parse import read_puzzle
from tsolve.families.time_puzzles.parse.reader import read_sentence


def _days(keep: object) -> list[str]:
    """Every day of the default domain 1900-01-31..2100-12-31 that ``keep`` keeps."""
    day, last, out = dt.date(1900, 1, 31), dt.date(2100, 12, 31), []
    while day <= last:
        if keep(day):  # type: ignore[operator]
            out.append(day.isoformat())
        day += dt.timedelta(days=1)
    return out


COMPOUNDS = [
    ("The date is in March 2024.", [("month", {"month": 3}), ("year", {"year": 2024})]),
    ("It is March 2024.", [("month", {"month": 3}), ("year", {"year": 2024})]),
    ("It happened in March of 1066.", [("month", {"month": 3}), ("year", {"year": 1066})]),
    ("It happened in Sept. 1999.", [("month", {"month": 9}), ("year", {"year": 1999})]),
    ("It was in December, 2023.", [("month", {"month": 12}), ("year", {"year": 2023})]),
    ("The month is February 2000.", [("month", {"month": 2}), ("year", {"year": 2000})]),
    ("It happened in May of the 1990s.", [("month", {"month": 5}), ("decade", {"decade": 1990})]),
]


@pytest.mark.parametrize(("sentence", "facts"), COMPOUNDS)
def test_a_month_with_its_year_is_two_facts(sentence: str, facts: list[tuple[str, dict]]) -> None:
    reading = read_puzzle(sentence)
    assert not reading.unread
    assert [(r.fact.kind, r.fact.params) for r in reading.facts] == facts
    assert {r.sentence.text for r in reading.facts} == {sentence}
    # One fact alone would be a misreading: the one-fact reader refuses it.
    assert read_sentence(sentence) is None


@pytest.mark.parametrize(
    ("sentence", "kind", "params"),
    [
        ("The date is in 2024.", "year", {"year": 2024}),
        ("The date is in March.", "month", {"month": 3}),
        ("The date is in the 1990s.", "decade", {"decade": 1990}),
        ("It happened in the 2010s.", "decade", {"decade": 2010}),
        ("The decade is the 1900s.", "decade", {"decade": 1900}),  # it says "decade"
    ],
)
def test_the_single_forms_still_read(sentence: str, kind: str, params: dict) -> None:
    got = read_sentence(sentence)
    assert got is not None and (got[0].kind, got[0].params) == (kind, params)


@pytest.mark.parametrize(
    "sentence",
    [
        "The date is in March 12.",  # the 12th of March, not the year 12
        "It was not in March 2024.",  # no fact kind says "not in a month of a year"
        "It happened in March 2024 or April 2024.",
        "It happened in the winter of 2024.",  # which winter a year's winter is: not said
        "It happened in the 90s.",  # the 1990s or the 1890s, never the years 90..99
        "The decade is the 90s.",
        "It happened in the 1900s.",  # the decade 1900..1909 or the century 1900..1999
        "It happened in the 1800s.",
    ],
)
def test_wordings_a_fact_would_misread_stay_unread(sentence: str) -> None:
    reading = read_puzzle(sentence)
    assert not reading.facts and [s.text for s in reading.unread] == [sentence]


def test_cli_text_file_solves_a_month_and_year(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(
        "The date is in March 2024. It is a Friday.\n\n"
        "It happened in February of the 1990s. The day of the month is 29.\n",
        encoding="utf-8",
    )
    r = run_cli(capsys, "solve", "--text-file", str(path), "--format", "jsonl")
    assert r.returncode == 0, r.stderr
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert first["status"] == "complete" and not first["unread"]
    assert first["answers"] == _days(lambda d: (d.year, d.month, d.weekday()) == (2024, 3, 4))
    assert second["answers"] == _days(
        lambda d: 1990 <= d.year <= 1999 and (d.month, d.day) == (2, 29)
    )
    assert second["answers"] == ["1992-02-29", "1996-02-29"]
