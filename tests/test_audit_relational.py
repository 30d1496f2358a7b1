"""The relational auditor: generated records are ok; a stored tuple that breaks
a relation is inconsistent, with the relation named; a dropped answer too."""

from __future__ import annotations

import copy

from tsolve.audit.base import auditor_for
from tsolve.families.relational_puzzles.generate import RelationalConfig, generate_relational_puzzle


def test_generated_relational_records_are_ok() -> None:
    audit = auditor_for("relational-puzzles")
    for i in range(6):
        rec = generate_relational_puzzle(5, i, RelationalConfig(events=2 + i % 2, solutions=2))
        assert audit(rec).verdict == "ok"


def test_a_wrong_stored_tuple_is_inconsistent_with_the_broken_relation() -> None:
    rec = generate_relational_puzzle(5, 0, RelationalConfig(events=2, solutions=2))
    bad = copy.deepcopy(rec)
    first = bad["answers"][0]
    # Move only the second event by one day: any exact relation between them breaks.
    import datetime as dt

    moved = (dt.date.fromisoformat(first[1]) + dt.timedelta(days=1)).isoformat()
    bad["answers"][0] = [first[0], moved]
    v = auditor_for("relational-puzzles")(bad)
    assert v.verdict == "inconsistent"
    proof = v.detail["proof"]
    assert proof["stored_but_impossible"]["answer"] == [first[0], moved]
    assert proof["stored_but_impossible"]["breaks"]  # names what the tuple breaks
    assert proof["missing"]["answer"] == first
