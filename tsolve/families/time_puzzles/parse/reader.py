"""``read_puzzle``: a puzzle text -> the facts it states, the sentences it
could not read, and the sentences of tsolve's own prompt it skipped."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tsolve.encodings.facts import Fact
from tsolve.families.time_puzzles.parse.instructions import is_bare_question, is_prompt_wording
from tsolve.families.time_puzzles.parse.paraphrases import read_paraphrases
from tsolve.families.time_puzzles.parse.rendered import read_rendered, renders_as
from tsolve.families.time_puzzles.parse.sentences import Sentence, split_sentences, units

Form = Literal["rendered", "paraphrase"]


@dataclass(frozen=True)
class ReadFact:
    """A fact and the sentence it was read from. ``form`` is ``rendered`` when
    the sentence is the fact's own rendering (either style), else ``paraphrase``."""

    sentence: Sentence
    fact: Fact
    form: Form

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.sentence.line,
            "sentence": self.sentence.text,
            "kind": self.fact.kind,
            "params": self.fact.params,
            "form": self.form,
        }


@dataclass(frozen=True)
class PuzzleReading:
    """What :func:`read_puzzle` found. Every sentence of the text is in exactly
    one of the three lists: nothing is dropped silently. A sentence stating
    two facts ("in March 2024") is in ``facts`` twice, once per fact."""

    facts: tuple[ReadFact, ...]
    unread: tuple[Sentence, ...]  # not a fact tsolve reads: a question, an instruction, ...
    skipped: tuple[Sentence, ...]  # prompt wording (task, season note, answer form), bare questions

    def fact_values(self) -> tuple[Fact, ...]:
        return tuple(r.fact for r in self.facts)


def read_sentence_facts(sentence: str) -> tuple[tuple[Fact, Form], ...]:
    """The facts one sentence states, each with its form: tsolve's renderings
    first (one fact), then paraphrases (one, or two for a month with its
    year); none when the sentence is not read."""
    fact = read_rendered(sentence)
    if fact is not None:
        return ((fact, "rendered"),)
    facts = read_paraphrases(sentence)
    if len(facts) == 1:
        return ((facts[0], "rendered" if renders_as(facts[0], sentence) else "paraphrase"),)
    return tuple((f, "paraphrase") for f in facts)


def read_sentence(sentence: str) -> tuple[Fact, Form] | None:
    """One sentence as one fact, or None, also when it states two ("in March
    2024": :func:`read_sentence_facts`), since one of them alone would be a
    misreading."""
    got = read_sentence_facts(sentence)
    return got[0] if len(got) == 1 else None


def read_puzzle(text: str) -> PuzzleReading:
    """The facts ``text`` states, in text order, with the sentences it does not
    read (what is recognised: docs/puzzle-text.md).

    Each line or list item is read whole first; only when the whole does not
    read is it split into sentences, so that inner dots ("Harry S. Truman")
    never cut a fact in two."""
    facts: list[ReadFact] = []
    unread: list[Sentence] = []
    skipped: list[Sentence] = []
    for unit in units(text):
        pieces = [unit] if _whole(unit) else split_sentences(unit)
        for s in pieces:
            if is_prompt_wording(s.text) or is_bare_question(s.text):
                skipped.append(s)
                continue
            got = read_sentence_facts(s.text)
            if not got:
                unread.append(s)
            facts.extend(ReadFact(s, fact, form) for fact, form in got)
    return PuzzleReading(tuple(facts), tuple(unread), tuple(skipped))


def _whole(unit: Sentence) -> bool:
    return is_prompt_wording(unit.text) or bool(read_sentence_facts(unit.text))
