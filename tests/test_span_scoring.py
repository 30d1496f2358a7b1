"""Exact SPAN grading: answer parsing, accuracy, groups, parse failures."""

from __future__ import annotations

from typing import Any

import pytest
from span_oracle import OLD_ISLAMIC

from tsolve.families.span.generate import SpanConfig, generate_questions
from tsolve.families.span.score import final_answer, parse_date_answer, parse_polar, score_span
from tsolve.verifiers.registry import scorer_for

WRONG = {"accuracy": 0.0, "alt_reading": 0.0}
RIGHT = {"accuracy": 1.0, "alt_reading": 0.0}


def _record(cal: str, y: int, m: int, d: int, leap: bool = False, fmt: str = "content",
            answer: str = "") -> dict[str, Any]:  # fmt: skip
    gold: dict[str, Any] = {"calendar": cal, "year": y, "month": m, "day": d, "text": answer}
    if cal == "chinese":
        gold["leap"] = leap
    return {
        "id": "t-1", "family": "span", "format": fmt, "type": "date",
        "direction": f"gregorian->{cal}", "answer": answer, "gold": gold,
        "params": {"target_calendar": cal},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("cal", "gold", "output"),
    [
        ("hebrew", (5784, 3, 25, False), "Let me think.\nMY ANSWER: 25 Sivan 5784"),
        ("hebrew", (5784, 3, 25, False), "MY ANSWER: Sivan 25, 5784"),
        ("hebrew", (5784, 3, 25, False), "my answer: 5784-3-25"),
        ("hebrew", (5784, 13, 14, False), "MY ANSWER: 14 Adar II 5784"),
        ("hebrew", (5784, 13, 14, False), "MY ANSWER: 14th of Adar Sheni, 5784"),
        ("hebrew", (5785, 12, 14, False), "MY ANSWER: 14 Adar 5785"),  # common year
        ("islamic", (1445, 10, 1, False), "MY ANSWER: Shawwal 1, 1445 AH"),
        ("islamic", (1445, 3, 12, False), "MY ANSWER: 12 Rabi' al-Awwal 1445"),
        ("islamic", (1445, 12, 10, False), "MY ANSWER: The date is 10 Dhul-Hijjah 1445."),
        ("islamic", (1445, 12, 10, False), "10 Dhul-Hijjah 1445"),  # bare
        ("hebrew", (5784, 3, 25, False), "So:\n$\\boxed{25 \\text{Sivan} 5784}$"),
        ("persian", (1403, 4, 11, False), "MY ANSWER: 11 Tir 1403"),
        ("persian", (1403, 1, 1, False), "MY ANSWER: 1 Farvardin 1403"),
        ("shaka", (1946, 4, 10, False), "MY ANSWER: 10 Ashadha 1946"),
        ("shaka", (1946, 2, 3, False), "MY ANSWER: Vaisakha 3, 1946"),
        ("gregorian", (2024, 7, 1, False), "MY ANSWER: July 1, 2024"),
        ("gregorian", (2024, 7, 1, False), "MY ANSWER: 1 Jul 2024"),
        ("gregorian", (2024, 7, 1, False), "MY ANSWER: 2024-07-01"),
        ("chinese", (2024, 5, 26, False), "MY ANSWER: day 26 of Month 5, 2024"),
        ("chinese", (2023, 2, 11, True), "MY ANSWER: day 11 of Leap Month 2, 2023"),
        ("chinese", (2023, 2, 11, True), "MY ANSWER: 2023-L2-11"),
        ("chinese", (2023, 2, 11, True), "MY ANSWER: the 11th day of the leap 2nd month, 2023"),
        ("chinese", (2024, 8, 15, False), "MY ANSWER: 15th day of the 8th lunar month, 2024"),
    ],
)
def test_content_answers_accepted(cal: str, gold: tuple[int, int, int, bool], output: str) -> None:
    s = score_span(_record(cal, *gold), output)
    assert not s.parse_failed, s
    assert s.metrics == RIGHT, s


@pytest.mark.parametrize(
    ("cal", "gold", "output", "wrong"),
    [
        ("hebrew", (5784, 3, 25, False), "MY ANSWER: 26 Sivan 5784", ["day"]),
        ("hebrew", (5784, 3, 25, False), "MY ANSWER: 25 Tammuz 5784", ["month"]),
        ("islamic", (1445, 10, 1, False), "MY ANSWER: 1 Shawwal 1444", ["year"]),
        ("chinese", (2023, 2, 11, True), "MY ANSWER: day 11 of Month 2, 2023", ["leap"]),
        ("hebrew", (5784, 13, 14, False), "MY ANSWER: 14 Adar 5784", ["month"]),
        ("hebrew", (5784, 12, 14, False), "MY ANSWER: 14 Adar 5784", ["ambiguous"]),
    ],
)
def test_wrong_content_answers(cal: str, gold: tuple[int, int, int, bool], output: str,
                               wrong: list[str]) -> None:  # fmt: skip
    s = score_span(_record(cal, *gold), output)
    assert not s.parse_failed
    assert s.metrics == WRONG
    assert s.diagnosis["wrong"] == wrong


def test_days_off_diagnosis() -> None:
    s = score_span(
        {**_record("hebrew", 5784, 3, 25), "gold": {"calendar": "hebrew", "year": 5784, "month": 3,
         "day": 25, "gregorian": "2024-07-01", "text": "25 Sivan 5784"}},
        "MY ANSWER: 27 Sivan 5784",
    )  # fmt: skip
    assert s.diagnosis["days_off"] == 2


@pytest.mark.parametrize(
    "output", ["MY ANSWER: I don't know", "", "Sivan", "MY ANSWER: 25 Blorp 5784"]
)
def test_unparseable_content_scores_zero(output: str) -> None:
    s = score_span(_record("hebrew", 5784, 3, 25), output)
    assert s.parse_failed and s.metrics == WRONG and s.parsed is None


@pytest.mark.parametrize(
    ("output", "gold", "acc", "failed"),
    [
        ("MY ANSWER: Yes", "Yes", 1.0, False),
        ("Thinking... no wait.\nMY ANSWER: No", "No", 1.0, False),
        ("MY ANSWER: no.", "Yes", 0.0, False),
        ("Yes", "Yes", 1.0, False),
        ("MY ANSWER: **Yes.**", "Yes", 1.0, False),
        ("  my answer:   NO !  ", "No", 1.0, False),
        ("MY ANSWER: True", "Yes", 0.0, True),
        ("MY ANSWER: maybe", "No", 0.0, True),
        ("MY ANSWER: No idea", "No", 0.0, True),
        ("MY ANSWER: Yes or No", "No", 0.0, True),
        ("MY ANSWER: Yes. No.", "No", 0.0, True),
        ("I have no idea, sorry.", "No", 0.0, True),
        ("Not sure. Yes or no? I can't tell.", "No", 0.0, True),
        ("There is no way to know.", "No", 0.0, True),
        ("Reasoning: the answer is no.\nSo that is it.", "No", 0.0, True),
        ('End your response with "MY ANSWER: No".', "No", 0.0, True),
    ],
)
def test_polar(output: str, gold: str, acc: float, failed: bool) -> None:
    rec = _record("hebrew", 5784, 3, 25, fmt="polar", answer=gold)
    s = score_span(rec, output)
    assert s.metrics == {"accuracy": acc, "alt_reading": 0.0} and s.parse_failed is failed


def test_helpers() -> None:
    assert final_answer("a\nMY ANSWER: x\nMY ANSWER: y\n\n") == "y"
    assert final_answer("line one\n\nlast line  \n") == ""  # two lines, no marker
    assert final_answer("  last line  \n") == "last line"  # a bare answer
    assert parse_polar("yes, no, YES") is None
    assert parse_polar("nope") is None
    assert parse_date_answer("persian", "Tir") is None


def test_registered_and_gold_answers_score_one() -> None:
    scorer = scorer_for("span")
    recs = list(generate_questions(120, seed=4, config=SpanConfig(date="2031-11-05")))
    for r in recs:
        s = scorer(r, f"Reasoning...\nMY ANSWER: {r['answer']}")
        assert s.metrics == RIGHT, (r["question"], r["answer"], s)
        assert s.groups == {"direction": r["direction"], "type": r["type"], "format": r["format"]}
        flipped = {"Yes": "No", "No": "Yes"}.get(r["answer"])
        if flipped:
            assert scorer(r, f"MY ANSWER: {flipped}").metrics == WRONG
        else:  # the near-miss text of another record's date must not score
            wrong = r["gold"]["text"].replace(
                str(r["gold"]["day"]), str(r["gold"]["day"] % 28 + 1), 1
            )
            assert scorer(r, f"MY ANSWER: {wrong}").metrics == WRONG, wrong


def test_right_under_an_admissible_reading_is_flagged_not_scored() -> None:
    s = score_span(OLD_ISLAMIC, "MY ANSWER: August 25, 2024")
    assert s.metrics == {"accuracy": 0.0, "alt_reading": 1.0}
    assert s.diagnosis["right_under_reading"] == "islamic:umm-al-qura"
    other = score_span(OLD_ISLAMIC, "MY ANSWER: August 24, 2024")
    assert other.metrics == WRONG
    assert "right_under_reading" not in other.diagnosis
    # Once the text names the variant, the Umm al-Qura answer is just wrong.
    named = {**OLD_ISLAMIC, "question": OLD_ISLAMIC["question"].replace(
        "the Islamic", "the tabular (arithmetical) Islamic")}  # fmt: skip
    s2 = score_span(named, "MY ANSWER: August 25, 2024")
    assert s2.metrics == WRONG


def test_polar_right_under_a_reading() -> None:
    rec = {**OLD_ISLAMIC, "format": "polar", "answer": "No",
           "params": {**OLD_ISLAMIC["params"], "candidate": {
               "calendar": "gregorian", "year": 2024, "month": 8, "day": 25}}}  # fmt: skip
    s = score_span(rec, "MY ANSWER: Yes")
    assert s.metrics == {"accuracy": 0.0, "alt_reading": 1.0}
    assert score_span(rec, "MY ANSWER: No").metrics == RIGHT
