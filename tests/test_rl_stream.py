"""The TRL curriculum callback's stream and bookkeeping, without TRL.

tests/test_rl_trl.py runs it inside a real GRPOTrainer; here each part is
driven by hand, as the trainer's events would (the callback's events take
``args``, ``state`` and ``control`` as transformers passes them)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tsolve.contract import get_family
from tsolve.errors import TsolveError
from tsolve.rl import Curriculum, trl_reward
from tsolve.rl.trl_curriculum import ROW_KEYS, STATE_FILE, CurriculumCallback


def _curriculum() -> Curriculum:
    return Curriculum({"relational-puzzles": {"events": [2, 3, 4]}, "span": {"max_days": [7, 30]}},
                      window=2)  # fmt: skip


def test_the_stream_draws_with_the_options_of_the_moment() -> None:
    feed = CurriculumCallback(_curriculum(), seed=1)
    rows = feed.rows()
    first = [next(rows) for _ in range(4)]
    assert [r["data_source"] for r in first] == ["relational-puzzles", "span"] * 2
    assert all(tuple(r) == ROW_KEYS for r in first)  # one set of keys, whatever the family
    assert {r["options"] for r in first[::2]} == {'{"events": 2}'}
    family = get_family("relational-puzzles")
    made = family.make_record(1, 1, family.make_options({"events": 2}))
    assert first[2]["id"] == made["id"] and first[2]["prompt"] == made["prompt"]
    label = json.loads(first[2]["label"])
    assert label["family"] == "relational-puzzles"

    reward = feed.watch(trl_reward("em"))
    labels = [r["label"] for r in first]
    sources = [r["data_source"] for r in first]
    wrong = ["MY ANSWER: the 32nd of Smarch"] * 4  # no family's answer
    assert reward(wrong, label=labels, data_source=sources) == [0.0] * 4
    assert reward(["x"], label=labels[:1], data_source=["elsewhere"]) == [0.0]  # left out
    assert len(feed.collected) == 4 and feed.curriculum.history == []  # not before the step ends
    feed.on_step_end(SimpleNamespace(), SimpleNamespace(global_step=1), "control")
    assert feed.collected == []
    assert feed.steps[0]["step"] == 1 and feed.steps[0]["moves"] == []  # already the easiest
    feed.curriculum.update("relational-puzzles", [1.0, 1.0])  # as a good step would
    after = next(rows)
    assert after["data_source"] == "relational-puzzles" and after["options"] == '{"events": 3}'
    made = family.make_record(1, 2, family.make_options({"events": 3}))
    assert after["id"] == made["id"]  # the next index of its family, at the new rung


def test_the_same_rewards_make_the_same_stream() -> None:
    def run() -> list[str]:
        feed = CurriculumCallback(_curriculum(), seed=2, prompt="chat")
        reward = feed.watch(trl_reward("em"))
        rows = feed.rows()
        ids = []
        for step in range(3):
            batch = [next(rows) for _ in range(2)]
            ids += [r["id"] for r in batch]
            answers = ["MY ANSWER: no"] * 2 if step else ["MY ANSWER: Yes"] * 2
            reward(answers, label=[r["label"] for r in batch],
                   data_source=[r["data_source"] for r in batch])  # fmt: skip
            feed.flush(step)
        assert batch[0]["prompt"][0]["role"] == "user"
        return [*ids, json.dumps(feed.curriculum.state(), sort_keys=True)]

    assert run() == run()


def test_the_callback_refuses_a_shuffle_and_saves_beside_checkpoints(tmp_path: Path) -> None:
    feed = CurriculumCallback(_curriculum())
    with pytest.raises(TsolveError, match="shuffle_dataset=False"):
        feed.on_train_begin(SimpleNamespace(shuffle_dataset=True), None, "control")
    assert feed.on_train_begin(SimpleNamespace(shuffle_dataset=False), None, "c") == "c"
    with pytest.raises(TsolveError, match="one process"):
        feed.on_train_begin(SimpleNamespace(shuffle_dataset=False, world_size=2), None, "c")
    args, state = SimpleNamespace(output_dir=str(tmp_path)), SimpleNamespace(global_step=3)
    feed.on_save(args, state, "control")  # no checkpoint folder: nothing written
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "checkpoint-3").mkdir()
    feed.curriculum.update("span", [1.0, 1.0])
    feed.on_save(args, state, "control")
    resumed = Curriculum.load(tmp_path / "checkpoint-3" / STATE_FILE)
    assert resumed.state() == feed.curriculum.state()
    assert resumed.options("span") == {"max_days": 30}


@pytest.mark.parametrize(
    ("ladders", "why"),
    [({"span": {"no_such_option": [1]}}, "no_such_option"),
     ({"relational-puzzles": {"events": [2, "many"]}}, "events")],
)  # fmt: skip
def test_a_ladder_the_generator_cannot_take_is_refused_up_front(ladders: dict, why: str) -> None:
    with pytest.raises(TsolveError, match=why):
        CurriculumCallback(Curriculum(ladders))


def test_bad_arguments_are_one_line_errors() -> None:
    with pytest.raises(TsolveError, match="curriculum"):
        CurriculumCallback({"span": {"max_days": [7]}})  # type: ignore[arg-type]
    with pytest.raises(TsolveError, match="seed"):
        CurriculumCallback(_curriculum(), seed=-1)
    with pytest.raises(TsolveError, match="prompt"):
        CurriculumCallback(_curriculum(), prompt="xml")


def test_the_stream_is_a_datasets_iterable_dataset() -> None:
    datasets = pytest.importorskip("datasets", reason="the datasets package is not installed")
    feed = CurriculumCallback(_curriculum())
    data = feed.dataset()
    assert isinstance(data, datasets.IterableDataset)
    got = [r["data_source"] for _, r in zip(range(3), data, strict=False)]
    assert got == ["relational-puzzles", "span", "relational-puzzles"]


def test_the_stream_serves_no_puzzle_twice(tmp_path: Path) -> None:
    """With its options held, the stream is the run ``tsolve dataset make``
    writes: time puzzles of two facts at seed 11 draw record 34 as record
    32's puzzle, and the stream, like the run, draws it again."""
    from tsolve.datasets.distinct import key_of
    from tsolve.datasets.writer import write_dataset
    from tsolve.rl.rows import trainer_row

    feed = CurriculumCallback(Curriculum({"time-puzzles": {"facts": [2]}}), seed=11)
    rows = feed.rows()
    served = [next(rows)["prompt"] for _ in range(40)]
    write_dataset("time-puzzles", {"facts": 2}, count=40, out=tmp_path / "d.jsonl", seed=11)
    made = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    assert served == [trainer_row(r, "trl", i, "train", "text", None)["prompt"]
                      for i, r in enumerate(made)]  # fmt: skip
    assert served[34] != served[32]
    fam = get_family("time-puzzles")
    assert len({key_of(fam, r)[0] for r in made}) == 40 and feed.passes["time-puzzles"].redrawn


def test_a_resumed_stream_goes_on_as_the_unbroken_one(tmp_path: Path) -> None:
    """Saved after an odd number of rows (mid-turn) and resumed, the stream
    serves what an unbroken stream serves after them, and none of the first
    part again: time puzzles of two facts at seed 11, whose raw record 34
    repeats record 32, saved after time puzzle 33 so that the repeat falls
    after the resume, where only the saved answers can catch it."""

    def curriculum() -> Curriculum:
        return Curriculum({"time-puzzles": {"facts": [2]}, "span": {"max_days": [7, 30]}},
                          window=2)  # fmt: skip

    unbroken = CurriculumCallback(curriculum(), seed=11)
    rows = unbroken.rows()
    whole = [next(rows)["id"] for _ in range(101)]

    first = CurriculumCallback(curriculum(), seed=11)
    rows = first.rows()
    before = [next(rows)["id"] for _ in range(67)]  # time puzzles 0..33, span 0..32
    (tmp_path / "checkpoint-5").mkdir()
    first.on_save(SimpleNamespace(output_dir=str(tmp_path)), SimpleNamespace(global_step=5), "c")
    feed = CurriculumCallback.resume(tmp_path / "checkpoint-5")
    assert feed.stream_state() == first.stream_state() and feed.seed == 11
    rows = feed.rows()
    after = [next(rows)["id"] for _ in range(34)]
    assert before + after == whole
    assert not set(before) & set(after)
    assert feed.passes["time-puzzles"].redrawn  # the repeat after the save was drawn again

    fresh = CurriculumCallback(curriculum(), seed=11)  # the first run's stream, from index 0
    rows = fresh.rows()
    assert [next(rows)["id"] for _ in range(34)] == whole[:34]


def test_a_resumed_run_needs_a_resumed_stream_and_no_data_skip(tmp_path: Path) -> None:
    resumed_run = SimpleNamespace(global_step=5)
    with pytest.raises(TsolveError, match=r"CurriculumCallback\.resume"):
        CurriculumCallback(_curriculum()).on_train_begin(
            SimpleNamespace(ignore_data_skip=True), resumed_run, "c"
        )
    (tmp_path / "checkpoint-5").mkdir()
    CurriculumCallback(_curriculum()).save(tmp_path / "checkpoint-5")
    feed = CurriculumCallback.resume(tmp_path / "checkpoint-5")
    with pytest.raises(TsolveError, match="ignore_data_skip=True"):
        feed.on_train_begin(SimpleNamespace(), resumed_run, "c")
    assert feed.on_train_begin(SimpleNamespace(ignore_data_skip=True), resumed_run, "c") == "c"


@pytest.mark.parametrize(
    ("change", "why"),
    [(lambda s: s.update(version=0), "version-1"),
     (lambda s: s["drawn"].pop("span"), "does not match"),
     (lambda s: s.update(seed=-3), "does not match"),
     (lambda s: s["passes"]["span"].update(seen=[["zz", None]]), "malformed"),
     (lambda s: s["passes"]["span"].update(seen=[["00ff", None]]), "malformed"),
     (lambda s: s["passes"]["span"].update(redrawn="2"), "malformed")],
)  # fmt: skip
def test_a_damaged_stream_state_is_a_one_line_error(tmp_path: Path, change, why: str) -> None:
    feed = CurriculumCallback(_curriculum())
    rows = feed.rows()
    [next(rows) for _ in range(4)]
    feed.save(tmp_path)
    path = tmp_path / "tsolve_stream.json"
    state = json.loads(path.read_text())
    change(state)
    path.write_text(json.dumps(state))
    with pytest.raises(TsolveError, match=why) as err:
        CurriculumCallback.resume(tmp_path)
    assert "\n" not in str(err.value)
    path.write_text("{not json")
    with pytest.raises(TsolveError, match="cannot read"):
        CurriculumCallback.resume(tmp_path)
    path.unlink()
    with pytest.raises(TsolveError, match=r"no tsolve_stream\.json"):
        CurriculumCallback.resume(tmp_path)
