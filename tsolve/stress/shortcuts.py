"""``tsolve stress --shortcuts``: can a policy that skips the reasoning score?

The adversarial suite (:mod:`tsolve.stress.adversarial`) asks whether an
answer's *form* can farm a score. This module asks the same of the *data*:
whether a policy that reads each prompt but never does the reasoning the
family claims to test (it assumes "today", it names the package's final
place, it looks up another seed's answer to the same question) scores above
chance. A trainer's model would learn such a policy, and a benchmark figure
would then measure the shortcut.

Each probe (:data:`tsolve.stress.shortcut_probes.PROBES`) is fitted on the
records of another seed and scored through the one shared scorer
(:func:`tsolve.stress.adversarial.shared_score`) on the evaluated seed's
records, which it sees only through
:func:`~tsolve.stress.shortcut_probes.visible` (no gold field). Its score is
compared with the **chance baseline** of the adversarial suite on the same
records: the best one constant answer per visible stratum can reach. A probe
that beats chance by more than :data:`MARGIN` in any metric that is a reward
is a finding.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.contract.family import Record
from tsolve.stress.adversarial import (
    _lines,
    chance_baseline,
    generate_records,
    make_item,
    shared_score,
)
from tsolve.stress.shortcut_probes import ProbeSkipped, probes_for, visible
from tsolve.verifiers.rewards import DIAGNOSTIC, gameable, main_metric

FAMILIES = ("time-puzzles", "relational-puzzles", "span", "logistics")
"""The families whose data is generated (TicToc and TEMPO score given data)."""

MARGIN = 0.03
"""How far above chance a probe may score before it is a finding: the
sampling noise of a mean over 500 records is about 0.02."""

DEFAULT_N = 500
"""Records evaluated per family (and as many trained on)."""


@dataclass
class ProbeResult:
    """One probe's mean metrics on one family's records, beside chance."""

    family: str
    probe: str
    kind: str
    description: str
    n: int
    metric: str = ""
    score: float = 0.0
    stderr: float = 0.0
    chance: float = 0.0
    metrics: dict[str, float] = field(default_factory=dict)
    chance_metrics: dict[str, float] = field(default_factory=dict)
    answered: int = 0
    skipped: str | None = None

    def excess(self) -> dict[str, float]:
        """Per rewarded metric, how far the probe scores above chance."""
        exclude = {"parse_failed", *DIAGNOSTIC, *gameable(self.family)}
        return {k: v - self.chance_metrics.get(k, 0.0)
                for k, v in self.metrics.items() if k not in exclude}  # fmt: skip

    def failures(self, margin: float) -> list[str]:
        return [
            f"{self.family}: probe {self.probe!r} scores {k} {self.metrics[k]:.3f} "
            f"> chance {self.chance_metrics.get(k, 0.0):.3f} + {margin}"
            for k, over in self.excess().items()
            if over > margin + 1e-9
        ]

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "probe": self.probe, "kind": self.kind,
                "description": self.description, "metric": self.metric,
                "score": self.score, "stderr": self.stderr, "chance": self.chance,
                "n": self.n, "answered": self.answered, "metrics": self.metrics,
                "chance_metrics": self.chance_metrics, "skipped": self.skipped}  # fmt: skip


@dataclass
class ShortcutReport:
    """``tsolve stress --shortcuts``: every probe of every family asked."""

    seed: int
    train_seed: int
    margin: float = MARGIN
    results: list[ProbeResult] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        return [line for r in self.results if r.skipped is None for line in r.failures(self.margin)]

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "train_seed": self.train_seed, "margin": self.margin,
                "ok": self.ok, "failures": self.failures,
                "probes": [r.to_json() for r in self.results]}  # fmt: skip


def _stderr(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def run_family(
    family: str, records: Sequence[Record], train: Sequence[Record]
) -> list[ProbeResult]:
    """Every probe of ``family`` fitted on ``train`` and scored on ``records``."""
    items = [make_item(family, r) for r in records]
    chance = chance_baseline(items)
    fam_golds = [make_item(family, r).gold for r in train]
    out = []
    for probe in probes_for(family):
        result = ProbeResult(family, probe.name, probe.kind, probe.description, len(items))
        try:
            answer = probe.fit(list(train), fam_golds)
        except ProbeSkipped as exc:
            result.skipped = str(exc)
            out.append(result)
            continue
        rows = []
        for it in items:
            body = answer(visible(it.record))
            result.answered += body is not None
            rows.append(shared_score(it.record, _lines(it, body) if body else ""))
        keys = dict.fromkeys(k for r in rows for k in r if k not in ("parse_failed", "reward"))
        result.metrics = {k: sum(r.get(k, 0.0) for r in rows) / len(rows) for k in keys}
        result.chance_metrics = {k: chance.get(k, 0.0) for k in keys}
        if keys:
            result.metric = main_metric(result.metrics)
            result.score = result.metrics[result.metric]
            result.chance = result.chance_metrics[result.metric]
            result.stderr = _stderr([r.get(result.metric, 0.0) for r in rows])
        out.append(result)
    return out


def run_shortcuts(
    families: Sequence[str],
    n: int = DEFAULT_N,
    seed: int = 0,
    train_seed: int | None = None,
    records: dict[str, Sequence[Record]] | None = None,
    train_records: dict[str, Sequence[Record]] | None = None,
    on_family: Callable[[str], None] | None = None,
    margin: float = MARGIN,
) -> ShortcutReport:
    """Every shortcut probe of ``families``: fitted on ``n`` records of run
    ``train_seed`` (default ``seed + 1``), scored on ``n`` records of run
    ``seed`` (the adversarial suite's default options), or on the records
    given per family. The report fails when a probe beats chance by more than
    ``margin`` in a metric that is a reward."""
    train_seed = seed + 1 if train_seed is None else train_seed
    report = ShortcutReport(seed, train_seed, margin)
    for family in families:
        if on_family is not None:
            on_family(family)
        evald = (records or {}).get(family)
        trained = (train_records or {}).get(family)
        evald = list(evald) if evald is not None else generate_records(family, n, seed)
        trained = list(trained) if trained is not None else generate_records(family, n, train_seed)
        report.results.extend(run_family(family, evald, trained))
    return report


__all__ = ["FAMILIES", "MARGIN", "ProbeResult", "ShortcutReport", "run_shortcuts"]
