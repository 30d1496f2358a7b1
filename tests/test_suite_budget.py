"""The suite's own promises, so that no test escapes the budget: the ``thorough``
profile scales every property test, including those that set their own
``max_examples`` (through :func:`budget.examples`), at their full count
even where ``examples(n, ci=m)`` lowers the ``ci`` count."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_property_test_pins_its_example_count() -> None:
    pinned = [
        f"{p.name}:{n}"
        for p in sorted(TESTS.glob("test_*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"max_examples\s*=\s*\d", line)
    ]
    assert not pinned, f"use max_examples=examples(n) (tests/budget.py): {pinned}"


def test_thorough_profile_multiplies_the_counts() -> None:
    code = "import budget; print(budget.examples(12), budget.examples(600, ci=150))"
    for profile, want in (("ci", "12 150"), ("thorough", "120 6000")):
        env = {**os.environ, "TSOLVE_HYPOTHESIS_PROFILE": profile, "PYTHONPATH": str(TESTS)}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, timeout=300, check=True)  # fmt: skip
        assert out.stdout.strip() == want
