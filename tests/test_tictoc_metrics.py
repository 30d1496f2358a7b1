"""NAR and attempt rate (§3 of the TicToc paper) on hand-built confusion matrices,
and the tool-call detection rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.families.tictoc.detect import detect_tool_call
from tsolve.families.tictoc.metrics import Confusion, Decision, length_bucket, nar, summarise


@pytest.mark.parametrize(
    ("tp", "fn", "tn", "fp", "expected"),
    [
        (3, 1, 2, 2, 0.625),  # ½(3/4 + 2/4)
        (22, 0, 6, 8, 0.5 * (1 + 6 / 14)),  # ½(22/22 + 6/14) = 0.714285...
        (10, 0, 0, 5, 0.5),  # always tool: ½(1 + 0)
        (0, 10, 5, 0, 0.5),  # never tool: ½(0 + 1)
        (7, 0, 9, 0, 1.0),  # perfect
        (0, 7, 0, 9, 0.0),  # perfectly inverted
        (1, 3, 1, 1, 0.375),  # ½(1/4 + 1/2)
    ],
)
def test_nar_matches_the_papers_formula_by_hand(
    tp: int, fn: int, tn: int, fp: int, expected: float
) -> None:
    assert nar(tp, fn, tn, fp) == pytest.approx(expected, abs=1e-12)


def test_nar_is_undefined_when_a_class_is_empty() -> None:
    assert nar(3, 1, 0, 0) is None  # no prefer-noTool sample
    assert nar(0, 0, 2, 5) is None  # no prefer-Tool sample
    c = Confusion(tp=3, fn=1)
    out = c.to_json()
    assert out["nar"] is None and out["tpr"] == 0.75 and out["tnr"] is None
    assert out["attempt_rate"] == 0.75


def test_attempt_rate_counts_every_attempt_over_both_classes() -> None:
    c = Confusion()
    for prefer, attempted in [
        (True, True),
        (True, False),
        (False, True),
        (False, True),
        (False, False),
    ]:
        c.add(prefer, attempted)
    assert (c.tp, c.fn, c.tn, c.fp) == (1, 1, 1, 2)
    assert c.attempt_rate == pytest.approx(3 / 5)
    assert c.nar == pytest.approx(0.5 * (1 / 2 + 1 / 3))


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50))
def test_nar_bounds_and_class_swap_symmetry(tp: int, fn: int, tn: int, fp: int) -> None:
    v = nar(tp, fn, tn, fp)
    if tp + fn == 0 or tn + fp == 0:
        assert v is None
        return
    assert v is not None and 0.0 <= v <= 1.0
    # relabelling the classes and flipping every decision leaves NAR unchanged
    assert nar(tn, fp, tp, fn) == pytest.approx(v)
    # a constant policy scores exactly 0.5
    assert nar(tp + fn, 0, 0, tn + fp) == 0.5


def test_length_buckets_follow_section_3_2() -> None:
    assert [length_bucket(t) for t in (1, 7, 8, 12, 13, 40)] == [
        "short", "short", "medium", "medium", "long", "long",
    ]  # fmt: skip


def test_breakdowns_partition_the_samples() -> None:
    ds = [
        Decision(True, True, 0, "high", 6),
        Decision(False, True, 0, "high", 10),
        Decision(True, False, 2, "low", 14),
        Decision(False, False, 1, None, 8),
    ]
    out = summarise(ds)
    assert out["n"] == 4 and out["confusion"] == {"tp": 1, "fn": 1, "tn": 1, "fp": 1}
    assert out["nar"] == 0.5
    assert {k: v["n"] for k, v in out["by_level"].items()} == {"0": 2, "1": 1, "2": 1}
    assert out["by_sensitivity"]["unknown"]["n"] == 1
    assert out["by_sensitivity"]["high"]["nar"] == 0.5
    assert {k: v["n"] for k, v in out["by_length"].items()} == {"short": 1, "medium": 2, "long": 1}
    assert out["by_length"]["long"]["nar"] is None  # one class only


CALL = {"id": "c", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}

ATTEMPTS: list[tuple[Any, str]] = [
    ({"role": "assistant", "content": None, "tool_calls": [CALL]}, "tool_calls"),
    (
        {"role": "assistant", "content": "", "function_call": {"name": "f", "arguments": "{}"}},
        "function_call",
    ),
    ('<tool_call>\n{"name": "lookup", "arguments": {"id": 7}}\n</tool_call>', "tool_call_tag"),
    ('Let me check.\n<tool_call>{"name": "lookup", "arguments": {}}</tool_call>', "tool_call_tag"),
    ('[TOOL_CALLS] [{"name": "lookup", "arguments": {}}]', "mistral_marker"),
    ("<|python_tag|>lookup.call(id=7)", "python_tag"),
    ('<function=lookup>{"id": 7}</function>', "function_tag"),
    ('{"name": "lookup", "parameters": {"id": 7}}', "json_call"),
    ('  {"name": "lookup", "arguments": "{}"}  ', "json_call"),
    ('```json\n{"name": "lookup", "arguments": {}}\n```', "json_call"),
    ('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]', "json_call"),
    ('{"function": {"name": "lookup", "arguments": "{}"}}', "json_call"),
    ('{"tool_calls": [{"function": {"name": "lookup"}}]}', "json_call"),
    ('Thought: stale data\nAction: lookup\nAction Input: {"id": 7}', "react"),
    (
        {
            "role": "assistant",
            "content": [{"type": "text", "text": '<tool_call>{"name": "x"}</tool_call>'}],
        },
        "tool_call_tag",
    ),
]
NO_ATTEMPTS: list[tuple[Any, str]] = [
    ("Your order is still open.", "text"),
    ("", "text"),
    ({"role": "assistant", "content": "It is open."}, "text"),
    ({"role": "assistant", "content": None, "tool_calls": []}, "empty"),
    ({"role": "assistant", "content": None}, "empty"),
    ('The API takes {"name": "lookup", "arguments": {}} as input.', "text"),  # JSON inside prose
    ('{"answer": "open"}', "text"),  # JSON, but not a call
    ('{"name": "Bob"}', "text"),  # a name without arguments is not a call
    ("Action: none needed, the data is fresh.", "text"),  # no Action Input line
]


@pytest.mark.parametrize(("output", "rule"), ATTEMPTS)
def test_detects_attempts(output: Any, rule: str) -> None:
    d = detect_tool_call(output)
    assert d.attempted and d.rule == rule and d.malformed is None


@pytest.mark.parametrize(("output", "rule"), NO_ATTEMPTS)
def test_detects_non_attempts(output: Any, rule: str) -> None:
    d = detect_tool_call(output)
    assert not d.attempted and d.rule == rule and d.malformed is None


@pytest.mark.parametrize(
    ("output", "attempted"),
    [
        ("<tool_call>{broken", True),  # unclosed and unreadable: still an attempt
        ("<tool_call>not json</tool_call>", True),
        ({"role": "assistant", "tool_calls": "lookup"}, True),  # not a list
        ({"role": "assistant", "function_call": "lookup"}, True),  # no name
        ({"role": "assistant", "content": 42}, False),
        ({"role": "assistant", "content": [{"type": "image_url"}]}, False),
    ],
)
def test_malformed_outputs_are_flagged_not_dropped(output: Any, attempted: bool) -> None:
    d = detect_tool_call(output)
    assert d.malformed is not None and d.attempted is attempted


def test_detection_reports_tool_names() -> None:
    assert detect_tool_call({"tool_calls": [CALL, {"function": {"name": "other"}}]}).names == (
        "lookup",
        "other",
    )
    assert detect_tool_call('<tool_call>{"name": "x", "arguments": {}}</tool_call>').names == ("x",)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "role",
                    "content",
                    "tool_calls",
                    "function_call",
                    "function",
                    "name",
                    "arguments",
                    "text",
                ]
            ),
            kids,
            max_size=4,
        )
    ),
    max_leaves=12,
)
MARKERS = st.sampled_from(
    [
        "<tool_call>",
        "</tool_call>",
        "[TOOL_CALLS]",
        "```",
        "{",
        "}",
        "Action:",
        "\nAction Input:",
        '"name"',
        "<function=f>",
        " ",
    ]
)


@given(JSON)
def test_detection_never_raises_on_any_json_value(value: Any) -> None:
    d = detect_tool_call(value)
    assert isinstance(d.attempted, bool) and d.rule
    if not isinstance(value, str | dict):
        assert d.malformed is not None and not d.attempted


@given(st.lists(MARKERS | st.text(max_size=8), max_size=12).map("".join))
def test_detection_never_raises_on_marker_soup(text: str) -> None:
    d = detect_tool_call(text)
    # the tag rule fires exactly when the opening tag is present
    assert (d.rule == "tool_call_tag") == ("<tool_call>" in text)
