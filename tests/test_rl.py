"""tsolve.rl: compact gold, the trainers' reward signatures, export, curriculum.

Every score is held equal to ``tsolve verify``'s (the library call behind
the command) on gold, perturbed, shuffled and garbage answers for every
built-in family that generates and scores."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tsolve.contract import builtin_families, get_family
from tsolve.errors import TsolveError
from tsolve.rl import Curriculum, compute_score, reward_func, trl_reward, trl_reward_async
from tsolve.rl.curriculum import equal_reward_filter
from tsolve.rl.gold import gold_metrics, ground_truth
from tsolve.rl.rows import trainer_row
from tsolve.verifiers.baselines import predict
from tsolve.verifiers.rewards import DIAGNOSTIC
from tsolve.verifiers.verify_batch import verify

SCORED = [f.name for f in builtin_families() if f.generate is not None and f.score is not None]
GARBAGE = ["", "garbage", "MY ANSWER: ", "MY ANSWER: None", "Answer: t1, l1_1", "MY ANSWER: Yes",
           "MY ANSWER: 2020-01-01, 2020-01-02", "x" * 300]  # fmt: skip


def _records(family: str, count: int = 8, seed: int = 3) -> list[dict]:
    fam = get_family(family)
    config = fam.make_options({})
    return [fam.make_record(seed, i, config) for i in range(count)]


def _answers(records: list[dict]) -> list[tuple[dict, str]]:
    pairs = []
    for baseline in ("gold", "perturbed", "random"):
        for rec, pred in zip(records, predict(records, baseline, seed=1), strict=True):
            pairs.append((rec, pred["output"]))
    rng = random.Random(0)
    pairs += [(rec, rng.choice(GARBAGE)) for rec in records]
    return pairs


@pytest.mark.parametrize("family", SCORED)
def test_scores_equal_tsolve_verify(family: str) -> None:
    records = _records(family)
    pairs = _answers(records)
    preds = [{"id": f"p{i}", "output": out} for i, (_rec, out) in enumerate(pairs)]
    recs = [{**rec, "id": f"p{i}"} for i, (rec, _out) in enumerate(pairs)]
    report = verify(recs, preds, keep_items=True)
    assert len(report.items) == len(pairs)
    seen = set()
    for (rec, out), item in zip(pairs, report.items, strict=True):
        want = {k: v for k, v in item.metrics.items() if k not in DIAGNOSTIC}
        gold = ground_truth(rec)
        _fam, got = gold_metrics(gold, out)
        assert got == want, (rec["id"], out)
        verl = compute_score(family, out, gold)
        assert verl["score"] in (want.get("em"), want.get("accuracy"))
        assert {k: v for k, v in verl.items() if k != "score"} == want
        seen.add(verl["score"])
    assert seen == {0.0, 1.0}  # gold scores 1, garbage 0: both were exercised


@pytest.mark.parametrize("family", SCORED)
def test_ground_truth_is_compact(family: str) -> None:
    sizes = [len(ground_truth(r).encode()) for r in _records(family, 20)]
    assert max(sizes) < 512, sizes  # well under 1 KB (the whole record is 1.5-25 KB)


def test_trl_reward_reads_label_text_and_chat() -> None:
    recs = _records("time-puzzles", 2) + _records("span", 2)
    gold = [g["output"] for g in predict(recs)]
    labels = [ground_truth(r) for r in recs]
    reward = trl_reward("em")
    assert reward.__name__ == "tsolve_em"
    assert reward(gold, label=labels) == [1.0] * 4
    chats = [[{"role": "assistant", "content": g}] for g in gold]
    assert reward(chats, label=labels, prompt=["x"] * 4) == [1.0] * 4
    assert reward(["nonsense"] * 4, label=labels) == [0.0] * 4
    verl_rows = [{"ground_truth": g} for g in labels]
    assert reward(gold, reward_model=verl_rows) == [1.0] * 4
    import asyncio

    assert asyncio.run(trl_reward_async("em")(gold, label=labels)) == [1.0] * 4
    assert trl_reward("f1")(gold[:2], label=labels[:2]) == [1.0, 1.0]


@pytest.mark.parametrize(
    "bad",
    ["", "not json", "[]", '{"family": "time-puzzles"}', '{"family": "nope", "gold": {}}',
     '{"family": "time-puzzles", "gold": {"answers": "2020-01-01"}}',
     '{"family": "span", "gold": {"format": "polar", "answer": "Maybe"}}',
     '{"family": "logistics", "gold": {"answers": []}}',
     '{"family": "relational-puzzles", "gold": {"events": ["a"], "answers": [["x"]]}}',
     '{"family": "time-puzzles", "gold": {"answers": []}, "extra": 1}'],
)  # fmt: skip
def test_malformed_ground_truth_is_an_error_not_zero(bad: str) -> None:
    with pytest.raises(TsolveError) as info:
        compute_score("time-puzzles", "MY ANSWER: 2020-01-01", bad)
    assert "\n" not in str(info.value)
    with pytest.raises(TsolveError):
        trl_reward("em")(["MY ANSWER: 2020-01-01"], label=[bad])


def test_wrong_data_source_and_missing_label() -> None:
    gold = ground_truth(_records("span", 1)[0])
    with pytest.raises(TsolveError, match="data_source"):
        compute_score("time-puzzles", "MY ANSWER: Yes", gold)
    with pytest.raises(TsolveError, match="label"):
        trl_reward()(["x"], prompt=["p"])
    with pytest.raises(TsolveError, match="labels"):
        trl_reward()(["x", "y"], label=[gold])


def test_openrlhf_reward_func_strips_the_prompt() -> None:
    rec = _records("time-puzzles", 1)[0]
    gold = predict([rec])
    answer = next(gold)["output"]
    prompt = rec["prompt"]  # ends in an instruction that itself says "MY ANSWER:"
    out = reward_func([prompt + "\n" + answer, prompt + " I cannot tell."], [prompt] * 2,
                      [ground_truth(rec)] * 2)  # fmt: skip
    rewards = out["rewards"]
    assert [float(x) for x in rewards] == [1.0, 0.0]


def test_openrlhf_query_decoded_with_other_spacing_still_loses_its_prompt() -> None:
    """OpenRLHF decodes the query from tokens; a tokenizer that spaces the
    prompt otherwise (a word-level one joins words with single spaces, no
    newlines) must not leave the prompt's own instruction line to be scored."""
    from tsolve.rl.rewards import response_of

    rec = _records("time-puzzles", 1)[0]
    answer = next(predict([rec]))["output"]
    prompt = "user : " + rec["prompt"] + "\nassistant :"
    query = " ".join(prompt.split()) + " " + answer
    assert response_of(query, prompt).strip() == answer
    assert [float(x) for x in reward_func([query], [prompt], [ground_truth(rec)])["rewards"]] == [
        1.0]  # fmt: skip
    assert response_of("something else entirely", prompt) == "something else entirely"


def test_rows_carry_family_knobs_and_id() -> None:
    rec = _records("relational-puzzles", 1)[0]
    verl = trainer_row(rec, "verl")
    assert verl["data_source"] == "relational-puzzles"
    assert verl["prompt"][0]["role"] == "user" and verl["extra_info"]["id"] == rec["id"]
    assert verl["knob_events"] == len(rec["events"])
    trl = trainer_row(rec, "trl")
    assert trl["label"] == verl["reward_model"]["ground_truth"] and trl["id"] == rec["id"]
    with pytest.raises(TsolveError, match="trainer"):
        trainer_row(rec, "ppo")


def test_rows_as_chat_messages_with_a_system_prompt() -> None:
    rec = _records("span", 1)[0]
    text = trainer_row(rec, "openrlhf")["prompt"]
    assert isinstance(text, str) and text == rec["prompt"]
    for trainer in ("trl", "openrlhf", "verl"):
        row = trainer_row(rec, trainer, prompt="chat", system="Be brief.")
        assert row["prompt"] == [{"role": "system", "content": "Be brief."},
                                 {"role": "user", "content": text}]  # fmt: skip
    assert trainer_row(rec, "trl", prompt="chat")["prompt"] == [{"role": "user", "content": text}]
    assert trainer_row(rec, "openrlhf")["datasource"] == "span"  # what OpenRLHF groups by
    for bad, why in [({"prompt": "xml"}, "prompt: expected one of text, chat"),
                     ({"prompt": "text", "trainer": "verl"}, "verl reads chat messages only"),
                     ({"system": "x"}, "system prompt needs chat"),
                     ({"prompt": "chat", "system": "  "}, "non-empty system prompt"),
                     ({"prompt": "chat", "system": 3}, "non-empty system prompt")]:  # fmt: skip
        trainer = str(bad.pop("trainer", "trl"))
        with pytest.raises(TsolveError, match=why):
            trainer_row(rec, trainer, **bad)  # type: ignore[arg-type]


def test_export_chat_prompts_from_the_command_line(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    code, out = _cli("export", "openrlhf", "o", "--family", "span", "-n", "4", "--prompt", "chat",
                     "--system", "Answer last.", cwd=tmp_path)  # fmt: skip
    assert code == 0, out
    rows = pq.read_table(tmp_path / "o" / "train.parquet").to_pylist()
    assert all(r["prompt"][0] == {"role": "system", "content": "Answer last."} for r in rows)
    assert [r["prompt"][1]["content"] for r in rows] == [
        r["prompt"] for r in _records("span", 3, seed=0)]  # fmt: skip
    readme = (tmp_path / "o" / "README.md").read_text()
    assert "--data.apply_chat_template" in readme and "chat messages" in readme
    from tsolve.rl.export import export_rl

    with pytest.raises(TsolveError, match="verl reads chat messages only"):
        export_rl("verl", tmp_path / "v", "span", 4, prompt="text")
    with pytest.raises(TsolveError, match="needs chat prompts"):
        export_rl("trl", tmp_path / "t", "span", 4, system="x")
    assert not (tmp_path / "v").exists() and not (tmp_path / "t").exists()


def _cli(*args: str, cwd: Path) -> tuple[int, str]:
    """The command run in process (Typer's runner), from ``cwd``."""
    import os

    from typer.testing import CliRunner

    from tsolve.cli.app import app

    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args))
    finally:
        os.chdir(here)
    try:
        err = result.stderr
    except ValueError:  # an older Click mixes the two
        err = ""
    return result.exit_code, result.output + err


def test_export_rows_are_dataset_make_records_split_by_content(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    code, out = _cli("dataset", "make", "span", "-n", "20", "--seed", "4", "-o", "d.jsonl",
                     cwd=tmp_path)  # fmt: skip
    assert code == 0, out
    made = {r["id"]: r for r in map(json.loads, (tmp_path / "d.jsonl").read_text().splitlines())}
    ids = list(made)
    span = get_family("span")
    for trainer in ("verl", "trl"):
        code, out = _cli("export", trainer, trainer, "--family", "span", "-n", "20", "--seed", "4",
                         cwd=tmp_path)  # fmt: skip
        assert code == 0, out
        train = pq.read_table(tmp_path / trainer / "train.parquet").to_pylist()
        test = pq.read_table(tmp_path / trainer / "test.parquet").to_pylist()
        key = (lambda r: r["extra_info"]["id"]) if trainer == "verl" else (lambda r: r["id"])
        got = [key(r) for r in train + test]
        assert len(train) == 18 and got[:18] == ids[:18] and set(got) <= set(ids)
        seen = {span.content_fingerprint(made[key(r)]) for r in train}
        assert not any(span.content_fingerprint(made[key(r)]) in seen for r in test)
        assert "```" in (tmp_path / trainer / "README.md").read_text()
    verl = pq.read_table(tmp_path / "verl" / "train.parquet")
    assert {"data_source", "prompt", "ability", "reward_model", "extra_info"} <= set(
        verl.schema.names
    )
    row = verl.slice(0, 1).to_pylist()[0]
    assert compute_score(row["data_source"], "MY ANSWER: nothing",
                         row["reward_model"]["ground_truth"])["score"] == 0.0  # fmt: skip
    code, out = _cli("export", "verl", "verl", "--family", "span", "-n", "4", cwd=tmp_path)
    assert code == 0, out  # its own earlier export is replaced
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    from tsolve.rl.export import export_rl

    with pytest.raises(TsolveError, match="not empty"):
        export_rl("trl", tmp_path / "mine", "span", 4)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"


def test_export_mixture_interleaves_families(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from tsolve.rl.export import export_rl

    result = export_rl("openrlhf", tmp_path / "mix", "time-puzzles,logistics", 4, seed=2, test=0.25)
    rows = pq.read_table(tmp_path / "mix" / "train.parquet").to_pylist()
    assert [r["data_source"] for r in rows[:2]] == ["time-puzzles", "logistics"]
    assert result.counts["train"] == 6
    small = export_rl("trl", tmp_path / "small", "span", 4)  # 10% of 4 rounds to 0: one held
    assert small.counts == {"train": 3, "test": 1}
    with pytest.raises(TsolveError, match="family"):
        export_rl("trl", tmp_path / "bad", "span,span", 4)
    with pytest.raises(TsolveError, match="count"):
        export_rl("trl", tmp_path / "bad", "span", 1)


def _learner(level: int, rng: random.Random) -> float:
    """Success falls with difficulty: rung r of 0..10 succeeds with 1 - r/10."""
    return float(rng.random() < 1 - level / 10)


def _run(cur: Curriculum, rng: random.Random, batches: int) -> list[float]:
    rates = []
    for _ in range(batches):
        level = cur.options("span")["offset"]
        rewards = [_learner(level, rng) for _ in range(16)]
        cur.update("span", rewards)
        rates.append(sum(rewards) / len(rewards))
    return rates


def test_curriculum_holds_the_target_and_resumes_the_same(tmp_path: Path) -> None:
    cur = Curriculum({"span": {"offset": list(range(11))}}, target=0.5, window=32)
    rng = random.Random(7)
    rates = _run(cur, rng, 200)
    assert abs(sum(rates[-100:]) / 100 - 0.5) <= 0.1
    assert cur.history  # it moved
    cur.save(tmp_path / "state.json")
    state = random.Random(11)
    a = Curriculum.load(tmp_path / "state.json")
    b_rates = _run(cur, state, 50)
    a_rates = _run(a, random.Random(11), 50)
    assert a_rates == b_rates and a.state() == cur.state()
    json.dumps(cur.state())  # plain data


def test_a_loaded_curriculum_keeps_its_families_and_knobs_in_order(tmp_path: Path) -> None:
    """The order decides which family's rows come first and which knob moves
    next; the saved JSON sorts its keys, so the state keeps the order apart."""
    ladders = {"span": {"offset": [0, 1, 2], "max_days": [7, 30]},
               "logistics": {"depth": [1, 2]}}  # fmt: skip
    cur = Curriculum(ladders, window=2)
    cur.save(tmp_path / "state.json")
    assert sorted(json.loads((tmp_path / "state.json").read_text())["ladders"]) == [
        "logistics",
        "span",
    ]  # the file alone would put logistics first
    loaded = Curriculum.load(tmp_path / "state.json")
    assert list(loaded.ladders) == ["span", "logistics"]
    assert list(loaded.ladders["span"]) == ["offset", "max_days"]
    moves = [(loaded.update("span", [1.0, 1.0]), cur.update("span", [1.0, 1.0])) for _ in range(3)]
    assert all(a == b for a, b in moves) and moves[0][0][0]["knob"] == "offset"
    old = cur.state()
    del old["order"]  # a state saved before the order was kept loads in the file's order
    assert list(Curriculum.from_state(json.loads(json.dumps(old, sort_keys=True))).ladders) == [
        "logistics",
        "span",
    ]
    with pytest.raises(TsolveError, match="order"):
        Curriculum.from_state({**cur.state(), "order": [["span", ["offset"]]]})


def test_curriculum_save_never_writes_through_a_link(tmp_path: Path) -> None:
    """A state path that is a symbolic link is refused with one line, and
    the file it points at (which the run did not make) is left as it was;
    a save leaves no spool file beside the state."""
    cur = Curriculum({"span": {"offset": list(range(3))}})
    outside = tmp_path / "outside.json"
    outside.write_text("keep", encoding="utf-8")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "state.json").symlink_to(outside)
    with pytest.raises(TsolveError, match="symbolic link"):
        cur.save(tmp_path / "run" / "state.json")
    assert outside.read_text(encoding="utf-8") == "keep"
    cur.save(tmp_path / "run" / "fresh.json")
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["fresh.json", "state.json"]


def test_curriculum_checks_input_and_filter() -> None:
    with pytest.raises(TsolveError):
        Curriculum({"span": {"offset": []}})
    cur = Curriculum({"span": {"offset": [0, 1]}, "logistics": {"depth": [1, 2]}}, window=2)
    with pytest.raises(TsolveError, match="reward"):
        cur.update("span", [2.0])
    with pytest.raises(TsolveError, match="family"):
        cur.update("tempo", [1.0])
    assert cur.update("span", [1.0, 1.0])[0]["to"] == 1
    assert cur.options("logistics") == {"depth": 1}
    assert cur.keep([[1, 1], [0, 1]]) == [True, True]  # off by default
    assert equal_reward_filter([[1, 1], [0, 1], [0.5]]) == [False, True, False]
    with pytest.raises(TsolveError, match="state"):
        Curriculum.from_state({"version": 1, "ladders": {}})


def test_curriculum_watches_a_trl_reward() -> None:
    recs = _records("span", 4)
    labels = [ground_truth(r) for r in recs]
    gold = [p["output"] for p in predict(recs)]
    cur = Curriculum({"span": {"offset": [0, 1, 2]}}, window=4)
    reward = cur.watch(trl_reward("accuracy"))
    assert reward.__name__ == "tsolve_accuracy"
    assert reward(gold, label=labels, data_source=["span"] * 4) == [1.0] * 4
    assert cur.options("span") == {"offset": 1}  # all right: one rung harder
    reward(["no"] * 4, label=labels, data_source=["other"] * 4)  # not held: left out
    assert cur.state()["pending"] == {"span": []}


def test_signatures_and_schema_match_the_trainers_documented_examples() -> None:
    """The trainers' documented shapes, held where CI has neither verl nor
    OpenRLHF (their packages declare GPU stacks; tests/test_rl_verl.py and
    tests/test_rl_openrlhf.py run their own code where they are installed):
    verl calls ``compute_score(data_source, solution_str, ground_truth,
    extra_info)`` by keyword and lays a row out as its GSM8K example does;
    OpenRLHF calls ``reward_func(queries, prompts, labels)``; TRL passes
    ``completions`` and the columns as keywords."""
    import inspect

    from tsolve.rl import openrlhf_reward, verl_reward

    verl_params = list(inspect.signature(verl_reward.compute_score).parameters)
    assert verl_params == ["data_source", "solution_str", "ground_truth", "extra_info"]
    assert list(inspect.signature(openrlhf_reward.reward_func).parameters) == [
        "queries", "prompts", "labels"]  # fmt: skip
    rec = _records("span", 1)[0]
    row = trainer_row(rec, "verl", 3, "test")
    assert set(row["reward_model"]) == {"style", "ground_truth"}
    assert {"index", "split"} <= set(row["extra_info"]) and row["extra_info"]["split"] == "test"
    out = verl_reward.compute_score(data_source=row["data_source"], solution_str="MY ANSWER: x",
                                    ground_truth=row["reward_model"]["ground_truth"],
                                    extra_info=row["extra_info"])  # fmt: skip
    assert isinstance(out["score"], float)


@pytest.mark.parametrize(
    ("family", "options"),
    [("time-puzzles", {"solutions": 0}), ("time-puzzles", {"solutions": 3}),
     ("relational-puzzles", {"ask": "event"}), ("logistics", {"execution": "parallel"})],
)  # fmt: skip
def test_compact_gold_under_other_options(family: str, options: dict) -> None:
    fam = get_family(family)
    config = fam.make_options(options)
    recs = [fam.make_record(1, i, config) for i in range(5)]
    for baseline in ("gold", "perturbed", "random"):
        for rec, pred in zip(recs, predict(recs, baseline), strict=True):
            want = fam.require("score")(rec, pred["output"]).metrics
            got = gold_metrics(ground_truth(rec), pred["output"])[1]
            assert got == {k: v for k, v in want.items() if k not in DIAGNOSTIC}


def test_curriculum_drives_a_reasoning_gym_curriculum() -> None:
    rg = pytest.importorskip("reasoning_gym", reason="reasoning-gym is not installed (rg extra)")
    from tsolve.adapters.reasoning_gym import register_reasoning_gym

    register_reasoning_gym()
    rg_cur = rg.create_curriculum("tsolve_relational_puzzles")
    cur = Curriculum.from_reasoning_gym({"relational-puzzles": rg_cur}, window=2)
    assert cur.options("relational-puzzles") == {"events": 2}
    cur.update("relational-puzzles", [1.0, 1.0])
    cur.apply_to("relational-puzzles", rg_cur)
    assert rg_cur.get_attr_value("events") == 3
    with pytest.raises(TsolveError, match="curricula"):
        Curriculum.from_reasoning_gym({"span": object()})


def test_curriculum_drives_a_reasoning_gym_curriculum_experiment() -> None:
    """reasoning-gym's CurriculumExperiment (curricula over a composite
    dataset): after the rewards move the curriculum, the experiment's next
    entries are made at the new level."""
    pytest.importorskip("reasoning_gym", reason="reasoning-gym is not installed (rg extra)")
    from reasoning_gym.coaching.curriculum_config import (
        CurriculumAttributeConfig,
        CurriculumExperimentConfig,
    )
    from reasoning_gym.coaching.experiment import CurriculumExperiment

    from tsolve.adapters.reasoning_gym import register_reasoning_gym

    register_reasoning_gym()
    name = "tsolve_relational_puzzles"
    config = CurriculumExperimentConfig(curricula={name: CurriculumAttributeConfig(
        attribute_levels={"events": 0}, weight=1.0)})  # fmt: skip
    experiment = CurriculumExperiment("rl", config, size=4, seed=1)
    assert experiment.get_dataset_entry(0)["metadata"]["difficulty"]["events"] == 2
    cur = Curriculum.from_reasoning_gym({"relational-puzzles": experiment.curricula[name]},
                                        window=2)  # fmt: skip
    cur.update("relational-puzzles", [1.0, 1.0])
    cur.apply_to_experiment(experiment, {"relational-puzzles": name})
    entry = experiment.get_dataset_entry(0)
    assert entry["metadata"]["difficulty"]["events"] == 3
    assert len(entry["metadata"]["gold"]["answers"][0]) == 3  # three events' dates
    with pytest.raises(TsolveError, match="no curriculum named"):
        cur.apply_to_experiment(experiment, {"relational-puzzles": "tsolve_span"})


def test_a_family_without_compact_gold_ships_its_record() -> None:
    """The generic fallback: a plug-in family that declares no compact gold
    is scored by its own scorer on the whole record it ships."""
    from tsolve.contract import Family
    from tsolve.contract.item import ItemScore
    from tsolve.contract.registry import temporary_family

    def score(record: dict, output: str, *, diagnose: bool = True) -> ItemScore:
        if "answer" not in record:
            raise ValueError("no answer")
        ok = output.strip().endswith(record["answer"])
        return ItemScore(record.get("id"), "toy-rl", {"accuracy": float(ok)}, None, False)

    with temporary_family(Family(name="toy-rl", score=score)):
        record = {"id": "t1", "family": "toy-rl", "answer": "42", "prompt": "?"}
        gold = ground_truth(record)
        assert json.loads(gold) == {"family": "toy-rl", "record": record}
        assert compute_score("toy-rl", "MY ANSWER: 42", gold)["score"] == 1.0
        assert trl_reward("em")(["41"], label=[gold]) == [0.0]
        broken = json.dumps({"family": "toy-rl", "record": {"id": "t2"}})
        with pytest.raises(TsolveError, match="not a valid toy-rl gold"):
            compute_score("toy-rl", "42", broken)
        with pytest.raises(TsolveError, match="no compact gold"):
            compute_score("toy-rl", "42", json.dumps({"family": "toy-rl", "gold": {}}))


def test_export_holds_no_puzzle_twice(tmp_path: Path) -> None:
    """The export's records are the run's after its acceptance pass: time
    puzzles of two facts at seed 11 draw record 34 as record 32's puzzle,
    and neither file, nor the two together, holds a puzzle twice."""
    pq = pytest.importorskip("pyarrow.parquet")
    from tsolve.datasets.distinct import key_of
    from tsolve.datasets.writer import write_dataset
    from tsolve.rl.export import export_rl
    from tsolve.rl.rows import trainer_row

    fam = get_family("time-puzzles")
    write_dataset("time-puzzles", {"facts": 2}, count=40, out=tmp_path / "d.jsonl", seed=11)
    made = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    export_rl("trl", tmp_path / "t", "time-puzzles", 40, seed=11, test=0.25,
              options={"facts": 2})  # fmt: skip
    rows = [r for part in ("train", "test")
            for r in pq.read_table(tmp_path / "t" / f"{part}.parquet").to_pylist()]  # fmt: skip
    assert [r["prompt"] for r in rows] == [
        trainer_row(r, "trl", i, "train", "text", None)["prompt"] for i, r in enumerate(made)
    ]
    assert len({key_of(fam, r)[0] for r in made}) == len(made) == 40
