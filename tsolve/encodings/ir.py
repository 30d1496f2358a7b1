"""The constraint IR that every fact compiles to and every backend consumes.

Variables are integer time points (day numbers for dates, minutes for
schedules). Three atoms cover all the temporal facts we need:

* ``In(x, S)``   x lies in ``S``, a union of sorted, disjoint, closed intervals.
  Years, months, seasons, lunar months, lifespans, terms of office ... are all
  such unions, computed once from the calendar tables.
* ``Mod(x, m, r)``  x ≡ r (mod m). Weekdays are ``Mod(x, 7, r)``.
* ``Diff(x, y, lo, hi)``  lo ≤ x − y ≤ hi: the edges of a simple temporal network.

with the connectives ``And``, ``Or`` and ``Not``. The IR is deliberately tiny:
each backend translates it in a few dozen lines, and :func:`evaluate` gives a
vectorised NumPy semantics that serves as the reference for all of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Union

import numpy as np

DATE_VAR = "d"
"""The variable name of the single date in a date-inference task."""


@dataclass(frozen=True)
class IntervalSet:
    """Sorted, disjoint, non-adjacent closed integer intervals.

    Canonical form (merged adjacent intervals) makes equal sets compare equal,
    which lets facts and their constraints be cached and hashed.
    """

    intervals: tuple[tuple[int, int], ...]

    @classmethod
    def from_intervals(cls, items: Iterable[tuple[int, int]]) -> IntervalSet:
        """Normalise any list of closed intervals (overlapping, unsorted)."""
        merged: list[list[int]] = []
        for lo, hi in sorted((int(a), int(b)) for a, b in items if a <= b):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        return cls(tuple((a, b) for a, b in merged))

    @classmethod
    def from_mask(cls, days: np.ndarray, mask: np.ndarray) -> IntervalSet:
        """Runs of True in ``mask`` over consecutive ``days`` -> intervals.

        ``days`` must be consecutive integers; this is how a fact's truth table
        over the domain becomes its interval set without a Python loop per day.
        """
        m = np.asarray(mask, dtype=np.int8)
        if m.size == 0:
            return cls(())
        edges = np.diff(np.concatenate(([0], m, [0])))
        starts = np.flatnonzero(edges == 1)
        ends = np.flatnonzero(edges == -1) - 1
        base = int(days[0])
        return cls(tuple(zip((starts + base).tolist(), (ends + base).tolist(), strict=True)))

    @classmethod
    def from_days(cls, values: Iterable[int]) -> IntervalSet:
        return cls.from_intervals((v, v) for v in values)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.intervals)

    def __len__(self) -> int:
        return len(self.intervals)

    @property
    def size(self) -> int:
        """Number of integers in the set."""
        return sum(hi - lo + 1 for lo, hi in self.intervals)

    @cached_property
    def _bounds(self) -> tuple[np.ndarray, np.ndarray]:
        # cached_property writes the instance __dict__ directly, so it works on a
        # frozen dataclass; equality and hashing still use ``intervals`` only.
        arr = np.asarray(self.intervals, dtype=np.int64).reshape(-1, 2)
        return np.ascontiguousarray(arr[:, 0]), np.ascontiguousarray(arr[:, 1])

    def contains(self, values: np.ndarray) -> np.ndarray:
        """Vectorised membership: binary search over interval starts."""
        v = np.asarray(values, dtype=np.int64)
        if not self.intervals:
            return np.zeros(v.shape, dtype=bool)
        starts, ends = self._bounds
        idx = np.searchsorted(starts, v, side="right") - 1
        return np.asarray((idx >= 0) & (v <= ends[np.maximum(idx, 0)]))

    def clip(self, lo: int, hi: int) -> IntervalSet:
        return IntervalSet(
            tuple((max(a, lo), min(b, hi)) for a, b in self.intervals if b >= lo and a <= hi)
        )

    def complement(self, lo: int, hi: int) -> IntervalSet:
        """The complement within ``[lo, hi]``."""
        out: list[tuple[int, int]] = []
        cur = lo
        for a, b in self.clip(lo, hi):
            if a > cur:
                out.append((cur, a - 1))
            cur = b + 1
        if cur <= hi:
            out.append((cur, hi))
        return IntervalSet(tuple(out))

    def intersect(self, other: IntervalSet) -> IntervalSet:
        out: list[tuple[int, int]] = []
        i = j = 0
        a, b = self.intervals, other.intervals
        while i < len(a) and j < len(b):
            lo = max(a[i][0], b[j][0])
            hi = min(a[i][1], b[j][1])
            if lo <= hi:
                out.append((lo, hi))
            if a[i][1] < b[j][1]:
                i += 1
            else:
                j += 1
        return IntervalSet(tuple(out))

    def to_json(self) -> list[list[int]]:
        return [[a, b] for a, b in self.intervals]


@dataclass(frozen=True)
class In:
    var: str
    set: IntervalSet


@dataclass(frozen=True)
class Mod:
    var: str
    m: int
    r: int


@dataclass(frozen=True)
class Diff:
    x: str
    y: str
    lo: int
    hi: int


@dataclass(frozen=True)
class And:
    args: tuple[Formula, ...]


@dataclass(frozen=True)
class Or:
    args: tuple[Formula, ...]


@dataclass(frozen=True)
class Not:
    arg: Formula


Formula = Union[In, Mod, Diff, And, Or, Not]  # noqa: UP007  (runtime alias used by isinstance users)
Atom = Union[In, Mod, Diff]  # noqa: UP007


def variables(f: Formula) -> set[str]:
    """Every variable a formula mentions."""
    if isinstance(f, In | Mod):
        return {f.var}
    if isinstance(f, Diff):
        return {f.x, f.y}
    if isinstance(f, Not):
        return variables(f.arg)
    out: set[str] = set()
    for a in f.args:
        out |= variables(a)
    return out


def evaluate(f: Formula, env: Mapping[str, np.ndarray]) -> np.ndarray:
    """Vectorised truth value of ``f`` for arrays of values, one per variable.

    This is the IR's reference semantics: the enumerator backend is built on
    it, and every other backend is tested against it.
    """
    if isinstance(f, In):
        return f.set.contains(env[f.var])
    if isinstance(f, Mod):
        return np.asarray(env[f.var] % f.m == f.r % f.m)
    if isinstance(f, Diff):
        d = np.asarray(env[f.x]) - np.asarray(env[f.y])
        return np.asarray((d >= f.lo) & (d <= f.hi))
    if isinstance(f, Not):
        return ~evaluate(f.arg, env)
    if isinstance(f, And):
        shape = np.broadcast(*[np.asarray(v) for v in env.values()]).shape
        acc = np.ones(shape, dtype=bool)
        for a in f.args:
            acc &= evaluate(a, env)
        return acc
    if isinstance(f, Or):
        shape = np.broadcast(*[np.asarray(v) for v in env.values()]).shape
        acc = np.zeros(shape, dtype=bool)
        for a in f.args:
            acc |= evaluate(a, env)
        return acc
    raise TypeError(f"not an IR formula: {f!r}")


def to_json(f: Formula) -> dict[str, object]:
    """A plain-JSON form of the IR, for records and debugging."""
    if isinstance(f, In):
        return {"op": "in", "var": f.var, "intervals": f.set.to_json()}
    if isinstance(f, Mod):
        return {"op": "mod", "var": f.var, "m": f.m, "r": f.r}
    if isinstance(f, Diff):
        return {"op": "diff", "x": f.x, "y": f.y, "lo": f.lo, "hi": f.hi}
    if isinstance(f, Not):
        return {"op": "not", "arg": to_json(f.arg)}
    op = "and" if isinstance(f, And) else "or"
    return {"op": op, "args": [to_json(a) for a in f.args]}
