"""Which metric is a score's value, and which metrics must never be one.

One home for the choice that ``tsolve verify`` (its summaries flag gameable
metrics), the reasoning-gym facade (:func:`tsolve.facade.score_answer`) and
the Inspect scorer (:mod:`tsolve.adapters.inspect_ai.scorer`) all make, so that the
number a trainer is rewarded with is the number a benchmark reports.

A metric is **gameable** when a policy that does not reason can farm it
(a paper's lenient rule, such as "any gold name counts", which pays for
naming every candidate). Each family declares its own
(``Family.gameable_metrics``, and ``diagnostic_metrics`` for the ones that
count wrong answers of a kind). It is still reported, under the paper's name, for comparison with
published figures; it is never a reward, and ``tsolve verify`` lists it under
``gameable`` (docs/scoring.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tsolve.errors import TsolveError

MAIN_METRICS = ("em", "accuracy")
"""The metric a score's value is, in order of preference: a set answer is
right when it is exactly right (``em``); a single answer has ``accuracy``."""


class _PerFamily(Mapping[str, tuple[str, ...]]):
    """A family's declared metrics of one kind (``Family.gameable_metrics``
    or ``diagnostic_metrics``), by family name, read from the registry on
    use: a family declares its own, and a name tsolve does not know has none."""

    def __init__(self, part: str) -> None:
        self.part = part

    def _families(self) -> dict[str, tuple[str, ...]]:
        from tsolve.contract import all_families

        return {f.name: tuple(getattr(f, self.part)) for f in all_families()}

    def __getitem__(self, family: str) -> tuple[str, ...]:
        found = self._families().get(family)
        if not found:
            raise KeyError(family)
        return found

    def get(self, family: str, default: Any = None) -> Any:
        from tsolve.contract import get_family

        try:
            return tuple(getattr(get_family(family), self.part)) or default
        except TsolveError:
            return default

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, found in self._families().items() if found])

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _AnyFamily(Sequence[str]):
    """Every metric some registered family declares of one kind, read from
    the registry on use (``name in DIAGNOSTIC``)."""

    def __init__(self, table: _PerFamily) -> None:
        self.table = table

    def _names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for names in self.table._families().values() for n in names))

    def __getitem__(self, i: Any) -> Any:
        return self._names()[i]

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __repr__(self) -> str:
        return repr(self._names())


GAMEABLE: Mapping[str, tuple[str, ...]] = _PerFamily("gameable_metrics")
"""Per family, the metrics kept under a paper's name although a trivial
policy can farm them: reported, never a reward (each family's
``Family.gameable_metrics``)."""

DIAGNOSTIC: Sequence[str] = _AnyFamily(_PerFamily("diagnostic_metrics"))
"""Metrics that count wrong answers of a kind (right under another reading),
not how right an answer is: never a reward either. Every family's
``Family.diagnostic_metrics``; :func:`diagnostic` gives one family's."""


def gameable(family: str) -> tuple[str, ...]:
    """The gameable metrics of ``family`` (empty for most, and for a name
    tsolve does not know)."""
    found: tuple[str, ...] = GAMEABLE.get(family, ())
    return found


def diagnostic(family: str) -> tuple[str, ...]:
    """The diagnostic metrics of ``family`` (empty for most)."""
    from tsolve.contract import get_family

    try:
        return tuple(get_family(family).diagnostic_metrics)
    except TsolveError:
        return ()


def never_rewards(family: str) -> set[str]:
    """The metrics of ``family`` that are never a reward: its gameable and
    diagnostic ones, and every family's diagnostic ones (a diagnostic
    metric's name means the same in every family)."""
    return {*gameable(family), *diagnostic(family), *DIAGNOSTIC}


def main_metric(metrics: Mapping[str, float]) -> str:
    """The name of the metric that is an item's score (see :data:`MAIN_METRICS`);
    the first one reported for a family that has neither."""
    for name in MAIN_METRICS:
        if name in metrics:
            return name
    if not metrics:
        raise TsolveError("score: the family's scorer reported no metrics")
    return next(iter(metrics))


def reward_value(metrics: Mapping[str, float], family: str, name: str | None = None) -> float:
    """``metrics[name]`` (by default :func:`main_metric`) clipped to [0, 1],
    for use as a reward. A gameable or diagnostic metric, or one the family
    does not report, is a one-line :class:`TsolveError`: asking for it is the
    caller's bug, never a silent zero."""
    if not metrics:
        return 0.0
    if name is None:
        name = main_metric(metrics)
    if name in never_rewards(family):
        raise TsolveError(
            f"reward_metric: {name!r} of {family} can be farmed without reasoning "
            "(docs/scoring.md), so it is never a reward"
        )
    if name not in metrics:
        raise TsolveError(
            f"reward_metric: {name!r} is not a metric of this family ({', '.join(metrics)})"
        )
    return min(1.0, max(0.0, float(metrics[name])))
