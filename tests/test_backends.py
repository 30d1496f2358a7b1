"""CP-SAT, Z3 and the reference enumerator hold each other equal on random IR.

Random formulas mix every atom and connective, on a small domain so that the
enumerator's answer (the IR's NumPy semantics) is the oracle.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.encodings.ir import (
    DATE_VAR,
    And,
    Formula,
    In,
    InCycle,
    IntervalSet,
    Mod,
    Not,
    Or,
    evaluate,
)
from tsolve.errors import TsolveError
from tsolve.solver import Problem, get_backend

LO, HI = 1000, 1400

interval_sets = st.lists(
    st.tuples(st.integers(LO - 20, HI + 20), st.integers(0, 40)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=6,
).map(IntervalSet.from_intervals)


@st.composite
def cycles(draw: st.DrawFn) -> InCycle:
    """(x mod p) in a set of residues, as periodic facts over long domains are."""
    period = draw(st.integers(2, 60))
    spans = draw(st.lists(st.tuples(st.integers(0, period - 1), st.integers(0, 5)), max_size=4))
    residues = IntervalSet.from_intervals((a, min(a + w, period - 1)) for a, w in spans)
    return InCycle(DATE_VAR, period, residues)


atoms = st.one_of(
    interval_sets.map(lambda s: In(DATE_VAR, s)),
    st.tuples(st.integers(2, 9), st.integers(0, 8)).map(lambda t: Mod(DATE_VAR, t[0], t[1] % t[0])),
    cycles(),
    # a disjunction of residues of one modulus ("a Tuesday or a Saturday"),
    # which CP-SAT posts as one domain on a shared residue at the top level
    st.tuples(st.integers(2, 9), st.lists(st.integers(-3, 20), min_size=1, max_size=4)).map(
        lambda t: Or(tuple(Mod(DATE_VAR, t[0], r) for r in t[1]))
    ),
)


def formulas() -> st.SearchStrategy[Formula]:
    return st.recursive(
        atoms,
        lambda kids: st.one_of(
            st.lists(kids, min_size=1, max_size=3).map(lambda a: And(tuple(a))),
            st.lists(kids, min_size=1, max_size=3).map(lambda a: Or(tuple(a))),
            kids.map(Not),
        ),
        max_leaves=6,
    )


def problem(constraints: list[Formula]) -> Problem:
    return Problem(tuple(constraints), {DATE_VAR: (LO, HI)})


def oracle(constraints: list[Formula]) -> list[int]:
    days = np.arange(LO, HI + 1)
    mask = evaluate(And(tuple(constraints)), {DATE_VAR: days})
    return days[mask].tolist()


@given(st.lists(formulas(), min_size=1, max_size=4))
def test_backends_agree_on_full_answer_sets(constraints: list[Formula]) -> None:
    expected = oracle(constraints)
    for name in ("cpsat", "z3", "enumerator"):
        res = get_backend(name).solve(problem(constraints))
        assert list(res.solutions) == expected, name
        assert res.complete


@given(st.lists(formulas(), min_size=1, max_size=4), st.integers(1, 5))
def test_count_is_capped_exactly(constraints: list[Formula], cap: int) -> None:
    n = len(oracle(constraints))
    for name in ("cpsat", "z3", "enumerator"):
        c = get_backend(name).count(problem(constraints), cap)
        assert c.count == min(n, cap), name
        assert c.capped == (n >= cap)


@given(st.lists(formulas(), min_size=1, max_size=4), st.integers(LO, HI))
def test_check_matches_semantics(constraints: list[Formula], value: int) -> None:
    p = problem(constraints)
    expected = [bool(evaluate(c, {DATE_VAR: np.asarray([value])})[0]) for c in constraints]
    assert get_backend("cpsat").check(p, {DATE_VAR: value}) == expected


@given(st.lists(formulas(), min_size=1, max_size=5))
def test_explain_returns_a_minimal_unsat_subset(constraints: list[Formula]) -> None:
    p = problem(constraints)
    for name in ("cpsat", "z3", "enumerator"):
        core = get_backend(name).explain(p)
        if oracle(constraints):
            assert core == []
            continue
        assert core, name
        assert oracle([constraints[i] for i in core]) == []
        for drop in range(len(core)):  # minimal: every proper subset is satisfiable
            rest = [constraints[i] for j, i in enumerate(core) if j != drop]
            assert not rest or oracle(rest), name


def test_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(TsolveError, match="unknown backend 'gurobi'"):
        get_backend("gurobi")


def test_problem_rejects_variables_without_domain() -> None:
    with pytest.raises(TsolveError, match="without a domain"):
        Problem((Mod("x", 7, 1),), {DATE_VAR: (0, 10)})
