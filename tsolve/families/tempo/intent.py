"""Does a query need temporal evaluation at all, and does it span periods? (TEMPO Table 11)

The paper asks GPT-4o for a query's temporal intent and gives queries without
one NaN for every temporal metric (Appendix C.2.1). tsolve decides from the
text with two word lists and the tagger, deterministically:

* ``change_over_time`` (cross-period): a change word ("changed", "evolution",
  "trend", "compared", ...) together with a time anchor, where a tagged
  expression or a word like "recent"/"currently" is an anchor; or an
  open-ended range ("since 2017"), which compares then with now;
* ``specific_time``: a tagged expression and no change;
* ``none``: neither.

It is a screen, not a reader: scoring itself only asks whether a query has a
time scope (annotated or tagged); a query with none gets NaN temporal metrics.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass

from tsolve.families.tempo.tagger import Finding, tag

_CHANGE = re.compile(
    r"(?i)\b(chang\w*|evol\w*|trend\w*|grow\w*|grew|declin\w*|increas\w*|decreas\w*|"
    r"shift\w*|compar\w*|progress\w*|develop\w*|over time|over the years)\b"
)
_NOW = re.compile(r"(?i)\b(recent\w*|current\w*|nowadays|lately|today|now)\b")


@dataclass(frozen=True)
class TemporalIntent:
    intent: str  # change_over_time | specific_time | none
    cross_period: bool
    findings: tuple[Finding, ...]


def temporal_intent(text: str, reference: _dt.date | None = None) -> TemporalIntent:
    """Classify a query's temporal intent (see the module docstring)."""
    found = tuple(tag(text, reference))
    change = bool(_CHANGE.search(text))
    anchored = bool(found) or bool(_NOW.search(text))
    open_ended = any(f.interval is not None and f.interval.open_end for f in found)
    if (change and anchored) or open_ended:
        return TemporalIntent("change_over_time", True, found)
    if found:
        return TemporalIntent("specific_time", False, found)
    return TemporalIntent("none", False, found)


__all__ = ["TemporalIntent", "temporal_intent"]
