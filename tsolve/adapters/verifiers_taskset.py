"""A taskset for PrimeIntellect's ``verifiers`` (the ``verifiers.v1`` API).

verifiers 0.4 loads a taskset by id: ``verifiers.v1.load_taskset(
TasksetConfig(id="tsolve_taskset"))`` imports the module ``tsolve_taskset``
(shipped with tsolve's distribution, a shim over this module) and takes the
one :class:`Taskset` subclass its ``__all__`` exports. Each task is one
record of a tsolve run, generated on load:

* the config chooses the ``family`` (default: the first that ``tsolve
  families`` lists, :func:`tsolve.facade.default_family`), ``count``,
  ``seed`` and the generator ``options`` (as ``tsolve dataset --set`` takes
  them); a bad one fails validation of the config, in one line, before any
  task is made;
* ``data.prompt`` is the record's prompt, ``data.answer`` the gold as the
  bare text the family's scorer reads (``Family.answer``), ``data.id`` the
  record id, ``data.record`` the whole record and ``data.difficulty`` its
  knobs (:func:`tsolve.facade.difficulty_knobs`);
* the one reward, ``correct``, is tsolve's scorer on the model's last reply
  (:func:`tsolve.facade.score_answer`): the family's main metric, read by the
  one final-answer rule of docs/scoring.md, so a reply ending ``MY ANSWER:
  <gold>`` earns 1.0 and anything unreadable 0.0; ``task.reward_metric``
  picks another non-gameable metric (``f1`` for partial credit).

Tools: ``task.tools`` is a tool condition of the
seeds' tool-augmented evaluation: ``none`` (the
default) or ``calendar``, SPAN's ``search_calendar`` and the conversion and
festival tools, the functions ``tsolve mcp`` serves
(:mod:`tsolve.adapters.verifiers_tools`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import Field, model_validator

from tsolve.contract import get_family
from tsolve.facade import (
    MAX_SIZE,
    TsolveDataset,
    check_reward_metric,
    default_family,
    record_of,
    score_answer,
)


class TsolveTaskData(vf.TaskData):
    """One record as a task: the prompt, the gold answer and the record."""

    family: str = ""
    answer: str = ""
    """The gold answer as the bare text the family's scorer reads."""
    difficulty: dict[str, Any] = Field(default_factory=dict)
    record: dict[str, Any] = Field(default_factory=dict)
    """The whole record, as ``tsolve dataset`` writes it: what the scorer reads."""


class TsolveTaskConfig(vf.TaskConfig):
    """Scoring knobs (``--env.taskset.task.*``)."""

    reward_metric: str | None = None
    """A named reward metric of the family's scorer instead of its main one
    (``f1`` for partial credit); a gameable or diagnostic one
    (``Family.gameable_metrics``, ``diagnostic_metrics``) or one the scorer does not report is
    refused when the taskset config is validated."""
    tools: Literal["none", "calendar"] = "none"
    """The tool condition of the tool-augmented evaluation: no tools, or tsolve's calendar tools."""
    toolset: vf.ToolsetConfig = vf.ToolsetConfig()
    """Where the tool server runs (verifiers' own settings)."""


class TsolveTask(vf.Task[TsolveTaskData, vf.State, TsolveTaskConfig]):
    """A tsolve record, scored by tsolve's scorer."""

    @property
    def key(self) -> str:
        # The record id is durable: the same seed and options give the same id.
        return str(self.data.id) if self.data.id else str(self.hash)

    @classmethod
    def toolsets(cls, config: TsolveTaskConfig) -> list[vf.Toolset]:
        if config.tools == "calendar":
            from tsolve.adapters.verifiers_tools import TsolveCalendarToolset

            return [TsolveCalendarToolset(config.toolset)]
        return []

    @vf.reward(weight=1.0)
    async def correct(self, trace: vf.Trace) -> float:
        entry = {"metadata": {"record": self.data.record}}
        return score_answer(trace.last_reply, entry, self.config.reward_metric)


class TsolveTasksetConfig(vf.TasksetConfig):
    """What to generate (``--env.taskset.*``). The default is 100 records of
    seed 0 of :func:`tsolve.facade.default_family`, with its default options."""

    family: str = Field(default_factory=default_family)
    count: int = Field(default=100, ge=0, le=MAX_SIZE)
    seed: int = Field(default=0, ge=0)
    options: dict[str, Any] = Field(default_factory=dict)
    """Generator options, as ``tsolve dataset --set`` takes them."""
    task: TsolveTaskConfig = TsolveTaskConfig()

    @model_validator(mode="after")
    def _check(self) -> TsolveTasksetConfig:
        # The family's own parsers: a bad family or option is a one-line
        # TsolveError (a ValueError, so pydantic reports it on the config).
        family = get_family(self.family, need="generate")
        family.require("score")
        check_reward_metric(family, self.task.reward_metric, family.make_options(self.options))
        return self


class TsolveTaskset(vf.Taskset[TsolveTask, TsolveTasksetConfig]):
    """``count`` records of ``family``'s run ``seed``, in index order."""

    def __init__(self, config: vf.TasksetConfig) -> None:
        # load_taskset(TasksetConfig(id=...)) hands over the base config: its
        # fields are read into this taskset's own (validated) config.
        if not isinstance(config, TsolveTasksetConfig):
            config = TsolveTasksetConfig.model_validate(config.model_dump())
        super().__init__(config)

    def load(self) -> Iterator[TsolveTask]:
        cfg = self.config
        dataset = TsolveDataset(cfg.family, seed=cfg.seed, size=cfg.count, **cfg.options)
        for entry in dataset:
            record = record_of(entry)
            data = TsolveTaskData(
                id=str(record.get("id")),
                name=f"{dataset.family.name} {record.get('id')}",
                prompt=entry["question"],
                family=dataset.family.name,
                answer=entry["answer"],
                difficulty=entry["metadata"]["difficulty"],
                record=record,
            )
            yield TsolveTask(data, cfg.task)


__all__ = ["TsolveTask", "TsolveTaskData", "TsolveTaskset", "TsolveTasksetConfig"]
