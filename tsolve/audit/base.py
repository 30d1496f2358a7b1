"""The contract every family's auditor fulfils.

An auditor answers one question about a stored item: *is its gold the only
answer a careful reader could defend?* It re-derives the answer from the
item's own text under every admissible reading (knowledge horizon, dating
conventions, calendar variants, year-counting rules, ...) and compares.

Three verdicts, in increasing order of severity, each a claim about the
*declared* readings (the family's list of what its text leaves open):

* ``ok``: the stored gold is the answer under every declared reading;
* ``ambiguous``: it is the answer under some declared readings and not under
  others; ``detail`` names a reading on the other side (``reading``) and what
  it gives (``answers``); an auditor that can say so also names the readings
  on the gold's side;
* ``inconsistent``: it is the answer under no declared reading. ``detail``
  carries the proof, which may cite only the item's own text (its facts,
  durations, stated times) and rules every declared reading shares; where
  readings differ it argues each one as a case, naming the reading whose
  rule a step uses. A record whose stored forms of the gold (a text answer,
  structured fields, counts) name different answers is ``inconsistent``
  too, whatever its text means: ``detail.proof.forms`` quotes them
  (:mod:`tsolve.audit.forms`).

What no verdict proves: that a reading nobody declared would not give
another answer (``docs/ground-truth.md``). The logistics auditor follows
these meanings to the letter. The time-puzzle and SPAN auditors call a gold
``inconsistent`` as soon as the *canonical* reading contradicts it; a gold
that only another reading gives would be ``ambiguous`` under the meanings
above (their generators never emit one; noted in ``docs/ground-truth.md``).

A family declares its auditor as ``Family.audit`` (:mod:`tsolve.families`),
beside its scorer, so ``tsolve audit`` can read a file that mixes families.
An auditor raises :class:`~tsolve.errors.TsolveError` for a record it cannot
read; the batch driver reports that row and goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# The verdict is the contract's (what an auditor returns, as ItemScore is
# what a scorer returns), defined there so that the contract can adapt a
# plug-in's auditor without importing this layer; re-exported here.
from tsolve.contract.verdict import VERDICTS, AuditVerdict, Verdict  # noqa: F401

Auditor = Callable[[dict[str, Any]], AuditVerdict]
"""``auditor(record) -> AuditVerdict``; raises ``TsolveError`` on a record it
cannot read."""


def auditor_for(family: str) -> Auditor:
    """The auditor of ``family`` (its ``Family.audit``; see :mod:`tsolve.families`)."""
    from tsolve.contract import get_family

    auditor: Auditor = get_family(family).require("audit")
    return auditor
