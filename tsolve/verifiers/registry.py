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
    --scorer NAME``), else a one-line error naming the ones it has."""
    from tsolve.contract import get_family
    from tsolve.contract.family import Lazy, resolve
    from tsolve.errors import TsolveError

    fam = get_family(family)
    if name is None:
        scorer: Scorer = fam.require("score")
        return scorer
    part = fam.scorers.get(name)
    if part is None:
        known = ", ".join(sorted(fam.scorers)) or "none"
        raise TsolveError(f"scorer: family {family!r} has no scorer {name!r} (named: {known})")
    if isinstance(part, Lazy) and not part.importable():
        raise TsolveError(f"scorer: {name!r} of {family!r} is not installed ({part.module})")
    named: Scorer = resolve(part)
    return named


def batch_diagnoser_for(family: str) -> BatchDiagnoser | None:
    """The batch diagnoser of ``family``, if it declares one."""
    from tsolve.contract import get_family
    from tsolve.contract.family import resolve

    part = get_family(family).diagnose_batch
    return None if part is None else resolve(part)
