"""Shared test settings: hypothesis profiles sized for a 2-core CI machine.

``ci`` (the default) is derandomized: every run draws the same examples, so a
submission's CI result is a property of the code, not of the draw. Searching
for new counterexamples is the job of ``thorough`` (random, 10x the examples):
``TSOLVE_HYPOTHESIS_PROFILE=thorough python -m pytest``. Run it before a stop;
a counterexample it finds becomes an explicit test. A test that sets its own
``max_examples`` writes ``max_examples=examples(n)`` (tests/budget.py), which
is ``n`` under ``ci`` and ``10 * n`` under ``thorough``, so the profile
scales it too (tests/test_suite_budget.py holds every test to that)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=40,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("TSOLVE_HYPOTHESIS_PROFILE", "ci"))
