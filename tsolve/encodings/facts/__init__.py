"""The fact taxonomy of Time Puzzles (Table 2): 16 registered categories the
generator draws, and the kinds that other puzzles' wording needs
(``range_facts``), which it does not draw.

Importing this package registers every built-in category in ``FACT_TYPES``.
"""

from tsolve.encodings.facts import (
    calendar_facts,
    knowledge_facts,
    lunar_facts,
    range_facts,
    readings,
)
from tsolve.encodings.facts.base import (
    FACT_TYPES,
    STYLES,
    DayView,
    Fact,
    Level,
    Style,
    domain_view,
    fact_constraint,
    fact_from_json,
    register_fact,
)
from tsolve.encodings.facts.packed import answer_set_size, information_gain

__all__ = [
    "FACT_TYPES",
    "STYLES",
    "DayView",
    "Fact",
    "Level",
    "Style",
    "answer_set_size",
    "calendar_facts",
    "domain_view",
    "fact_constraint",
    "fact_from_json",
    "information_gain",
    "knowledge_facts",
    "lunar_facts",
    "range_facts",
    "readings",
    "register_fact",
]
