"""The pinned code-interpreter sandbox of the ``tools=code`` condition.

``compose.yaml`` and its ``Dockerfile`` ship as package data, so an installed
tsolve finds them without a clone: :data:`COMPOSE_FILE` is what the Inspect
task declares as its Docker sandbox
(:attr:`tsolve.adapters.inspect_ai.conditions.Condition.sandbox_spec`)."""

from pathlib import Path

COMPOSE_FILE = Path(__file__).with_name("compose.yaml")
"""Inspect's docker sandbox config for the code condition."""

DOCKERFILE = Path(__file__).with_name("Dockerfile")
"""The pinned image the compose file builds."""
