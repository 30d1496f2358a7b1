"""Which one check a ``tsolve stress`` run makes.

``--scaling``, ``--adversarial``, ``--shortcuts`` and ``--fuzz`` each replace
the property check (random generator settings, :func:`tsolve.stress.run_stress`),
and ``--config`` and ``--case`` set that check up. A run makes one check: a
combination it cannot honour is a one-line error, never one check run and the
others dropped without a word, and a ``--config`` file that does not exist is
an error whatever the check.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tsolve.errors import TsolveError
from tsolve.stress.config import StressConfig, load_stress_config

MODES = ("--scaling", "--adversarial", "--shortcuts", "--fuzz")
"""The checks that replace the property check."""

PROPERTY = "property"
"""The check a run makes when no mode is asked for."""


def choose_check(
    modes: Mapping[str, bool], config: str | Path | None, case: bool, budget: bool
) -> tuple[str, StressConfig | None]:
    """The one check to run (a flag of :data:`MODES`, or :data:`PROPERTY`)
    and the ``config`` file read (None without one), or a one-line error."""
    check_combination(modes, {"--config": config is not None, "--case": case}, budget)
    stress_config = load_stress_config(config) if config is not None else None
    chosen = [flag for flag, on in modes.items() if on]
    return (chosen[0] if chosen else PROPERTY), stress_config


def check_combination(
    modes: Mapping[str, bool], property_only: Mapping[str, bool], budget: bool
) -> None:
    """A one-line error for flags that one run cannot honour together: the
    modes are separate checks (one per command), ``--config`` and ``--case``
    set up the property check that every mode replaces, and ``--budget``
    sizes ``--fuzz`` only."""
    chosen = [flag for flag, on in modes.items() if on]
    if len(chosen) > 1:
        raise TsolveError(
            f"stress: {' and '.join(chosen)} are separate checks; run one per command"
        )
    extra = [flag for flag, on in property_only.items() if on]
    if chosen and extra:
        raise TsolveError(
            f"stress: {extra[0]} sets up the property check, which {chosen[0]} replaces; "
            f"drop {extra[0]} or {chosen[0]}"
        )
    if budget and chosen != ["--fuzz"]:
        raise TsolveError("stress: --budget sizes a --fuzz campaign; add --fuzz or drop --budget")
