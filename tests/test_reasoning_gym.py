"""tsolve in the real reasoning-gym: the registry,
``CompositeDataset`` mixes with native tasks, ``update_dataset_config``,
typed configs with ``validate()``, ``seed=None`` and the curricula.

Skipped, with the reason, when reasoning-gym is not installed (the ``rg``
extra; CI's ``test`` extra installs it)."""

from __future__ import annotations

import dataclasses
import pickle
import statistics
import warnings
from dataclasses import replace
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tsolve
from tsolve.adapters.reasoning_gym_configs import BASE_FIELDS, BUILTIN_CONFIGS, rg_name
from tsolve.contract import get_family
from tsolve.errors import TsolveError

rg = pytest.importorskip("reasoning_gym", reason="reasoning-gym not installed (tsolve[rg])")
from reasoning_gym.composite import CompositeConfig, CompositeDataset, DatasetSpec  # noqa: E402

NAMES = ("tsolve_time_puzzles", "tsolve_span", "tsolve_logistics")


@pytest.fixture(scope="module", autouse=True)
def registered() -> list[str]:
    return tsolve.register_reasoning_gym()


def _quiet_dataset(name: str, **config: Any) -> Any:
    with warnings.catch_warnings():  # SPAN says when a run may repeat questions
        warnings.simplefilter("ignore", UserWarning)
        return rg.create_dataset(name, **config)


def test_registration_is_idempotent_and_names_the_families(registered: list[str]) -> None:
    assert set(NAMES) <= set(registered)
    assert tsolve.register_reasoning_gym() == registered  # a second call changes nothing
    for name in NAMES:
        assert rg.factory.has_curriculum(name)
    assert rg.create_curriculum("tsolve_time_puzzles").attributes


def test_config_fields_are_the_family_options_and_typed() -> None:
    for family, cls in BUILTIN_CONFIGS.items():
        fields = {f.name: f for f in dataclasses.fields(cls)}
        assert set(fields) - set(BASE_FIELDS) == set(get_family(family).options), family
        for f in fields.values():
            assert f.type not in ("Any", Any), (family, f.name)


def test_items_carry_the_registered_name_and_difficulty() -> None:
    ds = _quiet_dataset("tsolve_logistics", seed=3, size=4, difficulty="medium", depth=4)
    for entry in ds:
        meta = entry["metadata"]
        assert meta["source_dataset"] == "tsolve_logistics"
        assert meta["difficulty"]["difficulty"] == "medium"
        assert meta["difficulty"]["depth"] == 4
        assert ds.score_answer(entry["answer"], entry) == 1.0
        assert ds.score_answer("no clue", entry) == 0.0


def test_seed_none_draws_a_seed_as_reasoning_gym_does() -> None:
    a = _quiet_dataset("tsolve_span", size=2)
    b = _quiet_dataset("tsolve_span", size=2)
    assert a.seed != b.seed  # two draws from 2**32 seeds
    assert a[1]["metadata"]["seed"] == a.seed
    assert a[1] == _quiet_dataset("tsolve_span", size=2, seed=a.seed)[1]


def test_composite_mixes_tsolve_and_native_tasks() -> None:
    cfg = CompositeConfig(
        size=12,
        seed=7,
        datasets=[
            DatasetSpec("tsolve_span", 1.0, {}),
            DatasetSpec("leg_counting", 1.0, {}),
            DatasetSpec("tsolve_logistics", 1.0, {"difficulty": "easy", "depth": 3}),
        ],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        mixes = [
            CompositeDataset(cfg),
            rg.create_dataset("composite", size=12, seed=7, datasets=cfg.datasets),
        ]
    for mix in mixes[:1]:
        seen = set()
        for entry in mix:
            seen.add(entry["metadata"]["source_dataset"])
            assert mix.score_answer(entry["answer"], entry) == 1.0
            assert mix.score_answer("no clue", entry) == 0.0
        assert seen == {"tsolve_span", "leg_counting", "tsolve_logistics"}
    assert list(mixes[1]) == list(mixes[0])  # the factory builds the same mix


def test_update_dataset_config_rebuilds_the_tsolve_dataset() -> None:
    cfg = CompositeConfig(
        size=30,
        seed=1,
        datasets=[DatasetSpec("tsolve_span", 1.0, {}), DatasetSpec("leg_counting", 1.0, {})],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        mix = CompositeDataset(cfg)
        mix.update_dataset_config("tsolve_span", {"max_days": 3, "max_weeks": 1})
    span = mix.datasets["tsolve_span"]
    assert span.config.max_days == 3 and span.seed == 2  # the seed the composite gave it
    days = [
        e["metadata"]["difficulty"]["offset"]
        for e in (span[i] for i in range(30))
        if e["metadata"]["difficulty"]["unit"] == "days"
    ]
    assert days and max(days) <= 3
    with pytest.raises(TsolveError, match="max-days"):
        mix.update_dataset_config("tsolve_span", {"max_days": 0})


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.one_of(
        st.integers(-3, 5), st.booleans(), st.text(max_size=4), st.none(), st.floats(0, 3)
    )
)
def test_a_bad_option_is_a_one_line_error_at_creation(value: Any) -> None:
    """Whatever is passed, ``create_dataset`` builds a dataset whose first item
    scores, or refuses with one line: never another exception."""
    try:
        ds = _quiet_dataset("tsolve_span", seed=0, size=1, max_weeks=value)
    except TsolveError as err:
        assert "\n" not in str(err)
        return
    assert ds.score_answer(ds[0]["answer"], ds[0]) == 1.0


def test_a_bad_base_field_is_refused() -> None:
    for bad in ({"size": 0}, {"seed": -1}, {"reward_metric": "partial"}):
        with pytest.raises(TsolveError):
            _quiet_dataset("tsolve_logistics", **bad)


def test_datasets_and_curricula_pickle() -> None:
    ds = _quiet_dataset("tsolve_logistics", seed=5, size=2, depth=3)
    assert pickle.loads(pickle.dumps(ds))[1] == ds[1]
    cur = pickle.loads(pickle.dumps(rg.create_curriculum("tsolve_span")))
    assert cur.generate_configuration().max_days == 7


def _levels(name: str) -> list[Any]:
    """One config per global level, from easiest to hardest."""
    cur = rg.create_curriculum(name)
    top = max(len(a.levels) for a in cur.attributes.values())
    configs = []
    for level in range(top):
        cur.set_global_level(level)
        configs.append(cur.generate_configuration({"seed": 1, "size": 40}))
    return configs


def test_time_puzzle_curriculum_levels_rise_in_measured_difficulty() -> None:
    configs = _levels("tsolve_time_puzzles")
    assert [(c.facts, c.style) for c in configs] == [
        (3, "explicit"), (4, "implicit"), (5, "implicit"), (6, "implicit")
    ]  # fmt: skip
    means = []
    for cfg in configs:
        ds = rg.factory.DATASETS["tsolve_time_puzzles"][0](cfg)
        knobs = [ds[i]["metadata"]["difficulty"] for i in range(2)]
        assert all(k["facts"] == cfg.facts and k["style"] == cfg.style for k in knobs)
        means.append(statistics.mean(k["score"] for k in knobs))
    assert means == sorted(means) and means[0] < means[-1], means


def test_span_curriculum_levels_ask_longer_offsets() -> None:
    def days(knobs: dict[str, Any]) -> int:
        return knobs["offset"] * {"days": 1, "weeks": 7, "years": 365}[knobs["unit"]]

    configs = _levels("tsolve_span")
    for field in ("max_days", "max_weeks", "max_years"):
        bounds = [getattr(c, field) for c in configs]
        assert bounds == sorted(set(bounds)), field
    means = []
    for cfg in configs[:3:2]:  # the top levels cost seconds per run to plan
        ds = _quiet_dataset("tsolve_span", **dataclasses.asdict(cfg))
        means.append(statistics.mean(days(ds[i]["metadata"]["difficulty"]) for i in range(30)))
    assert means[0] < means[1], means


def test_logistics_curriculum_levels_add_objects_and_events() -> None:
    """The hardest level's items name more objects and list more events than
    the easiest level's, on average over a few items (one item each would
    compare two draws of the scenario, not the levels)."""
    configs = _levels("tsolve_logistics")
    assert [c.depth for c in configs] == sorted(c.depth for c in configs)
    objects, events = [], []
    for cfg in (configs[0], configs[-1]):
        entries = list(rg.factory.DATASETS["tsolve_logistics"][0](replace(cfg, size=8)))
        for entry in entries:
            assert entry["metadata"]["difficulty"]["depth"] == cfg.depth
            assert entry["metadata"]["difficulty"]["difficulty"] == cfg.difficulty
        records = [e["metadata"]["record"] for e in entries]
        objects.append(sum(len(", ".join(r["objects_description"]).split(",")) for r in records))
        events.append(sum(len(r["events"]) for r in records))
    assert objects[0] < objects[1] and events[0] < events[1]


def test_rg_names() -> None:
    assert rg_name("time-puzzles") == "tsolve_time_puzzles"
