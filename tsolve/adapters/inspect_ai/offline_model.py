"""An offline model provider: ``inspect eval tsolve/... --model tsolve/gold``.

Inspect finds model providers in its registry (``@modelapi``); this one is
registered under the name ``tsolve`` when Inspect loads tsolve's entry point
(:mod:`tsolve.adapters.inspect_ai._registry`), so ``--model tsolve/NAME``
reaches it like any provider, and the whole loop (Inspect's model API, the
tool loop, the scorer, usage accounting and the log) runs with no network
and no tokenizer. The models (:data:`MODELS`):

* ``gold``: the sample's gold answer, in the form its prompt asks for
  (:func:`tsolve.verifiers.baselines.answer_text`): it scores 1 under the
  family's real scorer;
* ``refuse``: a refusal (:data:`tsolve.adapters.inspect_ai.scripted.REFUSAL`),
  which scores 0;
* ``random``: the gold redrawn, a random answer of the right form
  (:func:`tsolve.verifiers.baselines.redraw`; ``-M seed=N`` picks the draw,
  which also depends on the sample's id and epoch, so reruns agree);
* ``perturbed``: the gold as its family perturbs it, never the gold itself
  (:func:`tsolve.verifiers.baselines.perturbed_text`, as ``tsolve predict
  --baseline perturbed``).

A chat model is only shown messages, so the model reads the record from the
running sample's metadata (``record``, where :mod:`tsolve.adapters.inspect_ai.dataset`
puts it): it answers tsolve samples only, and anything else is a one-line error.
Under a tool condition (``-T tools=...``) it first calls the first tool offered,
once, with good arguments (:func:`tsolve.adapters.inspect_ai.scripted.scripted_calls`),
and answers after the tool's result, so the tools really run; ``tools=code``
runs Python in the task's sandbox as a model's call would. On a sample of a
family's own task (one with no tsolve record, :mod:`tsolve.adapters.inspect_ai.family_tasks`)
its move is the one that task's ``offline_move`` says (TicToc: ``gold`` makes
the move the item prefers, ``perturbed`` the other one, ``random`` either, and
``refuse`` a direct answer).

Usage is counted in whitespace-separated tokens of the input messages and of
the reply, so Inspect's token accounting (and ``--token-limit``) works and
nothing is downloaded to count them.
"""

from __future__ import annotations

import json
import random
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolFunction, ToolInfo

from tsolve.adapters.inspect_ai.family_tasks import module_for_sample
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import record_in

PROVIDER = "tsolve"
MODELS = ("gold", "refuse", "random", "perturbed")


class OfflineModel(ModelAPI):
    """The ``tsolve/<name>`` models (see the module docstring)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        seed: Any = 0,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        if model_name not in MODELS:
            raise _one_line(
                f"model: expected {', '.join(f'{PROVIDER}/{m}' for m in MODELS)}, "
                f"got {PROVIDER}/{model_name}"
            )
        if model_args:
            raise _one_line(
                f"{', '.join(sorted(model_args))}: not an option of the {PROVIDER}/ models "
                "(they take -M seed=N)"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise _one_line(f"seed: expected an integer, got {seed!r}")
        self.seed = seed

    async def count_text_tokens(self, text: str) -> int:
        """Whitespace-separated tokens: no tokenizer to download."""
        return len(text.split())

    def max_connections(self) -> int:
        """No server to spare: every sample may run at once."""
        return 100

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        metadata, sample_id, epoch = _running_sample()
        rng = random.Random(f"tsolve-model-{self.seed}-{sample_id!r}-{epoch}")
        own = None if isinstance(metadata.get("record"), dict) else module_for_sample(metadata)
        if own is not None:  # a family task's own sample: its task says the move
            move = own.offline_move(metadata, self.model_name, rng)
        else:
            move = self._move(_record(metadata, sample_id), input, tools, tool_choice, rng)
        return self._output(move, input)

    def _move(
        self,
        record: dict[str, Any],
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        rng: random.Random,
    ) -> str | ToolCall:
        """One tool call first under a tool condition, then the answer."""
        called = any(isinstance(m, ChatMessageTool) for m in input)
        if tools and tool_choice != "none" and not called:
            call = _first_call(record, tools, tool_choice)
            if call is not None:
                return call
        return self._answer(record, rng)

    def _answer(self, record: dict[str, Any], rng: random.Random) -> str:
        from tsolve.adapters.inspect_ai.scripted import REFUSAL
        from tsolve.verifiers.baselines import answer_text, perturbed_text, redraw

        if self.model_name == "refuse":
            return REFUSAL
        gold = answer_text(record)
        if self.model_name == "random":
            drawn = redraw(gold, rng)
            if drawn == gold:  # nothing in it to draw afresh: right or wrong, evenly
                drawn = gold if rng.random() < 0.5 else perturbed_text(record)
            return drawn
        if self.model_name == "perturbed":
            return perturbed_text(record)
        return gold

    def _output(self, move: str | ToolCall, input: list[ChatMessage]) -> ModelOutput:
        if isinstance(move, ToolCall):
            message = ChatMessageAssistant(
                content="", tool_calls=[move], model=self.model_name, source="generate"
            )
            written = f"{move.function} {json.dumps(move.arguments)}"
            stop = "tool_calls"
        else:
            message = ChatMessageAssistant(content=move, model=self.model_name, source="generate")
            written = move
            stop = "stop"
        read = sum(len(m.text.split()) for m in input)
        out = len(written.split())
        return ModelOutput(
            model=self.model_name,
            choices=[ChatCompletionChoice(message=message, stop_reason=stop)],  # type: ignore[arg-type]
            usage=ModelUsage(input_tokens=read, output_tokens=out, total_tokens=read + out),
        )


@modelapi(name=PROVIDER)
def offline_model() -> type[ModelAPI]:
    """Inspect's registry entry for ``--model tsolve/<name>``."""
    return OfflineModel


def _running_sample() -> tuple[dict[str, Any], Any, int]:
    """The running sample's metadata, id and epoch (Inspect keeps them in a
    context variable; a private module of Inspect's, so an Inspect that moved
    it gets a one-line error, not a wrong answer)."""
    try:
        from inspect_ai.solver._task_state import sample_state
    except ImportError:  # pragma: no cover - an Inspect that moved it
        raise TsolveError(
            f"the {PROVIDER}/ models need Inspect's sample_state(), which this "
            "inspect_ai does not have"
        ) from None
    state = sample_state()
    if state is None:
        raise TsolveError(
            f"the {PROVIDER}/ models answer tsolve samples only, inside an eval "
            "(inspect eval tsolve/TASK --model tsolve/gold)"
        )
    return state.metadata, state.sample_id, state.epoch


def _record(metadata: dict[str, Any], sample_id: Any) -> dict[str, Any]:
    record = record_in(metadata)
    if not isinstance(record, dict):
        raise TsolveError(
            f"sample {sample_id!r}: no tsolve record in its metadata; the {PROVIDER}/ "
            "models answer tsolve tasks only (inspect eval tsolve/TASK)"
        )
    return record


def _first_call(
    record: dict[str, Any], tools: list[ToolInfo], tool_choice: ToolChoice
) -> ToolCall | None:
    """A good call of the tool ``tool_choice`` names, else of the first tool offered
    that tsolve knows arguments for."""
    from tsolve.adapters.inspect_ai.scripted import scripted_calls

    names = [t.name for t in tools]
    if isinstance(tool_choice, ToolFunction):
        names = [tool_choice.name]
    for name in names:
        for call in scripted_calls(record, [name]):
            if call.id == f"{name}-good":
                return call
    return None


def _one_line(message: str) -> Exception:
    """A bad model name or option as the error Inspect's command line prints
    as one line (see :func:`tsolve.adapters.inspect_ai.tasks._one_line`)."""
    from tsolve.adapters.inspect_ai.tasks import _one_line as one_line

    return one_line(TsolveError(message))
