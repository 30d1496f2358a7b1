"""OpenRLHF reads a ``tsolve export openrlhf`` folder and gets tsolve's rewards.

OpenRLHF's own code, on CPU: ``blending_datasets`` loads ``train.parquet``
and ``PromptDataset`` turns each row into its prompt and label (chat
prompts through the tokenizer's chat template, ``--data.apply_chat_template``);
``SingleTurnAgentExecutor``, the code a rollout runs, then tokenizes the
prompt, takes the response from the engine (here a stub that answers the
gold or garbage, in place of vLLM), decodes the query and fetches its reward
from ``--reward.remote_url``: the file ``tsolve/rl/openrlhf_reward.py``
(``reward_func``) or ``tsolve serve-rewards`` over real HTTP from
localhost. Gold must earn 1.0 and garbage 0.0.

Skipped without openrlhf, which pulls a GPU stack (DeepSpeed, vLLM,
flash-attn): too heavy for CI. docs/rl.md gives the command that runs it
(openrlhf installed with ``--no-deps`` beside torch and transformers)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rl_tiny import tiny_tokenizer

pytest.importorskip("openrlhf", reason="openrlhf is not installed (GPU stack): see docs/rl.md")
uvicorn = pytest.importorskip("uvicorn", reason="serve-rewards needs uvicorn (the rl extra)")

FAMILIES = ("relational-puzzles", "span")


class _Strategy:
    """What OpenRLHF's dataset code reads of its training strategy."""

    def __init__(self, chat: bool) -> None:
        data = SimpleNamespace(input_key="prompt", label_key="label", apply_chat_template=chat)
        self.args = SimpleNamespace(data=data, use_ms=False)

    def print(self, *args: object) -> None:
        pass

    def is_rank_0(self) -> bool:
        return True


class _Engine:
    """vLLM's place in a rollout: answers each prompt with the text it is given."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer, self.answer = tokenizer, ""

    async def generate(self, prompt_ids: list[int], params: Any, multi_modal_data: Any = None):  # type: ignore[no-untyped-def]
        ids = self.tokenizer(self.answer, add_special_tokens=False)["input_ids"]
        out = SimpleNamespace(token_ids=ids, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[out])


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    from tsolve.rl.server import make_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(workers=1), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{port}/get_reward"
    server.should_exit = True
    thread.join(10)
    sock.close()


def _gold() -> dict[str, str]:
    from tsolve.contract import get_family
    from tsolve.verifiers.baselines import predict

    out = {}
    for name in FAMILIES:
        family = get_family(name)
        records = [family.make_record(0, i, family.make_options({})) for i in range(4)]
        out.update({r["id"]: p["output"] for r, p in zip(records, predict(records), strict=True)})
    return out


@pytest.mark.parametrize(("prompt", "reward"), [("chat", "file"), ("text", "server")])
def test_openrlhf_loads_the_export_and_its_rollout_gets_tsolve_rewards(
    tmp_path: Path, prompt: str, reward: str, request: pytest.FixtureRequest
) -> None:
    import pyarrow.parquet as pq
    from openrlhf.datasets import PromptDataset
    from openrlhf.datasets.utils import blending_datasets
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    import tsolve.rl.openrlhf_reward as reward_file
    from tsolve.rl.export import export_rl

    export_rl("openrlhf", tmp_path / "data", ",".join(FAMILIES), 4, seed=0, test=0.25,
              prompt=prompt)  # fmt: skip
    train = str(tmp_path / "data" / "train.parquet")
    rows = pq.read_table(train).to_pylist()
    gold = _gold()
    texts = [m["content"] for r in rows for m in r["prompt"]] if prompt == "chat" else [
        r["prompt"] for r in rows]  # fmt: skip
    tokenizer = tiny_tokenizer([*texts, *gold.values(), "no clue"], split="space")
    strategy = _Strategy(chat=prompt == "chat")
    data = PromptDataset(blending_datasets(train, strategy=strategy), tokenizer, strategy)
    assert len(data) == len(rows)
    assert [data[i][2] for i in range(len(data))] == [r["label"] for r in rows]
    if prompt == "chat":  # the template was applied: the prompt is text ending in the cue
        assert all(data[i][1].endswith("assistant :") for i in range(len(data)))

    import re

    import openrlhf

    flags = re.findall(r"(--[a-z_.]+)", (tmp_path / "data" / "README.md").read_text())
    # the trainer's argument parser, read as text: importing it needs vLLM
    source = (Path(openrlhf.__file__).parent / "cli" / "train_ppo_ray.py").read_text()
    assert "--data.prompt_dataset" in flags and "--reward.remote_url" in flags
    current = flags[: flags.index("--reward.remote_url") + 1]  # the lines for this release
    assert all(f'"{flag}"' in source for flag in current), current
    assert ("--data.apply_chat_template" in flags) == (prompt == "chat")

    url = reward_file.__file__ if reward == "file" else request.getfixturevalue("server_url")
    executor = SingleTurnAgentExecutor(remote_rm_url=url)
    assert (executor.reward_func is not None) == (reward == "file")
    engine = _Engine(tokenizer)
    params = SimpleNamespace(max_tokens=256, logprobs=None)
    for i, row in enumerate(rows):
        _, text, label, _ = data[i]
        for answer, want in ((gold[row["id"]], 1.0), ("no clue", 0.0)):
            engine.answer = answer
            out = asyncio.run(executor.execute(text, label, params, 8192, tokenizer, engine))
            got = out["reward"]
            got = float(got[0] if isinstance(got, list) else got.reshape(-1)[0])
            assert got == want, (row["id"], answer, out["reward"])
