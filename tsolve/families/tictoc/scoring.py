"""``tsolve tictoc score``: match predictions to samples, detect calls, compute NAR.

A prediction is ``{"id", "level": 0|1|2, "output"}`` and is matched to the
sample with the same ``(id, level)``. Nothing is dropped silently: every
sample without a prediction is listed under ``missing``, every prediction
without a sample under ``unmatched``, every unreadable row under
``bad_rows``, and every malformed output under ``malformed`` (a malformed
output is still scored, by the rule in :mod:`tsolve.families.tictoc.detect`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.families.tictoc.data import Sample
from tsolve.families.tictoc.detect import Detection, detect_tool_call
from tsolve.families.tictoc.metrics import Decision, summarise
from tsolve.families.tictoc.sensitivity import Inference, infer_trajectories
from tsolve.records import BadRow, iter_json_rows
from tsolve.records.validation import bad, expect_int

MAX_LISTED = 1000
"""At most this many entries are listed per problem kind (all are counted)."""


@dataclass(frozen=True)
class Prediction:
    id: str
    level: int
    output: Any
    where: str


def parse_prediction(row: dict[str, Any], where: str) -> Prediction:
    """Check one prediction row (raises TsolveError naming the field)."""
    rid = row.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool):
        rid = str(rid)
    if not isinstance(rid, str):
        raise bad("id", "a string", rid)
    level = expect_int(row.get("level"), "level", 0, 2)
    if "output" not in row:
        raise TsolveError(f"output: missing (the row has {', '.join(sorted(row)) or 'no fields'})")
    out = row["output"]
    if not isinstance(out, str | dict):
        raise bad("output", "text or a message object", out)
    return Prediction(rid, level, out, where)


def iter_predictions(path: str | Path) -> Iterable[Prediction | BadRow]:
    for i, row in enumerate(iter_json_rows(path), 1):
        if isinstance(row, BadRow):
            yield row
            continue
        where = f"{Path(path).name} row {i}"
        try:
            yield parse_prediction(row, where)
        except TsolveError as exc:
            yield BadRow(where, str(exc))


@dataclass
class ScoreReport:
    """The numbers plus everything that could not be scored as a plain sample."""

    summary: dict[str, Any]
    missing: list[dict[str, Any]] = field(default_factory=list)
    unmatched: list[dict[str, Any]] = field(default_factory=list)
    malformed: list[dict[str, Any]] = field(default_factory=list)
    bad_rows: list[str] = field(default_factory=list)
    rules: dict[str, int] = field(default_factory=dict)
    unknown_tools: int = 0

    @property
    def clean(self) -> bool:
        """Every sample scored from a readable, matching row (exit code 0)."""
        return not (self.missing or self.unmatched or self.bad_rows)

    def to_json(self) -> dict[str, Any]:
        def listed(xs: list[Any]) -> dict[str, Any]:
            return {"count": len(xs), "items": xs[:MAX_LISTED]}

        out = dict(self.summary)
        out["malformed"] = listed(self.malformed)
        out["missing"] = listed(self.missing)
        out["unmatched"] = listed(self.unmatched)
        out["bad_rows"] = listed(self.bad_rows)
        out["detection_rules"] = dict(sorted(self.rules.items()))
        out["unknown_tool_names"] = self.unknown_tools
        return out


def score(
    samples: Sequence[Sample],
    predictions: Iterable[Prediction | BadRow],
    sample_errors: Iterable[BadRow] = (),
    backend: str = "enumerator",
    inferences: dict[str, Inference] | None = None,
) -> ScoreReport:
    """Score ``predictions`` against ``samples`` (see the module docstring).

    Sensitivity for the breakdown is inferred per trajectory from its gaps
    (:func:`tsolve.families.tictoc.sensitivity.infer_trajectories`) unless given."""
    by_key: dict[tuple[str, int], Sample] = {}
    bad_rows = [str(b) for b in sample_errors]
    for s in samples:
        if s.key in by_key:
            bad_rows.append(
                f"{s.source}: duplicate sample {s.id!r} at level {s.level} (first used)"
            )
            continue
        by_key[s.key] = s
    inf = (
        inferences if inferences is not None else infer_trajectories(list(by_key.values()), backend)
    )
    decisions: list[Decision] = []
    seen: set[tuple[str, int]] = set()
    report = ScoreReport(summary={})
    rules: Counter[str] = Counter()
    for p in predictions:
        if isinstance(p, BadRow):
            bad_rows.append(str(p))
            continue
        key = (p.id, p.level)
        if key in seen:
            bad_rows.append(
                f"{p.where}: duplicate prediction for {p.id!r} level {p.level} (first used)"
            )
            continue
        sample = by_key.get(key)
        if sample is None:
            report.unmatched.append({"id": p.id, "level": p.level, "where": p.where})
            continue
        seen.add(key)
        det = detect_tool_call(p.output)
        rules[det.rule] += 1
        if det.malformed is not None:
            report.malformed.append(
                {"id": p.id, "level": p.level, "attempted": det.attempted, "why": det.malformed}
            )
        report.unknown_tools += _unknown_names(det, sample)
        i = inf.get(sample.id)
        decisions.append(
            Decision(sample.preference == "tool", det.attempted, sample.level,
                     i.sensitivity if i else None, sample.turns)
        )  # fmt: skip
    report.missing = [
        {"id": s.id, "level": s.level, "source": s.source}
        for k, s in by_key.items()
        if k not in seen
    ]
    report.summary = summarise(decisions)
    report.bad_rows = bad_rows
    report.rules = dict(rules)
    return report


def _unknown_names(det: Detection, sample: Sample) -> int:
    """Calls naming a tool the sample does not offer (still attempts, §3 fn. 1)."""
    offered = set()
    for f in sample.functions:
        fn = f.get("function") if isinstance(f, dict) else None
        name = (
            fn.get("name")
            if isinstance(fn, dict)
            else (f.get("name") if isinstance(f, dict) else None)
        )
        if isinstance(name, str):
            offered.add(name)
    if not offered:
        return 0
    return sum(1 for n in det.names if n not in offered)
