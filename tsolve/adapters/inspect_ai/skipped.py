"""Bad rows of a task's file: skipped, each named on stderr, and the rest evaluated.

Every Inspect task that reads a file (the family tasks with ``-T file=...``,
TicToc) checks every row before any model call and keeps going past a bad
one, as every tsolve batch job does: one malformed line in a file of
thousands must not cost the whole evaluation. Skipping silently would report
a score over fewer items than the file holds, so each skipped row is one line
on stderr (the first :data:`SHOWN_BAD`, then how many more), and the task's
metadata counts them for the log. Only a file with nothing usable is an error.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tsolve.errors import TsolveError

SHOWN_BAD = 20
"""Bad rows named one by one (all are counted), as ``tsolve report`` caps its
list of bad samples: enough to see the pattern, never a screenful per row of
a file that is wrong throughout."""


def say_skipped(
    task: str, source: str, bad: Sequence[str], total: int, *, what: str, empty: str
) -> None:
    """Report the ``bad`` rows of the ``total`` in ``source`` on stderr under
    ``task``'s name (a line of count, then one line per row naming it and the
    reason; a single bad row on the count's line), or raise a
    one-line :class:`TsolveError` when no row is usable: the first bad row's
    reason and how many more, or ``empty`` when there was no row at all."""
    if len(bad) >= total:
        if not bad:
            raise TsolveError(empty)
        more = f" (and {len(bad) - 1} more bad {what}(s))" if len(bad) > 1 else ""
        raise TsolveError(f"{source}: no usable {what}; the first bad one: {bad[0]}{more}")
    if not bad:
        return
    head = f"skipped {len(bad)} bad {what}(s) of {total}:"
    if len(bad) == 1:  # the count and the row on one line
        lines = [f"{head} {one_line(bad[0])}"]
    else:
        lines = [head, *(f"  {one_line(reason)}" for reason in bad[:SHOWN_BAD])]
    if len(bad) > SHOWN_BAD:
        lines.append(f"  ... and {len(bad) - SHOWN_BAD} more bad {what}(s), not named")
    for line in lines:
        print(f"tsolve: {task}: {line}", file=sys.stderr)


def one_line(text: str) -> str:
    """``text`` on one line (a reason may quote a value holding newlines)."""
    return " ".join(str(text).split())
