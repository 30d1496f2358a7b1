"""One family solves another family's records only through the registry.

``tsolve.solve`` (and ``tsolve solve``) take any puzzle record; a record of a
family that declares a ``solve`` part is handed to that part, found by
:func:`tsolve.contract.registry.record_solver`, so that no family imports
another and a plug-in family is reached the same way a built-in one is.
"""

from __future__ import annotations

from typing import Any

import pytest

import tsolve
from tsolve.contract.family import Family
from tsolve.contract.registry import record_solver, temporary_family
from tsolve.errors import TsolveError
from tsolve.families.relational_puzzles.generate import generate_relational_puzzle
from tsolve.families.time_puzzles.generate import generate_puzzle


def test_a_plug_in_family_s_records_reach_its_own_solver() -> None:
    calls: list[tuple[Any, ...]] = []

    def solve(record: dict[str, Any], backend: str, limit: Any, time_limit: Any) -> dict[str, Any]:
        calls.append((record["id"], backend, limit, time_limit))
        return {"id": record["id"], "answers": ["x"]}

    with temporary_family(Family(name="toy-plugin", solve=solve)):
        out = tsolve.solve({"family": "toy-plugin", "id": "t1"}, "cpsat", 3, 1.5)
    assert out == {"id": "t1", "answers": ["x"]}
    assert calls == [("t1", "cpsat", 3, 1.5)]


def test_relational_records_are_solved_by_the_relational_family() -> None:
    record = generate_relational_puzzle(7, 0)
    assert record_solver(record, besides="time-puzzles") is not None
    out = tsolve.solve(record)
    assert out["matches"] is True and out["complete"] is True
    # a record that lost its family field still says its kind
    bare = {k: v for k, v in record.items() if k != "family"}
    assert tsolve.solve(bare)["answers"] == out["answers"]


def test_time_puzzle_records_stay_with_their_own_reader() -> None:
    record = generate_puzzle(7, 0)
    assert record_solver(record, besides="time-puzzles") is None
    assert tsolve.solve(record)["matches"] is True


@pytest.mark.parametrize("record", [None, [], "x", {}, {"family": "no-such-family"}])
def test_records_no_family_claims_get_no_foreign_solver(record: Any) -> None:
    assert record_solver(record) is None


def test_a_family_without_a_solver_falls_back_to_the_puzzle_reader() -> None:
    with pytest.raises(TsolveError):
        tsolve.solve({"family": "span", "id": "s1"})
