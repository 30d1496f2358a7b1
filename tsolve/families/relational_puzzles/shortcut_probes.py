"""The relational-puzzles family's shortcut probe for ``tsolve stress
--shortcuts``: a lookup by the puzzle's stated facts in any order
(:mod:`tsolve.stress.shortcut_probes`)."""

from __future__ import annotations

from tsolve.stress.shortcut_probes import Probe, facts_lookup

PROBES: tuple[Probe, ...] = (
    Probe("relational-puzzles", "lookup by facts", "memorisation", facts_lookup,
          "another seed's answer to a puzzle with the same facts in any order"),
)  # fmt: skip
"""The family's probes (its ``shortcut_probes`` part)."""
