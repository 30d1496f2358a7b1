"""TicToc's text rules, now scanned in linear time, decide exactly as the
regular expressions they replace (kept here as the reference), and a long
run of newlines or spaces is decided without rescanning."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from tsolve.families.tictoc.detect import _unfenced, detect_tool_call

# The rules as they were written before the linear rewrite.
_TAG = re.compile(r"<tool_call>(.*?)(</tool_call>|$)", re.DOTALL)
_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n?(.*?)\n?```$", re.DOTALL)
_ACTION = re.compile(r"^\s*Action\s*:", re.MULTILINE)
_ACTION_INPUT = re.compile(r"^\s*Action Input\s*:", re.MULTILINE)

PIECES = [
    "Action:", "Action :", "Action Input:", "Action Input :", "Action", " ", "\n", "\t",
    "x", "<tool_call>", "</tool_call>", '{"name": "f", "arguments": {}}', "```", "```json\n",
    "[", "]", "{", "}",
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


def _react_reference(text: str) -> bool:
    m = _ACTION.search(text)
    return bool(m and _ACTION_INPUT.search(text, m.end()))


@given(texts)
def test_react_rule_matches_the_reference_regexes(text: str) -> None:
    d = detect_tool_call(text)
    if d.rule in ("text", "react"):  # no earlier rule fired
        assert (d.rule == "react") == _react_reference(text), text


@given(texts)
def test_tool_call_tags_match_the_reference_regex(text: str) -> None:
    d = detect_tool_call(text)
    assert (d.rule == "tool_call_tag") == bool(_TAG.findall(text))
    if d.rule == "tool_call_tag":
        closed = all(close for _, close in _TAG.findall(text))
        if not closed:
            assert d.malformed is not None


@given(texts)
def test_fences_match_the_reference_regex(text: str) -> None:
    stripped = text.strip()
    fence = _FENCE.match(stripped)
    expected = fence.group(1).strip() if fence else stripped
    assert _unfenced(stripped).strip() == expected.strip()


def test_react_needs_action_first_on_its_line() -> None:
    assert detect_tool_call("Thought: go\n  Action: search\nAction Input: {}").rule == "react"
    assert detect_tool_call("say Action: search\nAction Input: {}").rule == "text"
    assert detect_tool_call("Action Input: {}\nAction: search").rule == "text"


def test_long_blank_runs_are_plain_text() -> None:
    for text in ("\n" * 60_000, " \n" * 30_000, "Action:\n" + "\n" * 60_000):
        assert detect_tool_call(text).rule == "text"
    assert detect_tool_call("Action: a\n" + " " * 10_000 + "\nAction Input: {}").rule == "react"
