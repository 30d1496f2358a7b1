"""The reasoning-gym-style facade (issue 13, item 6): ``create_dataset`` and
``score_answer`` over every generating family, and the registration in
reasoning-gym's registry, tested against a stand-in registry."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tsolve
from tsolve.contract import Family, all_families, get_family, temporary_family
from tsolve.errors import TsolveError
from tsolve.facade import REWARD_METRICS, register_reasoning_gym, rg_name
from tsolve.verifiers.gold_answers import as_output

#: Text that can hold no answer of any family: no letters or digits (so no
#: date, yes/no or place name), but markup, markers' punctuation and Unicode.
JUNK = st.text(alphabet=" \n\t.,;:!?*#_()[]{}=<>|é—\u2028", max_size=40)

GENERATING = [
    f.name
    for f in all_families(include_entry_points=False)
    if f.generate is not None and f.score is not None and f.available()
]


def test_every_dataset_family_is_offered() -> None:
    """The facade takes the names ``tsolve dataset`` takes (the registry's
    generating and scoring families), not a list of its own."""
    assert {"time-puzzles", "relational-puzzles", "span", "logistics"} <= set(GENERATING)
    for name in GENERATING:
        assert len(tsolve.create_dataset(name, seed=0, size=3)) == 3


@pytest.mark.parametrize("family", GENERATING)
@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), index=st.integers(0, 10**6), junk=JUNK)
def test_gold_answer_scores_one_and_garbage_zero(
    family: str, seed: int, index: int, junk: str
) -> None:
    ds = tsolve.create_dataset(family, seed=seed, size=index + 1)
    entry = ds[index]
    assert set(entry) == {"question", "answer", "metadata"}
    assert isinstance(entry["question"], str) and entry["question"]
    assert ds.score_answer(entry["answer"], entry) == 1.0
    marker = get_family(family).answer_marker
    assert ds.score_answer(f"Let me think.\n{as_output(entry['answer'], marker)}", entry) == 1.0
    for garbage in (junk, "", "MY ANSWER: ???", "Answer: nowhere", None, 42, ["x"], "\ud800"):
        assert ds.score_answer(garbage, entry) == 0.0, garbage
    assert tsolve.score_answer(entry["answer"], entry) == 1.0


@pytest.mark.parametrize("family", GENERATING)
def test_items_are_a_pure_function_of_seed_and_index(family: str) -> None:
    a = tsolve.create_dataset(family, seed=11, size=4)
    b = tsolve.create_dataset(family, seed=11, size=100)
    assert [json.dumps(a[i]) for i in (3, 0)] == [json.dumps(b[i]) for i in (3, 0)]
    record = a[2]["metadata"]["record"]
    assert record == get_family(family).make_record(11, 2, get_family(family).make_options({}))
    assert json.loads(json.dumps(a[2]["metadata"])) == a[2]["metadata"]  # JSON-ready
    assert a[2]["metadata"]["source_index"] == 2
    assert a[-1] == a[3] and len(a[1:3]) == 2 and len(list(a)) == 4


def test_wrong_answers_score_below_one() -> None:
    """The reward is the scorer's: a right answer with one date more is not EM."""
    ds = tsolve.create_dataset("time-puzzles", seed=2, size=3, solutions=2)
    entry = ds[0]
    dates = entry["answer"].split(", ")
    assert len(dates) == 2
    assert ds.score_answer(dates[0], entry) == 0.0  # EM by default
    f1 = tsolve.create_dataset("time-puzzles", seed=2, size=3, solutions=2, reward_metric="f1")
    assert f1.score_answer(dates[0], entry) == pytest.approx(2 / 3)
    span = tsolve.create_dataset("span", seed=1, size=40)
    polar = next(e for e in span if e["answer"] in ("Yes", "No"))
    other = {"Yes": "No", "No": "Yes"}[polar["answer"]]
    assert span.score_answer(other, polar) == 0.0


def test_options_and_bad_input_are_one_line_errors() -> None:
    ds = tsolve.create_dataset("logistics", seed=1, size=2, difficulty="easy")
    assert ds[0]["metadata"]["record"]["data_split"] == "easy"
    with pytest.raises(TsolveError, match="option"):
        tsolve.create_dataset("span", nosuch=1)
    with pytest.raises(TsolveError, match="family"):
        tsolve.create_dataset("tempo")  # scores, but does not generate
    with pytest.raises(TsolveError, match="size"):
        tsolve.create_dataset("span", size=-1)
    with pytest.raises(IndexError):
        tsolve.create_dataset("span", size=2)[2]
    with pytest.raises(TsolveError, match="entry"):
        tsolve.score_answer("Yes", {"question": "q", "answer": "Yes", "metadata": {}})
    with pytest.raises(TsolveError, match="reward_metric"):
        tsolve.create_dataset("span", size=1, reward_metric="bleu").score_answer(
            "Yes", tsolve.create_dataset("span", size=1)[0]
        )


def test_default_reward_metric_rule() -> None:
    assert REWARD_METRICS == ("em", "accuracy")


def test_a_family_without_an_answer_part_uses_the_record_answer() -> None:
    def generate(seed: int, index: int, cfg: Any) -> dict[str, Any]:
        return {"id": f"echo-{seed}-{index}", "family": "test-echo", "question": "Say hi",
                "answer": f"hi {index}"}  # fmt: skip

    def score(record: dict[str, Any], output: str, *, diagnose: bool = True) -> dict[str, float]:
        return {"accuracy": float(output.strip() == record["answer"])}

    with temporary_family(Family(name="test-echo", generate=generate, score=score)):
        ds = tsolve.create_dataset("test-echo", seed=1, size=3)
        assert ds[2]["answer"] == "hi 2" and ds[2]["question"] == "Say hi"
        assert ds.score_answer("hi 2", ds[2]) == 1.0
        assert ds.score_answer("hi 1", ds[2]) == 0.0


# ---------------------------------------------------------------- reasoning-gym


class FakeProceduralDataset:
    """What reasoning-gym's ``ProceduralDataset`` offers a subclass."""

    def __init__(self, config: Any, seed: int | None = None, size: int = 500) -> None:
        self.config, self.seed, self.size = config, seed, size

    def __len__(self) -> int:
        return self.size


class FakeRegistry:
    """reasoning-gym's ``register_dataset`` / ``create_dataset`` pair."""

    def __init__(self) -> None:
        self.datasets: dict[str, tuple[type, type]] = {}

    def register_dataset(self, name: str, dataset_cls: type, config_cls: type) -> None:
        assert name not in self.datasets
        assert issubclass(dataset_cls, FakeProceduralDataset)
        assert dataclasses.is_dataclass(config_cls)
        self.datasets[name] = (dataset_cls, config_cls)

    def create_dataset(self, name: str, **kwargs: Any) -> Any:
        dataset_cls, config_cls = self.datasets[name]
        return dataset_cls(config=config_cls(**kwargs))


def test_registration_in_a_reasoning_gym_style_registry() -> None:
    rg = FakeRegistry()
    names = register_reasoning_gym(rg.register_dataset, FakeProceduralDataset)
    assert names == [rg_name(f) for f in GENERATING]
    assert "tsolve_time_puzzles" in names
    ds = rg.create_dataset("tsolve_span", seed=5, size=3, date="2024-03-01")
    assert len(ds) == 3 and ds.seed == 5
    entry = ds[1]
    assert entry == tsolve.create_dataset("span", seed=5, size=3, date="2024-03-01")[1]
    assert ds.score_answer(entry["answer"], entry) == 1.0
    assert ds.score_answer("no idea", entry) == 0.0
    with pytest.raises(TypeError):
        rg.create_dataset("tsolve_span", nosuch=1)  # not a field of the config class


def test_registration_without_reasoning_gym_is_one_line() -> None:
    try:
        import reasoning_gym  # noqa: F401
    except ImportError:
        with pytest.raises(TsolveError, match=r"tsolve\[rg\]"):
            register_reasoning_gym()
    else:  # installed: the real registry takes the families
        assert "tsolve_span" in register_reasoning_gym()
