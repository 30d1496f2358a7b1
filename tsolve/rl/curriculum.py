"""A curriculum that follows the rewards: difficulty moved to hold a success rate.

:class:`Curriculum` holds, per family, an ordered ladder of values for each
difficulty knob (easiest first; the knobs are generator options, such as
``solutions`` or ``facts``) and the rung each knob is on. Each batch's
rewards for a family go into a window; when the window holds ``window``
rewards its mean is compared with ``target``: above ``target + band`` one
knob moves a rung harder, below ``target - band`` one moves a rung easier
(knobs take turns, in the order given), and the window starts again.
:meth:`Curriculum.options` is the family's generator options for the next
items.

The state is plain data (:meth:`Curriculum.state`, JSON-ready) and every
decision depends only on it and the rewards given, so a run resumed from a
saved state (:meth:`Curriculum.from_state`) makes the same decisions.

:func:`equal_reward_filter` drops prompts whose sampled rewards are all
equal (no learning signal for a group-relative advantage); a curriculum
applies it only when made with ``filter_equal=True``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tsolve.errors import TsolveError
from tsolve.records.validation import shown

STATE_VERSION = 1


def equal_reward_filter(groups: Sequence[Sequence[float]]) -> list[bool]:
    """For each prompt's sampled rewards, whether to keep it: False when they
    are all equal (one sample is never informative either)."""
    return [len(set(map(float, g))) > 1 for g in groups]


def _reward(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise TsolveError(f"reward: expected a number in [0, 1], got {shown(value)}")
    return float(value)


class Curriculum:
    """See the module docstring. ``ladders``: ``{family: {knob: [easiest, ...,
    hardest]}}``; ``start``: the rung each knob begins on (default 0)."""

    def __init__(
        self,
        ladders: Mapping[str, Mapping[str, Sequence[Any]]],
        target: float = 0.5,
        window: int = 64,
        band: float = 0.05,
        filter_equal: bool = False,
        start: Mapping[str, Mapping[str, int]] | None = None,
    ) -> None:
        if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target < 1:
            raise TsolveError(
                f"target: expected a success rate between 0 and 1, got {shown(target)}"
            )
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise TsolveError(f"window: expected an integer >= 1, got {shown(window)}")
        if isinstance(band, bool) or not isinstance(band, (int, float)) or not 0 <= band < 0.5:
            raise TsolveError(f"band: expected a number in [0, 0.5), got {shown(band)}")
        if not isinstance(ladders, Mapping) or not ladders:
            raise TsolveError("ladders: expected {family: {knob: [values, ...]}}")
        self.ladders: dict[str, dict[str, list[Any]]] = {}
        for family, knobs in ladders.items():
            if not isinstance(knobs, Mapping) or not knobs:
                raise TsolveError(f"ladders: {family!r} needs at least one knob")
            self.ladders[str(family)] = {}
            for knob, values in knobs.items():
                if (
                    isinstance(values, (str, bytes))
                    or not isinstance(values, Sequence)
                    or not values
                ):
                    raise TsolveError(f"ladders: {family}.{knob} must list at least one value")
                self.ladders[str(family)][str(knob)] = list(values)
        self.target, self.window, self.band = float(target), window, float(band)
        self.filter_equal = filter_equal
        self.rungs = {f: {k: 0 for k in ks} for f, ks in self.ladders.items()}
        for family, rungs in (start or {}).items():
            for knob, rung in rungs.items():
                self._ladder(family, knob)
                if not isinstance(rung, int) or not 0 <= rung < len(self.ladders[family][knob]):
                    raise TsolveError(f"start: {family}.{knob} has no rung {rung!r}")
                self.rungs[family][knob] = rung
        self.pending: dict[str, list[float]] = {f: [] for f in self.ladders}
        self.turn: dict[str, int] = {f: 0 for f in self.ladders}
        self.history: list[dict[str, Any]] = []

    def _ladder(self, family: str, knob: str | None = None) -> dict[str, list[Any]]:
        if family not in self.ladders:
            raise TsolveError(
                f"family: {family!r} is not in this curriculum ({', '.join(self.ladders)})"
            )
        if knob is not None and knob not in self.ladders[family]:
            raise TsolveError(f"knob: {knob!r} is not a knob of {family} in this curriculum")
        return self.ladders[family]

    def options(self, family: str) -> dict[str, Any]:
        """``family``'s generator options for the next items."""
        ladder = self._ladder(family)
        return {k: ladder[k][r] for k, r in self.rungs[family].items()}

    def keep(self, groups: Sequence[Sequence[float]]) -> list[bool]:
        """:func:`equal_reward_filter` when ``filter_equal``, else all kept."""
        return equal_reward_filter(groups) if self.filter_equal else [True] * len(groups)

    def update(self, family: str, rewards: Sequence[float]) -> list[dict[str, Any]]:
        """Take one batch's rewards for ``family``; return the moves it made
        (``{"family", "knob", "from", "to", "rate"}``, also kept in ``history``)."""
        self._ladder(family)
        moves = []
        for value in rewards:
            window = self.pending[family]
            window.append(_reward(value))
            if len(window) < self.window:
                continue
            rate = sum(window) / len(window)
            window.clear()
            step = (
                1 if rate > self.target + self.band else -1 if rate < self.target - self.band else 0
            )
            if step:
                move = self._move(family, step, rate)
                if move is not None:
                    moves.append(move)
        self.history.extend(moves)
        return moves

    def _move(self, family: str, step: int, rate: float) -> dict[str, Any] | None:
        knobs = list(self.ladders[family])
        for offset in range(len(knobs)):  # the first knob, in turn, that can move that way
            knob = knobs[(self.turn[family] + offset) % len(knobs)]
            rung = self.rungs[family][knob]
            if 0 <= rung + step < len(self.ladders[family][knob]):
                self.rungs[family][knob] = rung + step
                self.turn[family] = (self.turn[family] + offset + 1) % len(knobs)
                return {"family": family, "knob": knob, "from": rung, "to": rung + step,
                        "rate": round(rate, 6)}  # fmt: skip
        return None

    def held(
        self, sources: Sequence[object] | None, rewards: Sequence[float]
    ) -> list[tuple[str, float]]:
        """``(family, reward)`` for each row whose ``data_source`` (``sources``,
        one per reward) is a family this curriculum holds, in row order."""
        given = sources or [None] * len(rewards)
        return [(str(f), v) for f, v in zip(given, rewards, strict=True) if f in self.ladders]

    def watch(self, reward: Callable[..., list[float]]) -> Callable[..., list[float]]:
        """``reward`` (a TRL reward function, :func:`tsolve.rl.trl_reward`)
        that also feeds each batch's rewards to :meth:`update`, per row's
        ``data_source`` column: a trainer's rewards drive the curriculum with
        no callback. Rows of a family the curriculum does not hold are
        scored and left out."""

        def watched(completions: Sequence[object], **kwargs: Any) -> list[float]:
            rewards = reward(completions, **kwargs)
            by_family: dict[str, list[float]] = {}
            for family, value in self.held(kwargs.get("data_source"), rewards):
                by_family.setdefault(family, []).append(value)
            for family, values in by_family.items():
                self.update(family, values)
            return rewards

        watched.__name__ = watched.__qualname__ = getattr(reward, "__name__", "reward")
        return watched

    # ------------------------------------------------------------ reasoning-gym

    @classmethod
    def from_reasoning_gym(cls, curricula: Mapping[str, Any], **kwargs: Any) -> Curriculum:
        """A curriculum whose ladders are reasoning-gym curricula's attribute
        levels (``{family: curriculum}``, e.g. tsolve's own ``tsolve_span``
        curriculum from ``reasoning_gym.create_curriculum``), starting at
        their current levels. Only scalar attributes (a ``levels`` list and
        a ``get_attr_level``) are read, so reasoning-gym need not be
        imported here."""
        ladders: dict[str, dict[str, list[Any]]] = {}
        start: dict[str, dict[str, int]] = {}
        for family, rg in curricula.items():
            attributes = getattr(rg, "attributes", None)
            if not isinstance(attributes, Mapping) or not attributes:
                raise TsolveError(f"curricula: {family!r} is not a reasoning-gym curriculum")
            ladders[family] = {name: list(a.levels) for name, a in attributes.items()}
            start[family] = {name: int(rg.get_attr_level(name)) for name in attributes}
        return cls(ladders, start=start, **kwargs)

    def apply_to(self, family: str, rg_curriculum: Any) -> None:
        """Set a reasoning-gym curriculum's attribute levels to ``family``'s
        rungs, so ``rg_curriculum.generate_configuration()`` makes the items
        this curriculum chose."""
        self._ladder(family)
        for knob, rung in self.rungs[family].items():
            rg_curriculum.set_attr_level(knob, rung)

    def apply_to_experiment(self, experiment: Any, names: Mapping[str, str]) -> None:
        """Set a reasoning-gym ``CurriculumExperiment``'s curricula to this
        curriculum's rungs (``names``: ``{family: reasoning-gym dataset name}``)
        and remake those datasets of its composite with the fields the
        curricula set, as the experiment's own ``update_difficulty`` does, so
        its next entries are what the rewards chose."""
        for family, rg_name in names.items():
            rg_curriculum = getattr(experiment, "curricula", {}).get(rg_name)
            if rg_curriculum is None:
                raise TsolveError(f"experiment: no curriculum named {rg_name!r}")
            self.apply_to(family, rg_curriculum)
            config = rg_curriculum.generate_configuration(
                context=getattr(experiment, "context", None)
            )
            fields = [
                name
                for attribute in rg_curriculum.attributes.values()
                for kind in ("field_name", "lower_field_name", "upper_field_name")
                if (name := getattr(attribute, kind, None))
            ]
            experiment.composite.update_dataset_config(
                rg_name, {name: getattr(config, name) for name in fields}
            )

    # ------------------------------------------------------------ state

    def state(self) -> dict[str, Any]:
        """Everything the next decision depends on, as plain JSON-ready data."""
        return {
            "version": STATE_VERSION, "ladders": self.ladders, "target": self.target,
            "window": self.window, "band": self.band, "filter_equal": self.filter_equal,
            "rungs": self.rungs, "pending": self.pending, "turn": self.turn,
            "history": self.history,
            # JSON written with sorted keys loses the ladders' order, which
            # decides the families' turn and each family's next knob.
            "order": [[family, list(knobs)] for family, knobs in self.ladders.items()],
        }  # fmt: skip

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Curriculum:
        """The curriculum :meth:`state` saved, to resume with the same decisions."""
        if not isinstance(state, Mapping) or state.get("version") != STATE_VERSION:
            raise TsolveError(
                f"state: expected a tsolve curriculum state (version {STATE_VERSION})"
            )
        try:
            ladders = state["ladders"]
            if "order" in state:  # older states have none: their order is the file's
                ladders = {family: {knob: ladders[family][knob] for knob in knobs}
                           for family, knobs in state["order"]}  # fmt: skip
                if {f: set(k) for f, k in ladders.items()} != {
                    f: set(k) for f, k in state["ladders"].items()
                }:
                    raise ValueError("its order does not list its ladders")
            made = cls(ladders, state["target"], state["window"], state["band"],
                       bool(state["filter_equal"]), start=state["rungs"])  # fmt: skip
            for family, values in state["pending"].items():
                made._ladder(family)
                made.pending[family] = [_reward(v) for v in values]
            for family, turn in state["turn"].items():
                made._ladder(family)
                made.turn[family] = int(turn)
            made.history = [dict(m) for m in state["history"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise TsolveError(f"state: not a tsolve curriculum state ({exc})") from None
        return made

    def save(self, path: str | Path) -> None:
        """Write :meth:`state` as JSON, whole or not at all
        (:func:`~tsolve.records.folders.write_file_whole`: beside, then
        renamed into place; never through a symbolic link)."""
        from tsolve.records.folders import write_file_whole

        write_file_whole(path, json.dumps(self.state(), sort_keys=True).encode(), "state")

    @classmethod
    def load(cls, path: str | Path) -> Curriculum:
        """The curriculum :meth:`save` wrote to ``path``."""
        try:
            state = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TsolveError(f"state: cannot read {path}: {exc}") from None
        return cls.from_state(state)
