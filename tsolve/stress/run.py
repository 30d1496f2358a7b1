"""Running stress: many random cases (:func:`run_stress`), or one printed case
again (:func:`replay_case`)."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from tsolve.contract import get_family
from tsolve.errors import TsolveError
from tsolve.stress.check import check_record, cross_process_violations
from tsolve.stress.config import StressConfig
from tsolve.stress.distinct_checks import distinct_violations
from tsolve.stress.report import StressReport, Violation
from tsolve.testing.cases import StressCase


def _validate(family: str, cfg: StressConfig) -> None:
    """Fail fast, with one line, on a config the family cannot take."""
    fam = get_family(family, need="invariants")
    fam.make_options(cfg.options)
    for name, pool in cfg.choices.items():
        if name == "domain":
            continue
        for value in pool:
            fam.parse_options({name: value})


def run_stress(
    family: str,
    n: int = 100,
    seed: int = 0,
    config: StressConfig | None = None,
    on_case: Callable[[StressCase, list[Violation], str | None], None] | None = None,
    cross_process: int = 20,
    distinct: bool = True,
) -> StressReport:
    """Check ``n`` random cases of ``family`` (see the module docstring).

    ``config`` fixes some options and narrows the random pools of others.
    ``on_case`` is called after each case (progress bars, live reporting).
    The first ``cross_process`` generated records are also regenerated in a
    fresh interpreter (:func:`cross_process_violations`). With ``distinct``
    the family's runs are also held to holding no puzzle twice, within a
    run, across option sets and across the parts of a split
    (:func:`tsolve.stress.distinct_checks.distinct_violations`).
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hyp_seed

    from tsolve.testing.strategies import INDEX_RANGE, stress_cases

    cfg = config or StressConfig()
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise TsolveError(f"n: expected a positive integer, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TsolveError(f"seed: expected a non-negative integer, got {seed!r}")
    fam = get_family(family, need="invariants")
    _validate(fam.name, cfg)
    report = StressReport(fam.name, seed, n)
    strategy = stress_cases(
        fam.name, seed, cfg.options, cfg.choices, cfg.index_range or INDEX_RANGE
    )
    seen: set[str] = set()
    t0 = time.perf_counter()

    regen: list[tuple[StressCase, str]] = []

    def body(case: StressCase) -> None:
        key = json.dumps(case.to_json(), sort_keys=True)
        if key in seen:  # hypothesis may replay a case; count each once
            return
        seen.add(key)
        violations, skip, line = check_record(case)
        if line is not None and len(regen) < cross_process:
            regen.append((case, line))
        report.add(case, violations, skip)
        for k, v in case.options.items():
            report.by_option.setdefault(k, Counter())[json.dumps(v)] += 1
        if on_case is not None:
            on_case(case, violations, skip)

    run = settings(
        max_examples=n,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )(hyp_seed(seed)(given(strategy)(body)))
    run()
    report.violations.extend(cross_process_violations(regen))
    if distinct:
        report.violations.extend(distinct_violations(fam.name, seed, cfg.options))
    report.seconds = time.perf_counter() - t0
    return report


def replay_case(case_json: Mapping[str, Any] | str, family: str | None = None) -> StressReport:
    """Re-check one case printed by a stress run (the ``--case`` JSON).

    ``family``, when given, is the family the caller expects (the command's
    FAMILY argument): a case without one is taken as that family's, and a case
    of another family is refused.
    """
    data: Any = case_json
    if isinstance(case_json, str):
        try:
            data = json.loads(case_json)
        except json.JSONDecodeError as exc:
            raise TsolveError(f"case: not valid JSON ({exc.msg})") from None
    if family is not None and isinstance(data, dict):
        expected = get_family(family).name
        data = {"family": expected, **data}
        if get_family(str(data["family"])).name != expected:
            raise TsolveError(f"case: a {data['family']} case, not {expected}")
    if not isinstance(data, dict) or not {"family", "seed", "index"} <= set(data):
        raise TsolveError('case: expected {"family", "seed", "index", "options"}')
    opts = data.get("options", {})
    if not isinstance(opts, dict):
        raise TsolveError(f"case.options: expected an object, got {opts!r}")
    for k in ("seed", "index"):
        v = data[k]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise TsolveError(f"case.{k}: expected a non-negative integer, got {v!r}")
    fam = get_family(str(data["family"]))
    case = StressCase(fam.name, data["seed"], data["index"], dict(opts))
    report = StressReport(fam.name, case.seed, 1)
    t0 = time.perf_counter()
    violations, skip, line = check_record(case)
    if line is not None:
        violations = violations + cross_process_violations([(case, line)])
    report.add(case, violations, skip)
    report.seconds = time.perf_counter() - t0
    return report
