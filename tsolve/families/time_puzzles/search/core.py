"""One puzzle's randomized search (Algorithm 1's loop): an anchor, a seed
day on it, then a fact set chosen from the seed's candidates by the default
search (:mod:`.default`) or the minimal one (:mod:`.minimal`), or a
contradiction (M = 0, :mod:`.contradiction`). All randomness comes from the
record's ``rng``, in a fixed order, so a record is a function of its key."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from tsolve.encodings.facts import FACT_TYPES, DayView, Fact, Level
from tsolve.encodings.facts.calendar_facts import day_range_draws, weekdays_draws
from tsolve.encodings.facts.packed import PROMOTE_MAX_DAYS, MaskTable, mask_table, word_range
from tsolve.encodings.facts.seed_table import seed_table
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.clashes import open_categories
from tsolve.families.time_puzzles.config import PuzzleConfig, answers_phrase
from tsolve.families.time_puzzles.search.contradiction import contradict, minimal_contradiction
from tsolve.families.time_puzzles.search.default import Partial, choose_default
from tsolve.families.time_puzzles.search.minimal import choose_minimal
from tsolve.families.time_puzzles.search.plan import (
    determine_level,
    search_plan,
    slot_levels,
)
from tsolve.families.time_puzzles.search.pools import SeedPools
from tsolve.families.time_puzzles.search.windows import ANCHOR_VIEWS, AnchorWindows, anchor_days

#: Categories whose draw on a seed is one ``rng.choice`` from a table of the
#: facts ``sample`` would draw there, each as often as its chance
#: (calendar_facts.weekdays_draws, day_range_draws): the same distribution
#: with one random number instead of up to four, for the two categories a
#: minimal puzzle's last slots draw most.
DRAW_TABLES: dict[str, Callable[[DayView], tuple[Fact, ...]]] = {
    "weekdays": lambda on: weekdays_draws(int(on.greg.weekday[0])),
    "day_of_month_range": lambda on: day_range_draws(int(on.greg.day[0])),
}
# Decoy swaps a zero-answer puzzle tries on one seed's facts.
CONTRADICTION_TRIES = 24


class Found:
    """What :meth:`PuzzleSearch.run` found: the facts (the anchor first),
    the seed day, the attempts spent, and for a minimal set the witnesses
    the search proposes, one day per fact (empty otherwise)."""

    __slots__ = ("attempts", "facts", "seed_day", "witnesses")

    def __init__(
        self, facts: list[Fact], seed_day: int, attempts: int, witnesses: list[int | None]
    ) -> None:
        self.facts = facts
        self.seed_day = seed_day
        self.attempts = attempts
        self.witnesses = witnesses


class Choice:
    """One seed's choice (:meth:`PuzzleSearch.choose`): the facts or None,
    the search steps spent, the proposed witnesses, and the seed's pools."""

    __slots__ = ("facts", "nodes", "pools", "witnesses")

    def __init__(
        self,
        facts: list[Fact] | None,
        nodes: int,
        witnesses: list[int | None],
        pools: SeedPools,
    ) -> None:
        self.facts = facts
        self.nodes = nodes
        self.witnesses = witnesses
        self.pools = pools


class PuzzleSearch:
    """One puzzle's randomized search for ``target`` answers with ``n_facts``
    facts; all randomness comes from ``rng``. ``table`` holds the domain's
    packed fact masks (a slot's truth on the anchor's days is a window of its
    fact's mask); ``drawn`` keeps the facts of seed-determined categories
    (Fact.seed_determined) drawn on a day: such a draw uses no randomness, so
    reusing it changes nothing but the time. It is emptied at each new seed."""

    def __init__(
        self,
        rng: random.Random,
        cfg: PuzzleConfig,
        target: int,
        n_facts: int,
        table: MaskTable | None = None,
    ) -> None:
        self.rng = rng
        self.cfg = cfg
        self.m = target
        self.n = n_facts
        self.table = table or mask_table(cfg.domain)
        self.packed = cfg.domain.size <= PROMOTE_MAX_DAYS
        self.plan = search_plan(cfg, n_facts)
        self.seeds = seed_table(cfg.domain, self.plan.seeded) if self.plan.seeded else None
        self.drawn: dict[tuple[str, int], Fact | None] = {}

    def anchor(self) -> tuple[Fact, DayView] | None:
        cls = FACT_TYPES[self.rng.choice(self.plan.anchor_kinds)]
        fact = cls.sample_anchor(self.rng, self.cfg.domain)
        if fact is None:
            return None
        view = ANCHOR_VIEWS.get((fact, self.cfg.domain), anchor_days)
        return (fact, view) if len(view) else None

    def draw(self, kind: str, on: DayView, level: Level | None) -> Fact | None:
        """Algorithm 2's InstantiateFact: a fact of ``kind`` true on the day in
        ``on`` (at ``level`` when the kind spans levels); a seed-determined
        kind's fact is drawn once per day (:attr:`drawn`)."""
        cls = FACT_TYPES[kind]
        table = DRAW_TABLES.get(kind)
        if table is not None:
            return self.rng.choice(table(on))
        if not cls.seed_determined:
            return cls.sample(self.rng, on, self.cfg.domain, level)
        key = (kind, int(on.days[0]))
        if key not in self.drawn:
            self.drawn[key] = cls.sample(self.rng, on, self.cfg.domain, level)
        return self.drawn[key]

    def facts_for(self, anchor: Fact, seed: DayView) -> list[Fact] | None:
        """Algorithm 2 (GENERATEFACT)."""
        facts = [anchor]
        used = {anchor.kind}
        categories = self.plan.categories
        for i in range(1, self.n):
            level = determine_level(i, anchor.fact_level())
            frozen = frozenset(used)
            cands = list(open_categories(categories, frozen, level))
            self.rng.shuffle(cands)
            rest = [k for k in open_categories(categories, frozen, None) if k not in cands]
            self.rng.shuffle(rest)
            new = None
            for k in cands + rest:
                lv = level if k in cands else None
                new = self.draw(k, seed, lv)
                if new is not None:
                    break
            if new is None:
                return None
            facts.append(new)
            used.add(new.kind)
        return facts

    def run(self) -> Found:
        """Algorithm 1's loop: an anchor and a seed day on it, then (for M >= 1)
        a whole fact set chosen from the seed's candidates (:meth:`choose`),
        or a contradiction (M = 0)."""
        attempts = 0
        while attempts < self.cfg.max_attempts:
            picked = self.anchor()
            attempts += 1
            if picked is None:
                continue
            anchor, view = picked
            days = view.days
            seed_day = int(days[self.rng.randrange(days.size)])
            seed = DayView.of_day(seed_day)
            self.drawn.clear()
            if self.m == 0:
                facts, spent = self._contradiction(anchor, view, seed)
                attempts += spent
                if facts is not None:
                    return Found(facts, seed_day, attempts, [])
                continue
            chosen = self.choose(anchor, view, seed)
            attempts += chosen.nodes
            if chosen.facts is not None:
                return Found(chosen.facts, seed_day, attempts, chosen.witnesses)
        raise TsolveError(
            f"solutions: no puzzle with exactly {answers_phrase(self.m)} found in "
            f"{self.cfg.max_attempts} attempts; try other --facts or a wider domain"
        )

    def _contradiction(
        self, anchor: Fact, view: DayView, seed: DayView
    ) -> tuple[list[Fact] | None, int]:
        """A zero-answer set from the seed's facts, or None, and the attempts
        spent: up to :data:`CONTRADICTION_TRIES` decoy swaps."""
        facts = self.facts_for(anchor, seed)
        if facts is None:
            return None, 0
        swap = contradict if self.cfg.trivial_contradictions else minimal_contradiction
        for tries in range(1, CONTRADICTION_TRIES + 1):
            trial = swap(self.rng, facts, view, self.cfg.domain)
            if trial is not None:
                return trial, tries
        return None, CONTRADICTION_TRIES

    def choose(self, anchor: Fact, view: DayView, seed: DayView) -> Choice:
        """Algorithm 2 and 3 at once, on the seed's candidates: the slots'
        levels cycle from the anchor's (:func:`determine_level`), and each slot
        takes one of the categories open at its level, drawn true on the seed.
        Rather than draw one set and repair it fact by fact (the repair search
        of versions 1-6, ~40 redraws a puzzle), every candidate of a slot is
        judged at once: the windows of its facts' packed masks are stacked and
        ANDed with the set so far, and a popcount per row says which keep at
        least M of the anchor's days. The last two slots are chosen together
        (:meth:`DefaultChooser.last_two`), at random among the pairs that
        leave exactly M; a dead end backs up one slot, within
        :data:`~.default.MAX_NODES` steps per seed.

        With ``minimal``, every fact must be needed: the sets are judged
        whole, all of a seed's at once (:class:`~.minimal.MinimalChooser`).

        The slots are filled MONTH first and DAY last (:data:`~.plan.LAST_ORDER`;
        a minimal puzzle's YEAR last, :data:`~.plan.MINIMAL_ORDER`),
        so the pairs come from the levels with the most categories, and the
        last two slots' unseeded categories offer
        :data:`~.plan.LAST_VARIANTS` draws each, so the last step has many
        answer-set sizes to choose from."""
        lo, hi = word_range(view.days, self.cfg.domain)
        windows = AnchorWindows(self.table, self.cfg.domain, self.packed, view, lo, hi)
        levels = slot_levels(anchor.fact_level(), self.n, self.cfg.minimal)
        pools = SeedPools(self.plan, self.seeds, seed, windows, self.draw)
        base = np.array(windows.window(anchor))
        if self.cfg.minimal:
            facts, nodes, witnesses = choose_minimal(self.rng, pools, levels, self.m, anchor, base)
            return Choice(facts, nodes, witnesses, pools)
        facts, nodes = choose_default(self.rng, pools, levels, self.m, Partial([anchor], base))
        return Choice(facts, nodes, [], pools)
