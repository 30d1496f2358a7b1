"""A reward metric or a size that cannot work is refused when a config is
made (reasoning-gym's ``validate()``, the verifiers taskset config, the
facade's ``create_dataset``), never at the first reward of a training run.

Oracle: what the scorer itself does with the metric. A metric the config
accepts must give a reward for a real item; a metric it refuses is one the
reward function would have refused at that item too."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from tsolve.errors import TsolveError
from tsolve.facade import MAX_SIZE, create_dataset, score_answer

FAMILIES = ("time-puzzles", "span", "logistics", "relational-puzzles")
NAMES = ("em", "f1", "jaccard", "accuracy", "partial", "alt_reading", "bogus", "", "EM")


def _first_entry(family: str) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return create_dataset(family, seed=0, size=1)[0]


@pytest.mark.parametrize("family", FAMILIES)
def test_a_metric_is_accepted_exactly_when_it_gives_a_reward(family: str) -> None:
    entry = _first_entry(family)
    for name in NAMES:
        try:  # the reward function at the first item, as a training run calls it
            reward = score_answer(str(entry["answer"]), entry, name)
            gives_reward = True
        except TsolveError:
            gives_reward = False
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                create_dataset(family, seed=0, size=1, reward_metric=name)
            accepted = True
        except TsolveError:
            accepted = False
        assert accepted == gives_reward, (family, name)
        if gives_reward:
            assert reward == 1.0  # the gold answer, under any reward metric


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("bogus", "expected one of em, f1, jaccard"),
        ("", "expected one of em, f1, jaccard"),
        ("alt_reading", "a diagnostic"),
        (7, "expected text"),
    ],
)
def test_the_facade_refuses_a_bad_reward_metric_at_creation(name: Any, why: str) -> None:
    with pytest.raises(TsolveError, match=why):
        create_dataset("time-puzzles", size=2, reward_metric=name)


@pytest.mark.parametrize("size", [MAX_SIZE + 1, 10**30, 2**63, -1, True, 2.0])
def test_the_facade_refuses_a_size_out_of_range(size: Any) -> None:
    with pytest.raises(TsolveError, match=r"size: expected an integer in 0\.\.1000000000"):
        create_dataset("span", size=size)


def test_the_largest_size_works_lazily() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = create_dataset("span", size=MAX_SIZE, distinct=False)
        held = create_dataset("span", size=MAX_SIZE)
    assert len(ds) == MAX_SIZE  # len() fails from 2**63 on, where sizes used to overflow
    assert ds[-1]["metadata"]["record"]["id"] != ds[0]["metadata"]["record"]["id"]
    # A distinct dataset's far item would pass a billion items first: a one-line error.
    with pytest.raises(TsolveError, match="read the items in order, or create the dataset"):
        held[-1]
    assert held.settled == 0 and held[0] == ds[0]


# ------------------------------------------------------------------ reasoning-gym


@pytest.fixture(scope="module")
def rg() -> Any:
    module = pytest.importorskip("reasoning_gym", reason="the rg extra is not installed")
    from tsolve.adapters.reasoning_gym import register_reasoning_gym

    register_reasoning_gym()
    return module


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"reward_metric": "bogus"}, "reward_metric: expected one of em, f1, jaccard"),
        ({"reward_metric": ""}, "reward_metric: expected one of"),
        ({"reward_metric": "alt_reading"}, "never a reward"),
        ({"size": 10**30}, r"size: expected an integer in 1\.\.1000000000"),
        ({"size": 0}, r"size: expected an integer in 1\.\.1000000000"),
    ],
)
def test_reasoning_gym_validate_refuses_what_would_fail_later(
    rg: Any, fields: dict[str, Any], why: str
) -> None:
    from tsolve.adapters.reasoning_gym_configs import TimePuzzlesConfig

    with pytest.raises(TsolveError, match=why):
        TimePuzzlesConfig(seed=1, **fields).validate()
    with pytest.raises(TsolveError, match=why):  # and reasoning-gym's own factory
        rg.create_dataset("tsolve_time_puzzles", seed=1, **{"size": 2, **fields})


def test_reasoning_gym_accepts_a_reward_metric_the_family_offers(rg: Any) -> None:
    ds = rg.create_dataset("tsolve_span", seed=1, size=2, reward_metric="accuracy")
    entry = ds[0]
    assert ds.score_answer(str(entry["answer"]), entry) == 1.0
