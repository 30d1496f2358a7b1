"""The fast paths of ``tsolve verify`` judge exactly as the general ones.

Each shortcut taken for the common case (an answer line of ISO dates, gold
dates that are all ISO strings, a fact read before, items summed a batch at
a time) is held here to the slow path it skips, over arbitrary input."""

from __future__ import annotations

import datetime as _dt
import functools
import operator

import numpy as np
import pytest
from budget import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tsolve.contract.item import ItemScore
from tsolve.errors import TsolveError
from tsolve.records.validation import expect_iso_date, expect_iso_dates
from tsolve.verifiers.aggregate import FamilyTotals, RunningAggregate, aggregate
from tsolve.verifiers.answer_parsing import find_dates, scan_dates

# Tokens near the ISO form: real dates, impossible ones, other digits, week dates.
_TOKENS = st.one_of(
    st.dates(min_value=_dt.date(1, 1, 1)).map(_dt.date.isoformat),
    st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z"),
    st.sampled_from(["2024-02-30", "0000-01-01", "2024-13-01", "２０２４-01-05",
                     "٢٠٢٤-01-05", "2024-W01-1", "2024-1-5", "20240105"]),
)  # fmt: skip
_SEPARATORS = st.sampled_from([",", ", ", " , ", ",\t", ",\u00a0", " ,  "])


@st.composite
def iso_lists(draw: st.DrawFn) -> str:
    """Text shaped like the answer the prompt asks for, often with a flaw."""
    tokens = draw(st.lists(_TOKENS, min_size=1, max_size=6))
    text = tokens[0]
    for t in tokens[1:]:
        text += draw(_SEPARATORS) + t
    pad = st.sampled_from(["", " ", "\t", "\u00a0", "\n"])
    return draw(pad) + text + draw(st.sampled_from(["", ".", " .", ". "])) + draw(pad)


@settings(max_examples=examples(600, ci=150), deadline=None)
@given(st.one_of(iso_lists(), st.text(alphabet="0123456789-,. \t２٢WT:/", max_size=40)))
@example("2024-01-05, 2024-01-05")
@example("２０２４-01-05")
@example("2024-02-30, 2024-02-28")
def test_iso_list_fast_path_reads_as_the_general_scan(text: str) -> None:
    assert find_dates(text) == scan_dates(text)


def test_iso_list_fast_path_keeps_first_mentions_in_order() -> None:
    # Checked by hand, not against the code: duplicates dropped, order kept.
    assert find_dates("2024-03-01, 2023-01-01, 2024-03-01.") == (["2024-03-01", "2023-01-01"], [])
    assert find_dates("2024-02-30, 2024-02-28") == (["2024-02-28"], ["2024-02-30"])


_GOLD_VALUES = st.one_of(
    _TOKENS, st.integers(), st.none(), st.booleans(), st.lists(st.integers(), max_size=10),
    st.dates().map(lambda d: _dt.datetime(d.year, d.month, d.day)),
    st.text(max_size=12),
)  # fmt: skip


def _one_by_one(values: list[object], field: str) -> list[str] | str:
    try:
        return [expect_iso_date(v, f"{field}[{k}]") for k, v in enumerate(values)]
    except TsolveError as exc:
        return str(exc)


@settings(max_examples=examples(400, ci=100), deadline=None)
@given(st.lists(_GOLD_VALUES, max_size=6))
def test_gold_dates_are_checked_as_one_by_one(values: list[object]) -> None:
    try:
        got: list[str] | str = expect_iso_dates(values, "record 'x': answers")
    except TsolveError as exc:
        got = str(exc)
    assert got == _one_by_one(values, "record 'x': answers")


def test_gold_dates_error_names_the_bad_index() -> None:
    with pytest.raises(TsolveError, match=r"answers\[1\]: expected a real date"):
        expect_iso_dates(["2024-01-01", "2024-02-30"], "answers")


# ------------------------------------------------------------------ sums

_METRIC = st.one_of(
    st.floats(min_value=0, max_value=1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1e-17, 1e16, -0.0]),
)
_LABELS = st.sampled_from(["a", "b", "c", "1", "10", "2"])


@st.composite
def scored_items(draw: st.DrawFn) -> ItemScore:
    keys = draw(st.lists(st.sampled_from(["em", "f1", "alt"]), unique=True))
    metrics = {k: draw(_METRIC) for k in keys}
    if draw(st.booleans()):  # a third-party scorer's exact numbers
        metrics |= {"n_int": draw(st.integers(0, 3))}
    groups: dict[str, str | list[str]] = {"size": draw(_LABELS)}
    if draw(st.booleans()):
        groups["kind"] = draw(st.lists(_LABELS, max_size=4))
    return ItemScore("x", "fam", metrics, None, draw(st.booleans()), groups=groups)


def _by_hand(items: list[ItemScore]) -> dict[str, object]:
    """The report's cells summed item by item, as RunningAggregate does."""
    from tsolve.verifiers.aggregate import group_items, group_order

    return {
        "overall": aggregate(items),
        "by": {
            key: {label: aggregate(its) for label, its in sorted(labels.items(), key=group_order)}
            for key, labels in sorted(group_items(items).items())
        },
    }


@settings(max_examples=examples(300, ci=100), deadline=None)
@given(st.lists(scored_items(), max_size=40), st.integers(1, 7))
def test_batched_sums_are_the_item_by_item_sums(items: list[ItemScore], every: int) -> None:
    totals = FamilyTotals()
    for k, it in enumerate(items):  # fold at arbitrary points, as the bound does
        totals.add(it)
        if k % every == 0:
            totals.fold()
    assert repr(totals.result()) == repr(_by_hand(items))  # repr: nan == nan, -0.0 != 0.0


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=50), st.floats())
def test_cumsum_adds_left_to_right(values: list[float], start: float) -> None:
    """What FamilyTotals.fold relies on: NumPy's running sum is Python's
    left-to-right one, bit for bit (``np.sum`` is pairwise and is not)."""
    want = functools.reduce(operator.add, values, start)
    with np.errstate(all="ignore"):
        got = float(np.cumsum(np.array([start, *values], dtype=np.float64))[-1])
    assert repr(got) == repr(want)


def test_running_aggregate_is_what_the_report_adds_to() -> None:
    # A cell reads as RunningAggregate.result() does: mean per metric, by name.
    items = [ItemScore("a", "f", {"em": 1.0, "f1": 0.5}, None, False, groups={"g": "x"}),
             ItemScore("b", "f", {"em": 0.0}, None, True, groups={"g": "x"})]  # fmt: skip
    totals = FamilyTotals()
    for it in items:
        totals.add(it)
    cell = totals.result()["by"]["g"]["x"]
    # Standard errors by hand: em {1, 0} has sample sd sqrt(1/2), over sqrt(2)
    # that is 1/2; f1 {0.5, 0} (missing counts 0) has sd sqrt(1/8), so 1/4.
    assert cell == {"n": 2, "em": 0.5, "em_stderr": 0.5, "f1": 0.25, "f1_stderr": 0.25,
                    "parse_failures": 1}  # fmt: skip
    assert isinstance(totals.overall, RunningAggregate)


# ------------------------------------------------------------------ facts

_EDISON = {"person": "Thomas Edison", "born": "1847-02-11", "died": "1931-10-18",
           "description": "the inventor Thomas Edison"}  # fmt: skip


@pytest.mark.parametrize("warm", [False, True])
def test_a_fact_through_arrow_reads_as_its_plain_form(warm: bool) -> None:
    """The cache is keyed by the params as given, before the Arrow repair:
    a repaired fact (a filler of another kind's param, a date as a
    timestamp) must still be the plain one, whether read first or again."""
    from tsolve.encodings.facts import fact_from_json
    from tsolve.encodings.facts.base import _READ_FACTS

    plain = {"kind": "person_alive", "params": dict(_EDISON)}
    arrow = {"kind": "person_alive",
             "params": {**_EDISON, "born": _dt.datetime(1847, 2, 11), "weekday": None}}  # fmt: skip
    _READ_FACTS.clear()
    if warm:
        fact_from_json(arrow)
    assert fact_from_json(arrow) == fact_from_json(plain)


def test_a_bad_fact_is_refused_every_time() -> None:
    from tsolve.encodings.facts import fact_from_json

    noon = {"kind": "person_alive", "params": {**_EDISON, "born": _dt.datetime(1847, 2, 11, 12)}}
    for _ in range(2):  # a refusal is never kept as a fact
        with pytest.raises(TsolveError, match="born"):
            fact_from_json(noon)
