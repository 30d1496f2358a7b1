"""The text a model is shown for one tsolve record.

The record's family says (its ``prompt`` part, :meth:`tsolve.contract.Family.prompt_text`):
by default the record's ``prompt`` field, the paper's wording with its
answer instruction as the generator wrote it, else its ``question`` (a
plug-in family that writes only that); a family whose records may come
without either (a benchmark's own items) declares how it builds one.
"""

from __future__ import annotations

from typing import Any

from tsolve.contract import family_of, get_family


def record_prompt(record: dict[str, Any]) -> str:
    """The prompt for ``record``, as its family shows it, else a one-line error."""
    return get_family(family_of(record)).prompt_text(record)


def __getattr__(name: str) -> Any:
    from tsolve.compat.moved_names import moved

    return moved(__name__, name)
