"""The text a model is shown for one tsolve record.

Records that carry a ``prompt`` (time puzzles, relational puzzles, SPAN) are
shown exactly that: the paper's wording with its answer instruction, as the
generator wrote it; logistics records (generator 3) carry one too. The
UnSeenTimeQA items they are modelled on have none; for those the prompt is
the one tsolve's logistics generator writes
(:func:`tsolve.families.logistics.generate.prompt.render_prompt`): the item's own
fields in the benchmark's order, then the instruction the logistics scorer
reads (an ``Answer:`` line).
"""

from __future__ import annotations

from typing import Any

from tsolve.errors import TsolveError

#: The fields an UnSeenTimeQA-style item must have to be shown to a model.
UNSEENTIMEQA_FIELDS = (
    "domain_description",
    "objects_description",
    "initial_states_description",
    "events",
)


def record_prompt(record: dict[str, Any]) -> str:
    """The prompt for ``record``: its ``prompt`` field, else one built from an
    UnSeenTimeQA-style item's fields, else a one-line error."""
    prompt = record.get("prompt")
    if isinstance(prompt, str) and prompt.strip():
        return prompt
    if is_unseentimeqa_item(record):
        from tsolve.families.logistics.generate.prompt import render_prompt

        return render_prompt(record)
    raise TsolveError(
        f"record {record.get('id')!r}: no 'prompt' field to show the model "
        "(and not an UnSeenTimeQA-style item to build one from)"
    )


def is_unseentimeqa_item(record: dict[str, Any]) -> bool:
    """Does ``record`` have the fields an UnSeenTimeQA item is shown with?"""
    return isinstance(record.get("question"), str) and all(
        record.get(name) is not None for name in UNSEENTIMEQA_FIELDS
    )
