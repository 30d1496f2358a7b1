"""Sentences of a puzzle that are not constraints: tsolve's own prompt wording
(the task, the season note, the answer instruction; also the Time Puzzles
release generator's variant of the task) and questions.

The prompt's sentences are recognised by their openings, so that reading a
generated prompt back lists them as the prompt's (``skipped``) rather than as
sentences it failed to read; ``tests/test_puzzle_text.py`` holds these in step
with the generators' prompt templates.
"""

from __future__ import annotations

import re

_PROMPT_OPENINGS = re.compile(
    r"(?:From\s+the\s+(?:time-related\s+)?constraints\s+below|Depending\s+on\s+the\s+conditions"
    r"|Unless\s+otherwise\s+stated,\s+(?:interpret|all\s+time-related\s+constraints\s+follow)"
    r"|Note:\s+Seasons\s+are\s+defined\s+as"
    r"|(?:Winter|Spring|Summer|Autumn):\s+[A-Z][a-z]+,\s+[A-Z][a-z]+,\s+[A-Z][a-z]+\.?$"
    r"|The\s+constraints\s+are\s+as\s+follows|Carefully\s+review\s+the\s+constraints"
    r"|After\s+thorough\s+consideration|If\s+there\s+are\s+multiple\s+valid\s+dates"
    r"|If\s+no\s+valid\s+date\s+exists|Several\s+events\s+took\s+place|The\s+events\s+are:"
    r"|MY\s+ANSWER:)",
)


def is_prompt_wording(sentence: str) -> bool:
    """Is ``sentence`` (or the unit it starts) part of tsolve's prompt around the facts?"""
    return _PROMPT_OPENINGS.match(sentence.strip()) is not None


_BARE_QUESTION = re.compile(
    r"(?:so\s*,?\s*)?(?:"
    r"(?:what|which)\s+(?:is|are|was|could|would|might|can)\s+(?:the\s+)?"
    r"(?:date|dates|day|answer|answers)(?:\s+be)?"
    r"|(?:what|which)\s+(?:date|dates|day|days)\s+(?:is|are|was|could|would|might|can)\s+"
    r"(?:it|this|that)(?:\s+be)?"
    r"|when\s+(?:is|was)\s+it)\s*\?",
    re.IGNORECASE,
)


def is_bare_question(sentence: str) -> bool:
    """Is ``sentence`` a question that asks for the date and says nothing about
    it ("What is the date?", "Which dates could it be?", "When is it?")? Such a
    question constrains nothing, so it is skipped rather than unread; any other
    question ("Which Monday is it?") stays unread, since it may hold a fact."""
    return _BARE_QUESTION.fullmatch(sentence.strip()) is not None


def is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?")
