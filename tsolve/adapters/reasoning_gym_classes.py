"""The reasoning-gym classes: one dataset class and a curriculum per family.

These subclass reasoning-gym's own (``ProceduralDataset``,
``BaseCurriculum``), so this module imports reasoning-gym at load; it is
imported only by :func:`tsolve.adapters.reasoning_gym.register_reasoning_gym`.
Classes live at module level so that datasets and curricula pickle (data
loaders hand datasets to worker processes).

Curriculum levels are each family's own (``Family.curriculum``, ordered
from easiest to hardest by the family's difficulty measures, which its
``family.py`` gives the grounds for), and ``tests/test_reasoning_gym.py``
holds each ordering on a sample.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from reasoning_gym.coaching import BaseCurriculum, ScalarAttributeDefinition
from reasoning_gym.dataset import ProceduralDataset

from tsolve.adapters.reasoning_gym_configs import (
    TsolveConfig,
    class_name,
    config_class,
    rg_name,
)
from tsolve.contract import Family, all_families, get_family
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


_CURRICULA: dict[str, tuple[Family, type[TsolveCurriculum]]] = {}


def curriculum_class(family: Family) -> type[TsolveCurriculum]:
    """The curriculum class of ``family``, made from its declaration
    (``Family.curriculum``: knob -> levels, easiest first, and
    ``curriculum_notes``), one per family and process. A family that declares
    no curriculum gets one without attributes, so
    ``reasoning_gym.create_curriculum`` works for every family."""
    cached = _CURRICULA.get(family.name)
    if cached is not None and cached[0] is family:
        return cached[1]
    name = class_name(family.name, "Curriculum")
    found: type[TsolveCurriculum] = type(
        name,
        (TsolveCurriculum,),
        {
            "__module__": __name__,
            "__qualname__": name,
            "config_cls": config_class(family),
            "levels": {k: list(v) for k, v in family.curriculum.items()},
            "descriptions": dict(family.curriculum_notes),
        },
    )
    _CURRICULA[family.name] = (family, found)
    return found


class _Curricula(Mapping[str, type[TsolveCurriculum]]):
    """The curriculum class of every family that declares one, by family name."""

    def _names(self) -> list[str]:
        return [f.name for f in all_families() if f.curriculum and f.generate is not None]

    def __getitem__(self, name: str) -> type[TsolveCurriculum]:
        if name not in self._names():
            raise KeyError(name)
        return curriculum_class(get_family(name))

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


CURRICULA: Mapping[str, type[TsolveCurriculum]] = _Curricula()
"""Every family's curriculum class that declares a curriculum, by family name."""


def __getattr__(name: str) -> Any:
    """A family's curriculum class by its name here (``SpanCurriculum``)."""
    if name.endswith("Curriculum"):
        for family in all_families():
            if class_name(family.name, "Curriculum") == name and family.generate is not None:
                return curriculum_class(family)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
