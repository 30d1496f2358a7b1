"""Shared test settings: hypothesis profiles sized for a 2-core CI machine."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("TSOLVE_HYPOTHESIS_PROFILE", "ci"))
