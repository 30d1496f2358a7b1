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
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# ``python -m pytest`` puts the checkout's root first on sys.path, and there
# ``pip install -e .`` left ``tsolve.egg-info``, which importlib.metadata then
# finds before the editable install's own metadata. Inspect reads that
# metadata to decide whether tsolve is an installed package (and so whether
# its tasks and scorers are named ``tsolve/...``); a user's ``inspect`` or
# ``python`` run from anywhere else never sees the egg-info. So the tests drop
# that one entry (tsolve itself still imports, through the editable install),
# unless PYTHONPATH names the root on purpose (a checkout tested without
# installing it, whose root holds no egg-info).
_ROOT = Path(__file__).resolve().parents[1]
if (_ROOT / "tsolve.egg-info").exists():
    _asked = {Path(p).resolve() for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    sys.path[:] = [
        p for p in sys.path if Path(p or os.getcwd()).resolve() != _ROOT or _ROOT in _asked
    ]

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


@pytest.fixture
def entry_point_site(tmp_path: Path) -> Path:
    """A folder holding a minimal distribution with pyproject.toml's ``inspect_ai``
    entry point, so a fresh interpreter that puts it on ``sys.path`` sees the entry
    point whether or not this checkout is installed with it (the Inspect tests
    that run ``inspect`` as a real command share it)."""
    import tomllib

    project = tomllib.loads((_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    target = project["project"]["entry-points"]["inspect_ai"]["tsolve"]
    site = tmp_path / "site"
    dist = site / "tsolve_inspect_probe-0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tsolve-inspect-probe\nVersion: 0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(f"[inspect_ai]\ntsolve = {target}\n", encoding="utf-8")
    return site
