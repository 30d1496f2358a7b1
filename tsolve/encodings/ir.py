"""The constraint IR that every fact compiles to and every backend consumes.

Variables are integer time points (day numbers for dates, minutes for
schedules). Three atoms cover all the temporal facts we need:

* ``In(x, S)``   x lies in ``S``, a union of sorted, disjoint, closed intervals.
  Years, months, seasons, lunar months, lifespans, terms of office ... are all
  such unions, computed once from the calendar tables.
* ``Mod(x, m, r)``  x ≡ r (mod m). Weekdays are ``Mod(x, 7, r)``.
* ``InCycle(x, p, S)``  (x mod p) lies in ``S``: a fact that repeats with
  period ``p``. The Gregorian calendar repeats every 400 years (146,097 days,
  a whole number of weeks), so "the 15th of a month" over 10,000 years is
  one cycle's 4,800 residue intervals instead of 120,000 intervals.
* ``Diff(x, y, lo, hi)``  lo ≤ x − y ≤ hi: the edges of a simple temporal network.

with the connectives ``And``, ``Or`` and ``Not``. The IR is deliberately tiny:
each backend translates it in a few dozen lines, and :func:`evaluate` gives a
vectorised NumPy semantics that serves as the reference for all of them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Union

import numpy as np

DATE_VAR = "d"
"""The variable name of the single date in a date-inference task."""
_SMALL = 16
"""Up to this many values, :meth:`IntervalSet.contains` searches in Python."""
_INF = 1 << 62  # above every day number: (x, _INF) sorts after every (x, hi)


class IntervalSet:
    """Sorted, disjoint, non-adjacent closed integer intervals; immutable.

    Canonical form (merged adjacent intervals) makes equal sets compare equal,
    which lets facts and their constraints be cached and hashed.

    A set is held in one of two forms and derives the other when asked: a
    tuple of ``(lo, hi)`` pairs (what small sets are built from, and what
    :attr:`intervals` returns), or two int64 arrays of starts and ends (what
    the vectorised constructors produce, and :attr:`bounds`). A set built from
    arrays never keeps the tuples: "the 15th of a month" over one 400-year
    cycle has 4,800 intervals, 77 KB as arrays and 1.5 MB as Python pairs, and
    a generation run over 0001..9999 holds hundreds of such sets.
    Equality and hashing are by value, whichever form a set is in.
    """

    __slots__ = ("_ends", "_hash", "_pairs", "_starts")

    def __init__(
        self,
        intervals: tuple[tuple[int, int], ...] = (),
        arrays: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        """From canonical ``intervals`` (pairs), or canonical ``arrays``
        (starts, ends). Use :meth:`from_intervals` to normalise arbitrary ones."""
        self._pairs: tuple[tuple[int, int], ...] | None
        self._starts: np.ndarray | None
        self._ends: np.ndarray | None
        self._hash: int | None = None
        if arrays is not None:
            self._pairs = None
            self._starts = np.ascontiguousarray(arrays[0], dtype=np.int64)
            self._ends = np.ascontiguousarray(arrays[1], dtype=np.int64)
            self._starts.flags.writeable = False
            self._ends.flags.writeable = False
        else:
            self._pairs = tuple(intervals)
            self._starts = self._ends = None

    @property
    def intervals(self) -> tuple[tuple[int, int], ...]:
        """The set as ``(lo, hi)`` pairs (built anew from the arrays of a set
        that has only those: large sets should use :attr:`bounds`)."""
        if self._pairs is not None:
            return self._pairs
        assert self._starts is not None and self._ends is not None
        return tuple(zip(self._starts.tolist(), self._ends.tolist(), strict=True))

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(starts, ends) as read-only int64 arrays, built once for a set made
        from pairs (a derived view of an immutable set, so never stale)."""
        if self._starts is None or self._ends is None:
            arr = np.asarray(self._pairs, dtype=np.int64).reshape(-1, 2)
            self._starts = np.ascontiguousarray(arr[:, 0])
            self._ends = np.ascontiguousarray(arr[:, 1])
            self._starts.flags.writeable = False
            self._ends.flags.writeable = False
        return self._starts, self._ends

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IntervalSet):
            return NotImplemented
        if self._pairs is not None and other._pairs is not None:
            return self._pairs == other._pairs
        (s1, e1), (s2, e2) = self.bounds, other.bounds
        return bool(np.array_equal(s1, s2) and np.array_equal(e1, e2))

    def __hash__(self) -> int:
        if self._hash is None:
            starts, ends = self.bounds
            self._hash = hash((starts.tobytes(), ends.tobytes()))
        return self._hash

    def __repr__(self) -> str:
        return f"IntervalSet(intervals={self.intervals!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (IntervalSet, ((), self.bounds))

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
        return len(self._pairs) if self._pairs is not None else int(self.bounds[0].size)

    def __bool__(self) -> bool:
        return len(self) > 0

    @property
    def size(self) -> int:
        """Number of integers in the set."""
        if self._pairs is not None:
            return sum(hi - lo + 1 for lo, hi in self._pairs)
        starts, ends = self.bounds
        return int((ends - starts + 1).sum())

    @property
    def first(self) -> int:
        """The smallest member (the set must not be empty)."""
        return self._pairs[0][0] if self._pairs is not None else int(self.bounds[0][0])

    @property
    def last(self) -> int:
        """The largest member (the set must not be empty)."""
        return self._pairs[-1][1] if self._pairs is not None else int(self.bounds[1][-1])

    def contains(self, values: np.ndarray) -> np.ndarray:
        """Vectorised membership: binary search over interval starts.

        A handful of values (checking a model's few predicted dates) against
        a set held as pairs is searched in Python: NumPy's per-call overhead
        is larger than the work.
        """
        v = np.asarray(values, dtype=np.int64)
        if not self:
            return np.zeros(v.shape, dtype=bool)
        if v.size <= _SMALL and v.ndim == 1 and self._pairs is not None:
            ivs = self._pairs
            out = []
            for x in v.tolist():
                i = bisect_right(ivs, (x, _INF)) - 1
                out.append(i >= 0 and x <= ivs[i][1])
            return np.array(out, dtype=bool)
        starts, ends = self.bounds
        if v.size <= _SMALL and v.ndim == 1:
            # One search, then the few comparisons in Python: each further
            # NumPy call on a handful of values costs more than the work (a
            # generated puzzle's gold is checked against every fact this way).
            found = starts.searchsorted(v, side="right").tolist()
            hits = [i > 0 and x <= int(ends[i - 1]) for x, i in zip(v.tolist(), found, strict=True)]
            return np.array(hits, dtype=bool)
        idx = np.searchsorted(starts, v, side="right") - 1
        return np.asarray((idx >= 0) & (v <= ends[np.maximum(idx, 0)]))

    @classmethod
    def _from_arrays(cls, starts: np.ndarray, ends: np.ndarray) -> IntervalSet:
        """From sorted, disjoint, non-adjacent bounds, kept as arrays."""
        return cls(arrays=(starts, ends))

    def clip(self, lo: int, hi: int) -> IntervalSet:
        """The part inside ``[lo, hi]`` (vectorised: sets run to thousands of intervals)."""
        if not self or (self.first >= lo and self.last <= hi):
            return self
        starts, ends = self.bounds
        # The intervals ending at lo or later and starting at hi or earlier
        # are one run of them: two binary searches, not a pass over all.
        i = int(ends.searchsorted(lo))
        j = int(starts.searchsorted(hi, side="right"))
        if i >= j:
            return IntervalSet(())
        cut_starts, cut_ends = starts[i:j].copy(), ends[i:j].copy()
        cut_starts[0] = max(int(cut_starts[0]), lo)
        cut_ends[-1] = min(int(cut_ends[-1]), hi)
        return self._from_arrays(cut_starts, cut_ends)

    def complement(self, lo: int, hi: int) -> IntervalSet:
        """The complement within ``[lo, hi]`` (vectorised for a set held as arrays)."""
        if self._pairs is None:
            inside = self.clip(lo, hi)
            if not inside:
                return IntervalSet(((lo, hi),) if lo <= hi else ())
            starts, ends = inside.bounds
            gap_starts = np.concatenate(([lo], ends + 1))
            gap_ends = np.concatenate((starts - 1, [hi]))
            keep = gap_starts <= gap_ends
            return self._from_arrays(gap_starts[keep], gap_ends[keep])
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
        if not self or not other:
            return IntervalSet(())
        (s1, e1), (s2, e2) = self.bounds, other.bounds
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
class InCycle:
    var: str
    period: int
    residues: IntervalSet  # within 0 .. period - 1


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


Formula = Union[In, Mod, InCycle, Diff, And, Or, Not]  # noqa: UP007  (runtime alias used by isinstance users)


def variables(f: Formula) -> set[str]:
    """Every variable a formula mentions."""
    if isinstance(f, In | Mod | InCycle):
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
    """``f`` with its variables renamed by ``names`` (others kept): a
    single-date fact posted on one event's date
    (``families/relational_puzzles/encoding.py``)."""
    if isinstance(f, In | Mod | InCycle):
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
    if isinstance(f, InCycle):
        return f.residues.contains(np.asarray(env[f.var]) % f.period)
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
    if isinstance(f, InCycle):
        return {"op": "in_cycle", "var": f.var, "period": f.period,
                "residues": f.residues.to_json()}  # fmt: skip
    if isinstance(f, Diff):
        return {"op": "diff", "x": f.x, "y": f.y, "lo": f.lo, "hi": f.hi}
    if isinstance(f, Not):
        return {"op": "not", "arg": to_json(f.arg)}
    op = "and" if isinstance(f, And) else "or"
    return {"op": op, "args": [to_json(a) for a in f.args]}
