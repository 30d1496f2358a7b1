"""``PuzzleConfig(domain=...)`` takes the pair of dates a caller writes, and
refuses anything else with a one-line error when the config is made, not
with an AttributeError from deep inside the search.

Oracle: ``datetime.date.toordinal`` for the day numbers, and the answers of
each generated puzzle checked against the domain's bounds."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import tsolve
from tsolve import PuzzleConfig
from tsolve.calendars.domain import DateDomain
from tsolve.errors import TsolveError


@pytest.mark.parametrize(
    "pair",
    [("1950-01-01", "1950-12-31"), (dt.date(1950, 1, 1), dt.date(1950, 12, 31)),
     ["1950-01-01", dt.date(1950, 12, 31)]],
)  # fmt: skip
def test_a_pair_of_dates_is_a_domain(pair: Any) -> None:
    cfg = PuzzleConfig(domain=pair, solutions=2)
    want = DateDomain(dt.date(1950, 1, 1).toordinal(), dt.date(1950, 12, 31).toordinal())
    assert cfg.domain == want
    (record,) = tsolve.generate_puzzles(1, seed=4, config=cfg)
    assert len(record["answers"]) == 2
    assert all("1950-01-01" <= a <= "1950-12-31" for a in record["answers"])


@pytest.mark.parametrize(
    ("bad", "says"),
    [("1950", "expected a DateDomain or a (start, end) pair"),
     (("1950-01-01",), "expected a DateDomain or a (start, end) pair"),
     (("1950-02-30", "1951-01-01"), "not a valid date"),
     (("1951-01-01", "1950-01-01"), "is before start")],
)  # fmt: skip
def test_anything_else_is_refused_in_one_line(bad: Any, says: str) -> None:
    with pytest.raises(TsolveError) as exc:
        PuzzleConfig(domain=bad)
    assert says in str(exc.value) and "\n" not in str(exc.value)
