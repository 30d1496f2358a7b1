"""verl reads a ``tsolve export verl`` folder and scores it with tsolve's reward file.

verl's own code, on CPU: its ``RLHFDataset`` loads ``train.parquet`` (chat
prompts, applied through the tokenizer's chat template, as its trainer does),
and its reward loop's ``load_reward_manager`` loads ``compute_score`` from
the file ``reward.custom_reward_function.path`` names
(``tsolve/rl/verl_reward.py``); its ``naive`` reward manager then decodes
each response and calls it, as a training step does. Gold answers must
score 1.0, garbage 0.0, each equal to ``tsolve verify``'s number.

Skipped without verl, which pulls a GPU stack (vLLM, flash-attn): too heavy
for CI. docs/rl.md gives the command that runs it (verl installed with
``--no-deps`` beside torch, transformers and the few modules it imports)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rl_tiny import tiny_tokenizer

verl = pytest.importorskip("verl", reason="verl is not installed (GPU stack): see docs/rl.md")

FAMILIES = ("time-puzzles", "span", "logistics")


def _gold(rows: list[dict]) -> dict[str, str]:
    """The gold answer text of each exported row, by id, from the records
    ``tsolve dataset make`` makes (the rows are those records)."""
    from tsolve.contract import get_family
    from tsolve.verifiers.baselines import predict

    out = {}
    for name in FAMILIES:
        family = get_family(name)
        records = [family.make_record(0, i, family.make_options({})) for i in range(4)]
        out.update({r["id"]: p["output"] for r, p in zip(records, predict(records), strict=True)})
    assert {r["extra_info"]["id"] for r in rows} <= set(out)
    return out


def test_verl_loads_the_export_and_its_reward_manager_calls_compute_score(
    tmp_path: Path,
) -> None:
    import numpy as np
    import pyarrow.parquet as pq
    import torch
    from omegaconf import OmegaConf
    from verl import DataProto
    from verl.trainer.ppo.reward import load_reward_manager
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    import tsolve.rl.verl_reward as reward_file
    from tsolve.contract import get_family
    from tsolve.rl.export import export_rl
    from tsolve.verifiers.rewards import DIAGNOSTIC

    export_rl("verl", tmp_path / "data", ",".join(FAMILIES), 4, seed=0, test=0.25,
              system="Answer last.")  # fmt: skip
    train = str(tmp_path / "data" / "train.parquet")
    rows = pq.read_table(train).to_pylist()
    gold = _gold(rows)
    texts = [m["content"] for r in rows for m in r["prompt"]] + list(gold.values())
    tokenizer = tiny_tokenizer([*texts, "no clue"], split="space")

    config = OmegaConf.create({"prompt_key": "prompt", "max_prompt_length": 8192,
                               "cache_dir": str(tmp_path / "cache")})  # fmt: skip
    data = RLHFDataset(data_files=[train], tokenizer=tokenizer, config=config)
    assert len(data) == len(rows)  # none filtered out: every chat prompt went through the template
    items = [data[i] for i in range(len(data))]
    assert [i["raw_prompt"] for i in items] == [r["prompt"] for r in rows]
    assert items[0]["raw_prompt"][0] == {"role": "system", "content": "Answer last."}

    readme = (tmp_path / "data" / "README.md").read_text()  # the lines it gives are these keys
    path = f"reward.custom_reward_function.path=$(python -c 'import {reward_file.__name__}"
    assert path in readme
    assert "reward.custom_reward_function.name=compute_score" in readme
    manager = load_reward_manager(OmegaConf.create({"reward": {
        "custom_reward_function": {"path": reward_file.__file__, "name": "compute_score"},
        "reward_manager": {"source": "register", "name": "naive"}}}), tokenizer)  # fmt: skip

    def scored(item: dict, answer: str) -> dict:
        prompt = tokenizer.apply_chat_template(item["raw_prompt"], add_generation_prompt=True,
                                               tokenize=True, return_dict=False)  # fmt: skip
        if isinstance(prompt, dict):
            prompt = prompt["input_ids"]
        response = tokenizer(answer, add_special_tokens=False)["input_ids"]
        batch = collate_fn([item])
        batch.update(
            prompts=torch.tensor([prompt]),
            responses=torch.tensor([response]),
            attention_mask=torch.ones(1, len(prompt) + len(response), dtype=torch.long),
        )
        proto = DataProto.from_single_dict(batch)
        assert isinstance(proto.non_tensor_batch["reward_model"], np.ndarray)
        return manager.loop.run_until_complete(manager.run_single(proto))

    for item in items:
        record_id = item["extra_info"]["id"]
        for answer, want in ((gold[record_id], 1.0), ("no clue", 0.0)):
            out = scored(item, answer)
            assert out["reward_score"] == want, (record_id, answer)
            family = get_family(item["data_source"])
            verify = family.require("score")(_record(family.name, record_id), answer).metrics
            metrics = {k: v for k, v in out["reward_extra_info"].items() if k != "score"}
            assert metrics == {k: v for k, v in verify.items() if k not in DIAGNOSTIC}


def _record(name: str, record_id: str) -> dict:
    from tsolve.contract import get_family

    family = get_family(name)
    for i in range(4):
        record = family.make_record(0, i, family.make_options({}))
        if record["id"] == record_id:
            return record
    raise AssertionError(record_id)
