"""CP-SAT (OR-Tools) backend: the default.

``In`` becomes ``add_linear_expression_in_domain`` over ``Domain.from_intervals``;
``Mod`` a linear equality with a quotient variable (or ``add_modulo_equality``
when it sits under a connective); ``InCycle`` a domain on one residue variable
per (variable, period), shared by every periodic fact; solutions are enumerated with a callback
that stops at the cap. One worker, for determinism and for throughput across
processes.

Every auxiliary variable is *fully* determined by the problem variables (each
reified literal gets both directions), so CP-SAT's enumeration never returns
the same date twice with different auxiliaries.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tsolve.bounded_store import BoundedStore
from tsolve.encodings.ir import And, Diff, Formula, In, InCycle, IntervalSet, Mod, Not, Or
from tsolve.errors import SolverTimeout, TsolveError
from tsolve.solver.base import (
    Problem,
    SolverBackend,
    SolveResult,
    Status,
    finished_status,
    stopped_status,
)

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
else:  # cp_model without its pandas import (tsolve/solver/ortools_import.py)
    from tsolve.solver.ortools_import import load_cp_model

    cp_model = load_cp_model()

Domain = cp_model.Domain


def _build_domain(s: IntervalSet) -> cp_model.Domain:
    """Built from the set's bound arrays, flattened: a day-of-month fact over
    10,000 years has 120,000 intervals, and a Python list of pairs took 25 ms."""
    return Domain.from_flat_intervals(np.column_stack(s.bounds).ravel().tolist())


def _cut_domain(starts: np.ndarray, ends: np.ndarray, lo: int, hi: int) -> cp_model.Domain:
    """The intervals (``starts``, ``ends``: sorted, disjoint) cut to
    ``[lo, hi]`` as a CP-SAT domain: the run of intervals that meet it, found
    by two binary searches, flattened, with its two ends clamped. What
    :meth:`IntervalSet.clip` and :func:`_build_domain` do, without the new set
    and its copies (a certificate cuts every fact's set)."""
    i = int(ends.searchsorted(lo))
    j = int(starts.searchsorted(hi, side="right"))
    if i >= j:
        return Domain.from_flat_intervals([])
    flat = np.empty(2 * (j - i), dtype=np.int64)
    flat[0::2] = starts[i:j]
    flat[1::2] = ends[i:j]
    out = flat.tolist()
    out[0], out[-1] = max(out[0], lo), min(out[-1], hi)
    return Domain.from_flat_intervals(out)


#: Interval sets as CP-SAT domains: the same month, weekday and day-of-month
#: sets recur across puzzles, and building one is a pass over its intervals.
#: Bounded by bytes (16 a interval, as CP-SAT holds them), since one set over
#: 0001..9999 can be half a million intervals. Never stale: sets are immutable.
DOMAINS: BoundedStore[IntervalSet, cp_model.Domain] = BoundedStore(
    64 * 2**20, lambda d: 16 * (len(d.flattened_intervals()) // 2 + 1)
)


def _domain(s: IntervalSet) -> cp_model.Domain:
    """``s`` as a CP-SAT domain (:data:`DOMAINS`)."""
    return DOMAINS.get(s, _build_domain)


class _Model(cp_model.CpModel):
    """A CpModel without the deprecated CamelCase aliases.

    OR-Tools' constructor walks ``dir(self)`` and installs a deprecated alias
    for every ``add_*``/``new_*`` method: about 1 ms per model, a quarter of a
    typical puzzle solve. We only use the snake_case API, so skip it; if a
    later OR-Tools drops the hook, this override is simply never called.
    """

    def _add_pre_pep8_methods(self) -> None:
        return None


def _same_cycle(f: Or) -> bool:
    """Is ``f`` a disjunction of ``Mod`` atoms on one variable and one modulus?"""
    first = f.args[0] if f.args else None
    return isinstance(first, Mod) and all(
        isinstance(a, Mod) and a.var == first.var and a.m == first.m for a in f.args
    )


class _Translator:
    """Builds one CpModel from a Problem."""

    def __init__(self, problem: Problem) -> None:
        self.model = _Model()
        self.vars = {
            name: self.model.new_int_var(lo, hi, name) for name, (lo, hi) in problem.domains.items()
        }
        self.problem = problem
        self.residues: dict[tuple[str, int], cp_model.IntVar] = {}

    def post(self, f: Formula, enforce: cp_model.IntVar | None = None) -> None:
        """Require ``f`` (under ``enforce`` when given: half-reification suffices
        for assumptions, and then no enumeration happens)."""
        m = self.model
        if isinstance(f, And):
            for a in f.args:
                self.post(a, enforce)
            return
        if isinstance(f, In) and enforce is None:
            within = self.within(f.var, f.set)
            if within is not None:
                m.add_linear_expression_in_domain(self.vars[f.var], within)
            return
        if isinstance(f, Mod) and enforce is None:
            x = self.vars[f.var]
            lo, hi = self.problem.domains[f.var]
            r = f.r % f.m
            q = m.new_int_var((lo - r) // f.m, (hi - r) // f.m + 1, "")
            m.add(x == f.m * q + r)
            return
        if isinstance(f, InCycle) and enforce is None:
            m.add_linear_expression_in_domain(self.residue(f.var, f.period), _domain(f.residues))
            return
        if isinstance(f, Diff) and enforce is None:
            m.add_linear_constraint(self.vars[f.x] - self.vars[f.y], f.lo, f.hi)
            return
        if isinstance(f, Or) and enforce is None and _same_cycle(f):
            # "a Tuesday or a Saturday": one domain on the shared residue, where
            # reifying each Mod cost ~0.1 ms of model building a fact
            mods = [a for a in f.args if isinstance(a, Mod)]
            residues = sorted({a.r % a.m for a in mods})
            domain = Domain.from_values(residues)
            m.add_linear_expression_in_domain(self.residue(mods[0].var, mods[0].m), domain)
            return
        lit = self.reify(f)
        if enforce is None:
            m.add_bool_or([lit])
        else:
            m.add_implication(enforce, lit)

    def within(self, var: str, s: IntervalSet) -> cp_model.Domain | None:
        """``s`` cut to ``var``'s bounds, so that a weekday's thousands of
        intervals never reach a model confined to a few years (a generated
        puzzle's certificate); None when ``s`` holds every value within them,
        so the constraint says nothing the variable's own bounds do not (the
        fact whose span set the bounds). A set inside the bounds is kept
        (:data:`DOMAINS`); a cut one is built from the cut alone, not kept:
        cuts rarely recur, and hashing one to look it up costs as much."""
        lo, hi = self.problem.domains[var]
        starts, ends = s.bounds
        i = int(ends.searchsorted(lo))
        if i < starts.size and starts[i] <= lo and ends[i] >= hi:
            return None
        if not starts.size or (starts[0] >= lo and ends[-1] <= hi):
            return _domain(s)
        return _cut_domain(starts, ends, lo, hi)

    def residue(self, var: str, period: int) -> cp_model.IntVar:
        """``var mod period`` as a variable, made once per (variable, period):
        var = period * q + residue. Every periodic fact on the date then
        narrows one shared residue, and the solver sees one small linear
        equation instead of a modulo constraint per fact."""
        key = (var, period)
        if key not in self.residues:
            lo, hi = self.problem.domains[var]
            if lo < 0:
                raise TsolveError("cpsat: a cycle over negative values is unsupported")
            r = self.model.new_int_var(0, period - 1, "")
            q = self.model.new_int_var(lo // period, hi // period, "")
            self.model.add(self.vars[var] == period * q + r)
            self.residues[key] = r
        return self.residues[key]

    def reify(self, f: Formula) -> Any:
        """A literal equivalent to ``f`` (both directions)."""
        m = self.model
        if isinstance(f, Not):
            return self.reify(f.arg).negated()
        b = m.new_bool_var("")
        if isinstance(f, In):
            x = self.vars[f.var]
            lo, hi = self.problem.domains[f.var]
            m.add_linear_expression_in_domain(x, _domain(f.set)).only_enforce_if(b)
            m.add_linear_expression_in_domain(x, _domain(f.set.complement(lo, hi))).only_enforce_if(
                b.negated()
            )
        elif isinstance(f, Mod):
            x = self.vars[f.var]
            lo, _hi = self.problem.domains[f.var]
            if lo < 0:
                raise TsolveError("cpsat: Mod on a variable with negative values is unsupported")
            z = m.new_int_var(0, f.m - 1, "")
            m.add_modulo_equality(z, x, f.m)
            m.add(z == f.r % f.m).only_enforce_if(b)
            m.add(z != f.r % f.m).only_enforce_if(b.negated())
        elif isinstance(f, InCycle):
            z = self.residue(f.var, f.period)
            other = f.residues.complement(0, f.period - 1)
            m.add_linear_expression_in_domain(z, _domain(f.residues)).only_enforce_if(b)
            m.add_linear_expression_in_domain(z, _domain(other)).only_enforce_if(b.negated())
        elif isinstance(f, Diff):
            e = self.vars[f.x] - self.vars[f.y]
            m.add_linear_constraint(e, f.lo, f.hi).only_enforce_if(b)
            m.add_linear_expression_in_domain(e, Domain(f.lo, f.hi).complement()).only_enforce_if(
                b.negated()
            )
        elif isinstance(f, And):
            lits = [self.reify(a) for a in f.args]
            m.add_bool_and(lits).only_enforce_if(b)
            m.add_bool_or([lit.negated() for lit in lits] + [b])
        elif isinstance(f, Or):
            lits = [self.reify(a) for a in f.args]
            m.add_bool_or(lits).only_enforce_if(b)
            for lit in lits:
                m.add_implication(lit, b)
        else:
            raise TypeError(f"not an IR formula: {f!r}")
        return b


class _Collector(cp_model.CpSolverSolutionCallback):
    """Collects target values; stops at ``limit``, or at the wall-clock
    ``deadline`` (CP-SAT's own time limit does not count the time spent in
    this callback, which dominates a long enumeration: a 0.2 s limit ran 1.6 s)."""

    def __init__(
        self, outputs: list[cp_model.IntVar], limit: int | None, deadline: float | None
    ) -> None:
        super().__init__()
        self.var = outputs[0] if len(outputs) == 1 else None
        self.outputs = outputs
        self.limit = limit
        self.deadline = deadline
        self.seen: set[Any] = set()
        self.stopped = False  # at the limit
        self.out_of_time = False

    def on_solution_callback(self) -> None:
        if self.var is not None:
            self.seen.add(int(self.value(self.var)))
        else:  # several unknowns: a solution is their tuple of values
            self.seen.add(tuple(int(self.value(v)) for v in self.outputs))
        if self.limit is not None and len(self.seen) >= self.limit:
            self.stopped = True
            self.stop_search()
        elif self.deadline is not None and time.perf_counter() > self.deadline:
            self.out_of_time = True
            self.stop_search()


class CpSatBackend(SolverBackend):
    name = "cpsat"

    def _solver(self, deadline: float | None = None) -> cp_model.CpSolver:
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        if deadline is not None:
            s.parameters.max_time_in_seconds = max(0.0, deadline - time.perf_counter())
        return s

    def solve(self, problem: Problem, limit: int | None = None) -> SolveResult:
        t0 = time.perf_counter()
        deadline = self._deadline(t0)
        tr = _Translator(problem)
        for c in problem.constraints:
            tr.post(c)
        solver = self._solver(deadline)
        solver.parameters.enumerate_all_solutions = True
        cb = _Collector([tr.vars[v] for v in problem.output_vars], limit, deadline)
        status = solver.solve(tr.model, cb)
        if status == cp_model.MODEL_INVALID:
            raise TsolveError(f"cpsat: invalid model ({tr.model.validate()})")
        sols = tuple(sorted(cb.seen))
        if limit is not None:
            sols = sols[:limit]
        # OPTIMAL after enumerate_all_solutions means the enumeration finished;
        # FEASIBLE (some found) or UNKNOWN (none) means the time limit ended it.
        if cb.stopped:
            how: Status = "limit"
        elif status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not cb.out_of_time:
            how = finished_status(len(sols))
        else:
            how = stopped_status(len(sols), limit)
        return SolveResult(sols, how, self.name, stats={"seconds": time.perf_counter() - t0})

    def is_satisfiable(self, problem: Problem, subset: Sequence[int]) -> bool:
        """One plain feasibility solve of the constraints in ``subset``: no
        enumeration, no solution callback and no sub-problem object (the
        default asks :meth:`solve` for one solution). The generator's
        certificates are such calls, and this path halved the cost of one
        (measured in benchmarks/results/2026-11-27-certificate-costs.md)."""
        t0 = time.perf_counter()
        tr = _Translator(problem)
        for i in subset:
            tr.post(problem.constraints[i])
        solver = self._solver(self._deadline(t0))
        status = solver.solve(tr.model)
        if status == cp_model.INFEASIBLE:
            return False
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return True
        if status == cp_model.MODEL_INVALID:
            raise TsolveError(f"cpsat: invalid model ({tr.model.validate()})")
        raise SolverTimeout(f"cpsat: time limit of {self.time_limit}s reached")

    def explain(self, problem: Problem) -> list[int]:
        """Core from assumptions (``sufficient_assumptions_for_infeasibility``), then
        shrunk to a minimal subset by deletion."""
        tr = _Translator(problem)
        lits = []
        for c in problem.constraints:
            a = tr.model.new_bool_var("")
            tr.post(c, enforce=a)
            lits.append(a)
        tr.model.add_assumptions(lits)
        solver = self._solver(self._deadline(time.perf_counter()))
        status = solver.solve(tr.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return []
        if status != cp_model.INFEASIBLE:
            raise SolverTimeout(f"cpsat: time limit of {self.time_limit}s reached in explain")
        index = {lit.index: i for i, lit in enumerate(lits)}
        core = sorted(index[j] for j in solver.sufficient_assumptions_for_infeasibility())
        return self._shrink(problem, core)
