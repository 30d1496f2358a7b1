"""reasoning-gym, by its conventions: typed configs and the registration.

reasoning-gym finds a dataset by name in its registry
(``reasoning_gym.factory.DATASETS``), builds its config dataclass from
keyword arguments, calls ``config.validate()`` and then the dataset class on
the config; ``CompositeDataset`` routes ``score_answer`` by the item's
``metadata.source_dataset``, and ``update_dataset_config`` rebuilds a
dataset from ``dataclasses.replace(config, ...)``. So that all of this works
for tsolve's families:

* every family that generates and scores is registered as
  ``tsolve_<family>`` (:func:`rg_name`) and its items carry that name as
  ``source_dataset`` (and ``metadata.difficulty``, :func:`tsolve.facade.difficulty_knobs`);
* every family has a config dataclass made from its declaration, with
  typed fields, one per generator option (``None``: the family's default)
  plus ``seed``, ``size`` and ``reward_metric``, and a ``validate()`` that runs the family's own
  option parsers, so a bad option is a one-line :class:`TsolveError` at
  ``create_dataset`` time rather than at the first item;
* ``seed=None`` draws a random seed, as reasoning-gym's own datasets do
  (``ProceduralDataset.__init__``), and the drawn seed is the dataset's
  ``seed``;
* every family has a curriculum, made from its ``Family.curriculum``
  (:mod:`tsolve.adapters.reasoning_gym_classes`; without one it has no
  attributes), so ``reasoning_gym.create_curriculum("tsolve_<family>")`` works;
* :func:`register_reasoning_gym` may be called any number of times.

This module does not import reasoning-gym; the dataset class and curricula,
which subclass reasoning-gym's own, live in ``reasoning_gym_classes``.
"""

from __future__ import annotations

from typing import Any

from tsolve.adapters.reasoning_gym_configs import (  # noqa: F401  (re-exported)
    BASE_FIELDS,
    TsolveConfig,
    config_class,
    rg_name,
)
from tsolve.contract import all_families
from tsolve.errors import TsolveError


def register_reasoning_gym() -> list[str]:
    """Register every family that generates and scores in reasoning-gym's
    registry as ``tsolve_<family>``, with its curriculum where it has one,
    and return the names. Calling it again changes nothing; a name that
    another package registered is a one-line :class:`TsolveError`. It also
    makes ``reasoning_gym.create_curriculum`` (the factory's own function)
    reachable at the top of the package, where 0.1.25 lacks it. Without
    reasoning-gym installed it is a one-line error naming the extra."""
    try:
        import reasoning_gym
        from reasoning_gym import factory

        from tsolve.adapters.reasoning_gym_classes import (
            TsolveReasoningGymDataset,
            curriculum_class,
        )
    except ImportError:
        raise TsolveError("reasoning-gym: not installed (pip install 'tsolve[rg]')") from None

    names = []
    for family in all_families():
        if family.generate is None or family.score is None or not family.available():
            continue
        name = rg_name(family.name)
        curriculum = curriculum_class(family)
        registered = factory.DATASETS.get(name)
        if registered is None:
            factory.register_dataset(
                name, TsolveReasoningGymDataset, config_class(family), curriculum
            )
        elif registered[0] is not TsolveReasoningGymDataset:
            raise TsolveError(f"reasoning-gym: {name!r} is already registered by another package")
        else:  # ours: the family's classes now (the same ones, unless it was declared again)
            factory.DATASETS[name] = (TsolveReasoningGymDataset, config_class(family))
            factory.CURRICULA[name] = curriculum
        names.append(name)
    # reasoning-gym 0.1.25 defines create_curriculum in its factory but does not
    # re-export it at the top, where create_dataset is; offer the same function
    # there, so reasoning_gym.create_curriculum("tsolve_<family>") works as documented.
    if not hasattr(reasoning_gym, "create_curriculum"):
        reasoning_gym.create_curriculum = factory.create_curriculum
    return names


def __getattr__(name: str) -> Any:
    """The family config classes (``TimePuzzlesConfig``, ...), re-exported
    from :mod:`tsolve.adapters.reasoning_gym_configs`."""
    from tsolve.adapters import reasoning_gym_configs

    return getattr(reasoning_gym_configs, name)
