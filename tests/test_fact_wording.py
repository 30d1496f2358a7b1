"""Puzzle text worth showing: every template, on every value
it can take, passes the wording checks; the checks catch the mistakes that
were shipped; zero-answer puzzles and festival tables say something true."""

from __future__ import annotations

import pytest

from tsolve.encodings.facts.knowledge_facts import EventRelationFact
from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzle
from tsolve.families.time_puzzles.parse.wording import every_rendering, wording_problems


def test_every_rendering_passes_the_wording_checks() -> None:
    """All ~24,000 renderings: the closed catalogue (every calendar value,
    every knowledge-base anchor under every relation), every year and decade,
    both styles."""
    seen = 0
    bad = []
    for fact, style, sentence in every_rendering():
        seen += 1
        problems = wording_problems(sentence)
        if problems:
            bad.append((fact.kind, style, sentence, problems))
    assert seen > 20_000
    assert bad == []


@pytest.mark.parametrize(
    ("sentence", "problem"),
    [
        (
            "The date has the same month and day as Charles Lindbergh's solo nonstop "
            "transatlantic flight began.",
            "clause after 'same ... as'",
        ),
        (
            "The date has the same month and day as X began (1927-05-20 to 1927-05-21).",
            "clause after 'same ... as'",
        ),
        (
            "The date is the day of the assassination of Martin Luther King Jr..",
            "does not end with one full stop",
        ),
        ("The date is the day of the the war.", "doubled word"),
        ("The date is after The Beatles split.", "capital 'The' inside the sentence"),
        ("The date is a 8th day.", "'a' before a vowel sound"),
        ("The date is an Monday.", "'an' before a consonant sound"),
        ("The year is None.", "placeholder"),
        ("the year is 1928.", "does not start with a capital"),
        ("The date is in ( spring.", "unbalanced parentheses"),
    ],
)
def test_the_checks_catch_each_mistake(sentence: str, problem: str) -> None:
    assert problem in wording_problems(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The date is before the Hamas-led attack on southern Israel that began the Gaza war.",
        "The date is before World War II began.",
        "The date is after the Bay of Pigs invasion ended.",
        "The US president Ronald Reagan was alive on this date.",
        "The date is an 18th day.",
    ],
)
def test_the_checks_pass_good_english(sentence: str) -> None:
    assert wording_problems(sentence) == []


def test_lindbergh_sentence() -> None:
    fact = EventRelationFact("Charles Lindbergh's solo nonstop transatlantic flight",
                             "1927-05-20", "1927-05-21", "anniversary")  # fmt: skip
    assert fact.render("implicit") == (
        "The date has the same month and day as the first day of Charles Lindbergh's "
        "solo nonstop transatlantic flight."
    )
    one_day = EventRelationFact("the fall of the Berlin Wall", "1989-11-09", "1989-11-09",
                                "anniversary")  # fmt: skip
    assert one_day.render("explicit") == (
        "The date has the same month and day as the fall of the Berlin Wall (1989-11-09)."
    )


def test_zero_answer_puzzles_name_their_contradiction_not_a_seed_date() -> None:
    from tsolve.cli.puzzle_commands import _provenance

    zero = generate_puzzle(3, 0, PuzzleConfig(solutions=0))
    line = _provenance(zero)
    n = len(zero["facts"])
    assert "seed" not in line
    assert f"the {n} facts clash, any {n - 1} fit" in line and "certified by cpsat" in line
    some = generate_puzzle(3, 0, PuzzleConfig(solutions=2, minimal=True))
    assert f"hidden seed date {some['generator']['seed_date']}" in _provenance(some)
    assert "every fact necessary" in _provenance(some)


def test_festival_table_columns_are_dated(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A column per occurrence, headed by its Gregorian date (was "1")."""
    from cli_main import run_main

    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = run_main(capsys, "calendar", "festival", "eid-al-fitr", "--year", "2033",
                            "--to", "hebrew")  # fmt: skip
    header = next(line for line in out.splitlines() if "calendar" in line)
    assert code == 0 and "2033-01-03" in header and "2033-12-23" in header
    assert " 1 " not in header


def test_zero_answer_relational_puzzles_show_no_seed_dates(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cli_main import run_main

    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_main(capsys, "puzzle", "--events", "2", "--solutions", "0")
    assert code == 0 and "Answers: None" in out
    assert "seed" not in out and "no answer · gold by cpsat" in out


@pytest.mark.parametrize(
    ("sentence", "relation"),
    [
        ("The date has the same month and day as World War II began.", "anniversary"),
        ("The date is in a month (of a year) in which World War II was under way.", "same_month"),
        ("The date has the same month and day as the start of World War II.", "anniversary"),
    ],
)
def test_version_5_wording_still_reads(sentence: str, relation: str) -> None:
    """Prompts of older records (and people who write the old way) still read."""
    from tsolve.families.time_puzzles.parse.reader import read_puzzle

    read = read_puzzle(sentence)
    assert read.unread == () and len(read.facts) == 1
    fact = read.facts[0].fact
    assert isinstance(fact, EventRelationFact)
    assert (fact.event, fact.relation) == ("World War II", relation)
