"""One solver interface, several backends (in the style of CPMpy's SolverInterface).

A :class:`Problem` is a list of top-level constraints (one per fact, so that
``check`` and ``explain`` can name the fact at fault) over integer variables
with finite domains. Solutions are the distinct values of the ``target``
variable: for a date puzzle, the answer dates.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from tsolve.encodings.ir import DATE_VAR, And, Formula, In, InCycle, Mod, evaluate, variables
from tsolve.errors import SolverTimeout, TsolveError


@dataclass(frozen=True)
class Problem:
    """Constraints plus variable domains.

    ``target`` is the variable whose distinct values are enumerated. A problem
    over several unknowns (a relational puzzle: several events, several dates)
    names them in ``outputs`` instead, and its solutions are the distinct
    value tuples of those variables, in that order.
    """

    constraints: tuple[Formula, ...]
    domains: dict[str, tuple[int, int]]
    target: str = DATE_VAR
    labels: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()

    @property
    def output_vars(self) -> tuple[str, ...]:
        """The enumerated variables: ``outputs``, or ``(target,)``."""
        return self.outputs or (self.target,)

    @property
    def is_tuple(self) -> bool:
        """Solutions are tuples (several output variables), not single values."""
        return len(self.outputs) > 1

    def __post_init__(self) -> None:
        doms = self.domains
        for c in self.constraints:
            if isinstance(c, In | Mod | InCycle) and c.var in doms:
                continue  # the common case, without building variable sets
            missing = variables(c) - set(doms)
            if missing:
                raise TsolveError(f"problem: variables without a domain: {sorted(missing)}")
        if self.target not in self.domains:
            raise TsolveError(f"problem: target variable {self.target!r} has no domain")
        for v in self.outputs:
            if v not in self.domains:
                raise TsolveError(f"problem: output variable {v!r} has no domain")
        if len(set(self.outputs)) != len(self.outputs):
            raise TsolveError(f"problem: output variables repeat: {list(self.outputs)}")

    @property
    def formula(self) -> Formula:
        return And(tuple(self.constraints))

    def label(self, i: int) -> str:
        return self.labels[i] if i < len(self.labels) else f"constraint {i}"


Status = Literal["complete", "limit", "partial", "timeout", "unsat"]
"""How an enumeration ended (as CPMpy's ``ExitStatus``, for enumeration):

* ``complete``: every solution was found (at least one);
* ``unsat``: the search finished and there is none;
* ``limit``: it stopped on reaching the requested ``limit`` (more may exist);
* ``partial``: the time limit stopped it after some solutions (more may exist);
* ``timeout``: the time limit stopped it before any solution (satisfiability unknown).

Only ``complete`` and ``unsat`` describe the whole answer set; nothing else may
be stored or reported as gold."""

STATUSES: tuple[Status, ...] = ("complete", "limit", "partial", "timeout", "unsat")


def finished_status(found: int) -> Status:
    """The status of a search that ran to the end."""
    return "complete" if found else "unsat"


def stopped_status(found: int, limit: int | None) -> Status:
    """The status of a search the time limit stopped with ``found`` solutions."""
    if limit is not None and found >= limit:
        return "limit"
    return "partial" if found else "timeout"


@dataclass(frozen=True)
class SolveResult:
    """Sorted distinct solutions and how the enumeration ended (:data:`Status`).

    A solution is an ``int`` (the target's value) for a single-variable
    problem, and a tuple of ints (in ``Problem.outputs`` order) for a problem
    with several output variables."""

    solutions: tuple[Any, ...]
    status: Status
    backend: str
    stats: dict[str, float] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")
        if self.status == "unsat" and self.solutions:
            raise ValueError("an unsat result cannot carry solutions")

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def complete(self) -> bool:
        """``solutions`` is the whole answer set (the status is complete or unsat)."""
        return self.status in ("complete", "unsat")

    @property
    def timed_out(self) -> bool:
        return self.status in ("partial", "timeout")


def stored_gold(record: dict[str, Any], where: str) -> Any:
    """The ``answers`` a record stores for ``solve --check`` to compare, None
    when it stores none. A field spelled like it (``answer``, ``Answers``) is
    refused with the one-line error ``verify`` and ``audit`` give for it
    (:func:`tsolve.records.validation.refuse_misnamed`): read as absent, the
    check would say "n/a" and pass a record those two flag. ``null`` is
    absent (a table's filler)."""
    from tsolve.records.validation import refuse_misnamed

    stored = record.get("answers")
    if stored is None:
        refuse_misnamed(record, ("answers",), where)
    return stored


def solved_record(
    record_id: str,
    answers: list[Any],
    result: SolveResult,
    stored: Any,
    same_as_stored: Callable[[list[Any]], bool],
) -> dict[str, Any]:
    """What solving one record reports, whatever its family (see
    :func:`tsolve.families.time_puzzles.solve.solve_record`). ``answers`` are the solutions in
    the record's own form; ``same_as_stored`` tells whether the record's stored
    answers are those, and is asked only when the record stores a list and the
    enumeration was complete (else ``matches`` is None: undecided)."""
    matches: bool | None = None
    if isinstance(stored, list) and result.complete:
        matches = same_as_stored(stored)
    return {
        "id": record_id,
        "answers": answers,
        "count": result.count,
        "status": result.status,
        "complete": result.complete,
        "backend": result.backend,
        "matches": matches,
        "stored": stored if isinstance(stored, list) else None,
    }


@dataclass(frozen=True)
class CountResult:
    """``count`` is exact when ``capped`` is False, else a lower bound equal to the cap."""

    count: int
    capped: bool
    cap: int


class SolverBackend(ABC):
    """Backends implement :meth:`solve`; the rest has sound defaults."""

    name: str = "abstract"

    def __init__(self, time_limit: float | None = None) -> None:
        if time_limit is not None and not time_limit > 0:
            raise TsolveError(f"time-limit: must be a positive number of seconds, got {time_limit}")
        self.time_limit = time_limit

    def _deadline(self, start: float) -> float | None:
        """When the call that began at ``start`` must stop: the time limit
        covers the whole call (translation included), not each solver step."""
        return None if self.time_limit is None else start + self.time_limit

    @abstractmethod
    def solve(self, problem: Problem, limit: int | None = None) -> SolveResult:
        """At most ``limit`` solutions (all when None), sorted."""

    def count(self, problem: Problem, cap: int) -> CountResult:
        """Size of the answer set, capped: a puzzle with exactly M answers uses cap = M + 1."""
        if cap < 1:
            raise TsolveError(f"cap: must be at least 1, got {cap}")
        res = self.solve(problem, limit=cap)
        if res.timed_out:  # a count below the cap would be a guess
            raise SolverTimeout(
                f"{self.name}: time limit of {self.time_limit}s reached after {res.count} "
                f"solution(s); the count is unknown"
            )
        return CountResult(res.count, capped=res.count >= cap, cap=cap)

    def check(self, problem: Problem, assignment: dict[str, int]) -> list[bool]:
        """Truth of each top-level constraint for one candidate assignment.

        All backends share the IR's reference semantics here: a candidate is a
        point, so evaluating it needs no search, and a verifier gets the same
        verdict whichever backend produced the gold answers.
        """
        env = {k: np.asarray([v], dtype=np.int64) for k, v in assignment.items()}
        out = []
        for c in problem.constraints:
            vs = variables(c)
            if not vs <= set(env):
                raise TsolveError(f"check: assignment lacks {sorted(vs - set(env))}")
            out.append(bool(evaluate(c, env)[0]))
        return out

    def check_values(self, problem: Problem, values: Sequence[int]) -> np.ndarray:
        """``check`` for many candidates of a single-variable problem at once:
        a (constraints x candidates) boolean matrix."""
        v = np.asarray(values, dtype=np.int64)
        env = {problem.target: v}
        return np.array([evaluate(c, env) for c in problem.constraints], dtype=bool).reshape(
            len(problem.constraints), v.size
        )

    def is_satisfiable(self, problem: Problem, subset: Sequence[int]) -> bool:
        sub = Problem(
            tuple(problem.constraints[i] for i in subset), problem.domains, problem.target,
            outputs=problem.outputs,
        )  # fmt: skip
        res = self.solve(sub, limit=1)
        if res.status == "timeout":
            raise SolverTimeout(f"{self.name}: time limit of {self.time_limit}s reached")
        return res.count > 0

    def explain(self, problem: Problem) -> list[int]:
        """Indices of a minimal unsatisfiable subset of the constraints.

        Default: deletion-based shrinking, which is minimal (not minimum) and
        needs only satisfiability calls. Backends with native cores override
        the first step. Returns [] when the problem is satisfiable.
        """
        idx = list(range(len(problem.constraints)))
        if self.is_satisfiable(problem, idx):
            return []
        return self._shrink(problem, idx)

    def _shrink(self, problem: Problem, core: list[int]) -> list[int]:
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1 :]
            if not self.is_satisfiable(problem, trial):
                core = trial
            else:
                i += 1
        return core
