"""The time-puzzles family's shortcut probes for ``tsolve stress
--shortcuts``: the generic date and stated-facts probes of
:mod:`tsolve.stress.shortcut_probes`, named for this family."""

from __future__ import annotations

from tsolve.stress.shortcut_probes import (
    Probe,
    date_named,
    date_prior,
    facts_lookup,
    learned_choice,
)

PROBES: tuple[Probe, ...] = (
    Probe("time-puzzles", "date prior", "heuristic", date_prior,
          "the commonest year, month and day of another seed's gold dates"),
    Probe("time-puzzles", "date the prompt names", "heuristic", date_named,
          "a date, or a year, month and day, that the facts name"),
    Probe("time-puzzles", "lookup by facts", "memorisation", facts_lookup,
          "another seed's answer to a puzzle with the same facts in any order"),
    Probe("time-puzzles", "n-gram classifier", "learned", learned_choice(True),
          "one classifier per date field on the facts' word n-grams"),
)  # fmt: skip
"""The family's probes (its ``shortcut_probes`` part)."""
