"""TRL's GRPOTrainer trains on a ``tsolve export trl`` folder with tsolve's reward.

A model and a tokenizer are built here (never downloaded): a two-layer
Llama of a few hundred thousand parameters and a word-level tokenizer
trained on the exported prompts (with a chat template, for TRL's
conversational format). Two steps must log tsolve's reward
(``rewards/tsolve_em/mean``), from text and from chat prompts, and a run on
the curriculum's stream must move the curriculum and the items it draws.
Skipped without trl, which pulls torch and transformers: too heavy for CI's
``test`` extra (docs/rl.md gives the command that runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rl_tiny import tiny_model, tiny_tokenizer

trl = pytest.importorskip("trl", reason="trl (and torch) are not installed: pip install trl")


def _args(out: Path, steps: int, **kwargs):  # type: ignore[no-untyped-def]
    given = {"save_strategy": "no", **kwargs}
    return trl.GRPOConfig(output_dir=str(out), per_device_train_batch_size=4,
                          num_generations=2, max_completion_length=8, max_steps=steps,
                          logging_steps=1, report_to=[], use_cpu=True,
                          learning_rate=1e-4, **given)  # fmt: skip


@pytest.mark.parametrize("prompt", ["text", "chat"])
def test_grpo_trainer_logs_tsolve_rewards(tmp_path: Path, prompt: str) -> None:
    from datasets import load_dataset

    from tsolve.rl import trl_reward, trl_reward_async
    from tsolve.rl.export import export_rl

    export_rl("trl", tmp_path / "data", "time-puzzles,span", 8, seed=0, test=0.25, prompt=prompt,
              system="Answer last." if prompt == "chat" else None)  # fmt: skip
    data = load_dataset("parquet", data_files={"train": str(tmp_path / "data" / "train.parquet")})
    train = data["train"].select(range(4))
    first = train[0]["prompt"]
    if prompt == "chat":  # TRL's conversational format, as GRPOTrainer tells it apart
        from trl.data_utils import is_conversational

        assert is_conversational({"prompt": first}) and first[0]["role"] == "system"
        texts = [m["content"] for p in train["prompt"] for m in p]
    else:
        assert isinstance(first, str)
        texts = list(train["prompt"])
    tokenizer = tiny_tokenizer(texts)
    model = tiny_model(tokenizer)
    calls: list[list[float]] = []
    labels: set[str] = set()
    reward = trl_reward("em")

    seen: list[object] = []

    def tsolve_em(completions, **kwargs):  # type: ignore[no-untyped-def]
        out = reward(completions, **kwargs)
        calls.append(out)
        seen.extend(completions)
        labels.update(kwargs["label"])
        return out

    args = _args(tmp_path / "out", 2)
    # TRL runs a coroutine reward apart (asyncio.gather); "accuracy" is each
    # family's exact-match metric, so it logs the same means as "em".
    trainer = trl.GRPOTrainer(model=model, reward_funcs=[tsolve_em, trl_reward_async("accuracy")],
                              args=args,
                              train_dataset=train, processing_class=tokenizer)  # fmt: skip
    trainer.train()
    logged = [e for e in trainer.state.log_history if "rewards/tsolve_em/mean" in e]
    assert calls and len(logged) >= 2
    assert labels and labels <= set(train["label"])  # the export's column reached the reward
    assert all(0.0 <= e["rewards/tsolve_em/mean"] <= 1.0 for e in logged)
    means = [sum(c) / len(c) for c in calls]
    assert [e["rewards/tsolve_em/mean"] for e in logged] == pytest.approx(means[: len(logged)])
    assert [e["rewards/tsolve_accuracy/mean"] for e in logged] == pytest.approx(
        means[: len(logged)])  # fmt: skip
    # a chat prompt's completion is the assistant's message, which the reward reads
    assert all(isinstance(c, list) and c[-1]["role"] == "assistant" for c in seen) == (
        prompt == "chat")  # fmt: skip


def test_grpo_trainer_moves_the_curriculum_and_its_stream(tmp_path: Path) -> None:
    """A run on :class:`CurriculumCallback`'s stream: the rewards of each step
    reach the curriculum (an untrained model earns 0, so it moves easier) and
    the items drawn after the move carry the easier options."""
    from tsolve.rl import Curriculum, trl_reward
    from tsolve.rl.trl_curriculum import STATE_FILE, CurriculumCallback

    cur = Curriculum({"relational-puzzles": {"events": [2, 3, 4]}}, window=4,
                     start={"relational-puzzles": {"events": 2}})  # fmt: skip
    feed = CurriculumCallback(cur, seed=0, prompt="chat")
    probe = CurriculumCallback(Curriculum(cur.ladders), seed=0, prompt="chat")
    texts = [m["content"] for _ in range(4) for m in probe.draw("relational-puzzles")["prompt"]]
    tokenizer = tiny_tokenizer(texts)
    options: list[list[str]] = []
    reward = feed.watch(trl_reward("em"))

    def tsolve_em(completions, **kwargs):  # type: ignore[no-untyped-def]
        options.append(list(kwargs["options"]))
        return reward(completions, **kwargs)

    args = _args(tmp_path / "out", 4, shuffle_dataset=False, save_strategy="steps", save_steps=4)
    trainer = trl.GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=[tsolve_em], args=args,
                              train_dataset=feed.dataset(), processing_class=tokenizer,
                              callbacks=[feed])  # fmt: skip
    trainer.train()
    logged = [e["rewards/tsolve_em/mean"] for e in trainer.state.log_history
              if "rewards/tsolve_em/mean" in e]  # fmt: skip
    assert len(logged) == 4 and len(options) == 4
    # each step's 4 zero rewards fill the window: one rung easier, until the easiest
    assert [(m["from"], m["to"]) for m in cur.history] == [(2, 1), (1, 0)]
    assert [s["step"] for s in feed.steps] == [1, 2, 3, 4]
    # the items follow one batch behind (Accelerate reads the next batch ahead):
    # step 1's move shows in step 3's prompts, step 2's in step 4's
    assert options == [[f'{{"events": {n}}}'] * 4 for n in (4, 4, 3, 2)]
    saved = Curriculum.load(tmp_path / "out" / "checkpoint-4" / STATE_FILE)
    assert saved.state() == cur.state()

    shuffled = trl.GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=[tsolve_em],
                               args=_args(tmp_path / "out2", 1), train_dataset=feed.dataset(),
                               processing_class=tokenizer, callbacks=[feed])  # fmt: skip
    from tsolve.errors import TsolveError

    with pytest.raises(TsolveError, match="shuffle_dataset=False"):
        shuffled.train()


def test_a_resumed_grpo_run_resumes_the_stream(tmp_path: Path) -> None:
    """A run saved at step 2 and resumed from that checkpoint serves none of
    the first run's puzzles again, and refuses to start with a stream that
    was not resumed or with the trainer's own data skip."""
    from tsolve.errors import TsolveError
    from tsolve.rl import Curriculum, trl_reward
    from tsolve.rl.trl_curriculum import CurriculumCallback

    def curriculum() -> Curriculum:
        return Curriculum({"relational-puzzles": {"events": [2, 3, 4]}}, window=4)

    probe = CurriculumCallback(curriculum(), seed=0, prompt="chat")
    texts = [m["content"] for _ in range(8) for m in probe.draw("relational-puzzles")["prompt"]]
    tokenizer = tiny_tokenizer(texts)
    out = tmp_path / "out"

    def trainer(feed: CurriculumCallback, steps: int, ids: list[str], **kwargs):  # type: ignore[no-untyped-def]
        reward = feed.watch(trl_reward("em"))

        def tsolve_em(completions, **kw):  # type: ignore[no-untyped-def]
            ids.extend(kw["id"])
            return reward(completions, **kw)

        args = _args(out, steps, shuffle_dataset=False, save_strategy="steps", save_steps=2,
                     **kwargs)  # fmt: skip
        return trl.GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=[tsolve_em], args=args,
                               train_dataset=feed.dataset(), processing_class=tokenizer,
                               callbacks=[feed])  # fmt: skip

    first_ids: list[str] = []
    trainer(CurriculumCallback(curriculum(), seed=0, prompt="chat"), 2, first_ids).train()
    checkpoint = out / "checkpoint-2"
    with pytest.raises(TsolveError, match=r"CurriculumCallback\.resume"):
        trainer(CurriculumCallback(curriculum(), seed=0, prompt="chat"), 4, [],
                ignore_data_skip=True).train(resume_from_checkpoint=str(checkpoint))  # fmt: skip
    with pytest.raises(TsolveError, match="ignore_data_skip=True"):
        trainer(CurriculumCallback.resume(checkpoint, prompt="chat"), 4, []).train(
            resume_from_checkpoint=str(checkpoint))  # fmt: skip
    later: list[str] = []
    feed = CurriculumCallback.resume(checkpoint, prompt="chat")
    trainer(feed, 4, later, ignore_data_skip=True).train(resume_from_checkpoint=str(checkpoint))
    assert first_ids and len(later) == len(first_ids)  # two more steps, as many rows
    assert not set(first_ids) & set(later)
