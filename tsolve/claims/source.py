"""Where ``tsolve check-claims`` reads its text: ``-`` is stdin, an existing
path is a file, a one-word argument that looks like a path but names no file
is an error (so a typo is not silently checked as text), anything else is the
text itself (:func:`tsolve.records.text_source.read_text_source`)."""

from __future__ import annotations

from tsolve.claims.extract import check_claims
from tsolve.claims.result import ClaimCheck
from tsolve.records.text_source import read_text_source


def read_source(source: str) -> str:
    """The text ``source`` stands for (see the module docstring)."""
    return read_text_source(source, path_like_is_error=True)


def check_source(source: str) -> list[ClaimCheck]:
    """:func:`check_claims` on the text ``source`` stands for."""
    return check_claims(read_source(source))
