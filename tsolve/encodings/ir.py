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

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Union

import numpy as np

DATE_VAR = "d"
"""The variable name of the single date in a date-inference task."""
_SMALL = 16
"""Up to this many values, :meth:`IntervalSet.contains` searches in Python."""


@dataclass(frozen=True)
class IntervalSet:
    """Sorted, disjoint, non-adjacent closed integer intervals.

    Canonical form (merged adjacent intervals) makes equal sets compare equal,
    which lets facts and their constraints be cached and hashed.

    ``arrays`` is the same set as two int64 arrays (starts, ends), for the
    vectorised operations; the constructors that compute them pass them in, and
    otherwise :attr:`_bounds` builds them from ``intervals`` on first use. It
    takes no part in equality, hashing or ``repr``.
    """

    intervals: tuple[tuple[int, int], ...]
    arrays: tuple[np.ndarray, np.ndarray] | None = field(default=None, compare=False, repr=False)

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
        base = int(days[0])
        starts = np.flatnonzero(edges == 1) + base
        ends = np.flatnonzero(edges == -1) + (base - 1)
        return cls._from_arrays(starts, ends)

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
        """(starts, ends) as int64 arrays: ``arrays``, or built once from the
        tuples (a derived view of the frozen ``intervals``, so never stale)."""
        if self.arrays is not None:
            return self.arrays
        arr = np.asarray(self.intervals, dtype=np.int64).reshape(-1, 2)
        return np.ascontiguousarray(arr[:, 0]), np.ascontiguousarray(arr[:, 1])

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(starts, ends) as int64 arrays, for consumers that build their own
        structures from the set (a solver's domain) without the tuples."""
        return self._bounds

    @cached_property
    def _starts_list(self) -> list[int]:
        """The interval starts as a list, built once (for the small-input search)."""
        return [lo for lo, _hi in self.intervals]

    def contains(self, values: np.ndarray) -> np.ndarray:
        """Vectorised membership: binary search over interval starts.

        A handful of values (checking a model's few predicted dates) is
        searched in Python: NumPy's per-call overhead is larger than the work.
        """
        v = np.asarray(values, dtype=np.int64)
        if not self.intervals:
            return np.zeros(v.shape, dtype=bool)
        if v.size <= _SMALL and v.ndim == 1:
            starts_l, ivs = self._starts_list, self.intervals
            out = []
            for x in v.tolist():
                i = bisect_right(starts_l, x) - 1
                out.append(i >= 0 and x <= ivs[i][1])
            return np.array(out, dtype=bool)
        starts, ends = self._bounds
        idx = np.searchsorted(starts, v, side="right") - 1
        return np.asarray((idx >= 0) & (v <= ends[np.maximum(idx, 0)]))

    @classmethod
    def _from_arrays(cls, starts: np.ndarray, ends: np.ndarray) -> IntervalSet:
        """From sorted, disjoint, non-adjacent bounds; the arrays are kept as the
        set's ``arrays``, which would otherwise be rebuilt from the tuples (slow
        for the thousands of intervals a day-of-month fact has)."""
        return cls(
            tuple(zip(starts.tolist(), ends.tolist(), strict=True)),
            (
                np.ascontiguousarray(starts, dtype=np.int64),
                np.ascontiguousarray(ends, dtype=np.int64),
            ),
        )

    def clip(self, lo: int, hi: int) -> IntervalSet:
        """The part inside ``[lo, hi]`` (vectorised: sets run to thousands of intervals)."""
        if not self.intervals or (self.intervals[0][0] >= lo and self.intervals[-1][1] <= hi):
            return self
        starts, ends = self._bounds
        keep = (ends >= lo) & (starts <= hi)
        return self._from_arrays(np.maximum(starts[keep], lo), np.minimum(ends[keep], hi))

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
        """Sweep over both sets' boundaries at once: a point is in the
        intersection where both sets cover it (coverage count 2). Each set is
        disjoint, so the count is 0, 1 or 2 and never double-counts."""
        if not self.intervals or not other.intervals:
            return IntervalSet(())
        (s1, e1), (s2, e2) = self._bounds, other._bounds
        pos = np.concatenate((s1, e1 + 1, s2, e2 + 1))
        delta = np.concatenate(
            (np.ones(s1.size), -np.ones(e1.size), np.ones(s2.size), -np.ones(e2.size))
        ).astype(np.int64)
        points, inverse = np.unique(pos, return_inverse=True)
        count = np.cumsum(np.bincount(inverse, weights=delta, minlength=points.size))
        both = np.flatnonzero(np.rint(count) == 2)
        # Coverage is 2 from points[i] up to (not including) points[i + 1].
        return self._from_arrays(points[both], points[both + 1] - 1)

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


def renamed(f: Formula, names: Mapping[str, str]) -> Formula:
    """``f`` with its variables renamed by ``names`` (others kept): one
    formula posted on several copies of a variable, as the one-call
    necessity certificate does (``generators/time_puzzles.py``)."""
    if isinstance(f, In | Mod):
        return replace(f, var=names.get(f.var, f.var))
    if isinstance(f, Diff):
        return replace(f, x=names.get(f.x, f.x), y=names.get(f.y, f.y))
    if isinstance(f, Not):
        return Not(renamed(f.arg, names))
    return type(f)(tuple(renamed(a, names) for a in f.args))


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
