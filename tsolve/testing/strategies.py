"""Hypothesis strategies shared by the test suite and ``tsolve stress``.

The same strategies drive both, so that a user's own settings (a stress config
file) are exercised exactly the way the suite exercises the defaults:

* :func:`option_dicts` / :func:`stress_cases`: random generator settings for any
  registered family, drawn from the family's default pools or a user's, with
  some options held fixed;
* each family's own strategies (its ``strategies`` part: random configs of
  its generator, e.g. ``puzzle_configs``), importable from here by name;
* :func:`days`, :func:`facts`, :func:`fact_sets`: random facts made the way the
  generator makes them (each category's own ``sample`` on a random day), but
  combined freely, so the backends are compared on sets the generator would
  never emit (empty answer sets, huge ones, facts from unrelated days).

Only the tests and ``tsolve stress`` import this module, so hypothesis is
loaded by nothing else; an install without it (``pip install --no-deps``)
gets a one-line :class:`TsolveError` here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tsolve.errors import TsolveError

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - exercised only without hypothesis
    raise TsolveError("stress: the hypothesis package is needed (pip install hypothesis)") from None

from tsolve.calendars.domain import DEFAULT_DOMAIN, DateDomain
from tsolve.contract import get_family
from tsolve.encodings.facts import FACT_TYPES, DayView, Fact, Level
from tsolve.testing.cases import StressCase

#: Indices are drawn from this range unless a config says otherwise: large
#: enough that hypothesis rarely repeats a case, small enough to type.
INDEX_RANGE = (0, 999_999)


def _expand(name: str, value: Any) -> dict[str, Any]:
    """The pseudo-option ``domain`` (a ``[start, end]`` pair or null) becomes
    ``domain_start``/``domain_end``; every other option is itself."""
    if name != "domain":
        return {name: value}
    if value is None:
        return {}
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise TsolveError(f"choices.domain: expected [start, end] pairs or null, got {value!r}")
    return {"domain_start": value[0], "domain_end": value[1]}


def option_dicts(
    family: str,
    fixed: Mapping[str, Any] | None = None,
    choices: Mapping[str, Sequence[Any]] | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """Random raw option dicts for ``family``.

    ``fixed`` options are used as given; every other option the family (or
    ``choices``) lists is drawn from its pool. ``choices`` replaces the
    family's default pool option by option.
    """
    fam = get_family(family)
    fixed = dict(fixed or {})
    pools: dict[str, list[Any]] = fam.choices()
    for name, pool in (choices or {}).items():
        if not isinstance(pool, list | tuple) or not pool:
            raise TsolveError(f"choices.{name}: expected a non-empty list, got {pool!r}")
        if name != "domain" and name.replace("-", "_") not in fam.options:
            raise TsolveError(f"choices: {name!r} is not an option of family {fam.name}")
        pools[name.replace("-", "_")] = list(pool)
    fixed_names = {k.replace("-", "_") for k in fixed}
    if {"domain_start", "domain_end"} & fixed_names:
        pools.pop("domain", None)
    drawn = {
        name: st.sampled_from(pool)
        for name, pool in sorted(pools.items())
        if name not in fixed_names
    }

    def merge(values: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in values.items():
            out.update(_expand(name, value))
        out.update(fixed)
        return out

    return st.fixed_dictionaries(drawn).map(merge)


def stress_cases(
    family: str,
    seed: int | None = None,
    fixed: Mapping[str, Any] | None = None,
    choices: Mapping[str, Sequence[Any]] | None = None,
    index_range: tuple[int, int] = INDEX_RANGE,
) -> st.SearchStrategy[StressCase]:
    """Random :class:`StressCase` values; ``seed`` fixes the generator seed."""
    seeds = st.just(seed) if seed is not None else st.integers(0, 2**31 - 1)
    return st.builds(
        StressCase,
        st.just(get_family(family).name),
        seeds,
        st.integers(*index_range),
        option_dicts(family, fixed, choices),
    )


def family_strategy(name: str) -> Any:
    """The strategy ``name`` that a built-in family declares in its
    ``strategies`` part (random configs of its own generator), or None."""
    from tsolve.contract import builtin_families
    from tsolve.contract.family import resolve

    for fam in builtin_families():
        if name in fam.strategies:
            return resolve(fam.strategies[name])
    return None


def __getattr__(name: str) -> Any:
    # A family's own strategies (``puzzle_configs``, ...) are imported from
    # here as before: each lives in its family and is found by name.
    found = family_strategy(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found


# ---------------------------------------------------------------- random facts


def days(domain: DateDomain = DEFAULT_DOMAIN) -> st.SearchStrategy[int]:
    """Day numbers in ``domain``."""
    return st.integers(domain.start, domain.end)


def _kinds(domain: DateDomain, kinds: Sequence[str] | None) -> list[str]:
    names = sorted(kinds or FACT_TYPES)
    unknown = [k for k in names if k not in FACT_TYPES]
    if unknown:
        raise TsolveError(f"kinds: unknown fact kinds {unknown}")
    return [k for k in names if FACT_TYPES[k].available(domain)]


@st.composite
def facts(
    draw: st.DrawFn,
    domain: DateDomain = DEFAULT_DOMAIN,
    kinds: Sequence[str] | None = None,
    day: int | None = None,
) -> Fact:
    """A random fact, true on a random day (or on ``day``), made by its
    category's own ``sample`` with a hypothesis-controlled RNG."""
    kind = draw(st.sampled_from(_kinds(domain, kinds)))
    cls = FACT_TYPES[kind]
    on = day if day is not None else draw(days(domain))
    levels: tuple[Level, ...] = cls.levels()
    level = draw(st.sampled_from(levels)) if len(levels) > 1 else None
    rng = draw(st.randoms(use_true_random=False))
    fact = cls.sample(rng, DayView(np.asarray([on], dtype=np.int64)), domain, level)
    assume(fact is not None)
    assert fact is not None
    return fact


@st.composite
def fact_sets(
    draw: st.DrawFn,
    domain: DateDomain = DEFAULT_DOMAIN,
    min_size: int = 1,
    max_size: int = 5,
    kinds: Sequence[str] | None = None,
    max_days: int = 2,
) -> list[Fact]:
    """A list of facts of distinct categories, each true on one of up to
    ``max_days`` random days. With one day the set is satisfiable (that day is
    an answer); with more it may be empty, which is what exercises M = 0."""
    anchor_days = draw(st.lists(days(domain), min_size=1, max_size=max_days))
    pool = _kinds(domain, kinds)
    chosen = draw(
        st.lists(st.sampled_from(pool), min_size=min_size, max_size=max_size, unique=True)
    )
    out: list[Fact] = []
    for kind in chosen:
        day = draw(st.sampled_from(anchor_days))
        out.append(draw(facts(domain, [kind], day)))
    return out


def domains(
    min_years: int = 1, max_years: int = 200, inside: DateDomain = DEFAULT_DOMAIN
) -> st.SearchStrategy[DateDomain]:
    """Random sub-domains of ``inside``, ``min_years``..``max_years`` long."""

    @st.composite
    def build(draw: st.DrawFn) -> DateDomain:
        length = draw(st.integers(min_years * 365, max_years * 365))
        length = min(length, inside.size)
        start = draw(st.integers(inside.start, inside.end - length + 1))
        return DateDomain(start, start + length - 1)

    return build()


__all__ = [
    "INDEX_RANGE",
    "days",
    "domains",
    "fact_sets",
    "facts",
    "family_strategy",
    "option_dicts",
    "stress_cases",
]
