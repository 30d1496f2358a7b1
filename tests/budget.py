"""How many examples a property test runs, scaled by the hypothesis profile.

A test that sets its own ``max_examples`` (because its examples are costly or
cheap) would otherwise run that number in every profile, and the ``thorough``
profile (tests/conftest.py) would not search any harder. ``examples(n)``
is ``n`` under ``ci`` and ``n`` times :data:`FACTOR` under ``thorough``, so
``@settings(max_examples=examples(12))`` scales like the default;
``examples(n, ci=m)`` runs ``m`` under ``ci`` and still ``n * FACTOR`` under
``thorough``."""

from __future__ import annotations

import os

PROFILE = os.environ.get("TSOLVE_HYPOTHESIS_PROFILE", "ci")
#: How much harder ``thorough`` searches than ``ci`` (its 400 default examples against 40).
FACTOR = 10 if PROFILE == "thorough" else 1


def examples(n: int, ci: int | None = None) -> int:
    """``n`` examples, scaled by the profile's :data:`FACTOR`.

    ``ci`` lowers the count of the default ``ci`` profile alone, for a
    property whose examples are many and cheap but add up (docs/testing.md):
    ``examples(600, ci=150)`` is 150 under ``ci`` and still 6,000 under
    ``thorough``, so the search for counterexamples is as deep as before."""
    if ci is not None and FACTOR == 1:
        return ci
    return n * FACTOR
