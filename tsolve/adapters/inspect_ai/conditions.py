"""The experimental conditions of the seeds' papers, as Inspect task options.

A task runs under one :class:`Condition`:

* ``tools``: ``none`` (the paper's no-tool runs: one ``generate()``),
  ``calendar``, ``knowledge``, ``code`` or ``all``
  (:data:`tsolve.adapters.inspect_ai.tools.TOOL_SETS`);
  with tools the model is offered them with Inspect's ``use_tools`` and
  answers through Inspect's own tool loop (:func:`tool_loop`), at most
  ``max_turns`` model calls;
* ``context``: ``none``, or ``knowledge``: the Time Puzzles paper's "cited
  search results as fixed context" condition, where the knowledge-base
  entries behind each implicit fact are pasted into the prompt
  (:func:`knowledge_context`) and no tool is offered;
* ``sandbox``: where ``code`` runs model-written Python. Docker by default, with
  tsolve's pinned image (``tsolve/sandbox/``: Python and calendar libraries);
  ``local`` runs it on the host, so it must be asked for here and warns. The
  code tool checks, on each call, that Inspect really gives it this sandbox
  (:func:`tsolve.adapters.inspect_ai.tools.check_sandbox`).

The prompt's style (implicit or explicit facts) is the generator's ``style``
option, the paper's "rewritten with explicit dates" condition.

Each sample's metadata carries its condition (``condition``), and its score's
metadata the run's tool calls and turns (:func:`run_stats`), which
``tsolve report`` groups by.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageTool
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver, use_tools

from tsolve.adapters.inspect_ai.tools import DEFAULT_SANDBOX, TOOL_SETS, local_warning
from tsolve.errors import TsolveError
from tsolve.records.validation import bad, shown

TOOL_CHOICES = tuple(TOOL_SETS)
CONTEXT_CHOICES = ("none", "knowledge")
SANDBOX_CHOICES = ("docker", "local")
#: Model calls a tool run may make when ``max_turns`` is not given.
DEFAULT_MAX_TURNS = 10
MAX_TURNS_BOUND = 200

#: The fact kinds that name a knowledge-base entry, and the parameter naming it.
KNOWLEDGE_FACTS = {
    "person_alive": "person",
    "us_president": "president",
    "sports_event_year": "event",
    "event_relation": "event",
}

#: A sports fact names its event by key; looked up as an edition, not a name part.
SPORTS_KEYS = ("summer_olympics", "winter_olympics", "fifa_world_cup")


@dataclass(frozen=True)
class Condition:
    """One experimental condition (see the module docstring)."""

    tools: str = "none"
    context: str = "none"
    max_turns: int = DEFAULT_MAX_TURNS
    sandbox: str | None = None

    @property
    def name(self) -> str:
        """The condition's label in reports: ``none``, ``calendar``, ...,
        ``context-knowledge``."""
        return "context-knowledge" if self.context == "knowledge" else self.tools

    @property
    def sandbox_spec(self) -> str | tuple[str, str] | None:
        """What the task declares to Inspect: Docker with tsolve's pinned
        image (:data:`tsolve.sandbox.COMPOSE_FILE`), not Inspect's unpinned
        default, so the code condition's interpreter is the same on every run;
        ``local`` as is. The code tool's guard checks the sandbox *type*
        (:attr:`sandbox`), which the spec keeps."""
        if self.sandbox == "docker":
            from tsolve.sandbox import COMPOSE_FILE

            return ("docker", str(COMPOSE_FILE))
        return self.sandbox

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, **asdict(self)}


def parse_condition(
    tools: Any = None, context: Any = None, max_turns: Any = None, sandbox: Any = None
) -> Condition:
    """The condition from task options, or a one-line TsolveError."""
    tools = "none" if tools is None else tools
    context = "none" if context is None else context
    if tools not in TOOL_CHOICES:
        raise TsolveError(f"tools: expected one of {', '.join(TOOL_CHOICES)}, got {tools!r}")
    if context not in CONTEXT_CHOICES:
        raise TsolveError(f"context: expected one of {', '.join(CONTEXT_CHOICES)}, got {context!r}")
    if context == "knowledge" and tools != "none":
        raise TsolveError(
            f"context: 'knowledge' is the no-tool condition (cited results as fixed context); "
            f"it does not combine with tools={tools}"
        )
    if max_turns is None:
        turns = DEFAULT_MAX_TURNS
    elif isinstance(max_turns, bool) or not isinstance(max_turns, int):
        raise TsolveError(f"max_turns: expected an integer >= 1, got {max_turns!r}")
    elif not 1 <= max_turns <= MAX_TURNS_BOUND:
        raise TsolveError(f"max_turns: expected 1..{MAX_TURNS_BOUND}, got {max_turns!r}")
    else:
        turns = max_turns
    runs_code = tools in ("code", "all")
    if sandbox is not None and not runs_code:
        raise TsolveError(
            f"sandbox: only the code condition runs code (tools=code or all), not tools={tools}"
        )
    if sandbox is not None and sandbox not in SANDBOX_CHOICES:
        raise TsolveError(f"sandbox: expected one of {', '.join(SANDBOX_CHOICES)}, got {sandbox!r}")
    chosen = (sandbox or DEFAULT_SANDBOX) if runs_code else None
    if chosen == "local":
        # Straight to stderr: Inspect shows log records on stdout, or not at
        # all under --display none, and this one must not be missed.
        print(local_warning(), file=sys.stderr, flush=True)
    return Condition(tools=tools, context=context, max_turns=turns, sandbox=chosen)


# ------------------------------------------------------------------ context


def knowledge_names(record: dict[str, Any]) -> list[str]:
    """The knowledge-base names the record's facts rest on, in fact order, once
    each. Facts that are not a list are the record's one-line error, named by
    its id (the task is being built: no model call is spent on it)."""
    facts = record.get("facts")
    if facts is not None and not isinstance(facts, list):
        raise bad(f"record {shown(record.get('id'), 40)}: facts", "a list of facts", facts)
    names: list[str] = []
    for fact in facts or []:
        if not isinstance(fact, dict):
            continue
        param = KNOWLEDGE_FACTS.get(str(fact.get("kind")))
        params = fact.get("params")
        if param is None or not isinstance(params, dict):
            continue
        name = params.get(param)
        if isinstance(name, str) and name not in names:
            names.append(name)
    return names


def knowledge_context(record: dict[str, Any]) -> str:
    """The knowledge-base entries behind the record's implicit facts, as a block
    of cited results to put before the prompt ("" when it has none: SPAN,
    logistics, explicit-style puzzles). Each is what ``lookup_knowledge``
    returns for the name, so this condition shows exactly what the
    ``knowledge`` tool would."""
    from tsolve.adapters.agent_tools import lookup_knowledge
    from tsolve.calendars.knowledge import KNOWLEDGE_AS_OF

    blocks: list[str] = []
    for name in knowledge_names(record):
        kind = "edition" if name in SPORTS_KEYS else None
        try:
            found = lookup_knowledge(name, kind)
        except TsolveError:
            continue  # a user's record naming something the built-in base lacks
        for entry in found["entries"]:
            blocks.append(json.dumps(entry, ensure_ascii=False))
    if not blocks:
        return ""
    lines = "\n".join(f"[{i}] {b}" for i, b in enumerate(blocks, 1))
    return (
        "Search results (from a knowledge base, with sources; the dates they give are "
        f"correct as of {KNOWLEDGE_AS_OF.isoformat()}):\n{lines}\n\n"
    )


def with_context(prompt: str, record: dict[str, Any], condition: Condition) -> str:
    """The prompt a sample is shown under ``condition``."""
    if condition.context != "knowledge":
        return prompt
    return knowledge_context(record) + prompt


# ------------------------------------------------------------------ solvers


@solver
def tool_loop(max_turns: int = DEFAULT_MAX_TURNS) -> Solver:
    """Inspect's tool loop, bounded by model calls: each turn is one
    ``generate(..., tool_calls="single")`` (the model's reply, and Inspect
    executing the tools it called); the loop ends when a reply calls no tool,
    or after ``max_turns`` replies (then the last reply is the answer, which
    scores 0 if it holds none)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for _ in range(max_turns):
            state = await generate(state, tool_calls="single")
            if state.completed or not state.output.message.tool_calls:
                break
        return state

    return solve


@solver
def record_run() -> Solver:
    """Write the run's turns and tool calls (:func:`run_stats`) into the
    sample's metadata under ``run``, beside its ``condition``."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.metadata["run"] = run_stats(state.messages)
        return state

    return solve


def condition_solver(condition: Condition) -> list[Solver]:
    """The task's solver chain under ``condition``: one ``generate()`` without
    tools, else ``use_tools`` + :func:`tool_loop`; then :func:`record_run`."""
    if condition.tools == "none":
        return [generate(), record_run()]
    return [use_tools(TOOL_SETS[condition.tools]()), tool_loop(condition.max_turns), record_run()]


def run_stats(messages: list[ChatMessage]) -> dict[str, Any]:
    """What a sample's run did: ``turns`` (model replies), ``tool_calls`` (each
    ``{function, error}``: error is the tool's error text or None) and their
    count ``n_tool_calls``, and ``tool_errors``. Computed from the messages, so
    ``inspect score`` recomputes it from a log."""
    calls: list[dict[str, Any]] = []
    errors: dict[str, str | None] = {}
    for message in messages:
        if isinstance(message, ChatMessageTool) and message.tool_call_id:
            errors[message.tool_call_id] = message.error.message if message.error else None
    turns = 0
    for message in messages:
        if isinstance(message, ChatMessageAssistant):
            turns += 1
            for call in message.tool_calls or []:
                calls.append({"function": call.function, "error": errors.get(call.id)})
    return {
        "turns": turns,
        "n_tool_calls": len(calls),
        "tool_errors": sum(1 for c in calls if c["error"] is not None),
        "tool_calls": calls,
    }
