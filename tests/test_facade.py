"""The reasoning-gym-style facade: ``create_dataset`` and
``score_answer`` over every generating family. The registration in
reasoning-gym's registry is tested against the real package in
tests/test_reasoning_gym.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tsolve
import tsolve.facade
from tsolve.contract import Family, all_families, get_family, temporary_family
from tsolve.errors import TsolveError
from tsolve.facade import REWARD_METRICS
from tsolve.records.gold_fields import GOLD_FIELDS, HIDDEN_PARTS
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
@given(seed=st.integers(0, 2**31), index=st.integers(0, 10**6), junk=JUNK, far=st.booleans())
def test_gold_answer_scores_one_and_garbage_zero(
    family: str, seed: int, index: int, junk: str, far: bool
) -> None:
    # A distinct dataset's first read of item i passes the i before it, so
    # far items are read from the raw draws (distinct=False), near ones as run.
    index = index if far else index % 12
    ds = tsolve.create_dataset(family, seed=seed, size=index + 1, distinct=not far)
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
    record = tsolve.facade.record_of(a[2])
    assert record == get_family(family).make_record(11, 2, get_family(family).make_options({}))
    # beside the prompt, no gold field; the gold fields under metadata.gold
    assert not set(a[2]["metadata"]["record"]) & GOLD_FIELDS
    assert set(a[2]["metadata"]["gold"]) <= GOLD_FIELDS | {path[0] for path in HIDDEN_PARTS}
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


def test_metadata_difficulty_holds_the_records_knobs() -> None:
    """``metadata.difficulty`` is read off the record, family by family, so
    it says what the record says (checked here against the record fields)."""
    tp = tsolve.create_dataset("time-puzzles", seed=2, size=2, solutions=2)[1]
    rec = tsolve.facade.record_of(tp)
    assert tp["metadata"]["difficulty"] == {
        "solutions": 2,
        "facts": len(rec["facts"]),
        "level": rec["difficulty"]["label"],
        "score": rec["difficulty"]["score"],
        "style": rec["style"],
    }
    lg = tsolve.create_dataset("logistics", seed=2, size=1, difficulty="easy", depth=5)[0]
    assert lg["metadata"]["difficulty"]["difficulty"] == "easy"
    assert lg["metadata"]["difficulty"]["depth"] == 5
    for entry in tsolve.create_dataset("span", seed=2, size=6):
        knobs, rec = entry["metadata"]["difficulty"], tsolve.facade.record_of(entry)
        assert knobs["direction"] == rec["direction"] and knobs["format"] == rec["format"]
        # Nothing beside the prompt that tells a polar label: the candidate's
        # kind ("gold" on a Yes item) and whether the table-free estimator is
        # right (which, beside its answer, is the label) stay out.
        assert "near_miss" not in knobs and "table_free_correct" not in knobs
        assert "near_miss" not in json.dumps(rec["params"])
        seen = json.dumps(entry["metadata"]["record"])
        assert "gold_detail" not in seen and "near_miss" not in seen


def test_registration_without_reasoning_gym_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "reasoning_gym", None)  # as if not installed
    with pytest.raises(TsolveError, match=r"tsolve\[rg\]"):
        tsolve.register_reasoning_gym()


#: A run whose raw draws repeat: time puzzles of two facts, seed 11, draw
#: record 34 as the same puzzle as record 32 (found by drawing them).
REPEATING = ("time-puzzles", 11, {"facts": 2})


def test_no_puzzle_is_served_twice_and_items_are_the_dataset_runs(tmp_path: Any) -> None:
    """Item i is what ``tsolve dataset make`` writes as record i: a raw draw
    that repeats an earlier answer is drawn again, in any order of access,
    and the pass's state is there to read."""
    from tsolve.datasets.distinct import key_of
    from tsolve.datasets.writer import write_dataset

    name, seed, options = REPEATING
    fam = get_family(name)
    raw = tsolve.create_dataset(name, seed=seed, size=40, distinct=False, **options)
    raw_keys = [key_of(fam, tsolve.facade.record_of(raw[i]))[0] for i in (32, 34)]
    assert raw_keys[0] == raw_keys[1]  # the premise: the raw draws repeat
    out = tmp_path / "run.jsonl"
    write_dataset(name, dict(options), count=40, out=out, seed=seed)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    backwards = tsolve.create_dataset(name, seed=seed, size=40, **options)
    assert tsolve.facade.record_of(backwards[39]) == written[39]  # settles 0..39 first
    assert backwards.settled == 40 and backwards.redrawn >= 1 and backwards.attempts[34] >= 1
    forwards = tsolve.create_dataset(name, seed=seed, size=40, **options)
    served = [tsolve.facade.record_of(forwards[i]) for i in range(40)]
    assert served == written == [tsolve.facade.record_of(backwards[i]) for i in range(40)]
    assert len({key_of(fam, r)[0] for r in served}) == 40
    with pytest.raises(TsolveError, match="distinct"):
        tsolve.create_dataset(name, distinct="yes")  # type: ignore[arg-type]
