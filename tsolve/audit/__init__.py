"""Audit stored items: is each gold answer the only one a careful reader could defend?

See :mod:`tsolve.audit.base` for the verdicts and the per-family contract,
:mod:`tsolve.audit.forms` for the check that every stored form of a gold
agrees, and :mod:`tsolve.audit.explain` for proofs as numbered lines.
"""

from tsolve.audit.base import VERDICTS, Auditor, AuditVerdict, auditor_for

__all__ = ["VERDICTS", "AuditVerdict", "Auditor", "auditor_for"]
