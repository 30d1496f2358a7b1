"""Puzzles with no answer (M = 0). Algorithm 1 never yields an empty set,
since the seed satisfies every fact, so one fact is swapped for one drawn on
a decoy date; by default the now unsatisfiable set is then shrunk to a
minimal unsatisfiable one in which no two facts clash outright."""

from __future__ import annotations

import random

import numpy as np

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import FACT_TYPES, DayView, Fact, information_gain
from tsolve.encodings.facts.packed import all_of, packed_masks


def answer_mask(facts: list[Fact], view: DayView, domain: DateDomain) -> np.ndarray:
    """Algorithm 3 (SOLVEPUZZLE) on the anchor's days: intersect in
    descending information gain, stopping early once the set is empty."""
    order = sorted(facts, key=lambda f: -information_gain(f, domain))
    mask = np.ones(len(view), dtype=bool)
    for f in order:
        mask &= f.holds(view)
        if not mask.any():
            break
    return mask


def decoy_swap(
    rng: random.Random, facts: list[Fact], days: np.ndarray, domain: DateDomain
) -> list[Fact] | None:
    """``facts`` with one non-anchor fact replaced by one of the same
    category drawn from a decoy date among the anchor's ``days``."""
    pos = rng.randrange(1, len(facts))
    decoy = DayView(np.asarray([int(days[rng.randrange(days.size)])]))
    old = facts[pos]
    lv = old.fact_level() if len(type(old).levels()) > 1 else None
    new = FACT_TYPES[old.kind].sample(rng, decoy, domain, lv)
    return None if new is None else [*facts[:pos], new, *facts[pos + 1 :]]


def contradict(
    rng: random.Random, facts: list[Fact], view: DayView, domain: DateDomain
) -> list[Fact] | None:
    """M = 0 as the old generator made it: replace one non-anchor fact by one
    of the same category drawn from a decoy date in the anchor's range, so
    that no date satisfies all (often a two-fact clash: "June" and "the 31st")."""
    if len(facts) < 2:
        return None
    trial = decoy_swap(rng, facts, view.days, domain)
    return trial if trial is not None and not answer_mask(trial, view, domain).any() else None


def minimal_contradiction(
    rng: random.Random, facts: list[Fact], view: DayView, domain: DateDomain
) -> list[Fact] | None:
    """M = 0 that needs reasoning: swap one fact for one drawn from a decoy
    date, then shrink the now unsatisfiable set to a minimal unsatisfiable
    subset. Keep it only if it holds the anchor, has at least three facts,
    and every pair of its facts is satisfiable, so no two facts contradict
    each other outright. The solver certifies the result
    (:func:`~tsolve.families.time_puzzles.certify.certify_contradiction`).

    While the anchor is in, only its days matter, so the swap and the
    deletion of other facts work on the anchor's (few) days; the whole
    domain is consulted once per candidate, for the sets without the
    anchor (is the anchor needed? do two other facts clash?)."""
    if len(facts) < 3:
        return None
    trial = decoy_swap(rng, facts, view.days, domain)
    if trial is None:
        return None
    local = [f.holds(view) for f in trial]
    if all_of(local).any():
        return None
    core = list(range(len(trial)))
    for i in rng.sample(core[1:], len(core) - 1):  # the anchor stays
        rest = [j for j in core if j != i]
        if not all_of(local[j] for j in rest).any():
            core = rest
    if len(core) < 3:
        return None
    for i in core[1:]:  # the anchor with each other fact, on the anchor's days
        if not local[i].any():
            return None
    return [trial[i] for i in core] if _clash_free(trial, core, domain) else None


def _clash_free(trial: list[Fact], core: list[int], domain: DateDomain) -> bool:
    """Over the whole domain, do the core's facts after the anchor (its first)
    share a day, and does every pair of them? Then the anchor is needed and
    no two facts clash outright."""
    packed = packed_masks(trial, domain)
    others = {i: packed[i] for i in core[1:]}
    if not all_of(others.values()).any():
        return False  # the others clash without the anchor: not minimal with it
    for a in core[1:]:
        for b in core[1:]:
            if a < b and not (others[a] & others[b]).any():
                return False
    return True
