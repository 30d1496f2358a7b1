"""A tokenizer and a model built in a test, never downloaded, for the trainer tests.

The tokenizer is word-level, trained on the texts given, with a chat template
(``role : content`` lines), so a trainer's conversational path runs on it.
``split="space"`` splits at spaces only, so decoding a sentence of known words
gives it back as written (verl and OpenRLHF decode the response before
scoring it); ``"words"`` also splits punctuation off (fewer, shorter tokens).
The model is a two-layer Llama of a few hundred thousand parameters."""

from __future__ import annotations

from typing import Any

CHAT = ("{% for m in messages %}{{ m['role'] }} : {{ m['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}assistant :{% endif %}")  # fmt: skip


def tiny_tokenizer(texts: list[str], split: str = "words") -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = (pre_tokenizers.WhitespaceSplit() if split == "space"
                         else pre_tokenizers.Whitespace())  # fmt: skip
    special = ["[PAD]", "[UNK]", "[EOS]"]
    extra = ["MY ANSWER: None", "system user assistant : \n"]
    tok.train_from_iterator([*texts, *extra], trainers.WordLevelTrainer(
        vocab_size=50000, special_tokens=special))  # fmt: skip
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                   eos_token="[EOS]")  # fmt: skip
    fast.padding_side = "left"
    fast.chat_template = CHAT
    return fast


def tiny_model(tokenizer: Any) -> Any:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2,
                         max_position_embeddings=1024, pad_token_id=tokenizer.pad_token_id,
                         eos_token_id=tokenizer.eos_token_id)  # fmt: skip
    return LlamaForCausalLM(config)
