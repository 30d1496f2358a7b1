"""The IR with several date variables: ``Diff`` atoms between
variables, unary facts on any of them, every connective. The three backends
must agree with a brute-force loop written here in plain Python (not the IR's
own ``evaluate``), and ``check`` / ``explain`` must work on such problems."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from tsolve.encodings.ir import And, Diff, Formula, In, IntervalSet, Mod, Not, Or
from tsolve.solver import Problem, get_backend

BACKENDS = ("cpsat", "z3", "enumerator")
NAMES = ("a", "b", "c", "d")


def holds(f: Formula, env: dict[str, int]) -> bool:
    """Plain-Python semantics, independent of ``ir.evaluate``."""
    if isinstance(f, In):
        return any(lo <= env[f.var] <= hi for lo, hi in f.set.intervals)
    if isinstance(f, Mod):
        return env[f.var] % f.m == f.r % f.m
    if isinstance(f, Diff):
        return f.lo <= env[f.x] - env[f.y] <= f.hi
    if isinstance(f, Not):
        return not holds(f.arg, env)
    if isinstance(f, And):
        return all(holds(a, env) for a in f.args)
    assert isinstance(f, Or)
    return any(holds(a, env) for a in f.args)


@st.composite
def problems(draw: st.DrawFn) -> Problem:
    k = draw(st.integers(1, 4))
    names = NAMES[:k]
    doms = {}
    for v in names:
        lo = draw(st.integers(0, 40))
        doms[v] = (lo, lo + draw(st.integers(0, 14 if k > 2 else 30)))

    def atom() -> st.SearchStrategy[Formula]:
        var = st.sampled_from(names)
        ins = st.builds(
            lambda v, a, w: In(v, IntervalSet.from_intervals([(a, a + w)])),
            var, st.integers(-5, 70), st.integers(0, 20),
        )  # fmt: skip
        mods = st.builds(lambda v, m, r: Mod(v, m, r), var, st.integers(2, 7), st.integers(0, 6))
        diffs = st.builds(
            lambda x, y, lo, w: Diff(x, y, lo, lo + w),
            var, var, st.integers(-30, 30), st.integers(0, 15),
        )  # fmt: skip
        return st.one_of(ins, mods, diffs)

    formulas = st.recursive(
        atom(),
        lambda c: st.one_of(
            c.map(Not),
            st.lists(c, min_size=1, max_size=3).map(lambda xs: And(tuple(xs))),
            st.lists(c, min_size=1, max_size=3).map(lambda xs: Or(tuple(xs))),
        ),
        max_leaves=5,
    )
    cons = tuple(draw(st.lists(formulas, min_size=1, max_size=4)))
    outputs = tuple(draw(st.permutations(names))[: draw(st.integers(1, k))])
    return Problem(cons, doms, target=outputs[0], outputs=outputs if len(outputs) > 1 else ())


def brute_force(problem: Problem) -> list[object]:
    names = sorted(problem.domains)
    found = set()
    for values in itertools.product(*(range(lo, hi + 1) for lo, hi in
                                      (problem.domains[v] for v in names))):  # fmt: skip
        env = dict(zip(names, values, strict=True))
        if all(holds(c, env) for c in problem.constraints):
            sol = tuple(env[v] for v in problem.output_vars)
            found.add(sol if problem.is_tuple else sol[0])
    return sorted(found)


@given(problem=problems())
def test_backends_agree_with_brute_force_on_several_variables(problem: Problem) -> None:
    want = brute_force(problem)
    for name in BACKENDS:
        res = get_backend(name).solve(problem)
        assert list(res.solutions) == want, name
        assert res.status == ("complete" if want else "unsat")


@given(problem=problems(), cap=st.integers(1, 5))
def test_counts_are_capped_exactly_on_several_variables(problem: Problem, cap: int) -> None:
    n = len(brute_force(problem))
    for name in BACKENDS:
        c = get_backend(name).count(problem, cap)
        assert (c.count, c.capped) == ((cap, True) if n >= cap else (n, False)), name


@given(problem=problems(), data=st.data())
def test_check_names_each_constraint_on_an_assignment(
    problem: Problem, data: st.DataObject
) -> None:
    env = {v: data.draw(st.integers(lo, hi)) for v, (lo, hi) in problem.domains.items()}
    verdicts = get_backend("cpsat").check(problem, env)
    assert verdicts == [holds(c, env) for c in problem.constraints]


@given(problem=problems())
def test_explain_gives_a_minimal_unsat_subset(problem: Problem) -> None:
    if brute_force(problem):
        assert get_backend("z3").explain(problem) == []
        return
    for name in ("cpsat", "z3"):
        core = get_backend(name).explain(problem)
        sub = Problem(tuple(problem.constraints[i] for i in core), problem.domains,
                      problem.target, outputs=problem.outputs)  # fmt: skip
        assert core and brute_force(sub) == [], name
        for i in range(len(core)):  # every member is needed
            rest = core[:i] + core[i + 1 :]
            less = Problem(tuple(problem.constraints[j] for j in rest), problem.domains,
                           problem.target, outputs=problem.outputs)  # fmt: skip
            assert brute_force(less) != [], name


def test_a_simple_temporal_network() -> None:
    """Board meeting b on day 10, 11 or 12; launch l exactly 17 days later;
    audit a on the launch day or the day after: six tuples, listed by hand."""
    p = Problem(
        (In("b", IntervalSet.from_intervals([(10, 12)])), Diff("l", "b", 17, 17),
         Diff("a", "l", 0, 1)),
        {"b": (0, 40), "l": (0, 40), "a": (0, 40)},
        target="b",
        outputs=("b", "l", "a"),
    )  # fmt: skip
    want = [(b, b + 17, b + 17 + k) for b in (10, 11, 12) for k in (0, 1)]
    for name in BACKENDS:
        assert list(get_backend(name).solve(p).solutions) == want, name
