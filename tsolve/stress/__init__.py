"""``tsolve stress``: property checks over many generated tasks with random settings.

Each case is a generator seed, an index and a set of generator options drawn
by the hypothesis strategies of :mod:`tsolve.testing.strategies` (the ones
the test suite uses). For every case the record is generated and the family's
invariants (``Family.invariants``, kept beside the family's generator) are
checked. Nothing stops at the first failure: all violations are collected,
each with the case that reproduces it, which ``tsolve stress FAMILY --case
'<json>'`` replays.

Modules: :mod:`~tsolve.stress.config` (the config file),
:mod:`~tsolve.stress.check` (one case, and the cross-process check),
:mod:`~tsolve.stress.report` (what a run found), :mod:`~tsolve.stress.run`
(many cases, or one replayed), :mod:`~tsolve.stress.fuzz` (``--fuzz``: hostile
input thrown at every entry point instead of random settings),
:mod:`~tsolve.stress.modes` (which one check a run makes). Only
:func:`run_stress` imports hypothesis.

Outcomes per case:

* **violation**: an invariant fails, the generator crashes with anything other
  than a :class:`TsolveError`, or a check crashes. These make the run fail.
* **skipped**: the generator declined with a one-line :class:`TsolveError`
  (e.g. no puzzle with that many answers in the attempt budget, or an option
  combination it rejects). That is the generator saying "not possible" rather
  than producing a wrong record; skips are counted and shown, not failed.

A run is deterministic: the same family, ``--seed``, ``--n`` and config give
the same cases (hypothesis runs with a fixed seed and no example database).
"""

from tsolve.stress.check import check_case, cross_process_violations
from tsolve.stress.config import StressConfig, load_stress_config
from tsolve.stress.report import StressReport, Violation
from tsolve.stress.run import replay_case, run_stress

__all__ = [
    "StressConfig",
    "StressReport",
    "Violation",
    "check_case",
    "cross_process_violations",
    "load_stress_config",
    "replay_case",
    "run_stress",
]
