"""The prompt a model gets for a logistics question (the record's ``prompt``).

UnSeenTimeQA's evaluation (§5 and Appendix E of the paper) gives the model
the domain description, the objects, the initial states, the events and the
question, in that order, followed by a formatting instruction for the
reasoning and the final answer. The instruction here asks for the form that
:func:`tsolve.families.logistics.score.parse_model_answer` reads: the
first line after the last ``Answer:`` naming locations and vehicles, so a
model that follows it is graded on what it meant.

Works on tsolve's records and on the benchmark's own items alike: each field
may be a list of sentences (the data) or a paragraph (the paper).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ANSWER_INSTRUCTION = (
    "Reason step by step, then end your response with one line of the form\n"
    "Answer: <names>\n"
    "naming where the package is at that moment: the location, the vehicle it is in, "
    "or both while it is being loaded or unloaded, separated by commas "
    '(format only, not a hint: "Answer: l0_0, a0" or "Answer: t1").'
)

_SECTIONS = (
    ("Domain Description", "domain_description", " "),
    ("Objects Description", "objects_description", " "),
    ("Initial States Description", "initial_states_description", " "),
    ("Events", "events", "\n"),
    ("Question", "question", " "),
)


def render_prompt(item: Mapping[str, Any]) -> str:
    """The full prompt for ``item``: its five text fields under the paper's
    section headings, one event per line, then :data:`ANSWER_INSTRUCTION`."""
    parts = []
    for title, key, joiner in _SECTIONS:
        value = item.get(key, "")
        text = joiner.join(str(v) for v in value) if isinstance(value, list) else str(value)
        parts.append(f"[{title}]\n{text.strip()}")
    return "\n\n".join([*parts, ANSWER_INSTRUCTION])


#: The fields an UnSeenTimeQA-style item must have to be shown to a model.
UNSEENTIMEQA_FIELDS = (
    "domain_description",
    "objects_description",
    "initial_states_description",
    "events",
)


def is_unseentimeqa_item(record: Mapping[str, Any]) -> bool:
    """Does ``record`` have the fields an UnSeenTimeQA item is shown with?"""
    return isinstance(record.get("question"), str) and all(
        record.get(name) is not None for name in UNSEENTIMEQA_FIELDS
    )


def shown_prompt(record: Mapping[str, Any]) -> str:
    """The family's ``prompt`` part: the record's ``prompt`` (generator 3 and
    later write one), else one built from an UnSeenTimeQA item's own fields
    (:func:`render_prompt`; the benchmark's items carry none)."""
    from tsolve.errors import TsolveError

    prompt = record.get("prompt")
    if isinstance(prompt, str) and prompt.strip():
        return prompt
    if is_unseentimeqa_item(record):
        return render_prompt(record)
    raise TsolveError(
        f"record {record.get('id')!r}: no 'prompt' field to show the model "
        "(and not an UnSeenTimeQA-style item to build one from)"
    )
