"""An offline smoke-test solver: ``inspect eval tsolve/... --solver tsolve/scripted``.

It never calls the model. Under a tool condition it calls each of the
condition's tools twice, once with good arguments and once with bad ones,
through Inspect's own ``execute_tools`` (so the tools, their error results and
the sandbox are exercised exactly as a model's calls would), and then answers
with the record's gold output (:func:`tsolve.verifiers.gold_answers.gold_output`)
or, with ``answer="refuse"``, with no answer. Two more answers carry a line of
reasoning, so that ``tsolve report --claims`` has something to find:
``answer="reasoned"`` is the gold output after a true date claim, and
``answer="false-claim"`` is no answer after a false one (:data:`FALSE_CLAIM`).
Its outputs carry ``usage``, so
no tokenizer is fetched to count tokens: with ``--model mockllm/model`` the run
needs no network. A gold run must score 1 on every sample under every
condition, which makes it the check that a condition's wiring and the scorer
agree.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ModelOutput,
    ModelUsage,
    execute_tools,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolCall

from tsolve.adapters.inspect_ai.conditions import knowledge_names, parse_condition, run_stats
from tsolve.adapters.inspect_ai.family_tasks import module_for_sample
from tsolve.adapters.inspect_ai.tools import TOOL_SETS
from tsolve.contract import family_of, get_family
from tsolve.errors import TsolveError
from tsolve.records.gold_fields import record_in

MODEL_NAME = "tsolve/scripted"
REFUSAL = "I would rather not say."
ANSWERS = ("gold", "refuse", "reasoned", "false-claim")
#: The reasoning ``answer="reasoned"`` writes before the gold output: a true claim.
TRUE_CLAIM = "January 1, 2000 was a Saturday."
#: The reasoning ``answer="false-claim"`` writes before its refusal: a false
#: weekday claim (1 January 2000 was a Saturday).
FALSE_CLAIM = "January 1, 2000 was a Monday."


def scripted_calls(record: dict[str, Any], tool_names: list[str]) -> list[ToolCall]:
    """A good and a bad call of each tool named, with arguments taken from the
    record where it has them (its first gold date, its first knowledge-base name)."""
    year, month, day = _a_date(record)
    names = knowledge_names(record)
    good: dict[str, dict[str, Any]] = {
        "search_calendar": {"calendar_name": "gregorian", "year": year, "month": month, "day": day},
        "convert_date": {"date": f"{year:04d}-{month:02d}-{day:02d}"},
        "festival_date": {"festival_name": "Chinese New Year", "year": year},
        "lookup_knowledge": {"name": names[0] if names else "Albert Einstein"},
        "python": {"code": f"import datetime; print(datetime.date({year}, {month}, {day}))"},
    }
    bad: dict[str, dict[str, Any]] = {
        "search_calendar": {"calendar_name": "martian", "year": year, "month": 1, "day": 1},
        "convert_date": {"date": f"{year}-13-45"},
        "festival_date": {"festival_name": "No Such Festival", "year": year},
        "lookup_knowledge": {"name": "Nobody In Particular"},
        "python": {"source": "print(1)"},  # no 'code': Inspect's argument error
    }
    calls: list[ToolCall] = []
    for name in tool_names:
        for which, args in (("good", good), ("bad", bad)):
            if name in args:
                calls.append(ToolCall(id=f"{name}-{which}", function=name, arguments=args[name]))
    return calls


def _a_date(record: dict[str, Any]) -> tuple[int, int, int]:
    """The record's first gold date if it has one in ISO form, else 2000-01-01."""
    answers = record.get("answers")
    first = answers[0] if isinstance(answers, list) and answers else None
    if isinstance(first, list) and first:
        first = first[0]
    if isinstance(first, str) and len(first) == 10 and first[4] == "-" and first[7] == "-":
        try:
            return int(first[:4]), int(first[5:7]), int(first[8:])
        except ValueError:
            pass
    return 2000, 1, 1


def _output(text: str) -> ModelOutput:
    return ModelOutput(
        model=MODEL_NAME,
        choices=[ChatCompletionChoice(message=ChatMessageAssistant(content=text))],
        usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2),
    )


@solver
def scripted(answer: str = "gold") -> Solver:
    """Call each of the sample's condition tools well and badly, then answer
    ``gold`` (the record's gold output), ``refuse`` (no answer), ``reasoned``
    (a true date claim, then the gold output) or ``false-claim`` (a false date
    claim, then no answer)."""
    if answer not in ANSWERS:
        raise TsolveError(f"answer: expected one of {', '.join(ANSWERS)}, got {answer!r}")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        record = record_in(state.metadata)
        own = None if isinstance(record, dict) else module_for_sample(state.metadata)
        if own is not None:
            return _family_task_move(own, state, answer)
        if not isinstance(record, dict):
            raise TsolveError(f"sample {state.sample_id!r}: no tsolve record in its metadata")
        shown = state.metadata.get("condition") or {}
        condition = parse_condition(shown.get("tools"), shown.get("context"))
        tools = TOOL_SETS[condition.tools]()
        if tools:
            names = [_tool_name(t) for t in tools]
            calls = scripted_calls(record, names)
            state.messages.append(ChatMessageAssistant(content="", tool_calls=calls))
            done = await execute_tools(state.messages, tools)
            state.messages.extend(done.messages)
        family = get_family(family_of(record))
        if answer in ("gold", "reasoned"):
            from tsolve.verifiers.gold_answers import gold_output

            text = gold_output(record, family)
            if answer == "reasoned":
                text = f"{TRUE_CLAIM}\n{text}"
        elif answer == "false-claim":
            text = f"{FALSE_CLAIM}\n{REFUSAL}"
        else:
            text = REFUSAL
        state.output = _output(text)
        state.messages.append(state.output.message)
        state.metadata["run"] = run_stats(state.messages)
        return state

    return solve


def _family_task_move(own: Any, state: TaskState, answer: str) -> TaskState:
    """A family task's own sample has no tsolve record: its one move (a tool
    call or a direct answer) is the one its task's ``scripted_move`` makes
    (:mod:`tsolve.adapters.inspect_ai.family_tasks`)."""
    move = own.scripted_move(state, answer)
    state.output = _output(move if isinstance(move, str) else "")
    if not isinstance(move, str):
        state.output.message.tool_calls = [move]
    state.messages.append(state.output.message)
    return state


def _tool_name(tool: Any) -> str:
    from inspect_ai._util.registry import registry_unqualified_name

    return registry_unqualified_name(tool)
