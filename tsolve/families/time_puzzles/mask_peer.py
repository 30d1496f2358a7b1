"""The cached-mask NumPy peer for time-puzzle generation: the
strongest honest alternative, so that the generator's speed is judged against it.

What a careful engineer would write from the Time Puzzles paper alone, with
no knowledge base and no certificate, and with every mask kept: the default
domain as one array per calendar field; each fact "field in values", true of
a hidden seed date, whose boolean mask over the whole domain is computed once
per (field, values) and then kept, with the indices of its days. Facts of the
calendar categories tsolve also has (year, decade, leap year, month, season,
weekday, one of several weekdays, nth weekday of the month, day of month, day
before/after the Nth) are ANDed in, in random order, until exactly M dates are
left. A fact that would leave fewer than M is skipped; a set that runs out of
categories above M starts again from a new seed. The candidates are kept as
the indices of the days still possible, so after the first fact each one
costs a gather over the few hundred days left.

An earlier peer recomputed every mask over the whole domain for every
category it tried (3.6 ms a puzzle against this one's ~0.5 ms): a weak peer
flatters, so this one keeps everything a plain NumPy generator can keep.

Minimal puzzles (``minimal=True``): once exactly M dates are left, each fact
whose removal leaves the set unchanged (the others' masks ANDed still give M
dates) is dropped, one at a time, so every fact left is necessary.

It is the floor tsolve's generator is held to. tsolve does more per puzzle:
knowledge-base anchors, balanced levels, readings, a CP-SAT certificate of the
gold, the measured difficulty, the record itself. So the issue asks for at
least half this peer's rate, not parity. Both are timed in the same
interleaved rounds (:func:`tsolve.bench.measure.paired_measure`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain, gregorian_fields

# A category: (fields, the seed's index, rng) -> the field to compare and the
# values that make the fact true (a sorted tuple: a cache key).
_Category = Callable[[dict[str, np.ndarray], int, np.random.Generator], tuple[str, tuple[int, ...]]]


def _equal(name: str) -> _Category:
    return lambda f, s, rng: (name, (int(f[name][s]),))


def _weekdays(
    f: dict[str, np.ndarray], s: int, rng: np.random.Generator
) -> tuple[str, tuple[int, ...]]:
    own = int(f["weekday"][s])
    others = [w for w in range(7) if w != own]
    extra = rng.choice(others, size=int(rng.choice((1, 1, 2, 3))), replace=False)
    return "weekday", tuple(sorted({own, *map(int, extra)}))


def _day_range(
    f: dict[str, np.ndarray], s: int, rng: np.random.Generator
) -> tuple[str, tuple[int, ...]]:
    day = int(f["day"][s])
    if day == 1 or (day < 31 and rng.random() < 0.5):  # before N, N in day+1..day+12
        n = int(rng.integers(day + 1, min(31, day + 12) + 1))
        return "day", tuple(range(1, n))
    n = int(rng.integers(max(1, day - 12), day))  # after N
    return "day", tuple(range(n + 1, 32))


#: The peer's categories, as tsolve's calendar categories instantiate them.
PEER_CATEGORIES: dict[str, _Category] = {
    "year": _equal("year"),
    "decade": _equal("decade"),
    "leap_year": _equal("leap"),
    "month": _equal("month"),
    "season": _equal("season"),
    "weekday": _equal("weekday"),
    "weekdays": _weekdays,
    "weekday_in_month": _equal("nth_weekday"),
    "day_of_month": _equal("day"),
    "day_of_month_range": _day_range,
}


class MaskPeer:
    """One domain's field arrays, built once, and every fact's mask, kept
    once drawn (:attr:`masks`: (field, values) -> (mask, indices of its
    days)); :meth:`puzzle` draws a puzzle."""

    def __init__(self, domain: DateDomain = DEFAULT_DOMAIN) -> None:
        g = gregorian_fields(domain.days)
        leap = (g.year % 4 == 0) & ((g.year % 100 != 0) | (g.year % 400 == 0))
        self.size = int(domain.days.size)
        self.fields = {
            "year": g.year,
            "decade": g.year // 10,
            "leap": leap.astype(np.int64),
            "month": g.month,
            "season": (g.month % 12) // 3,  # winter, spring, summer, autumn
            "weekday": g.weekday,
            "nth_weekday": g.weekday * 8 + (g.day - 1) // 7,
            "day": g.day,
        }
        self.categories = list(PEER_CATEGORIES.values())
        # (field, values) -> (boolean mask over the domain, indices of its days).
        # Bounded by the categories' values: a few thousand entries on the
        # default domain. The peer's own state, visible, dropped with it.
        self.masks: dict[tuple[str, tuple[int, ...]], tuple[np.ndarray, np.ndarray]] = {}

    def mask(self, key: tuple[str, tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
        """The fact ``field in values``'s mask over the domain and its days' indices."""
        hit = self.masks.get(key)
        if hit is None:
            name, values = key
            field = self.fields[name]
            m = field == values[0] if len(values) == 1 else np.isin(field, values)
            hit = self.masks[key] = (m, np.flatnonzero(m))
        return hit

    def puzzle(
        self, rng: np.random.Generator, m: int, minimal: bool = False
    ) -> tuple[int, list[tuple[str, tuple[int, ...]]]]:
        """(seed day index, the facts as (field, values)) of a puzzle with
        exactly ``m`` >= 1 dates; with ``minimal``, every fact is necessary."""
        if m < 1:
            raise ValueError("the peer makes puzzles with at least one date")
        while True:
            seed = int(rng.integers(self.size))
            alive: np.ndarray | None = None  # the days still possible, as indices
            keys: list[tuple[str, tuple[int, ...]]] = []
            for k in rng.permutation(len(self.categories)):
                key = self.categories[int(k)](self.fields, seed, rng)
                mask, days = self.mask(key)
                nxt = days if alive is None else alive[mask[alive]]
                if nxt.size < m:
                    continue  # would overshoot: skip this category
                alive = nxt
                keys.append(key)
                if alive.size == m:
                    return seed, self.drop_redundant(keys, m) if minimal else keys

    def drop_redundant(
        self, keys: list[tuple[str, tuple[int, ...]]], m: int
    ) -> list[tuple[str, tuple[int, ...]]]:
        """``keys`` less each fact whose removal leaves ``m`` dates (the
        others' masks ANDed), one at a time, so every fact left is needed."""
        keep = list(keys)
        i = 0
        while i < len(keep) and len(keep) > 1:
            others = [k for j, k in enumerate(keep) if j != i]
            alive = self.mask(others[0])[1]
            for k in others[1:]:
                alive = alive[self.mask(k)[0][alive]]
            if alive.size == m:  # the others alone leave the same m dates
                del keep[i]
            else:
                i += 1
        return keep


#: What the certifying peer returns for a puzzle: (seed day index, facts,
#: the certified answer set as day indices, one checked witness per fact of a
#: minimal puzzle, else empty).
Certified = tuple[int, list[tuple[str, tuple[int, ...]]], list[int], list[int]]


class CertifyingPeer(MaskPeer):
    """The cached-mask peer plus the least a generator must do to *certify*
    its puzzles, as tsolve's generator does for every record: the fair target
    for a generator whose records carry a solver's proof (a peer that issues
    none is faster by exactly the work a certificate costs).

    Per puzzle, one CP-SAT call over the facts' masks: a variable for the day
    (an index into the domain), each fact a domain constraint on it (the
    fact's days as intervals, built once per fact and kept like its mask),
    and every solution enumerated up to M + 1, so the solver proves the answer
    set is exactly the M days the masks left. For a minimal puzzle, a witness
    per fact: a day outside the answers that every other fact allows (read off
    the masks) and checked against the facts' own definitions (each other
    fact's field value in its values), so every fact is shown needed.
    A disagreement raises: the peer, like tsolve, emits nothing unproved."""

    def __init__(self, domain: DateDomain = DEFAULT_DOMAIN) -> None:
        super().__init__(domain)
        from tsolve.solver.ortools_import import load_cp_model

        self.cp_model = load_cp_model()
        # (field, values) -> the fact's days as a CP-SAT Domain; kept like masks.
        self.domains: dict[tuple[str, tuple[int, ...]], Any] = {}

    def domain_of(self, key: tuple[str, tuple[int, ...]]) -> Any:
        """The fact ``key``'s days as a CP-SAT domain (sorted intervals)."""
        hit = self.domains.get(key)
        if hit is None:
            mask = self.mask(key)[0].astype(np.int8)
            edges = np.flatnonzero(np.diff(np.concatenate(([0], mask, [0]))))
            starts, ends = edges[0::2], edges[1::2] - 1
            flat = np.column_stack((starts, ends)).ravel().tolist()
            hit = self.domains[key] = self.cp_model.Domain.FromFlatIntervals(flat)
        return hit

    def _span(self, key: tuple[str, tuple[int, ...]]) -> int:
        days = self.mask(key)[1]
        return int(days[-1] - days[0]) if days.size else -1

    def answers(self, keys: list[tuple[str, tuple[int, ...]]], cap: int) -> list[int]:
        """Every day (up to ``cap``) satisfying all of ``keys``, enumerated by CP-SAT."""
        cp = self.cp_model
        model = cp.CpModel()
        # x starts in the fact whose days span the shortest stretch (a year's
        # or a decade's); each other fact's domain is cut to that stretch
        # first (sound: x lies in it anyway), as a careful modeller would, so
        # a weekday's ~10,000 intervals do not reach the model whole.
        first = min(keys, key=self._span)
        days = self.mask(first)[1]
        span = cp.Domain(int(days[0]), int(days[-1])) if days.size else cp.Domain(0, -1)
        x = model.new_int_var_from_domain(self.domain_of(first), "day")
        for key in keys:
            if key != first:
                model.add_linear_expression_in_domain(
                    x, self.domain_of(key).intersection_with(span)
                )
        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        seen: list[int] = []

        class _Collect(cp.CpSolverSolutionCallback):  # type: ignore[name-defined]
            def on_solution_callback(self) -> None:
                seen.append(int(self.value(x)))
                if len(seen) >= cap:
                    self.stop_search()

        status = solver.solve(model, _Collect())
        if status not in (cp.OPTIMAL, cp.INFEASIBLE) and len(seen) < cap:
            raise AssertionError(f"the peer's certificate did not finish: {solver.status_name()}")
        return sorted(seen)

    def witnesses(self, keys: list[tuple[str, tuple[int, ...]]], answers: list[int]) -> list[int]:
        """One checked witness per fact: a day outside ``answers`` that every
        other fact allows. Raises if a fact has none (it is not needed)."""
        masks = [self.mask(k)[0] for k in keys]
        outside = np.ones(self.size, dtype=bool)
        outside[answers] = False
        out = []
        for i in range(len(keys)):
            rest = outside.copy()
            for j, m in enumerate(masks):
                if j != i:
                    rest &= m
            hits = np.flatnonzero(rest)
            if hits.size == 0:
                raise AssertionError(f"the peer's fact {keys[i]} is not needed")
            day = int(hits[0])
            for j, (name, values) in enumerate(keys):  # checked by the facts' definitions
                if j != i and int(self.fields[name][day]) not in values:
                    raise AssertionError(f"the peer's witness {day} breaks fact {keys[j]}")
            out.append(day)
        return out

    def certified(self, rng: np.random.Generator, m: int, minimal: bool = False) -> Certified:
        """:meth:`puzzle`, with its answer set proved by CP-SAT and, with
        ``minimal``, each fact's checked witness (:meth:`certify`)."""
        seed, keys = self.puzzle(rng, m, minimal)
        return self.certify(seed, keys, m, minimal)

    def certify(
        self, seed: int, keys: list[tuple[str, tuple[int, ...]]], m: int, minimal: bool
    ) -> Certified:
        """The certificate of a puzzle the masks say has ``m`` answers: CP-SAT
        enumerates its answers (up to m + 1), which must be the masks' own and
        hold the seed; with ``minimal``, a checked witness per fact."""
        alive = self.mask(keys[0])[1]
        for k in keys[1:]:
            alive = alive[self.mask(k)[0][alive]]
        got = self.answers(keys, m + 1)
        if got != alive.tolist() or seed not in got:
            raise AssertionError(f"the peer's masks and CP-SAT disagree: {got} vs {alive}")
        return seed, keys, got, self.witnesses(keys, got) if minimal else []
