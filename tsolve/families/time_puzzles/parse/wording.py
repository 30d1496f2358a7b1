"""Is a fact sentence English worth showing? Mechanical checks over every
rendering tsolve can produce.

Puzzle text is the first thing a user reads (``tsolve puzzle``), and a model
trained on it learns its grammar too. A template is checked on every value it
can take, not only on the few a test happens to draw: :func:`every_rendering`
walks the closed catalogue that :mod:`tsolve.families.time_puzzles.parse.rendered` reads
back (every calendar value, every knowledge-base anchor under every relation)
plus every year and decade of the widest domain, in both styles, and
:func:`wording_problems` names what is wrong with one sentence. The checks are
the mistakes templates have made ("the same month and day as
Charles Lindbergh's solo nonstop transatlantic flight began") and the ones a
template filled with data can make (a stray capital "The", a doubled word, "a
8th"), not a grammar of English: a sentence that passes is not proven good,
one that fails is wrong. ``benchmarks/experiments/fact_wording.py`` prints the report.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from tsolve.encodings.facts import STYLES, Fact
from tsolve.encodings.facts.calendar_facts import DecadeFact, YearFact
from tsolve.families.time_puzzles.parse.rendered import _calendar_values, _knowledge_anchors

# (name, pattern that marks the mistake). Each pattern is searched in the sentence.
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        # "as" compares with a noun phrase; a clause after it ("as X began") is
        # the Lindbergh mistake. "before X began" / "after X ended" are fine.
        (
            "clause after 'same ... as'",
            r"\bsame\b[^.()]*\bas\b[^()]*\b(?:began|ended|started)(?: \(|\.?$)",
        ),
        ("doubled word", r"(?i)\b(\w+) \1\b"),
        ("capital 'The' inside the sentence", r"(?<=\S )The\b"),
        ("space before punctuation", r" [.,;:)]"),
        ("double space", r"  "),
        # A bracket is a template's leftover; ">=" and "<=" are a stated rule's
        # comparison ("year >= 1930", the Time Puzzles release's wording).
        ("placeholder", r"\b(?:None|nan|null|NaT)\b|[{}\[\]]|[<>](?!=)"),
        ("'a' before a vowel sound", r"\ba (?:[AEIOUaeiou](?!ni|s\b|S\b|ur)|8|11th|18th)"),
        ("'an' before a consonant sound", r"\ban (?![AEIOUaeiou8]|11th|18th|hour|honest)"),
        ("empty parentheses", r"\(\s*\)"),
    )
)


def wording_problems(sentence: str) -> list[str]:
    """What is wrong with ``sentence`` as one English sentence: [] if nothing
    the checks know of."""
    out = [name for name, rule in _RULES if rule.search(sentence)]
    if not sentence[:1].isupper():
        out.append("does not start with a capital")
    if not sentence.endswith(".") or sentence.endswith(".."):
        out.append("does not end with one full stop")
    if sentence.count("(") != sentence.count(")"):
        out.append("unbalanced parentheses")
    return out


def every_rendering() -> Iterator[tuple[Fact, str, str]]:
    """(fact, style, sentence) for every fact of the closed catalogue and every
    year and decade of 0001..9999, in both styles."""
    years = (YearFact(y) for y in range(1, 10000))
    decades = (DecadeFact(d) for d in range(0, 10000, 10))
    for fact in itertools.chain(_calendar_values(), _knowledge_anchors(), years, decades):
        for style in STYLES:
            yield fact, style, fact.render(style)  # type: ignore[arg-type]
