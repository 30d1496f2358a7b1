"""Measured difficulty of a time puzzle.

The paper has no difficulty label; the number of facts was the only knob. A
puzzle is harder when more of its facts must be combined before the answer
set is pinned down, when facts name events rather than dates (the reader must
know the dates), and when a fact needs the Chinese lunar calendar. These are
measured, not guessed, from each fact's truth over the whole domain (the IR
the solvers see, or equivalently each fact's fast path, once per fact):

* ``facts``: how many facts; ``implicit``: how many name a knowledge-base
  event or person instead of dates (implicit style only);
* ``calendars``: the calendars the facts need (``gregorian``, ``chinese``);
* ``sizes_by_information_gain``: the candidate-set size after each fact,
  taking the facts in descending information gain (Algorithm 3's order);
* ``facts_to_fix``: the fewest facts whose conjunction already gives exactly
  the answer set (1..facts; a subset search on packed masks);
* ``score`` = facts_to_fix + implicit + 2 if the Chinese calendar is needed,
  and ``label``: easy (score ≤ 6), medium (7) or hard (≥ 8). The thresholds
  split puzzles of the default mix into thirds: on 600 puzzles (seed 0,
  M = 0..6) the scores ran from 3 to 10, and the labels came out 214 easy,
  193 medium, 193 hard.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, Union, cast

import numpy as np

from tsolve.calendars.domain import DateDomain
from tsolve.encodings.facts import FACT_TYPES, Fact, information_gain
from tsolve.encodings.facts.packed import all_of, mask_table, packed_masks, size

LABELS = ("easy", "medium", "hard")
EASY_MAX = 6
MEDIUM_MAX = 7
_LUNAR = frozenset({"chinese_zodiac", "lunar_month"})


def label_of(score: int) -> str:
    """The documented thresholds: easy ≤ 6 < medium ≤ 7 < hard."""
    return "easy" if score <= EASY_MAX else "medium" if score <= MEDIUM_MAX else "hard"


def fact_masks(facts: Sequence[Fact], domain: DateDomain) -> list[np.ndarray]:
    """Each fact's truth on every day of the domain, packed 64 days to a word
    (``encodings/facts/packed.py``: by the facts' fast path, kept per fact).
    ``tests/test_facts.py`` holds the fast path equal to the IR for every
    category; gold answers never come from here."""
    return packed_masks(facts, domain)


#: A set of days as the generator holds it: a packed mask, or the same bits
#: as one Python integer (MaskTable.as_int), whose AND and bit count cost a
#: fraction of NumPy's calls over a domain of a few hundred years.
DaySet = Union[np.ndarray, int]  # noqa: UP007


def size_of(days: DaySet) -> int:
    """How many days a packed mask or an integer mask holds."""
    return days.bit_count() if isinstance(days, int) else size(days)


def all_days(sets: Sequence[DaySet]) -> DaySet:
    """The AND of packed masks or of integer masks (at least one; a mask
    given is never written to)."""
    if isinstance(sets[0], int):
        acc = sets[0]
        for d in sets[1:]:
            acc &= cast(int, d)
        return acc
    return all_of(cast(Sequence[np.ndarray], sets))


def sizes_without(masks: Sequence[DaySet], domain: DateDomain) -> list[int]:
    """For each fact, the size of the answer set of all the others (packed
    masks, or the same as integers)."""
    out = []
    for i in range(len(masks)):
        rest = [m for j, m in enumerate(masks) if j != i]
        out.append(size_of(all_days(rest)) if rest else domain.size)
    return out


def facts_to_fix(masks: Sequence[int]) -> int:
    """The fewest of ``masks`` (each a set of days as a Python integer,
    :meth:`~tsolve.encodings.facts.packed.MaskTable.as_int`; at least one)
    whose AND is the AND of all of them.

    A subset's answers contain the whole set's, so they are the same set
    exactly when the integers are equal: an AND per member and one comparison
    per subset, smallest subsets first, each well under a microsecond over
    the default domain (a NumPy AND and popcount per subset cost ~0.8 ms a
    puzzle in calls alone)."""
    n = len(masks)
    target = masks[0]
    for m in masks[1:]:
        target &= m
    for k in range(1, n):
        for combo in itertools.combinations(masks, k):
            got = combo[0]
            for m in combo[1:]:
                got &= m
            if got == target:
                return k
    return n


def difficulty(
    facts: Sequence[Fact],
    masks: Sequence[DaySet],
    domain: DateDomain,
    style: str,
    every_needed: bool = False,
) -> dict[str, Any]:
    """The measured features and their label (see the module docstring);
    ``masks`` are the facts' packed domain masks (:func:`fact_masks`), or the
    same as integers.

    ``every_needed``: the caller's masks say dropping any one fact changes the
    answers (a minimal puzzle, which the caller then certifies); every proper
    subset then leaves more dates, so the fewest facts that fix the answer
    are all of them, with no subset to try."""
    n = len(facts)
    order = sorted(range(n), key=lambda i: -information_gain(facts[i], domain))
    first = masks[order[0]]
    acc = first if isinstance(first, int) else np.array(first)  # never the caller's
    sizes = []
    for i in order:
        acc &= masks[i]  # in place on the copy, or a new integer
        sizes.append(size_of(acc))
    if every_needed:
        fix = n
    else:
        table = mask_table(domain)
        fix = facts_to_fix([table.as_int(f) for f in facts])
    implicit = sum(1 for f in facts if style == "implicit" and FACT_TYPES[f.kind].anchor)
    calendars = ["gregorian"] + (["chinese"] if any(f.kind in _LUNAR for f in facts) else [])
    score = fix + implicit + (2 if "chinese" in calendars else 0)
    return {
        "facts": n,
        "implicit": implicit,
        "calendars": calendars,
        "sizes_by_information_gain": sizes,
        "facts_to_fix": fix,
        "score": score,
        "label": label_of(score),
    }
