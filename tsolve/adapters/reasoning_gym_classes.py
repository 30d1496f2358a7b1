"""The reasoning-gym classes: one dataset class and a curriculum per family.

These subclass reasoning-gym's own (``ProceduralDataset``,
``BaseCurriculum``), so this module imports reasoning-gym at load; it is
imported only by :func:`tsolve.adapters.reasoning_gym.register_reasoning_gym`.
Classes live at module level so that datasets and curricula pickle (data
loaders hand datasets to worker processes).

Curriculum levels are ordered by tsolve's own difficulty measures, and
``tests/test_reasoning_gym.py`` holds each ordering on a sample:

* time puzzles: ``facts`` (3..6) and ``style`` (explicit, then implicit),
  ordered by the measured score of :mod:`tsolve.families.time_puzzles.difficulty`
  (facts needed to fix the answer + implicit facts + 2 for the Chinese
  calendar). On 12 puzzles per cell (seed 1) the mean score rose with both:
  explicit 4.3, 6.0, 7.0, 8.0 and implicit 5.3, 7.0, 8.5, 9.3 for 3..6
  facts. (Seven facts and more are not minimal puzzles and measure easier,
  so they are not a level.) The generator's own ``difficulty`` filter is not
  used: with M fixed it often finds no easy or medium puzzle in 200 tries;
* SPAN: the offset bounds ``max_days``, ``max_weeks``, ``max_years``: a
  longer offset is more counting and more month and year lengths of the
  target calendar to get right. This ordering is by the arithmetic asked
  (the mean offset grows with the level), not by a measured gap: the
  table-free estimator (:mod:`tsolve.families.span.polar_baseline`) gets 53-59 % of polar
  items right at every level (100 polar items per level, seed 1), since
  the near misses, not the offsets, are what defeat it (docs/rl.md);
* logistics: ``difficulty`` (the benchmark's split: more trucks, planes and
  packages) and ``depth`` (events in the timeline, each one more step to
  track); execution and question type stay free choices of the config.
* relational puzzles: ``events``, the number of unknown dates.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from reasoning_gym.coaching import BaseCurriculum, ScalarAttributeDefinition
from reasoning_gym.dataset import ProceduralDataset

from tsolve.adapters.reasoning_gym_configs import (
    LogisticsConfig,
    RelationalPuzzlesConfig,
    SpanConfig,
    TimePuzzlesConfig,
    TsolveConfig,
    rg_name,
)
from tsolve.facade import Entry, TsolveDataset


class TsolveReasoningGymDataset(ProceduralDataset):
    """Every tsolve family's dataset class: the family is the config's.
    Item ``i`` is the facade's item ``i`` of the run ``self.seed`` with
    ``metadata.source_dataset`` set to the registered name."""

    def __init__(self, config: TsolveConfig) -> None:
        super().__init__(config=config, seed=config.seed, size=config.size)
        self.name = rg_name(config.family)
        self.tsolve = TsolveDataset(
            config.family, self.seed, config.size, config.reward_metric, **config.options()
        )

    def __getstate__(self) -> dict[str, Any]:
        # The family holds its parsers, which do not pickle: a dataset pickles
        # as its config and seed and is rebuilt on loading (items are a pure
        # function of both).
        return {"config": self.config, "seed": self.seed}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(dataclasses.replace(state["config"], seed=state["seed"]))  # type: ignore[misc]
        self.config = state["config"]

    @property
    def category(self) -> str:
        return "tsolve"

    def __getitem__(self, idx: int) -> Entry:
        entry = self.tsolve[idx]
        entry["metadata"]["source_dataset"] = self.name
        return entry

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """tsolve's scorer (:func:`tsolve.facade.score_answer`): the family's
        main metric, 0.0 for anything unreadable, never raises on an answer."""
        return self.tsolve.score_answer(answer, entry)


class TsolveCurriculum(BaseCurriculum):
    """A curriculum of scalar attributes, one per config field in ``levels``,
    each level list ordered from easiest to hardest (module docstring)."""

    config_cls: ClassVar[type[TsolveConfig]] = TsolveConfig
    levels: ClassVar[dict[str, list[Any]]] = {}
    descriptions: ClassVar[dict[str, str]] = {}

    def __init__(self) -> None:
        super().__init__(type(self).__name__, self.config_cls)
        self._define_attributes(
            *(
                ScalarAttributeDefinition(
                    name=name,
                    field_name=name,
                    levels=list(levels),
                    description=self.descriptions.get(name),
                )
                for name, levels in self.levels.items()
            )
        )


class TimePuzzlesCurriculum(TsolveCurriculum):
    config_cls = TimePuzzlesConfig
    levels: ClassVar[dict[str, list[Any]]] = {
        "facts": [3, 4, 5, 6],
        "style": ["explicit", "implicit"],
    }
    descriptions: ClassVar[dict[str, str]] = {
        "facts": "facts per puzzle (minimal puzzles)",
        "style": "dates given (explicit) or named by events (implicit)",
    }


class SpanCurriculum(TsolveCurriculum):
    config_cls = SpanConfig
    levels: ClassVar[dict[str, list[Any]]] = {
        "max_days": [7, 30, 100, 365, 1000],
        "max_weeks": [2, 8, 20, 52, 150],
        "max_years": [1, 3, 10, 20, 40],
    }
    descriptions: ClassVar[dict[str, str]] = {
        "max_days": "largest offset in days",
        "max_weeks": "largest offset in weeks",
        "max_years": "largest offset in years (festival questions)",
    }


class LogisticsCurriculum(TsolveCurriculum):
    config_cls = LogisticsConfig
    levels: ClassVar[dict[str, list[Any]]] = {
        "difficulty": ["easy", "medium", "hard"],
        "depth": [2, 4, 6, 9, 12, 16, 20],
    }
    descriptions: ClassVar[dict[str, str]] = {
        "difficulty": "the benchmark's split: how many vehicles and packages",
        "depth": "events in the timeline",
    }


class RelationalPuzzlesCurriculum(TsolveCurriculum):
    config_cls = RelationalPuzzlesConfig
    levels: ClassVar[dict[str, list[Any]]] = {"events": [2, 3, 4]}
    descriptions: ClassVar[dict[str, str]] = {"events": "unknown dates to find"}


CURRICULA: dict[str, type[TsolveCurriculum]] = {
    cls.config_cls.family: cls
    for cls in (
        TimePuzzlesCurriculum,
        SpanCurriculum,
        LogisticsCurriculum,
        RelationalPuzzlesCurriculum,
    )
}
