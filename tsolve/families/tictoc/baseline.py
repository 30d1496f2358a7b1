"""Non-LLM reference points: always call, never call, and a freshness rule.

The freshness rule calls the tool when the time elapsed since the last tool
result exceeds a bound for the scenario's sensitivity. The bound comes from
Table 4 itself, not from the labels, in two presets:

* ``small``: stale once the elapsed time exceeds the *small* gap's upper
  bound (6 s for high sensitivity, 6 minutes for medium and low): anything
  beyond "moments later" is refreshed;
* ``medium``: stale once it exceeds the *medium* gap's upper bound (6 minutes
  high, 6 hours medium, 6 days low): only a large gap is refreshed.

With no earlier tool result there is nothing fresh to rely on, so the rule
calls. The sensitivity is the one the audit infers from the three gaps (the
paper's scenario inventory, Table 6, fixes it per scenario); a trajectory with
no single inferred level is treated as "call". Always-tool and never-tool
score NAR 0.5 on any data with both classes: one class rate is 1, the other 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.tictoc.data import Sample
from tsolve.families.tictoc.metrics import Decision, summarise
from tsolve.families.tictoc.sensitivity import (
    TABLE4,
    Inference,
    Sensitivity,
    infer_trajectories,
    unit_span,
)

PRESETS = ("small", "medium")


def freshness_bounds(preset: str) -> dict[Sensitivity, float]:
    """Seconds after which a tool result counts as stale, per sensitivity."""
    if preset not in PRESETS:
        raise TsolveError(f"preset: expected one of {', '.join(PRESETS)}, got {preset!r}")
    k = PRESETS.index(preset)
    return {
        lv: unit_span(specs[k].unit, specs[k].high, "30d", None) for lv, specs in TABLE4.items()
    }


def seconds_since_tool(sample: Sample) -> float | None:
    """Seconds from the last tool result in the history to the final question
    at the sample's level; None when the history has no tool result."""
    for msg, t in zip(reversed(sample.history[:-1]), reversed(sample.times), strict=True):
        if msg.get("role") == "tool":
            return (sample.final_time - t).total_seconds()
    return None


@dataclass(frozen=True)
class FreshnessPolicy:
    """Call the tool when the last tool result is older than the level's bound."""

    bounds: dict[Sensitivity, float]

    def decide(self, sample: Sample, sensitivity: Sensitivity | None) -> bool:
        elapsed = seconds_since_tool(sample)
        if elapsed is None or sensitivity is None:
            return True
        return elapsed > self.bounds[sensitivity]


Policy = Callable[[Sample, "Sensitivity | None"], bool]


def evaluate_policy(
    samples: Sequence[Sample], policy: Policy, inferences: dict[str, Inference]
) -> dict[str, Any]:
    """NAR and attempt rate (with the breakdowns) of ``policy`` on ``samples``."""
    decisions = []
    for s in samples:
        sens = inferences[s.id].sensitivity
        decisions.append(Decision(s.preference == "tool", policy(s, sens), s.level, sens, s.turns))
    return summarise(decisions)


def baseline_report(samples: Sequence[Sample], backend: str = "enumerator") -> dict[str, Any]:
    """Every baseline's summary, keyed by name (``freshness_<preset>`` per preset)."""
    inf = infer_trajectories(samples, backend)
    policies: dict[str, Policy] = {
        "always_tool": lambda s, lv: True,
        "never_tool": lambda s, lv: False,
    }
    for preset in PRESETS:
        policies[f"freshness_{preset}"] = FreshnessPolicy(freshness_bounds(preset)).decide
    return {name: evaluate_policy(samples, p, inf) for name, p in policies.items()}
