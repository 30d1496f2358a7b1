"""The words every logistics reader shares: object identifiers and sentences.

Identifiers are a lowercase stem and digits, with underscores for locations
(``p3``, ``t0``, ``l1_2``). Descriptions come as lists of sentences in the data
and as paragraphs in the paper's examples; :func:`sentences` takes both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tsolve.errors import TsolveError

ID_PATTERN = r"[a-z]+\d+(?:_\d+)*"
"""An object identifier (``p3``, ``l1_2``), as a regular-expression fragment."""
ID_GROUP = "(" + ID_PATTERN + ")"
""":data:`ID_PATTERN` as a capturing group."""
IDS_RE = re.compile(r"\b" + ID_PATTERN + r"\b")
"""Every whole identifier in a sentence."""

_HEADER_RE = re.compile(r"^.*?\boccurs?\s*:\s*", re.S)
_SENTENCE_SPLIT_RE = re.compile(r"\.(?:\s+|$)")
_JUST_STR = frozenset((str,))


def sentences(value: Any, field_name: str) -> list[str]:
    """A description field as a list of sentences (the data has lists; the
    paper's examples are paragraphs, so both are accepted)."""
    if isinstance(value, str):
        text = _HEADER_RE.sub("", value) if "occur" in value[:80] else value
        return [s.strip() for s in _SENTENCE_SPLIT_RE.split(text) if s.strip()]
    if type(value) is list and set(map(type, value)) <= _JUST_STR:  # the data's own form
        return list(filter(str.strip, value))  # the non-blank ones
    if isinstance(value, Sequence) and all(isinstance(s, str) for s in value):
        return [s for s in value if s.strip()]
    raise TsolveError(
        f"{field_name}: expected a string or a list of strings, got {type(value).__name__}"
    )
