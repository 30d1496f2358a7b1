"""The one exception type users see.

Every error a user can cause (a bad date, an unknown name, malformed JSON, an
out-of-range year) is raised as a :class:`TsolveError` carrying a single line
that names the offending field and value. The CLI turns it into that line on
stderr and a non-zero exit, never a traceback. Keeping one type means callers of
the library can catch user errors without also swallowing programming bugs.
"""

from __future__ import annotations


class TsolveError(ValueError):
    """A user-facing error whose message is one line naming field and value."""

    def __init__(self, message: str) -> None:
        # Collapse to one line: the CLI prints exactly this.
        super().__init__(" ".join(str(message).split()))


class SolverTimeout(TsolveError):
    """A backend hit its time limit: reported as such, never as 'no solution'."""
