"""A time puzzle's record: its id, and the JSON fields assembled from a
certified fact set (:class:`Certified`). Nothing here searches or proves;
every field is read off what the generator already established."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from tsolve.calendars.domain import iso
from tsolve.encodings.facts import Fact, Style, information_gain
from tsolve.families.time_puzzles.config import PuzzleConfig
from tsolve.families.time_puzzles.difficulty import DaySet
from tsolve.families.time_puzzles.prompt import render_prompt
from tsolve.generators.seeding import generator_stamp
from tsolve.generators.style_pairs import content_fingerprint, pair_id, styled_id
from tsolve.solver.base import SolveResult

FAMILY = "time-puzzles"
ID_PREFIX = "tp"


def puzzle_id(
    seed: int, index: int, style: str = "implicit", config: PuzzleConfig | None = None
) -> str:
    """The id of puzzle ``index`` of run ``seed`` in ``style`` made with
    ``config`` (its puzzle number, not its record index, and the fingerprint
    of the options that shape content: see generators/style_pairs.py)."""
    return styled_id(ID_PREFIX, seed, index, style, id_fingerprint(config or PuzzleConfig()))


@lru_cache(maxsize=64)
def id_fingerprint(config: PuzzleConfig) -> str:
    """The fingerprint ids carry (:func:`~tsolve.generators.style_pairs.content_fingerprint`)."""
    return content_fingerprint(config.to_json())


class Certified:
    """A fact set the generator kept, with what it proved of it: the facts
    (the anchor first) and their day sets, the seed day and the attempts the
    search spent, the witnesses it proposed (empty unless minimal), the
    measured difficulty, the solver's result and the readings."""

    __slots__ = (
        "attempts", "facts", "measured", "readings", "result", "seed_day", "sets", "witnesses"
    )  # fmt: skip

    def __init__(
        self,
        facts: list[Fact],
        sets: list[DaySet],
        found: tuple[int, int, list[int | None]],
        measured: dict[str, Any],
        result: SolveResult,
        readings: Any,
    ) -> None:
        self.facts = facts
        self.sets = sets
        self.seed_day, self.attempts, self.witnesses = found
        self.measured = measured
        self.result = result
        self.readings = readings

    def reorder(self, order: list[int]) -> None:
        """Put the facts (and their sets and witnesses) in prompt order."""
        self.facts = [self.facts[i] for i in order]
        self.sets = [self.sets[i] for i in order]
        if self.witnesses:
            self.witnesses = [self.witnesses[i] for i in order]


def puzzle_record(
    key: tuple[str, str, int, int],
    number: int,
    style: Style,
    cfg: PuzzleConfig,
    got: Certified,
    extra: dict[str, Any],
) -> dict[str, Any]:
    """The JSON record of puzzle ``number`` in ``style`` (record ``index`` of
    run ``seed``; ``key`` is (generator name, version, seed, index)), its
    facts in prompt order. ``extra`` holds the minimal and zero-answer
    certificates' fields."""
    name, version, seed, index = key
    target = cfg.target(number)
    result = got.result
    # The other wording of these facts; a difficulty filter (measured per
    # style) may keep other facts there, so such puzzles name no pair.
    pair = (
        {}
        if cfg.difficulty
        else {"pair": pair_id(ID_PREFIX, seed, number, style, id_fingerprint(cfg))}
    )
    return {
        "id": puzzle_id(seed, number, style, cfg),
        **pair,
        "family": FAMILY,
        "generator": generator_stamp(
            name,
            version,
            seed,
            index,
            cfg.to_json(),
            seed_date=iso(got.seed_day),
            attempts=got.attempts,
        ),
        "style": style,
        "domain": cfg.domain.to_json(),
        "facts": [
            {**f.to_json(style), "information_gain": round(information_gain(f, cfg.domain), 6)}
            for f in got.facts
        ],
        "prompt": render_prompt(got.facts, style),
        "answers": [iso(d) for d in result.solutions],
        "readings": got.readings,
        **extra,
        "difficulty": got.measured,
        "solution_count": result.count,
        "solver": {
            "backend": result.backend,
            "cap": target + 1,
            "count": result.count,
            "complete": result.complete or result.count < target + 1,
        },
    }
