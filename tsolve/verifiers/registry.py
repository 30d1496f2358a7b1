"""Per-family scorers behind one ``tsolve verify``: the lookup.

Each task family declares a scorer ``(record, raw_model_output) -> ItemScore``
as its ``Family.score`` (:mod:`tsolve.families`). The batch driver
(:mod:`tsolve.verifiers.verify_batch`) looks the family up per record,
so one predictions file may mix families, and a scorer never needs to know how
the report is printed. This mirrors reasoning-gym's per-task ``score_answer``.
"""

from __future__ import annotations

from tsolve.contract.item import BatchDiagnoser, Scorer


def scorer_for(family: str, name: str | None = None) -> Scorer:
    """The scorer of ``family``: its ``Family.score``, or with ``name`` the
    scorer it declares under that name (``Family.scorers``; ``tsolve verify
    --scorer NAME``), else a one-line error naming the ones it has. Either
    is behind the guards every family's scorer has (:meth:`Family.scorer`):
    a result that is not an ``ItemScore`` or a dict of metrics in [0, 1] is
    a one-line error naming the family."""
    from tsolve.contract import get_family

    scorer: Scorer = get_family(family).scorer(name)
    return scorer


def batch_diagnoser_for(family: str) -> BatchDiagnoser | None:
    """The batch diagnoser of ``family``, if it declares one."""
    from tsolve.contract import get_family
    from tsolve.contract.family import resolve

    part = get_family(family).diagnose_batch
    return None if part is None else resolve(part)
