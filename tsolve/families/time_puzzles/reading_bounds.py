"""Is a fact set's answer the same under every reading of its facts? Asked
of the masks, before the solver's certificate (which decides), so that the
search offers only sets the certificate will keep."""

from __future__ import annotations

from tsolve.bounded_store import BoundedStore
from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import Fact, Style
from tsolve.encodings.facts.packed import mask_table
from tsolve.encodings.facts.readings import fact_readings

IMPLICIT: Style = "implicit"  # the wording whose readings include the other's


def same_under_readings(facts: list[Fact], m: int, domain: DateDomain) -> bool:
    """Do ``facts`` (whose masks leave ``m`` days) leave the same days under
    every reading of every fact? From packed masks: a fact's lower bound is
    the AND of its readings' masks and its own, its upper bound their OR, and
    the answers are the same under every reading exactly when the ANDs of the
    lower and of the upper bounds both keep ``m`` days (lower ⊆ canonical ⊆
    upper). The implicit wording's readings include the explicit one's, so
    they are the ones asked, as
    :func:`~tsolve.families.time_puzzles.generate.generate_puzzle` asks the solver.

    The search asks this of a set before it offers it, and takes the next set
    when the answer is no: the solver's certificate (which decides) then
    rarely rejects a set, where a rejection threw away the whole search
    (7 % of minimal puzzles drew again from a new anchor). The masks are
    Python integers (:meth:`MaskTable.as_int`), each fact's bounds kept in
    :data:`BOUND_INTS`: an AND or OR per fact and two bit counts."""
    if not any(fact_readings(f, IMPLICIT) for f in facts):
        return True
    table = mask_table(domain)
    lower = upper = -1  # every bit: the AND of no masks
    for f in facts:
        if fact_readings(f, IMPLICIT):
            lo, hi = BOUND_INTS.get((f, domain), _bound_ints)
        else:
            lo = hi = table.as_int(f)
        lower &= lo
        upper &= hi
    return lower.bit_count() == m and upper.bit_count() == m


def _bound_ints(key: tuple[Fact, DateDomain]) -> tuple[int, int]:
    """A fact's mask under every and under some of its readings (the implicit
    wording's, which include the explicit one's), as Python integers."""
    fact, domain = key
    table = mask_table(domain)
    lo = hi = table.as_int(fact)
    for r in fact_readings(fact, IMPLICIT):
        w = table.as_int(r.fact)
        lo, hi = lo & w, hi | w
    return lo, hi


#: Each fact with readings: (its AND and its OR over them, as integers), by
#: (fact, domain). The anchors and knowledge facts that have readings recur
#: across puzzles, and a minimal puzzle's search asks same_under_readings of
#: every set it offers. Bounded by bytes; never stale: keys are frozen values.
BOUND_INTS: BoundedStore[tuple[Fact, DateDomain], tuple[int, int]] = BoundedStore(
    64 * 2**20, lambda v: (v[0].bit_length() + v[1].bit_length()) // 8 + 64
)
