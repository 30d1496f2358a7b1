"""``run_bench``: the groups of ``tsolve bench``, run one after another.

A group is either a family's bench cases (its ``Family.bench``, found through
the family registry) or one of the engine's own groups in :data:`CORE_GROUPS`
(calendar conversion belongs to no family). A group whose code is missing is
reported as ``skipped``; a group that crashes is reported as ``error``;
neither stops the others.
"""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Callable, Iterable

from tsolve.bench.measure import BenchReport, Measurement, Size, calibration_rate
from tsolve.contract import Lazy, builtin_families
from tsolve.errors import TsolveError

#: Groups that measure shared layers rather than a family.
CORE_GROUPS: dict[str, Lazy] = {"calendars": Lazy("tsolve.bench.calendars:bench_calendars")}


def bench_groups() -> dict[str, Lazy | Callable[[Size], list[Measurement]]]:
    """Every group by name: the core groups, then each built-in family with bench cases."""
    groups: dict[str, Lazy | Callable[[Size], list[Measurement]]] = dict(CORE_GROUPS)
    for family in builtin_families():
        if family.bench is not None:
            groups[family.name] = family.bench
    return groups


def run_bench(
    groups: Iterable[str] | None = None,
    quick: bool = False,
    on_group: Callable[[str], None] | None = None,
    scale: float = 1.0,
) -> BenchReport:
    """Run the benchmark groups (all by default) and return their figures.

    ``quick`` takes smaller work units and fewer rounds (every peer kept,
    see :class:`Size`): about 40 s on an idle 2-core machine;
    ``scale`` multiplies every work size (figures stay comparable only at 1).
    """
    known = bench_groups()
    chosen = list(groups) if groups else list(known)
    for g in chosen:
        if g not in known:
            raise TsolveError(f"family: unknown bench group {g!r} (known: {', '.join(known)})")
    report = BenchReport(
        quick, scale, created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    )
    size = Size(quick, scale)
    loop = 2_000_000 if scale >= 1 else 20_000
    report.calibration["python_loop_Mops_start"] = calibration_rate(loop)
    t0 = time.perf_counter()
    for g in dict.fromkeys(chosen):
        cases = known[g]
        if on_group is not None:
            on_group(g)
        if isinstance(cases, Lazy) and not cases.importable():
            report.results.append(
                Measurement(
                    f"{g}", g, "-", "-", status="skipped", note=f"{cases.module} is not installed"
                )
            )
            continue
        try:
            report.results.extend(cases(size))
        except Exception as exc:  # one broken group must not hide the others
            report.results.append(
                Measurement(
                    f"{g}", g, "-", "-", status="error", note=f"{type(exc).__name__}: {exc}"
                )
            )
    report.seconds = time.perf_counter() - t0
    report.calibration["python_loop_Mops_end"] = calibration_rate(loop)
    return report
