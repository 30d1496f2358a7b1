"""TicToc as a live Inspect task: ``inspect eval tsolve/tictoc -T file=PATH``.

The family declares it as its Inspect task (``Family.inspect_tasks``), and
the module carries the hooks tsolve's Inspect adapters ask a family task
for (:mod:`tsolve.adapters.inspect_ai.family_tasks`): which samples are its
own (:func:`owns_sample`), the offline models' and the scripted solver's
moves on them (:func:`offline_move`, :func:`scripted_move`), and its rows of
``tsolve report`` (:func:`report_sample`, :func:`report_row`,
:func:`finish_report`).

The file is a TicToc data file in the benchmark's public format (a
``prefer{Tool,NoTool}_elapse_{0,1,2}.json`` file, a bundle of them, or tsolve's
JSONL form: :func:`tsolve.families.tictoc.data.iter_samples`). Each item at its level is
one sample:

* the input is the trajectory's history as chat messages, each one's text
  prefixed with its timestamp (``[2023-10-01T09:00:05Z] ...``); the final
  user message carries the timestamp of the sample's elapsed-time level. The
  trajectory's earlier tool calls and results are real Inspect tool messages;
* the model is offered the item's tool schemas (the file's ``function`` list)
  and makes one move (``generate`` with ``tool_calls="none"``: the tools are
  never executed, the decision is what is measured);
* the score is 1 when the decision matches the file's preference (a tool call
  for prefer-tool, a direct answer for prefer-no-tool) and 0 otherwise. A
  tool call is a native call, or one written as text in the forms TicToc's
  detector reads (:func:`tsolve.families.tictoc.detect.detect_tool_call`).

The metrics are the paper's: NAR and the attempt rate overall
(:mod:`tsolve.families.tictoc.metrics`), and by elapsed-time level (``nar_level0``,
``attempt_rate_level0``, ..., and the accuracy per level and preference).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
)
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    mean,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolCall, ToolDef, ToolParams

from tsolve.adapters.inspect_ai.skipped import say_skipped
from tsolve.errors import TsolveError
from tsolve.families.tictoc.data import Preference, iso, iter_samples, split_samples
from tsolve.families.tictoc.data import Sample as TicTocSample
from tsolve.families.tictoc.metrics import Confusion, length_bucket
from tsolve.records.validation import bad, shown

TASK_NAME = "tictoc"
SCORER_NAME = "tsolve/tictoc_scorer"


def tictoc_dataset(
    path: str | Path, preference: Preference | None = None, level: int | None = None
) -> MemoryDataset:
    """The file's samples as Inspect samples (see :func:`tictoc_samples`)."""
    samples, _ = tictoc_samples(path, preference, level)
    return MemoryDataset(samples, name="tictoc")


def tictoc_samples(
    path: str | Path, preference: Preference | None = None, level: int | None = None
) -> tuple[list[Sample], list[str]]:
    """The file's good items as Inspect samples, and each bad item's one-line error.

    A bad item is one line naming it, and the rest go on (as in every batch
    job): the items skipped are counted and named on stderr
    (:func:`tsolve.adapters.inspect_ai.skipped.say_skipped`), and counted in
    the task's ``skipped_items`` metadata, so the log says the score is over
    fewer items than the file holds. A file with no good item at all is a
    one-line error. Everything is checked here, before any model
    call. ``preference`` and ``level`` label rows the file does not label
    (:func:`tsolve.families.tictoc.data.iter_samples`)."""
    good, bad_rows = split_samples(iter_samples([path], preference, level))
    bads = [str(b) for b in bad_rows]
    samples: list[Sample] = []
    seen: set[str] = set()
    for item in good:
        try:
            samples.append(_sample(item, seen))
        except TsolveError as exc:
            bads.append(" ".join(str(exc).split()))
    total = len(bads) + len(samples)
    name = Path(path).name
    say_skipped(TASK_NAME, name, bads, total, what="item", empty=f"{path}: no TicToc items")
    return samples, bads


def _sample(item: TicTocSample, seen: set[str]) -> Sample:
    """One item as an Inspect sample, or a one-line error naming it."""
    sid = f"{item.id}@{item.preference}-{item.level}"
    where = f"{item.source}: item {shown(item.id)}"
    if sid in seen:
        raise TsolveError(f"{where} appears twice at level {item.level}")
    try:  # Inspect cannot write such text to its log, and then the whole eval fails
        json.dumps([item.history, item.functions], ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise TsolveError(
            f"{where}: holds a lone surrogate (a \\u escape that is no Unicode character)"
        ) from None
    try:  # a schema Inspect cannot offer is the file's error, before any model call
        _tool_defs(list(item.functions))
    except Exception as exc:
        raise TsolveError(f"{where}: function: {shown(str(exc), 200)}") from None
    try:
        messages = _messages(item)
    except TsolveError as exc:
        raise TsolveError(f"{where}: {exc}") from None
    seen.add(sid)
    return Sample(
        id=sid,
        input=messages,
        target="tool" if item.preference == "tool" else "no_tool",
        metadata={
            "tictoc_id": item.id,
            "level": item.level,
            "preference": item.preference,
            "turns": item.turns,
            "functions": list(item.functions),
            "source": item.source,
        },
    )


def _messages(item: TicTocSample) -> list[ChatMessage]:
    """The history as chat messages, each with its timestamp (see the module docstring)."""
    out: list[ChatMessage] = []
    last = len(item.history) - 1
    for i, msg in enumerate(item.history):
        when = iso(item.final_time if i == last else item.times[i])
        text = f"[{when}] {msg.get('content') or ''}".rstrip()
        role = msg.get("role")
        if role == "system":
            out.append(ChatMessageSystem(content=text))
        elif role == "user":
            out.append(ChatMessageUser(content=text))
        elif role == "assistant":
            calls = [_call(c, i, k) for k, c in enumerate(msg.get("tool_calls") or [])]
            out.append(ChatMessageAssistant(content=text, tool_calls=calls or None))
        elif role == "tool":
            out.append(
                ChatMessageTool(
                    content=text,
                    tool_call_id=str(msg.get("tool_call_id") or ""),
                    function=str(msg.get("name") or ""),
                )
            )
        else:
            raise bad(f"history[{i}].role", "system, user, assistant or tool", role)
    return out


def _call(call: Any, i: int, k: int) -> ToolCall:
    fn = call.get("function") if isinstance(call, dict) else None
    if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
        raise TsolveError(f"history[{i}].tool_calls[{k}]: expected {{function: {{name, ...}}}}")
    raw = fn.get("arguments")
    try:
        args = json.loads(raw) if isinstance(raw, str) else (raw or {})
    except json.JSONDecodeError:  # not JSON: shown to the model as the text it was
        args = {"arguments": raw}
    except (RecursionError, ValueError):  # JSON nested too deeply, or a number too long
        raise bad(
            f"history[{i}].tool_calls[{k}].function.arguments",
            "JSON that Python can read (nested too deeply, or a number too long)",
            raw,
        ) from None
    if not isinstance(args, dict):
        args = {"arguments": args}
    try:  # an escape such as \\ud800 decodes to a lone surrogate, which Inspect cannot log
        json.dumps(args, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise bad(
            f"history[{i}].tool_calls[{k}].function.arguments",
            "JSON without lone surrogate escapes (\\ud800 is no Unicode character)",
            raw,
        ) from None
    return ToolCall(id=str(call.get("id") or f"call-{i}-{k}"), function=fn["name"], arguments=args)


def _tool_defs(functions: list[Any]) -> list[ToolDef]:
    """The item's tool schemas as Inspect tools that are offered, never run."""
    defs: list[ToolDef] = []
    for spec in functions:
        fn = spec.get("function", spec) if isinstance(spec, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            continue

        async def not_run(**kwargs: Any) -> str:
            return "(not executed: the TicToc task measures the decision only)"

        params = _described(fn.get("parameters") or {"type": "object", "properties": {}})
        defs.append(
            ToolDef(
                not_run,
                name=fn["name"],
                description=str(fn.get("description") or fn["name"]),
                parameters=ToolParams.model_validate(params),
            )
        )
    return defs


def _described(params: Any) -> dict[str, Any]:
    """The schema with a description on every property (Inspect requires one;
    the benchmark's schemas often give none): the property's own name."""
    if not isinstance(params, dict):
        raise TsolveError(f"function parameters: expected a JSON schema object, got {params!r}")
    props = params.get("properties") or {}
    filled = {
        name: {"description": name, **spec} if isinstance(spec, dict) else spec
        for name, spec in props.items()
    }
    return {**params, "properties": filled}


@solver
def next_move() -> Solver:
    """Offer the item's tools and take the model's one next move, unexecuted."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.tools = [d.as_tool() for d in _tool_defs(state.metadata.get("functions") or [])]
        return await generate(state, tool_calls="none")

    return solve


def decision(state: TaskState) -> tuple[bool, list[str]]:
    """Did the model's move call a tool (and which)?"""
    from tsolve.families.tictoc.detect import detect_tool_call

    calls = state.output.message.tool_calls if state.output.choices else None
    if calls:
        return True, [c.function for c in calls]
    found = detect_tool_call(state.output.completion)
    return found.attempted, list(found.names)


@metric
def tictoc_metrics() -> Metric:
    """NAR and attempt rate, overall and by level, and accuracy by level and
    preference (the paper's figures; None where a cell is empty)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        total = Confusion()
        by_level: dict[int, Confusion] = {}
        for s in scores:
            meta = s.score.metadata or {}
            level, prefer_tool = int(meta["level"]), meta["preference"] == "tool"
            total.add(prefer_tool, bool(meta["called"]))
            by_level.setdefault(level, Confusion()).add(prefer_tool, bool(meta["called"]))
        out: dict[str, float] = {}
        figures = {"": total, **{f"_level{k}": c for k, c in sorted(by_level.items())}}
        for suffix, c in figures.items():
            for name, value in (("nar", c.nar), ("attempt_rate", c.attempt_rate)):
                if value is not None:
                    out[name + suffix] = value
            pos, neg = c.tp + c.fn, c.tn + c.fp
            if pos:
                out[f"accuracy_prefer_tool{suffix}"] = c.tp / pos
            if neg:
                out[f"accuracy_prefer_no_tool{suffix}"] = c.tn / neg
        return out

    return compute


@scorer(name=SCORER_NAME, metrics=[mean(), stderr(), tictoc_metrics()])
def tictoc_scorer() -> Scorer:
    """1 when the move (tool call or direct answer) matches the preference."""

    async def score(state: TaskState, target: Target) -> Score:
        called, names = decision(state)
        preference = state.metadata["preference"]
        right = called == (preference == "tool")
        return Score(
            value=1.0 if right else 0.0,
            answer="tool call" if called else "direct answer",
            explanation=f"preference {preference}; the model "
            + (f"called {', '.join(names) or 'a tool'}" if called else "answered directly"),
            metadata={
                "called": called,
                "tools_called": names,
                "preference": preference,
                "level": state.metadata["level"],
                "length": length_bucket(int(state.metadata["turns"])),
            },
        )

    return score


def tictoc_task(
    file: str | Path, preference: Preference | None = None, level: int | None = None
) -> Task:
    """The TicToc task over one data file (see the module docstring)."""
    samples, bads = tictoc_samples(file, preference, level)
    return Task(
        name=f"tsolve/{TASK_NAME}",
        dataset=MemoryDataset(samples, name="tictoc"),
        solver=next_move(),
        scorer=tictoc_scorer(),
        metadata={
            "tsolve_family": "tictoc",
            "file": str(file),
            "skipped_items": len(bads),
        },
    )


def scripted_move(state: TaskState, answer: str) -> str | ToolCall:
    """The offline scripted solver's move on a TicToc sample: with ``gold``, the
    move its preference asks for (a call of the item's first tool, or a direct
    answer); with ``refuse``, a direct answer whatever it asks."""
    return tictoc_move(state.metadata, answer == "gold" and preferred_call(state.metadata))


def preferred_call(metadata: Mapping[str, Any]) -> bool:
    """Does a TicToc sample's preference ask for a tool call (not a direct answer)?"""
    return metadata.get("preference") == "tool"


def tictoc_move(metadata: Mapping[str, Any], call_tool: bool) -> str | ToolCall:
    """A scripted move on a TicToc sample: a call of the item's first tool
    (with no arguments: the move is never run), or a direct answer (also when
    the item offers no tool)."""
    functions = metadata.get("functions") or []
    if call_tool and functions:
        name = _tool_defs(list(functions))[0].name
        return ToolCall(id="scripted-0", function=name, arguments={})
    return "No tool is needed for this: here is the answer."


@task(name=TASK_NAME)
def tictoc(
    file: str | None = None, preference: str | None = None, level: int | None = None
) -> Task:
    """TicToc: does the model call a tool, given the time since the last call?
    Options: file (a TicToc data file in the benchmark's format); preference
    (tool or no_tool) and level (0, 1 or 2) for rows whose file name does not
    give them (a public file saved under another name)."""
    from tsolve.adapters.inspect_ai.tasks import _one_line
    from tsolve.families.tictoc.data import check_preference

    try:
        if file is None:
            raise TsolveError("file: give the TicToc data file (-T file=PATH)")
        return tictoc_task(file, check_preference(preference), level)
    except TsolveError as exc:
        raise _one_line(exc) from None


#: The scorers of this module's task by the name its logs hold, which
#: :mod:`tsolve.adapters.inspect_ai._registry` registers for ``inspect score LOG``.
SCORERS = {SCORER_NAME: tictoc_scorer}


# ------------------------------------------------------------ the adapters' hooks


def owns_sample(metadata: Mapping[str, Any]) -> bool:
    """Is this a TicToc sample (an item, with no tsolve record)?"""
    return "tictoc_id" in metadata and not isinstance(metadata.get("record"), dict)


def offline_move(metadata: Mapping[str, Any], model: str, rng: Any) -> str | ToolCall:
    """An offline model's move (:mod:`tsolve.adapters.inspect_ai.offline_model`):
    ``gold`` the move the item prefers, ``perturbed`` the other one,
    ``random`` either, ``refuse`` a direct answer."""
    wanted = preferred_call(metadata)
    call = {
        "gold": wanted,
        "perturbed": not wanted,
        "random": rng.random() < 0.5,
        "refuse": False,
    }[model]
    return tictoc_move(metadata, call)


def report_sample(
    score: Any, score_meta: Mapping[str, Any], sample_meta: Mapping[str, Any], tokens: int
) -> tuple[list[tuple[Any, ...]], Any]:
    """A scored TicToc sample's row keys (its level and preference, and its
    level's ``all`` row) and its epoch for ``tsolve report``
    (:func:`tsolve.adapters.inspect_ai.report.build_report`); a field of an
    unexpected type is the report's ``BadSample``."""
    from tsolve.adapters.inspect_ai.report import BadSample, Epoch, label, scalar

    level = label(score_meta.get("level", sample_meta.get("level")), "level", allow_int=True)
    pref = label(score_meta.get("preference", sample_meta.get("preference")), "preference")
    called = score_meta.get("called", False)
    if not isinstance(called, bool):
        raise BadSample(f"called: expected true or false, got {shown(called)}")
    keys: list[tuple[Any, ...]] = [(TASK_NAME, level, pref), (TASK_NAME, level, "all")]
    if score is None:
        return keys, None
    return keys, Epoch({"accuracy": scalar(score.value)}, int(called), 1, tokens, called)


#: The breakdown fields of a TicToc row, in the order rows are sorted by.
REPORT_FIELDS = ("level", "preference")


def report_row(
    head: dict[str, Any], key: tuple[Any, ...], figures: dict[str, Any]
) -> dict[str, Any]:
    """One ``tsolve report`` row: a level and a preference, ``accuracy``
    being the share of decisions that match the preference, with the
    attempt rate (share of tool calls)."""
    _, level, pref = key
    return {
        **head, "condition": "none", "level": level, "preference": pref,
        "n": figures["n"], "sample_epochs": figures["sample_epochs"],
        "errors": figures["errors"], "accuracy": figures["accuracy"],
        "stderr": figures["stderr"], "attempt_rate": figures["attempt_rate"],
    }  # fmt: skip


def finish_report(rows: list[dict[str, Any]]) -> None:
    """Each level's NAR on its ``preference = "all"`` row: the mean of the
    prefer-tool and prefer-no-tool accuracies (None when a class is empty,
    as in :mod:`tsolve.families.tictoc.metrics`)."""
    acc = {(r["eval_id"], r["reducer"], r["level"], r["preference"]): r["accuracy"] for r in rows}
    for r in rows:
        if r["preference"] == "all":
            run = (r["eval_id"], r["reducer"], r["level"])
            tool, no_tool = acc.get((*run, "tool")), acc.get((*run, "no_tool"))
            r["nar"] = None if tool is None or no_tool is None else (tool + no_tool) / 2
        else:
            r["nar"] = None
