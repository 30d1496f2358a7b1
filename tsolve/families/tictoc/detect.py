"""Did a model's final output attempt a tool call? Deterministic, documented rules.

The paper counts every attempt, accurate or not (§3, footnote 1): a call with
broken arguments or a made-up tool name is still an attempt. So the question
here is only whether the output *is* a call, and the rules are tried in this
order (the first that fires decides; ``docs/tictoc.md`` lists them):

1. a message object with a non-empty ``tool_calls`` list, or a legacy
   ``function_call`` object: attempt;
2. text (a string, the message's ``content``, or its text parts) containing a
   ``<tool_call>`` tag (Hermes/Qwen): attempt; malformed when the tag is not
   closed or its body is not a JSON object with a ``name``;
3. text containing ``[TOOL_CALLS]`` (Mistral), ``<|python_tag|>`` (Llama 3.1)
   or ``<function=NAME>`` (Llama 3.1 custom format): attempt;
4. text that, apart from whitespace and an optional Markdown code fence, is a
   JSON call object (``{"name": ..., "arguments"|"parameters": ...}``,
   ``{"function": {"name": ...}}``, ``{"tool_calls": [...]}``) or a list of
   them: attempt;
5. ReAct style: a line starting ``Action:`` and a later line starting
   ``Action Input:``: attempt;
6. anything else: no attempt (a JSON call quoted inside prose is prose).

*Malformed* outputs are counted and reported, never dropped: a message object
whose ``tool_calls`` is not a list, whose ``content`` is neither text, null
nor a list of parts, or a call marker whose payload cannot be read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from tsolve.bounded_scan import bounded_finditer

ATTEMPT_RULES = (
    "tool_calls", "function_call", "tool_call_tag", "mistral_marker", "python_tag",
    "function_tag", "json_call", "react",
)  # fmt: skip


@dataclass(frozen=True)
class Detection:
    """The decision, the rule that made it, and why the output is malformed (if it is)."""

    attempted: bool
    rule: str
    malformed: str | None = None
    names: tuple[str, ...] = ()


# Every scan below is linear in the output, whatever it holds (the
# multiline ``^\s*Action`` patterns rescanned the blank lines from every line
# start, 9 s on 60,000 newlines): tags and fences are found with ``str.find``,
# and the ReAct patterns run through :func:`tsolve.bounded_scan.bounded_finditer`,
# so each regex call sees a bounded window. ``Action`` must be the first text
# on its line; a ReAct line longer than :data:`MAX_REACT_LINE` characters up
# to its colon is not read.
_FUNCTION_TAG = re.compile(r"<function=([A-Za-z0-9_.\-]{1,200})>")
_LANGUAGE = re.compile(r"[A-Za-z0-9_-]*")
_ACTION = re.compile(r"^[^\S\n]*Action\s*:", re.MULTILINE)
_ACTION_INPUT = re.compile(r"^[^\S\n]*Action Input\s*:", re.MULTILINE)
MAX_REACT_LINE = 256
_OPEN, _CLOSE = "<tool_call>", "</tool_call>"


def _tool_call_tags(text: str) -> list[tuple[str, bool]]:
    """Each ``<tool_call>`` body and whether its tag is closed; an unclosed
    tag's body runs to the end of the text."""
    out: list[tuple[str, bool]] = []
    at = text.find(_OPEN)
    while at >= 0:
        body_start = at + len(_OPEN)
        close = text.find(_CLOSE, body_start)
        if close < 0:
            out.append((text[body_start:], False))
            break
        out.append((text[body_start:close], True))
        at = text.find(_OPEN, close + len(_CLOSE))
    return out


def _unfenced(stripped: str) -> str:
    """The body of a text that is one Markdown code fence (```lang ... ```),
    or the text itself."""
    if len(stripped) >= 6 and stripped.startswith("```") and stripped.endswith("```"):
        inner = stripped[3:-3]
        lang = _LANGUAGE.match(inner, 0, 64)
        return inner[lang.end() if lang else 0 :]
    return stripped


def _react(text: str) -> bool:
    """A line starting ``Action:`` and a later line starting ``Action Input:``."""
    first = next(iter(bounded_finditer(_ACTION, text, MAX_REACT_LINE)), None)
    if first is None:
        return False
    later = (h for h in bounded_finditer(_ACTION_INPUT, text, MAX_REACT_LINE))
    return any(h.start >= first.end for h in later)


def detect_tool_call(output: Any) -> Detection:
    """Apply the rules above to a raw text output or an OpenAI-style message."""
    if isinstance(output, str):
        return _detect_text(output)
    if not isinstance(output, dict):
        return Detection(
            False, "not_text", f"output is {type(output).__name__}, not text or a message"
        )
    calls = output.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        return Detection(True, "tool_calls", f"tool_calls is {type(calls).__name__}, not a list")
    if calls:
        return Detection(True, "tool_calls", None, _call_names(calls))
    fc = output.get("function_call")
    if fc is not None:
        name = fc.get("name") if isinstance(fc, dict) else None
        why = None if isinstance(name, str) else "function_call has no name"
        return Detection(True, "function_call", why, (name,) if isinstance(name, str) else ())
    content = output.get("content")
    if content is None:
        return Detection(False, "empty")
    if isinstance(content, str):
        return _detect_text(content)
    if isinstance(content, list):
        parts = [p.get("text") if isinstance(p, dict) else p for p in content]
        texts = [p for p in parts if isinstance(p, str)]
        if len(texts) == len(parts):
            return _detect_text("\n".join(texts))
    return Detection(False, "not_text", f"content is {type(content).__name__}, not text")


def _call_names(calls: list[Any]) -> tuple[str, ...]:
    names = []
    for c in calls:
        fn = c.get("function") if isinstance(c, dict) else None
        name = (
            fn.get("name")
            if isinstance(fn, dict)
            else (c.get("name") if isinstance(c, dict) else None)
        )
        if isinstance(name, str):
            names.append(name)
    return tuple(names)


def _detect_text(text: str) -> Detection:
    tags = _tool_call_tags(text)
    if tags:
        names: list[str] = []
        why = None
        for body, closed in tags:
            if not closed:
                why = "<tool_call> tag is not closed"
            obj = _json(body.strip())
            name = obj.get("name") if isinstance(obj, dict) else None
            if isinstance(name, str):
                names.append(name)
            elif why is None:
                why = "<tool_call> body is not a JSON object with a name"
        return Detection(True, "tool_call_tag", why, tuple(names))
    if "[TOOL_CALLS]" in text:
        return Detection(True, "mistral_marker")
    if "<|python_tag|>" in text:
        return Detection(True, "python_tag")
    fn = _FUNCTION_TAG.findall(text)
    if fn:
        return Detection(True, "function_tag", None, tuple(fn))
    stripped = _unfenced(text.strip()).strip()
    if stripped[:1] in "{[" and stripped:
        calls = _json_calls(_json(stripped))
        if calls is not None:
            return Detection(True, "json_call", None, calls)
    if _react(text):
        return Detection(True, "react")
    return Detection(False, "text")


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _json_calls(obj: Any) -> tuple[str, ...] | None:
    """The tool names if ``obj`` is a JSON call object (or a list of them), else None."""
    items = obj if isinstance(obj, list) and obj else [obj]
    names: list[str] = []
    for it in items:
        if not isinstance(it, dict):
            return None
        if isinstance(it.get("tool_calls"), list) and it["tool_calls"]:
            names.extend(_call_names(it["tool_calls"]))
            continue
        fn = it.get("function")
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            names.append(fn["name"])
            continue
        if isinstance(it.get("name"), str) and ("arguments" in it or "parameters" in it):
            names.append(it["name"])
            continue
        return None
    return tuple(names)
