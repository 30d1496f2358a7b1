"""``tsolve dataset FAMILY --balance difficulty``: equal counts per stratum.

A family's natural mix is rarely even (of 6,000 default time puzzles, 4,209
measure ``hard`` and 685 ``easy``), and filtering a run afterwards would make
record ``i`` depend on the records before it. So the stratum of record ``i``
is assigned *by its index*, and the generator is asked for that stratum:

* the family declares which options may be balanced and their values
  (``Family.strata``, e.g. time puzzles: ``difficulty`` over easy / medium /
  hard, ``style``; logistics: ``difficulty``, ``execution``, ``question``);
* ``--balance a,b`` balances the cross product of those options' values: with
  ``k`` combinations, indices are cut into blocks of ``k`` consecutive
  records (block ``b`` = indices ``b*k .. b*k+k-1``), and each block holds
  every combination once, in an order shuffled by ``(seed, b)``. Shuffling
  per block keeps the strata from lining up with other index cycles (time
  puzzles' ``solutions`` cycles by index too);
* record ``i`` is then generated with the family's options plus its
  stratum's values (a family may pair a value with the options it takes to
  reach it: a time puzzle measures ``easy`` or ``medium`` only with few
  facts, so those strata ask for 4 facts unless ``--facts`` is given): a
  pure function of ``(seed, i, options, balance)``, so workers, shards,
  ``--resume`` and Ray give the same bytes as ever, and any ``N`` records
  hold each stratum ``floor(N/k)`` or ``ceil(N/k)`` times.

A record whose generation fails in its stratum is reported and skipped, as
any failed record is; the counts are then short by the failures, which the
summary shows. Generating to a stratum costs what the family's own option
costs (a time puzzle of a given difficulty is searched for until one
measures so).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tsolve.contract import Family
from tsolve.errors import TsolveError


def parse_balance(fam: Family, spec: str | Sequence[str] | None) -> tuple[str, ...]:
    """``"difficulty,style"`` -> ``("difficulty", "style")``, each one of the
    family's strata (one-line error otherwise)."""
    if spec is None:
        return ()
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    keys = tuple(str(n).strip().replace("-", "_") for n in names if str(n).strip())
    known = ", ".join(sorted(fam.strata)) or "none"
    if not keys:
        raise TsolveError(f"balance: name an option to balance (for {fam.name}: {known})")
    for key in keys:
        if key not in fam.strata:
            raise TsolveError(
                f"balance: {key!r} is not a stratum of family {fam.name} (strata: {known})"
            )
    if len(set(keys)) != len(keys):
        raise TsolveError(f"balance: an option is named twice in {spec!r}")
    return keys


def stratum_options(key: str, value: Any) -> dict[str, Any]:
    """The options one declared stratum value stands for: ``{key: value}``, or,
    when the family declares a mapping, that mapping (the value plus the
    options it takes to reach it, e.g. time puzzles' ``easy`` with 4 facts)."""
    if isinstance(value, Mapping):
        if key not in value:
            raise TsolveError(f"balance: stratum {dict(value)!r} does not set {key!r}")
        return dict(value)
    return {key: value}


def strata_of(fam: Family, keys: Sequence[str]) -> list[dict[str, Any]]:
    """Every combination of the balanced options' values, in declaration
    order, each as the options it stands for (:func:`stratum_options`)."""
    values = [[stratum_options(k, v) for v in fam.strata[k]] for k in keys]
    return [
        {k: v for part in combo for k, v in part.items()} for combo in itertools.product(*values)
    ]


def stratum_index(seed: int, index: int, k: int) -> int:
    """Which of ``k`` strata record ``index`` of run ``seed`` belongs to: block
    ``index // k`` is a permutation of ``0..k-1`` drawn from ``(seed, block)``."""
    block, slot = divmod(index, k)
    digest = hashlib.sha256(f"tsolve-balance:{seed}:{block}:{k}".encode()).digest()
    order = list(range(k))
    random.Random(int.from_bytes(digest[:8], "big")).shuffle(order)
    return order[slot]


@dataclass(frozen=True)
class BalancedConfig:
    """The generator configs of a balanced run, one per stratum, built once
    (in each worker) and chosen by index: :meth:`for_index`."""

    configs: tuple[Any, ...]
    seed: int

    def for_index(self, index: int) -> Any:
        return self.configs[stratum_index(self.seed, index, len(self.configs))]


def balanced_config(
    fam: Family, options: Mapping[str, Any], keys: Sequence[str], seed: int
) -> BalancedConfig:
    """Each stratum's config: ``options`` plus the stratum's values. An option
    given both ways is refused, since one of them would be silently ignored."""
    given = {str(k).replace("-", "_"): v for k, v in options.items() if v is not None}
    both = [k for k in keys if k in given]
    if both:
        raise TsolveError(
            f"balance: {both[0]!r} is balanced, so it cannot also be set "
            f"(got {both[0]}={given[both[0]]!r})"
        )
    # A stratum's companion options (facts for an easy puzzle) yield to the user's.
    return BalancedConfig(
        tuple(fam.make_options({**s, **given}) for s in strata_of(fam, keys)), seed
    )


def config_for(cfg: Any, index: int) -> Any:
    """The config record ``index`` is generated with (the run's own, unless balanced)."""
    return cfg.for_index(index) if isinstance(cfg, BalancedConfig) else cfg
