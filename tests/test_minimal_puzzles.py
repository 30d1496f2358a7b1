"""Zero-answer puzzles that need reasoning, and minimal puzzles,
checked by the independent evaluator of ``test_puzzle_gold_independent``
(Python's ``datetime``, the raw CSVs, the lunar libraries: no tsolve facts, IR
or solvers).

Run over many puzzles for a report: ``python tests/test_minimal_puzzles.py
zero.jsonl minimal.jsonl`` (see ``main``)."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Iterable
from typing import Any

import pytest
from test_puzzle_gold_independent import _candidates, _iso, _predicate

from tsolve.calendars.domain import DateDomain
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle, parse_solutions


def matches(record: dict[str, Any], keep: Iterable[int], stop_after: int) -> int:
    """How many dates of the domain satisfy the facts ``keep`` of ``record``
    (canonical reading), counting no further than ``stop_after``."""
    facts = [record["facts"][i] for i in keep]
    sub = {**record, "facts": facts}
    preds = [_predicate(f, record["style"], "canonical") for f in facts]
    lo, hi = _iso(record["domain"]["start"]), _iso(record["domain"]["end"])
    n = 0
    for d in _candidates(sub):
        if lo <= d <= hi and all(p(d) for p in preds):
            n += 1
            if n >= stop_after:
                break
    return n


def check_zero(record: dict[str, Any]) -> list[str]:
    """Problems with a zero-answer record: empty as a whole, satisfiable with
    any one fact removed, every pair satisfiable, at least three facts."""
    n = len(record["facts"])
    out = []
    if n < 3:
        out.append(f"only {n} facts")
    if matches(record, range(n), 1):
        out.append("the whole set has a solution")
    for i in range(n):
        if not matches(record, [j for j in range(n) if j != i], 1):
            out.append(f"still empty without fact {i}")
    for i, j in itertools.combinations(range(n), 2):
        if not matches(record, [i, j], 1):
            out.append(f"facts {i} and {j} contradict each other")
    return out


def check_minimal(record: dict[str, Any]) -> list[str]:
    """Problems with a minimal record: dropping any fact adds answers."""
    n, m = len(record["facts"]), len(record["answers"])
    out = []
    for i in range(n):
        got = matches(record, [j for j in range(n) if j != i], m + 1)
        if got <= m:
            out.append(f"fact {i} ({record['facts'][i]['kind']}) is not needed")
        if got <= m or record["without"][i] <= m:
            out.append(f"stored size without fact {i} is {record['without'][i]}")
    return out


WIDE = DateDomain.from_dates("0001-01-01", "9999-12-31")
ZERO = [generate_puzzle(21, i, PuzzleConfig(solutions=0)) for i in range(8)]
MINIMAL = (
    [
        generate_puzzle(22, i, PuzzleConfig(solutions=(1, 2, 3, 4, 5, 6), minimal=True))
        for i in range(8)
    ]
    + [
        generate_puzzle(23, i, PuzzleConfig(solutions=(1, 3), minimal=True, style="explicit"))
        for i in range(4)
    ]
    + [  # over 0001..9999 the search keeps witnesses on the anchor's days only
        generate_puzzle(24, i, PuzzleConfig(solutions=(1, 2, 4), minimal=True, domain=WIDE))
        for i in range(3)
    ]
)


@pytest.mark.parametrize("record", ZERO, ids=lambda r: r["id"])
def test_zero_answer_puzzles_are_minimal_unsatisfiable_sets(record: dict[str, Any]) -> None:
    assert record["answers"] == [] and record["contradiction"]["pairs_satisfiable"]
    assert record["contradiction"]["core"] == list(range(len(record["facts"])))
    assert check_zero(record) == []
    assert all(size >= 1 for size in record["without"])


@pytest.mark.parametrize("record", MINIMAL, ids=lambda r: r["id"])
def test_minimal_puzzles_need_every_fact(record: dict[str, Any]) -> None:
    assert check_minimal(record) == []


def test_the_checks_can_fail() -> None:
    """The paper's trivial contradiction ("June" + "the 31st") fails the zero
    check, and a restated fact fails the minimal check."""
    june31 = {
        "style": "implicit",
        "domain": {"start": "2000-01-01", "end": "2001-12-31"},
        "facts": [{"kind": "month", "params": {"month": 6}},
                  {"kind": "day_of_month", "params": {"day": 31}},
                  {"kind": "weekday", "params": {"weekday": "Monday"}}],
        "answers": [],
    }  # fmt: skip
    assert "facts 0 and 1 contradict each other" in check_zero(june31)
    redundant = {
        "style": "implicit",
        "domain": {"start": "2000-01-01", "end": "2000-12-31"},
        "facts": [{"kind": "month", "params": {"month": 6}},
                  {"kind": "season", "params": {"season": "summer"}},
                  {"kind": "day_of_month", "params": {"day": 13}}],
        "answers": ["2000-06-13"],
        "without": [3, 1, 30],
    }  # fmt: skip
    assert any("fact 1 (season) is not needed" in p for p in check_minimal(redundant))


def test_trivial_contradictions_stay_available() -> None:
    rec = generate_puzzle(4, 0, PuzzleConfig(solutions=0, trivial_contradictions=True))
    assert rec["answers"] == [] and "contradiction" not in rec


def test_trivial_contradictions_with_minimal_is_a_clear_error() -> None:
    """A two-fact clash leaves the other facts unneeded: asking for it and for
    minimal puzzles at M = 0 was a certificate failure per record; it is one
    line at the start, and M > 0 alone is still fine."""
    import subprocess
    import sys

    with pytest.raises(TsolveError, match="--no-minimal") as info:
        PuzzleConfig(solutions=(0, 1), trivial_contradictions=True, minimal=True)
    assert "\n" not in str(info.value)
    PuzzleConfig(solutions=(1, 2), trivial_contradictions=True, minimal=True)
    out = subprocess.run(
        [sys.executable, "-m", "tsolve", "dataset", "time-puzzles", "--count", "2",
         "--solutions", "0", "--set", "trivial_contradictions=true", "--minimal", "--out", "-"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "--no-minimal" in out.stderr


@pytest.mark.parametrize(
    ("facts", "solutions", "trivial", "expected"),
    [
        (None, 3, False, True),
        (6, "1-6", False, True),
        (7, 3, False, False),  # beyond MAX_MINIMAL_FACTS minimal sets are too rare
        (None, 0, True, False),  # a two-fact clash cannot be minimal
        (None, "0-2", True, False),
        (None, "1-3", True, True),  # the swap only shapes M = 0
        (None, (2, 0), True, False),
    ],
)
def test_minimal_by_default_rule(
    facts: int | None, solutions: Any, trivial: bool, expected: bool
) -> None:
    from tsolve.families.time_puzzles.family import minimal_by_default

    assert minimal_by_default(facts, solutions, trivial) is expected
    # The rule never picks a config the generator refuses.
    PuzzleConfig(solutions=parse_solutions(solutions), facts=facts,
                 trivial_contradictions=trivial, minimal=expected)  # fmt: skip


def test_puzzle_command_is_minimal_without_a_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """The headline command's contract: with neither --minimal nor
    --no-minimal, removing any fact changes the answer set, checked by the
    independent evaluator; --no-minimal still gives the old puzzles."""
    from cli_main import run_main

    for seed in (0, 5):
        code, out, _ = run_main(capsys, "puzzle", "--solutions", "3", "--seed", str(seed),
                                "--format", "json")  # fmt: skip
        rec = json.loads(out)
        assert code == 0 and rec["generator"]["params"]["minimal"] is True
        assert len(rec["answers"]) == 3 and check_minimal(rec) == []
    code, out, _ = run_main(capsys, "puzzle", "--solutions", "3", "--no-minimal",
                            "--format", "json")  # fmt: skip
    assert code == 0 and json.loads(out)["generator"]["params"]["minimal"] is False


def test_dataset_default_is_minimal(capsys: pytest.CaptureFixture[str]) -> None:
    """README: "every fact necessary (dataset default)"; the same rule as
    `tsolve puzzle`, and a default that is not refused with --trivial-contradictions."""
    from cli_main import run_main

    code, out, _ = run_main(capsys, "dataset", "time-puzzles", "--count", "2", "--solutions",
                            "2", "--out", "-", "-q")  # fmt: skip
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 2
    for rec in rows:
        assert rec["generator"]["params"]["minimal"] is True and check_minimal(rec) == []
    code, out, _ = run_main(capsys, "dataset", "time-puzzles", "--count", "1", "--solutions",
                            "0", "--trivial-contradictions", "--out", "-", "-q")  # fmt: skip
    assert code == 0 and json.loads(out)["generator"]["params"]["minimal"] is False


def main(paths: list[str]) -> int:
    """Check every record of the given JSONL files: zero-answer records with
    :func:`check_zero`, records with ``without`` sizes with :func:`check_minimal`."""
    bad = counted = 0
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
        for line in lines:
            rec = json.loads(line)
            problems = check_zero(rec) if not rec["answers"] else (
                check_minimal(rec) if "without" in rec else [])  # fmt: skip
            counted += 1
            if problems:
                bad += 1
                print(rec["id"], problems)
    print(f"{counted} records checked, {bad} with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
