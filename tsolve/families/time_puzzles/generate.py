"""Time Puzzles generation (Algorithms 1-3 of the Time Puzzles paper).

Algorithm 1: pick a knowledge-based anchor t_kb and a hidden seed date in
C(t_kb); Algorithm 2: add N-1 facts true on the seed, from distinct categories
with balanced levels; Algorithm 3: intersect in information-gain order; repeat
until the answer set has exactly M dates.

The search itself is cheap bit arithmetic over the anchor's days (windows of
the facts' packed domain masks, :class:`~tsolve.encodings.facts.packed.MaskTable`,
not the solver), which is what lets it try hundreds of fact sets per puzzle.
The record's gold answers are read off those masks and then proved by the
solver backend: every gold date is checked under every reading, and one
solver call proves no other date satisfies the facts under any reading
(:func:`~tsolve.families.time_puzzles.solve.certify_known_gold`). If the masks ever
disagreed with the solver's IR, generation fails loudly rather than emit the
record.

Every record is a pure function of ``(seed, index)`` and the config: the RNG is
seeded from that pair alone, and nothing that varies between runs (timings)
goes into the record.

This module is the entry point and the certification; the parts live beside
it: ``config.py`` (options), ``clashes.py`` (which kinds may share a puzzle),
``search/`` (the two searches and the zero-answer one), ``reading_bounds.py``
(the masks' check that every reading agrees), ``prompt.py`` and ``record.py``.
Every name this module has held stays importable from it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.11

from tsolve.encodings.facts import Fact, Style
from tsolve.encodings.facts.packed import all_of, days_of
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles.certify import certify_contradiction, certify_necessity
from tsolve.families.time_puzzles.clashes import (  # noqa: F401
    CLASH,
    CLASH_BITS,
    KIND_BITS,
    KIND_INDEX,
)
from tsolve.families.time_puzzles.clashes import CLASHES as _CLASHES  # noqa: F401
from tsolve.families.time_puzzles.clashes import REDUNDANT as _REDUNDANT  # noqa: F401
from tsolve.families.time_puzzles.clashes import compatible as _compatible  # noqa: F401
from tsolve.families.time_puzzles.clashes import kind_bits as _kind_bits  # noqa: F401
from tsolve.families.time_puzzles.clashes import open_categories as _open_categories  # noqa: F401
from tsolve.families.time_puzzles.config import (  # noqa: F401
    MAX_MINIMAL_FACTS,
    MAX_SOLUTIONS,
    PuzzleConfig,
    PuzzleOverrides,
    parse_solutions,
)
from tsolve.families.time_puzzles.config import answers_phrase as _answers
from tsolve.families.time_puzzles.config import call_config as _call_config
from tsolve.families.time_puzzles.config import check_position as _check_position
from tsolve.families.time_puzzles.difficulty import DaySet, difficulty, fact_masks, sizes_without
from tsolve.families.time_puzzles.prompt import PROMPT_TEMPLATE, render_prompt  # noqa: F401
from tsolve.families.time_puzzles.reading_bounds import (  # noqa: F401
    BOUND_INTS,
    IMPLICIT,
    _bound_ints,
    same_under_readings,
)
from tsolve.families.time_puzzles.record import (  # noqa: F401
    FAMILY,
    ID_PREFIX,
    Certified,
    id_fingerprint,
    puzzle_id,
    puzzle_record,
)
from tsolve.families.time_puzzles.search.core import DRAW_TABLES as _DRAW_TABLES  # noqa: F401
from tsolve.families.time_puzzles.search.core import PuzzleSearch as _Search
from tsolve.families.time_puzzles.search.default import (  # noqa: F401
    BRANCHES,
    MAX_NODES,
)
from tsolve.families.time_puzzles.search.default import Partial as _Partial  # noqa: F401
from tsolve.families.time_puzzles.search.minimal import (  # noqa: F401
    ANCHOR_TRIES,
    BEAM,
    HIT_BATCH_BYTES,
)
from tsolve.families.time_puzzles.search.minimal import Beam as _Beam  # noqa: F401
from tsolve.families.time_puzzles.search.plan import (  # noqa: F401
    _CYCLE,
    LAST_VARIANTS,
    MINIMAL_ONE_DRAW,
    MINIMAL_SKIPPED_ANCHORS,
    MINIMAL_SKIPPED_CATEGORIES,
    MINIMAL_SPARSE_FACTS,
    determine_level,
)
from tsolve.families.time_puzzles.search.plan import LAST_ORDER as _LAST_ORDER  # noqa: F401
from tsolve.families.time_puzzles.search.plan import MINIMAL_ORDER as _MINIMAL_ORDER  # noqa: F401
from tsolve.families.time_puzzles.search.plan import SearchPlan as _SearchPlan  # noqa: F401
from tsolve.families.time_puzzles.search.plan import has_anchor as _has_anchor  # noqa: F401
from tsolve.families.time_puzzles.search.plan import search_plan as _search_plan  # noqa: F401
from tsolve.families.time_puzzles.search.pools import Pool as _Pool  # noqa: F401
from tsolve.families.time_puzzles.search.windows import (  # noqa: F401
    ANCHOR_VIEWS,
    WINDOW_VIEWS,
)
from tsolve.families.time_puzzles.search.windows import anchor_days as _anchor_days  # noqa: F401
from tsolve.families.time_puzzles.search.windows import window_view as _window_view  # noqa: F401
from tsolve.families.time_puzzles.solve import Puzzle, certify_known_gold, puzzle_readings
from tsolve.generators.seeding import record_rng, run_records
from tsolve.generators.style_pairs import style_slot
from tsolve.solver.base import SolveResult

GENERATOR_NAME = "time-puzzles"
# What each version changed: CHANGELOG.md.
GENERATOR_VERSION = "13"
# Ids carry the fingerprint of the options that shape content
# (``tp-3-0-5be2a1-implicit``; generators/style_pairs.py), so that
# runs with different options never share an id; with
# the version kept: the random key carries the version, and the content of
# every record is what version 5 made; only its id (and pair) gained the part.
# Fact sets found by the search but rejected because a reading changes their
# gold, before giving up; measured rejections are a few percent.
MAX_READING_REJECTIONS = 200


def generate_puzzle(
    seed: int = 0,
    index: int = 0,
    config: PuzzleConfig | None = None,
    **overrides: Unpack[PuzzleOverrides],
) -> dict[str, Any]:
    """Generate puzzle ``index`` of run ``seed`` as a JSON-ready record.

    ``overrides`` are :class:`PuzzleConfig` fields, for one-off calls:
    ``generate_puzzle(7, 0, solutions=3)``.
    """
    cfg = _call_config(config, overrides)
    _check_position(seed, "seed")
    _check_position(index, "index")
    number, slot = style_slot(cfg.style, index)  # the puzzle, and its wording
    style = cast(Style, slot)
    rng = record_rng(GENERATOR_NAME, GENERATOR_VERSION, seed, number, id_fingerprint(cfg))
    target = cfg.target(number)
    n_facts = cfg.facts if cfg.facts is not None else rng.randint(4, 6)
    search = _Search(rng, cfg, target, n_facts)
    got = _certified(search, style, puzzle_id(seed, number, style, cfg), (seed, index))
    order = list(range(len(got.facts)))
    rng.shuffle(order)  # the anchor need not come first in the prompt
    got.reorder(order)
    extra = _certificates(cfg, target, got)
    return puzzle_record(
        (GENERATOR_NAME, GENERATOR_VERSION, seed, index), number, style, cfg, got, extra
    )


def _certified(
    search: _Search, style: Style, puzzle_name: str, where: tuple[int, int]
) -> Certified:
    """The search's first fact set of the wanted difficulty whose gold the
    solver proves under every reading, within
    :data:`MAX_READING_REJECTIONS` sets. ``where`` is (seed, index), for
    the internal error's message."""
    cfg, target = search.cfg, search.m
    zero_core = target == 0 and not cfg.trivial_contradictions
    attempts = 0
    for _ in range(MAX_READING_REJECTIONS):
        found = search.run()
        attempts += found.attempts
        facts = found.facts
        masks = fact_masks(facts, cfg.domain)
        # The same masks as integers where the mask table keeps them cheaply
        # (a domain of a few hundred years): the sizes below are ANDs and bit
        # counts of a few integers, not a NumPy call per AND.
        sets: list[DaySet] = (
            [search.table.as_int(f) for f in facts] if search.packed else list(masks)
        )
        # A minimal set's every fact is needed (the search judged it so, and
        # certify_necessity proves it below), so all of them fix the answer.
        measured = difficulty(facts, sets, cfg.domain, style, cfg.minimal or zero_core)
        if cfg.difficulty is not None and measured["label"] != cfg.difficulty:
            continue
        # The gold is read off the facts' packed masks; keep the set only if
        # the solver proves that under every reading of its facts those dates,
        # and no others, are the answers (one call, an infeasibility proof).
        gold = days_of(all_of(masks), cfg.domain)
        if gold.size != target:
            raise AssertionError(
                f"internal error: the search found {target} answers but the facts' masks "
                f"give {gold.size} for seed={where[0]} index={where[1]}"
            )
        puzzle = Puzzle(puzzle_name, tuple(facts), cfg.domain, style)
        result, invariant = _certify_gold(puzzle, gold.tolist(), cfg.backend)
        if invariant:
            found_at = (found.seed_day, attempts, found.witnesses)
            return Certified(facts, sets, found_at, measured, result, puzzle_readings(puzzle))
    wanted = f" of {cfg.difficulty} difficulty" if cfg.difficulty else ""
    raise TsolveError(
        f"solutions: no puzzle{wanted} with exactly {_answers(target)} under every reading "
        f"found in {MAX_READING_REJECTIONS} tries; try other --facts or a wider domain"
    )


def _certify_gold(puzzle: Puzzle, gold: list[int], backend: str) -> tuple[SolveResult, bool]:
    """:func:`certify_known_gold` for both wordings of ``puzzle``.

    A pair is one puzzle in two wordings, and a one-style run makes the
    same puzzle as a paired one: keep a set only if its gold holds under
    the readings of both wordings (deciding by the record's own style
    let the two wordings of a pair diverge). The implicit
    wording leaves to knowledge what the explicit one spells out, so its
    readings include the explicit one's: an implicit record needs no
    second call, an explicit one checks the implicit readings too."""
    result, invariant = certify_known_gold(puzzle, gold, backend)
    if invariant and puzzle.style != IMPLICIT:
        implicit = replace(puzzle, style=IMPLICIT)
        _, invariant = certify_known_gold(implicit, gold, backend)
    return result, invariant


def _certificates(cfg: PuzzleConfig, target: int, got: Certified) -> dict[str, Any]:
    """The record's proofs beyond its gold: for a minimal puzzle or a
    minimal unsatisfiable one, that every fact is needed (``without``), and
    for the latter, that no two facts clash (``contradiction``)."""
    zero_core = target == 0 and not cfg.trivial_contradictions
    extra: dict[str, Any] = {}
    facts: list[Fact] = got.facts
    if cfg.minimal or zero_core:
        proposed = got.witnesses or None
        certify_necessity(facts, cfg.domain, cfg.backend, got.result.solutions, proposed)
        extra["without"] = sizes_without(got.sets, cfg.domain)
    if zero_core:
        # certify_known_gold's "unsat" is the proof that no date meets the
        # facts' upper bounds: the whole set's "no solution", not asked twice
        proved = got.result.status == "unsat"
        extra["contradiction"] = certify_contradiction(facts, cfg.domain, cfg.backend, proved)
    return extra


def generate_puzzles(
    count: int, seed: int = 0, config: PuzzleConfig | None = None, start: int = 0
) -> Iterator[dict[str, Any]]:
    """Records ``start .. start+count-1`` of run ``seed``, lazily. A wrong
    ``seed`` or ``config`` raises here, before the first record is read."""
    cfg = _call_config(config, {})
    _check_position(seed, "seed")
    return run_records(generate_puzzle, count, seed, cfg, start)
