"""The ground truth a trainer's row carries, and the metrics read from it.

A trainer copies the ground truth into every row it samples, so it must be
small: each family declares its compact gold (``Family.compact_gold``: the
few plain fields its metrics need) and the scorer that reads only them
(``Family.score_compact``), both through the family contract. A family that
declares neither ships its whole record, scored by its own scorer: correct,
only larger.

The ground truth is one line of JSON text, ``{"family": F, "gold": {...}}``
(or ``{"family": F, "record": {...}}``), so it survives Arrow, Parquet and a
trainer's string columns unchanged. A ground truth that is not this is a
one-line :class:`TsolveError`: a misconfigured reward must stop a run, never
pay 0 forever.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tsolve.contract import Family, family_of, get_family
from tsolve.contract.family import resolve
from tsolve.errors import TsolveError
from tsolve.records.validation import shown
from tsolve.verifiers.rewards import DIAGNOSTIC

MAX_GROUND_TRUTH = 1 << 20
"""Longest ground truth text read (1 MiB): a whole record's fallback fits."""


def ground_truth(record: dict[str, Any]) -> str:
    """``record``'s ground truth as compact JSON text (see the module docstring)."""
    family = get_family(family_of(record), need="score")
    if family.compact_gold is not None and family.score_compact is not None:
        body: dict[str, Any] = {"family": family.name, "gold": resolve(family.compact_gold)(record)}
    else:
        body = {"family": family.name, "record": record}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def read_ground_truth(value: object) -> tuple[Family, str, dict[str, Any]]:
    """``(family, "gold" | "record", fields)`` of a ground truth given as
    text or as its already-parsed mapping; a one-line error otherwise."""
    if isinstance(value, str):
        if len(value) > MAX_GROUND_TRUTH:
            raise TsolveError(f"ground truth: longer than {MAX_GROUND_TRUTH} characters")
        try:
            value = json.loads(value)
        except ValueError:
            raise TsolveError(
                f"ground truth: expected the JSON text tsolve wrote, got {shown(value)}"
            ) from None
    if not isinstance(value, Mapping):
        raise TsolveError(f"ground truth: expected a JSON object, got {shown(value)}")
    name = value.get("family")
    kinds = [k for k in ("gold", "record") if k in value]
    if not isinstance(name, str) or len(kinds) != 1 or set(value) != {"family", kinds[0]}:
        raise TsolveError(
            'ground truth: expected {"family": NAME, "gold": {...}} or '
            f'{{"family": NAME, "record": {{...}}}}, got keys {sorted(map(str, value))}'
        )
    family = get_family(name, need="score")
    fields = value[kinds[0]]
    if not isinstance(fields, dict):
        raise TsolveError(f"ground truth: {kinds[0]!r} must be a JSON object")
    if kinds[0] == "gold" and family.score_compact is None:
        raise TsolveError(f"ground truth: family {family.name} has no compact gold")
    return family, kinds[0], dict(fields)


def _metrics(family: Family, kind: str, fields: dict[str, Any], output: str) -> dict[str, float]:
    if kind == "gold":
        raw: Mapping[str, float] = resolve(family.score_compact)(fields, output)
    else:
        result = family.require("score")(fields, output, diagnose=False)
        raw = getattr(result, "metrics", result)
    return {k: float(v) for k, v in raw.items() if k not in DIAGNOSTIC}


def gold_metrics(value: object, output: object) -> tuple[Family, dict[str, float]]:
    """The family and its scorer's metrics (less the diagnostic ones) for
    ``output`` against the ground truth ``value``, read by the same rule as
    ``tsolve verify``. An output that is not text, or that the scorer cannot
    read, gets the metrics of an empty answer (all 0); a ground truth that
    cannot score even that is a one-line error."""
    family, kind, fields = read_ground_truth(value)
    if isinstance(output, str):
        try:
            return family, _metrics(family, kind, fields, output)
        except Exception:  # an answer never crashes a run ... unless the gold is at fault
            pass
    try:
        return family, _metrics(family, kind, fields, "")
    except Exception as exc:
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise TsolveError(f"ground truth: not a valid {family.name} gold ({why[:200]})") from None
