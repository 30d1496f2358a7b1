"""The reading rules behind honest answers (docs/scoring.md): one marker rule
for every family, Unicode dashes and full-width digits, a justification read
when it holds no second answer, names that are never an answer.

Each obedient form below scored 0 before these rules; each hedge beside it
must still score 0. The records are the adversarial fixtures (tsolve's own,
tests/fixtures/adversarial/)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.facade import score_answer
from tsolve.families.span.score import parse_polar
from tsolve.verifiers.answer_parsing import (
    LOOSE_MARKER,
    MARKER,
    PLAIN_MARKER,
    final_answer,
    is_justification,
    parse_answer,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "adversarial"


def _records(family: str) -> list[dict[str, Any]]:
    with open(FIXTURES / f"{family}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _score(record: dict[str, Any], output: str) -> float:
    return score_answer(output, {"metadata": {"record": record}})


def _first(family: str, **want: Any) -> dict[str, Any]:
    return next(r for r in _records(family) if all(r.get(k) == v for k, v in want.items()))


# ------------------------------------------------------------- one marker rule


@pytest.mark.parametrize(
    "text",
    [
        "**MY ANSWER**: No",
        "**MY ANSWER:** No",
        "*My answer*: No",
        "## MY ANSWER\nNo",
        "### MY ANSWER:\n\nNo",
        "**Final Answer:** No",
        "Answer: No",
        "The answer is No.",
        "- MY ANSWER: No",
        "> MY ANSWER：No",
    ],
)
def test_every_family_reads_the_same_marker_forms(text: str) -> None:
    for marker in (MARKER, PLAIN_MARKER, LOOSE_MARKER):
        found = final_answer("Reasoning first.\n" + text, marker)
        assert found.how == "marker" and found.text.rstrip(".") == "No", (marker, text)


@pytest.mark.parametrize(
    "text",
    [
        'Respond with "MY ANSWER: None".\nThanks',  # a marker inside a sentence
        "Answers: 2024-01-02\nmore",  # "Answers" is not the marker
        "My answer depends on it\nmore",
    ],
)
def test_text_that_only_mentions_an_answer_has_no_marker_line(text: str) -> None:
    assert final_answer(text, MARKER).failed


# ----------------------------------------------------- dashes, digits, "None"


DASHES = ["\u2010", "\u2011", "\u2012", "\u2013", "\u2212", "\uff0d"]


@settings(max_examples=examples(40), deadline=None)
@given(
    day=st.dates(dt.date(1000, 1, 1), dt.date(2999, 12, 31)),
    dash=st.sampled_from(DASHES),
    wide=st.booleans(),
)
def test_a_date_with_any_dash_or_full_width_digits_is_that_date(
    day: dt.date, dash: str, wide: bool
) -> None:
    text = day.isoformat().replace("-", dash)
    if wide:
        text = text.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    assert parse_answer(f"MY ANSWER: {text}").dates == [day.isoformat()]


@pytest.mark.parametrize(
    "text",
    [
        "None (no date satisfies all constraints)",
        "No valid date exists.",
        "There is no valid date.",
        "**None.**",
        "None — the constraints contradict each other.",
    ],
)
def test_none_with_a_justification_is_none(text: str) -> None:
    assert parse_answer(f"MY ANSWER: {text}").is_none


@pytest.mark.parametrize(
    "text",
    [
        "None of the above, or all of them.",
        "None, or maybe 2024-01-02",
        "None (but possibly the 3rd)",
        "No idea",
        "No way to tell.",
        "unknown",
        "No answer.",  # a refusal, not "no date fits"
    ],
)
def test_none_with_a_hedge_is_still_a_failure(text: str) -> None:
    parsed = parse_answer(f"MY ANSWER: {text}")
    assert not parsed.is_none and not parsed.dates


# ------------------------------------------------------------- yes and no


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Yes, they are equivalent.", "Yes"),
        ("No, they are not the same day.", "No"),
        ("Yes. The two dates name the same day.", "Yes"),
        ("No — counting the days shows it.", "No"),
        ("**Yes**", "Yes"),
    ],
)
def test_yes_or_no_with_a_justification_is_read(text: str, label: str) -> None:
    assert parse_polar(text) == label


@pytest.mark.parametrize(
    "text",
    [
        "Yes, or maybe no.",
        "Yes. No.",
        "Yes/No",
        "No idea.",
        "No way to tell.",
        "Yes, not the same day.",  # a negation after Yes is a second answer
        "Yes, probably.",
        "Yes if the year is a leap year.",
        "Probably not, but maybe yes.",
        "No-one knows.",
    ],
)
def test_yes_or_no_with_a_second_answer_or_a_hedge_is_not(text: str) -> None:
    assert parse_polar(text) is None


@given(st.sampled_from(["Yes", "No"]), st.text(max_size=30), st.sampled_from(["or", "maybe"]))
@settings(max_examples=examples(60), deadline=None)
def test_a_hedge_word_anywhere_in_the_justification_makes_it_a_hedge(
    label: str, noise: str, hedge: str
) -> None:
    assert parse_polar(f"{label}, {noise} {hedge} {noise}") is None
    assert not is_justification(f", {noise} {hedge}")


def test_span_yes_no_and_content_forms_score_as_the_issue_asks() -> None:
    polar = _first("span", format="polar", answer="Yes")
    assert _score(polar, "MY ANSWER: Yes, they are equivalent.") == 1.0
    assert _score(polar, "**MY ANSWER**: Yes") == 1.0
    assert _score(polar, "MY ANSWER: Yes, or maybe no.") == 0.0
    content = _first("span", format="content")
    gold = content["gold"]
    greg = dt.date.fromisoformat(gold["gregorian"])
    same = f"{gold['text']} ({greg:%B} {greg.day}, {greg.year})"
    assert _score(content, f"MY ANSWER: {same}") == 1.0
    other = greg + dt.timedelta(days=1)
    wrong = f"{gold['text']} ({other:%B} {other.day}, {other.year})"
    assert _score(content, f"MY ANSWER: {wrong}") == 0.0  # two different days


# --------------------------------------------------------------- logistics


def test_a_city_or_the_word_package_is_never_a_second_answer() -> None:
    record = next(r for r in _records("logistics") if len(r["answers"]) == 1)
    (name,) = record["answers"]
    city = "c" + name[1:].split("_")[0] if name.startswith("l") else "c0"
    assert _score(record, f"Answer: {name} (in city {city})") == 1.0
    assert _score(record, f"The answer is {name}.") == 1.0
    assert _score(record, f"Answer: the package is at {name}") == 1.0
    other = next(c for c in ("l0_0", "l0_1", "t0", "t1", "a0") if c != name)
    assert _score(record, f"Answer: {name} or {other} (in city {city})") == 0.0


# -------------------------------------------------------- relational tuples


def _tuples_record() -> tuple[dict[str, Any], list[str], list[str]]:
    record = next(r for r in _records("relational-puzzles") if len(r["answers"]) == 1)
    names = [e["name"] for e in record["events"]]
    return record, names, record["answers"][0]


def test_relational_pairs_may_be_written_as_models_write_them() -> None:
    record, names, dates = _tuples_record()
    pairs = list(zip(names, dates, strict=True))
    commas = ", ".join(f"{n} = {d}" for n, d in pairs)
    on = "; ".join(f"{n} on {d}" for n, d in pairs)
    assert _score(record, f"MY ANSWER: {commas}") == 1.0
    assert _score(record, f"MY ANSWER: {on}") == 1.0
    assert _score(record, "MY ANSWER:\n- " + "; ".join(f"{n}: {d}" for n, d in pairs)) == 1.0
    # A remark after the last pair may name the events again, but no date.
    remark = f"{commas} ({names[-1]} is dated after checking {names[0]})"
    assert _score(record, f"MY ANSWER: {remark}") == 1.0
    assert _score(record, f"MY ANSWER: {commas} ({names[0]} could be {dates[-1]})") == 0.0


def test_relational_hedges_stay_wrong() -> None:
    record, names, dates = _tuples_record()
    pairs = list(zip(names, dates, strict=True))
    line = "; ".join(f"{n} = {d}" for n, d in pairs)
    (first, day), *_ = pairs
    later = (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()
    hedged = line.replace(f"{first} = {day}", f"{first} = {day} or {later}")
    assert _score(record, f"MY ANSWER: {hedged}") == 0.0
    assert _score(record, f"MY ANSWER: {line}; {first} = {later}") == 0.0  # an event twice
    # A remark under the answer lines is not a combination; a hedge on a
    # marker line of its own still is one (a wrong, invalid answer).
    assert _score(record, f"MY ANSWER:\n{line}\nThese satisfy every fact.") == 1.0
    assert _score(record, f"MY ANSWER: {line}\nMY ANSWER: or maybe not") == 0.0
    assert _score(record, f"MY ANSWER:\n{line}\nor maybe not") == 0.0  # a hedge under it
