"""TRL's GRPOTrainer trains on a ``tsolve export trl`` folder with tsolve's reward.

A model and a tokenizer are built here (never downloaded): a two-layer
Llama of a few hundred thousand parameters and a word-level tokenizer
trained on the exported prompts. Two steps must log tsolve's reward
(``rewards/tsolve_em/mean``). Skipped without trl, which pulls torch and
transformers: too heavy for CI's ``test`` extra (docs/rl.md gives the
command that runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest

trl = pytest.importorskip("trl", reason="trl (and torch) are not installed: pip install trl")


def _tokenizer(texts: list[str]):  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    special = ["[PAD]", "[UNK]", "[EOS]"]
    tok.train_from_iterator([*texts, "MY ANSWER: None"], trainers.WordLevelTrainer(
        vocab_size=2000, special_tokens=special))  # fmt: skip
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                   eos_token="[EOS]")  # fmt: skip
    fast.padding_side = "left"
    return fast


def test_grpo_trainer_logs_tsolve_rewards(tmp_path: Path) -> None:
    import torch
    from datasets import load_dataset
    from transformers import LlamaConfig, LlamaForCausalLM

    from tsolve.rl import trl_reward, trl_reward_async
    from tsolve.rl.export import export_rl

    export_rl("trl", tmp_path / "data", "time-puzzles,span", 8, seed=0, test=0.25)
    data = load_dataset("parquet", data_files={"train": str(tmp_path / "data" / "train.parquet")})
    train = data["train"].select(range(4))
    tokenizer = _tokenizer(list(train["prompt"]))
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2,
                         max_position_embeddings=1024, pad_token_id=tokenizer.pad_token_id,
                         eos_token_id=tokenizer.eos_token_id)  # fmt: skip
    model = LlamaForCausalLM(config)
    calls: list[list[float]] = []
    labels: set[str] = set()
    reward = trl_reward("em")

    def tsolve_em(completions, **kwargs):  # type: ignore[no-untyped-def]
        out = reward(completions, **kwargs)
        calls.append(out)
        labels.update(kwargs["label"])
        return out

    args = trl.GRPOConfig(output_dir=str(tmp_path / "out"), per_device_train_batch_size=4,
                          num_generations=2, max_completion_length=8, max_steps=2,
                          logging_steps=1, report_to=[], use_cpu=True, save_strategy="no",
                          learning_rate=1e-4)  # fmt: skip
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
