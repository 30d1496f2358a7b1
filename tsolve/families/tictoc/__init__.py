"""TicToc (tool-call decisions under elapsed time), computed from timestamps.

The family of the TicToc paper (``docs/tictoc.md``): reading its data,
deciding whether a model output attempted a tool call, the Normalized
Alignment Rate, a solver-backed audit of each trajectory's timeline and
labels, the paper's timestamp model, and non-LLM baselines. The CLI is
``tsolve tictoc`` (:mod:`tsolve.families.tictoc.cli`).

The names above are imported on first use (PEP 562), so that registering
the family (:mod:`.family`) does not import its scorer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tsolve.compat.lazy import lazy_getattr
from tsolve.families.tictoc.family import FAMILY

_EXPORTS: dict[str, tuple[str, str]] = {
    "TrajectoryAudit": ("tsolve.families.tictoc.audit", "TrajectoryAudit"),
    "Violation": ("tsolve.families.tictoc.audit", "Violation"),
    "audit_samples": ("tsolve.families.tictoc.audit", "audit_samples"),
    "audit_trajectory": ("tsolve.families.tictoc.audit", "audit_trajectory"),
    "FreshnessPolicy": ("tsolve.families.tictoc.baseline", "FreshnessPolicy"),
    "baseline_report": ("tsolve.families.tictoc.baseline", "baseline_report"),
    "freshness_bounds": ("tsolve.families.tictoc.baseline", "freshness_bounds"),
    "Sample": ("tsolve.families.tictoc.data", "Sample"),
    "iter_samples": ("tsolve.families.tictoc.data", "iter_samples"),
    "label_from_name": ("tsolve.families.tictoc.data", "label_from_name"),
    "parse_sample": ("tsolve.families.tictoc.data", "parse_sample"),
    "to_record": ("tsolve.families.tictoc.data", "to_record"),
    "Detection": ("tsolve.families.tictoc.detect", "Detection"),
    "detect_tool_call": ("tsolve.families.tictoc.detect", "detect_tool_call"),
    "Confusion": ("tsolve.families.tictoc.metrics", "Confusion"),
    "length_bucket": ("tsolve.families.tictoc.metrics", "length_bucket"),
    "nar": ("tsolve.families.tictoc.metrics", "nar"),
    "ScoreReport": ("tsolve.families.tictoc.scoring", "ScoreReport"),
    "iter_predictions": ("tsolve.families.tictoc.scoring", "iter_predictions"),
    "score": ("tsolve.families.tictoc.scoring", "score"),
    "TABLE4": ("tsolve.families.tictoc.sensitivity", "TABLE4"),
    "Inference": ("tsolve.families.tictoc.sensitivity", "Inference"),
    "infer_sensitivity": ("tsolve.families.tictoc.sensitivity", "infer_sensitivity"),
    "stamp": ("tsolve.families.tictoc.timestamp", "stamp"),
    "stamp_file": ("tsolve.families.tictoc.timestamp", "stamp_file"),
}

if TYPE_CHECKING:
    from tsolve.families.tictoc.audit import (
        TrajectoryAudit,
        Violation,
        audit_samples,
        audit_trajectory,
    )
    from tsolve.families.tictoc.baseline import FreshnessPolicy, baseline_report, freshness_bounds
    from tsolve.families.tictoc.data import (
        Sample,
        iter_samples,
        label_from_name,
        parse_sample,
        to_record,
    )
    from tsolve.families.tictoc.detect import Detection, detect_tool_call
    from tsolve.families.tictoc.metrics import Confusion, length_bucket, nar
    from tsolve.families.tictoc.scoring import ScoreReport, iter_predictions, score
    from tsolve.families.tictoc.sensitivity import TABLE4, Inference, infer_sensitivity
    from tsolve.families.tictoc.timestamp import stamp, stamp_file


__getattr__ = lazy_getattr(__name__, _EXPORTS)


__all__ = [
    "FAMILY",
    "TABLE4",
    "Confusion",
    "Detection",
    "FreshnessPolicy",
    "Inference",
    "Sample",
    "ScoreReport",
    "TrajectoryAudit",
    "Violation",
    "audit_samples",
    "audit_trajectory",
    "baseline_report",
    "detect_tool_call",
    "freshness_bounds",
    "infer_sensitivity",
    "iter_predictions",
    "iter_samples",
    "label_from_name",
    "length_bucket",
    "nar",
    "parse_sample",
    "score",
    "stamp",
    "stamp_file",
    "to_record",
]
