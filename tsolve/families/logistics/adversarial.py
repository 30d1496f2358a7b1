"""What the adversarial suite may see of a logistics record
(:mod:`tsolve.stress.adversarial`): one stratum, and as candidates every
location and vehicle name the prompt mentions (``l1_2``, ``t0``, ``a1``)."""

from __future__ import annotations

import re

from tsolve.contract.family import Record

_NAME = re.compile(r"\b(l\d+_\d+|t\d+|a\d+)\b")


def logistics_item(record: Record, gold: str) -> tuple[str, tuple[str, ...]]:
    """The family's ``adversarial_item`` part: (``all``, the names the prompt uses)."""
    prompt = str(record.get("prompt") or record.get("question") or "")
    return "all", tuple(dict.fromkeys(_NAME.findall(prompt)))
