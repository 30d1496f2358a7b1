"""``tsolve tictoc audit``: is each trajectory's timeline and labelling coherent?

Per trajectory id (all its samples across files together) the audit reports:

* ``non_monotone``: a message time earlier than the one before it, or a final
  time earlier than the last history message (equal times are allowed: the
  benchmark stamps the system prompt and the first question alike);
* ``gaps_not_increasing``: the three final gaps are not strictly increasing
  (the levels are small < medium < large elapsed time);
* ``fits_no_level`` / ``fits_several_levels`` / ``convention_dependent``: the
  sensitivity inference of :mod:`tsolve.families.tictoc.sensitivity` (a solver model)
  does not give exactly one level under every month convention;
* ``preference_reversal``: the B.5 consistency rule: as the gap grows a
  preference may only stay or move toward Tool, so prefer-Tool at level i and
  prefer-noTool at a level j > i is a violation;
* ``conflicting_labels``: the same (id, level) labelled both ways;
* ``copies_differ``: the copies of a trajectory in different files do not
  share their history (messages and times), so they are not one trajectory;
* ``label_forms_disagree``: a row whose label the file name (or bundle key)
  gives also states its own ``preference`` or ``level``, and the two differ.
  The reader takes the file name's label (what the Inspect task scores
  against), so the row's own fields tell anyone who reads them something else.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tsolve.families.tictoc.data import Sample, iso
from tsolve.families.tictoc.sensitivity import GAP_NAMES, Inference, Sensitivity, infer_sensitivity


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message}


@dataclass
class TrajectoryAudit:
    """The audit of one trajectory id."""

    id: str
    sensitivity: Sensitivity | None
    violations: list[Violation] = field(default_factory=list)
    readings: tuple[tuple[str, str], ...] = ()
    gaps_seconds: tuple[float, ...] = ()
    preferences: dict[int, list[str]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "sensitivity": self.sensitivity,
            "violations": [v.to_json() for v in self.violations],
            "readings": [{"level": lv, "month_convention": c} for lv, c in self.readings],
            "gaps_seconds": list(self.gaps_seconds),
            "preferences": {str(k): v for k, v in sorted(self.preferences.items())},
            "sources": self.sources,
        }


def monotone_violations(sample: Sample) -> list[Violation]:
    """Each place where time runs backwards in ``sample``'s history."""
    out = []
    for i in range(1, len(sample.times)):
        if sample.times[i] < sample.times[i - 1]:
            out.append(Violation("non_monotone",
                f"message {i} ({iso(sample.times[i])}) is earlier than message {i - 1} "
                f"({iso(sample.times[i - 1])})"))  # fmt: skip
    last = len(sample.history) - 1
    for k, t in enumerate(sample.final_times):
        if t < sample.anchor:
            out.append(Violation("non_monotone",
                f"final time {k} ({iso(t)}) is earlier than message {last - 1} "
                f"({iso(sample.anchor)})"))  # fmt: skip
    return out


def label_violations(sample: Sample) -> list[Violation]:
    """The row's own label fields against its file name's label (see the
    module docstring), both quoted."""
    if sample.stated is None:
        return []
    pref, level = sample.stated
    out = []
    if pref is not None and pref != sample.preference:
        out.append(Violation("label_forms_disagree",
            f"{sample.source} labels it preference {sample.preference!r}, but the row's "
            f"own preference field says {pref!r}"))  # fmt: skip
    # ``True == 1`` in Python: a level stated as a boolean (or 1.0) is of the
    # wrong type, however it compares.
    if level is not None and (type(level) is not int or level != sample.level):
        out.append(Violation("label_forms_disagree",
            f"{sample.source} labels it level {sample.level}, but the row's own level "
            f"field says {level!r}"))  # fmt: skip
    return out


def reversal_violations(preferences: dict[int, list[str]]) -> list[Violation]:
    """B.5: prefer-Tool at a smaller gap and prefer-noTool at a larger one."""
    out = []
    for i in sorted(preferences):
        for j in sorted(preferences):
            if j > i and "tool" in preferences[i] and "no_tool" in preferences[j]:
                msg = f"prefer-Tool at level {i} but prefer-noTool at the larger level {j}"
                out.append(Violation("preference_reversal", msg))
    return out


def _signature(s: Sample) -> str:
    """The history with the final user question's times, for comparing copies."""
    return json.dumps(s.history, sort_keys=True, ensure_ascii=False, default=str)


def audit_trajectory(
    samples: Sequence[Sample], backend: str = "enumerator", inference: Inference | None = None
) -> TrajectoryAudit:
    """Audit the samples of one trajectory id (see the module docstring)."""
    first = samples[0]
    inf = inference or infer_sensitivity(first.final_gaps, first.anchor, backend)
    prefs: dict[int, list[str]] = {}
    for s in samples:
        prefs.setdefault(s.level, [])
        if s.preference not in prefs[s.level]:
            prefs[s.level].append(s.preference)
    res = TrajectoryAudit(first.id, inf.sensitivity, readings=inf.readings,
                          gaps_seconds=first.final_gaps, preferences=prefs,
                          sources=sorted({s.source for s in samples}))  # fmt: skip
    v = res.violations
    checked: set[str] = set()
    for s in samples:  # each distinct copy once
        sig = _signature(s)
        if sig not in checked:
            checked.add(sig)
            v.extend(monotone_violations(s))
    for s in samples:
        v.extend(label_violations(s))
    g = first.final_gaps
    if not g[0] < g[1] < g[2]:
        v.append(
            Violation(
                "gaps_not_increasing",
                f"final gaps {', '.join(f'{x:g}s' for x in g)} are not increasing",
            )
        )
    if inf.problem is not None:
        rule = ("fits_no_level" if inf.problem.startswith("fits no") else
                "fits_several_levels" if inf.problem.startswith("fits several") else
                "convention_dependent")  # fmt: skip
        detail = ""
        if rule == "fits_no_level":
            detail = "; " + "; ".join(
                f"{lv}: {', '.join(gs)} gap out of bounds" for lv, gs in inf.outside.items()
            )
        gaps = ", ".join(f"{n} {x:g}s" for n, x in zip(GAP_NAMES, g, strict=True))
        v.append(Violation(rule, f"gaps ({gaps}) {inf.problem}{detail}"))
    for level, ps in sorted(prefs.items()):
        if len(ps) > 1:
            v.append(
                Violation(
                    "conflicting_labels",
                    f"level {level} is labelled both prefer-Tool and prefer-noTool",
                )
            )
    v.extend(reversal_violations(prefs))
    base = _signature(first)
    for s in samples[1:]:
        if _signature(s) != base:
            msg = f"the copy in {s.source} (level {s.level}) differs from the one in {first.source}"
            v.append(Violation("copies_differ", msg))
    return res


def group_by_id(samples: Sequence[Sample]) -> dict[str, list[Sample]]:
    """Samples by trajectory id, ids in first-seen order."""
    groups: dict[str, list[Sample]] = {}
    for s in samples:
        groups.setdefault(s.id, []).append(s)
    return groups


def audit_samples(samples: Sequence[Sample], backend: str = "enumerator") -> list[TrajectoryAudit]:
    """One :class:`TrajectoryAudit` per trajectory id, in first-seen order."""
    return [audit_trajectory(group, backend) for group in group_by_id(samples).values()]
