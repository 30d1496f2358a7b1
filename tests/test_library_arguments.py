"""Wrong arguments to the public library functions and to ``tsolve stress``,
and the smaller CLI messages: each is a one-line :class:`TsolveError` (exit 2
on the command line), never an ``AttributeError``, a silent 0 or an option
that is dropped without a word."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_cli

import tsolve
from tsolve.errors import TsolveError

# ------------------------------------------------------------ generate_puzzle


@pytest.mark.parametrize("config", [5, {"solutions": 2}, "solutions=2", [1]])
def test_a_config_of_the_wrong_type_is_one_line(config: Any) -> None:
    with pytest.raises(TsolveError, match=r"^config: expected a PuzzleConfig or None") as err:
        tsolve.generate_puzzle(config=config)
    assert "\n" not in str(err.value)
    with pytest.raises(TsolveError, match=r"^config: expected a PuzzleConfig"):
        tsolve.generate_puzzles(1, config=config)  # raised at the call, not at the first read


@pytest.mark.parametrize("index", [-1, True, False, 1.0, "1", None])
def test_an_index_that_is_not_a_non_negative_int_is_refused(index: Any) -> None:
    with pytest.raises(TsolveError, match=r"^index: expected a non-negative integer"):
        tsolve.generate_puzzle(index=index)


def test_an_unknown_override_names_the_fields() -> None:
    with pytest.raises(
        TsolveError, match=r"^solution: not a PuzzleConfig field \(fields: .*solutions"
    ):
        tsolve.generate_puzzle(solution=3)


def test_the_typed_overrides_are_puzzleconfigs_fields() -> None:
    """``generate_puzzle(**overrides)`` is typed by PuzzleOverrides, so a
    type checker catches a misspelt option; its fields are PuzzleConfig's,
    neither more nor fewer, with the same types."""
    import dataclasses
    import typing

    from tsolve.families.time_puzzles.config import PuzzleConfig, PuzzleOverrides

    config = typing.get_type_hints(PuzzleConfig)
    assert list(config) == [f.name for f in dataclasses.fields(PuzzleConfig)]
    assert typing.get_type_hints(PuzzleOverrides) == config
    assert not PuzzleOverrides.__required_keys__  # every override is optional


def test_a_valid_call_still_makes_the_same_record() -> None:
    """The checks change no record: index 1 of run 0 by keyword or via the
    generator of the run."""
    one = tsolve.generate_puzzle(0, 1, tsolve.PuzzleConfig())
    assert one["generator"]["index"] == 1
    assert list(tsolve.generate_puzzles(1, 0, start=1)) == [one]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tsolve.verify(5, []), r"^records: expected an iterable of JSON .* an int$"),
        (lambda: tsolve.verify([], None), r"^predictions: expected an iterable .* got None$"),
        (lambda: tsolve.verify("r.jsonl", []), r"^records: .*a text \(a path\? use tsolve.verify_"),
        (lambda: tsolve.check_claims(5), r"^text: expected a string, got an int$"),
    ],
)  # fmt: skip
def test_sibling_functions_refuse_wrong_types(call: Any, message: str) -> None:
    with pytest.raises(TsolveError, match=message):
        call()


# ------------------------------------------------------------ score_answer

CORRUPT = [
    {"family": "span"},
    {"family": "time-puzzles", "id": "x"},
    {"family": "logistics", "id": "x", "question": "q"},
    {"family": "relational-puzzles"},
]


@pytest.mark.parametrize("record", CORRUPT, ids=lambda r: r["family"])
@pytest.mark.parametrize("answer", ["No", "", None, "MY ANSWER: 2024-01-01"])
def test_a_corrupt_record_is_an_error_not_a_zero_reward(record: Any, answer: Any) -> None:
    entry = {"metadata": {"record": record}}
    with pytest.raises(
        TsolveError, match=rf"^entry: metadata.record is not a valid {record['family']} record \("
    ):
        tsolve.score_answer(answer, entry)


def test_a_record_with_a_field_of_the_wrong_type_is_an_error() -> None:
    entry = tsolve.create_dataset("span", size=1)[0]
    assert tsolve.score_answer(entry["answer"], entry) == 1.0
    broken = json.loads(json.dumps(entry))
    broken["metadata"]["record"]["format"] = 5
    with pytest.raises(TsolveError, match="not a valid span record"):
        tsolve.score_answer(entry["answer"], broken)


def test_a_wrong_answer_to_a_valid_entry_still_scores_zero() -> None:
    for entry in tsolve.create_dataset("time-puzzles", size=2):
        for answer in ("garbage", "", None, 5, "MY ANSWER: 1800-01-01"):
            assert tsolve.score_answer(answer, entry) == 0.0


# ------------------------------------------------------------ tsolve stress


@pytest.mark.parametrize("family", ["logistics"])
def test_adversarial_on_one_record_skips_what_needs_another(
    capsys: pytest.CaptureFixture[str], family: str
) -> None:
    """With one record no other item of the stratum exists: the policies
    that answer with one are skipped, said so, and the run passes (before:
    "gold or another item's gold" was the gold itself, and exit 1). (SPAN
    draws its records in shuffled blocks, so its first records may share a
    stratum: the next test covers it by strata.)"""
    got = run_cli(capsys, "stress", family, "--adversarial", "--n", "1", "-q")
    assert got.returncode == 0, got.stdout
    assert "skipped" in got.stdout and "another item's gold" in got.stdout
    assert "needs another item of stratum" in got.stdout
    report = json.loads(
        run_cli(
            capsys, "stress", family, "--adversarial", "--n", "1", "-q", "--format", "json"
        ).stdout
    )
    skipped = report["families"][family]["skipped"]
    assert "gold or another item's gold" in skipped
    assert "gold or another item's gold" not in report["families"][family]["no_answer"]


def test_adversarial_skips_exactly_the_strata_with_one_item() -> None:
    """A policy that needs another item of the stratum is skipped when some
    stratum holds one item, and runs when every stratum holds two."""
    from tsolve.stress.adversarial import generate_records, run_family

    records = generate_records("span", 2, 0)
    formats = [r["format"] for r in records]
    result = run_family("span", records)
    one_each = len(set(formats)) == len(formats)
    assert ("gold or another item's gold" in result.skipped) == one_each, formats
    lonely = [r for r in generate_records("span", 40, 0) if r["format"] == "polar"][:1]
    assert "gold or another item's gold" in run_family("span", lonely).skipped


def test_adversarial_with_enough_records_skips_nothing() -> None:
    from tsolve.stress.adversarial import generate_records, run_family

    result = run_family("logistics", generate_records("logistics", 4, 0))
    assert result.skipped == {}
    assert "gold or another item's gold" in result.no_answer


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--adversarial", "--shortcuts"], "--adversarial and --shortcuts are separate checks"),
        (["--adversarial", "--fuzz"], "--adversarial and --fuzz are separate checks"),
        (["--scaling", "--fuzz"], "--scaling and --fuzz are separate checks"),
        (["--adversarial", "--config", "CONFIG"], "--config sets up the property check"),
        (["--fuzz", "--case", "{}"], "--case sets up the property check"),
        (["--budget", "5"], "--budget sizes a --fuzz campaign"),
        (["--adversarial", "--config", "MISSING"], "separate|does not exist|--config"),
        (["--config", "MISSING"], "does not exist"),
    ],
)
def test_stress_refuses_what_it_would_drop(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, flags: list[str], message: str
) -> None:
    config = tmp_path / "stress.json"
    config.write_text("{}")
    args = [
        {"CONFIG": str(config), "MISSING": str(tmp_path / "nope.json")}.get(f, f) for f in flags
    ]
    got = run_cli(capsys, "stress", "span", *args, "--n", "1", "-q")
    assert got.returncode == 2, (got.stdout, got.stderr)
    assert got.stderr.count("\n") == 1 and got.stderr.startswith("error: ")
    assert re.search(message, got.stderr), got.stderr


# ------------------------------------------------------------ smaller CLI messages


def test_solve_on_garbage_prints_only_the_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("garbage\nmore garbage\n")
    got = run_cli(capsys, "solve", str(bad))
    assert got.returncode != 0
    assert got.stdout == ""  # no empty table, no "0 records:"
    assert got.stderr.count("malformed JSON") == 2


def test_mcp_type_errors_use_the_right_article() -> None:
    from tsolve.adapters.mcp_arguments import check_value

    for value, kind in ((3, "an integer"), ([1], "an array"), ({}, "an object"), ("x", "a string"),
                        (True, "a boolean"), (None, "null")):  # fmt: skip
        schema = {"type": "number"} if isinstance(value, str) else {"type": "string"}
        with pytest.raises(TsolveError, match=rf"got {kind} "):
            check_value("f", value, schema)


def test_a_usage_error_points_to_the_form_the_docs_use(capsys: pytest.CaptureFixture[str]) -> None:
    got = run_cli(capsys, "dataset", "span", "--count", "2", "-o", "-", "--workers", "-3")
    assert got.returncode == 2
    assert "dataset make" not in got.stderr
    assert "tsolve dataset span --help" in got.stderr
    made = run_cli(capsys, "dataset", "make", "span", "--count", "2", "-o", "-", "--workers", "-3")
    assert "tsolve dataset make --help" in made.stderr  # the form typed, kept


def test_date_and_date_range_read_dates_alike() -> None:
    from tsolve.generators.options import parse_date_range

    assert parse_date_range("2024-1-1..2024-2-1", "date-range") == "2024-01-01..2024-02-01"
    assert parse_date_range("2024-1-1", "date-range") == "2024-01-01..2024-01-01"
    a = tsolve.create_dataset("span", size=1, date="2024-1-1")[0]
    b = tsolve.create_dataset("span", size=1, date_range="2024-1-1..2024-1-1")[0]
    for entry in (a, b):  # the reference date's Gregorian form is a gold field now
        record = tsolve.facade.record_of(entry)
        assert record["params"]["reference_date"]["gregorian"] == "2024-01-01"
    for bad in ("2024-1-1..2024-2-30", "24-1-1..2024-2-1", "2024-01-01...2024-02-01"):
        with pytest.raises(TsolveError, match=r"^date-range: "):
            parse_date_range(bad, "date-range")


@pytest.mark.parametrize("family", [5, None, ["span"]])
def test_a_family_that_is_not_a_name_is_named_so(family: Any) -> None:
    with pytest.raises(TsolveError, match=r"family: expected a family name, got "):
        tsolve.score_answer("No", {"metadata": {"record": {"id": "r", "family": family}}})
