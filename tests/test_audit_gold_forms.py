"""Every stored form of a gold must name the same answer, in every family.

Each family's records are generated here (cheap, no fixtures), then each
stored form of the gold is mutated in turn, by hand, to another value that
looks valid (a real date, an in-range day, a location of the item's world):
the audit must call every mutation ``inconsistent`` and quote both forms,
and the untouched record must stay ``ok``. A property test does the same
for any single-field mutation hypothesis picks.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from budget import examples
from cli_main import run_main
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.audit.forms import REASON, served_answer_mismatch
from tsolve.audit.report import audit_record
from tsolve.contract import get_family

Record = dict[str, Any]


@cache
def _made(family: str, seed: int, index: int, options: tuple[tuple[str, Any], ...] = ()) -> str:
    fam = get_family(family)
    return json.dumps(fam.make_record(seed, index, fam.make_options(dict(options))))


def made(family: str, seed: int = 0, index: int = 0, **options: Any) -> Record:
    """A fresh copy of one generated record (generated once per session)."""
    record: Record = json.loads(_made(family, seed, index, tuple(sorted(options.items()))))
    return record


def span_record(fmt: str, target: str) -> Record:
    """The first generated SPAN record of format ``fmt`` whose target calendar is ``target``."""
    for index in range(200):
        r = made("span", 0, index)
        if r["format"] == fmt and r["params"]["target_calendar"] == target:
            return r
    raise AssertionError(f"no {fmt} record with target {target}")  # pragma: no cover


def shift_iso(text: str, days: int) -> str:
    return (dt.date.fromisoformat(text) + dt.timedelta(days=days)).isoformat()


def verdict(record: Record) -> Any:
    v = audit_record(record)
    assert not hasattr(v, "message"), v  # audited, not a row error
    return v


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _flat(v)]
    return [value]


def assert_caught(record: Record, form: str, value: Any, old: Any) -> None:
    """The audit of ``record`` is inconsistent, and its detail quotes the
    mutated value (of a list or object, a part the old one did not have)."""
    v = verdict(record)
    assert v.verdict == "inconsistent", (form, v.to_json())
    blob = json.dumps(v.detail, ensure_ascii=False)
    new = [x for x in _flat(value) if x not in _flat(old)] or [value]
    if isinstance(new[0], str):  # a text or a date: quoted as stored
        assert json.dumps(new[0], ensure_ascii=False) in blob, (form, value, blob)
    else:  # a number or a flag: the finding names the field (rendered into a date, say)
        assert form.split(".")[0] in blob, (form, value, blob)


def mutated(record: Record, path: str, value: Any) -> Record:
    """``record`` with the dotted ``path`` (``gold.day``, ``answers.0``) set to ``value``."""
    out = copy.deepcopy(record)
    *parents, last = path.split(".")
    node: Any = out
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


def stored(record: Record, path: str) -> Any:
    """The value at the dotted ``path``; None where the record has none."""
    node: Any = record
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node.get(key)
        if node is None:
            return None
    return node


# ------------------------------------------------------------------ the example


def test_a_span_answer_text_that_disagrees_with_its_gold_fields_is_inconsistent() -> None:
    r = span_record("content", "chinese")
    g = r["gold"]
    assert verdict(r).verdict == "ok"
    leap = "Leap " if g.get("leap") else ""
    wrong = f"day {g['day'] % 28 + 1} of {leap}Month {g['month']}, {g['year']}"
    v = verdict({**r, "answer": wrong})
    assert v.verdict == "inconsistent"
    form = v.detail["proof"]["forms"][0]
    assert (form["form"], form["says"]) == ("answer", wrong)
    assert form["other_form"].startswith("gold.year/month/day")
    assert form["other_says"] == g["text"]  # the gold fields, written out
    assert v.detail["proof"]["text_gives"] == g["text"]  # and which form the text backs
    assert wrong in v.detail["summary"] and g["text"] in v.detail["summary"]


# ------------------------------------------------------------------ each form in turn, by hand


def span_content_mutations(r: Record) -> list[tuple[str, Any]]:
    g = r["gold"]
    other_day = g["day"] % 28 + 1
    leap = "Leap " if g.get("leap") else ""
    return [
        ("answer", f"day {other_day} of {leap}Month {g['month']}, {g['year']}"),
        ("gold.day", other_day),
        ("gold.month", g["month"] % 12 + 1),
        ("gold.year", g["year"] + 1),
        ("gold.leap", not g.get("leap", False)),
        ("gold.text", f"day {other_day} of {leap}Month {g['month']}, {g['year']}"),
        ("gold.month_name", f"Month {g['month'] % 12 + 1}"),
        ("gold.gregorian", shift_iso(g["gregorian"], 1)),
        ("gold.calendar", "hebrew"),
    ]


def span_gregorian_mutations(r: Record) -> list[tuple[str, Any]]:
    g = r["gold"]
    day = dt.date.fromisoformat(g["gregorian"]) + dt.timedelta(days=1)
    written = f"{day:%B} {day.day}, {day.year}"
    return [
        ("answer", written),
        ("answer", day.isoformat()),  # another way of writing another date
        ("gold.text", written),
        ("gold.month_name", "February" if g["month"] != 2 else "March"),
        ("gold.gregorian", day.isoformat()),
    ]


def span_polar_mutations(r: Record) -> list[tuple[str, Any]]:
    c = r["params"]["candidate"]
    return [
        ("answer", "No" if r["answer"] == "Yes" else "Yes"),
        ("params.candidate.day", c["day"] % 28 + 1),
        ("params.candidate.text", f"day {c['day'] % 28 + 1} of Month {c['month']}, {c['year']}"),
        ("gold_detail.candidate_gregorian", shift_iso(r["gold_detail"]["candidate_gregorian"], 1)),
        ("gold.gregorian", shift_iso(r["gold"]["gregorian"], -1)),
    ]


def time_puzzle_mutations(r: Record) -> list[tuple[str, Any]]:
    first = r["answers"][0]
    return [
        ("answers", [shift_iso(first, 1), *r["answers"][1:]]),
        ("answers", [*r["answers"], shift_iso(first, 400)]),
        ("solution_count", r["solution_count"] + 1),
        ("solver.count", r["solver"]["count"] + 1),
        ("difficulty.sizes_by_information_gain", [
            *r["difficulty"]["sizes_by_information_gain"][:-1],
            r["difficulty"]["sizes_by_information_gain"][-1] + 1]),
        ("contradiction", {"facts": [0, 1]}),
    ]  # fmt: skip


def relational_mutations(r: Record) -> list[tuple[str, Any]]:
    row = r["answers"][0]
    return [
        ("answers", [[shift_iso(row[0], 1), *row[1:]], *r["answers"][1:]]),
        ("answers", [[row[0], shift_iso(row[-1], 7)], *r["answers"][1:]]),
        ("solution_count", r["solution_count"] + 1),
        ("solver.count", r["solver"]["count"] + 2),
    ]


def other_location(r: Record) -> str:
    places = r["scenario"]["world"]["city_of"]
    return next(p for p in sorted(places) if p not in r["answers"])


def logistics_mutations(r: Record) -> list[tuple[str, Any]]:
    s = r["solution"]
    first = r["schedule"]["events"][0]
    return [
        ("answers", [other_location(r)]),
        ("solution.minute", s["minute"] + 1),
        ("solution.clock", "11:59 PM" if s["clock"] != "11:59 PM" else "11:58 PM"),
        ("solution.state", "in" if s["state"] != "in" else "at"),
        ("solution.event", (s["event"] or 0) + 1),
        ("schedule.events.0.end", first["end"] + 5),
    ]


CASES: dict[str, tuple[Callable[[], Record], Callable[[Record], list[tuple[str, Any]]]]] = {
    "span-content": (lambda: span_record("content", "chinese"), span_content_mutations),
    "span-gregorian": (lambda: span_record("content", "gregorian"), span_gregorian_mutations),
    "span-polar": (lambda: span_record("polar", "chinese"), span_polar_mutations),
    "time-puzzles": (lambda: made("time-puzzles", 0, 0), time_puzzle_mutations),
    "relational-puzzles": (lambda: made("relational-puzzles", 0, 0), relational_mutations),
    "logistics": (lambda: made("logistics", 0, 0), logistics_mutations),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_stored_form_mutated_in_turn_is_caught(case: str) -> None:
    make, mutations = CASES[case]
    record = make()
    assert verdict(record).verdict == "ok", verdict(record).to_json()
    for path, value in mutations(record):
        assert stored(record, path) != value, (case, path)
        assert_caught(mutated(record, path, value), path, value, stored(record, path))


def test_a_served_answer_the_scorer_refuses_is_inconsistent() -> None:
    # The fields agree (the parser finds the date among the words), but the
    # facade serves "The date is ..." as the bare answer, which the scorer
    # refuses as a bare answer: a reward would mark the gold itself wrong.
    r = span_record("content", "chinese")
    wordy = {**r, "answer": f"The date is {r['gold']['text']}"}
    found = served_answer_mismatch(wordy, "span")
    assert found is not None and found.says == wordy["answer"]
    v = verdict(wordy)
    assert v.verdict == "inconsistent" and v.detail["reason"] == REASON
    assert served_answer_mismatch(r, "span") is None


# ------------------------------------------------------------------ the property


def _mutate_value(old: Any, k: int, path: str, record: Record) -> Any:
    """Another value of ``old``'s kind, ``k`` (never 0) steps away."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        if path.endswith((".day",)):
            return (old - 1 + k) % 28 + 1 if (old - 1 + k) % 28 + 1 != old else old % 28 + 1
        if path.endswith(".month"):
            return (old - 1 + k) % 12 + 1 if (old - 1 + k) % 12 + 1 != old else old % 12 + 1
        return max(0, old + k) if max(0, old + k) != old else old + abs(k)
    if isinstance(old, str) and len(old) == 10 and old[4] == "-":
        return shift_iso(old, k)
    if isinstance(old, str) and old in ("Yes", "No"):
        return "No" if old == "Yes" else "Yes"
    if path == "answers.0" and record.get("family") == "logistics":
        return other_location(record)
    raise AssertionError(f"no mutation for {path}={old!r}")  # pragma: no cover


PROPERTY_FORMS = {
    "span-content": ["answer", "gold.year", "gold.month", "gold.day", "gold.gregorian"],
    "span-polar": ["answer", "params.candidate.day", "gold_detail.candidate_gregorian",
                   "gold.day", "gold.gregorian"],
    "time-puzzles": ["answers.0", "solution_count", "solver.count"],
    "relational-puzzles": ["answers.0.0", "answers.0.1", "solution_count", "solver.count"],
    "logistics": ["answers.0", "solution.minute", "solution.event",
                  "schedule.events.0.start", "schedule.events.1.end"],
}  # fmt: skip


@settings(max_examples=examples(30), deadline=None)
@given(
    form=st.sampled_from([(c, p) for c, ps in sorted(PROPERTY_FORMS.items()) for p in ps]),
    k=st.integers(-40, 40).filter(bool),
)
def test_any_single_field_mutation_of_a_stored_gold_form_is_inconsistent(
    form: tuple[str, str], k: int
) -> None:
    case, path = form
    record = CASES[case][0]()
    old = stored(record, path)
    if case == "span-content" and path == "answer":  # a text: another date, written as the gold is
        g = record["gold"]
        leap = "Leap " if g.get("leap") else ""
        new: Any = f"day {_mutate_value(g['day'], k, '.day', record)} of {leap}Month " \
                   f"{g['month']}, {g['year']}"  # fmt: skip
    else:
        new = _mutate_value(old, k, path, record)
    assert new != old
    assert verdict(mutated(record, path, new)).verdict == "inconsistent", (path, old, new)


# ------------------------------------------------------------------ the text and json outputs


def test_text_format_writes_numbered_lines_quoting_both_forms(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    r = span_record("content", "chinese")
    wrong = {**r, "id": "wrong-answer", "answer": f"day 29 of Month {r['gold']['month']}, 1999"}
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(r) + "\n" + json.dumps(wrong) + "\n")
    code, out, _err = run_main(capsys, "audit", str(path))
    assert code == 1
    block = out[out.index("wrong-answer") :]
    assert "1. The record's answer says “day 29 of Month" in block
    assert f"2. Its gold.year/month/day/leap says “{r['gold']['text']}”" in block
    code, out, _err = run_main(capsys, "audit", str(path), "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [x["verdict"] for x in rows] == ["ok", "inconsistent"]


# ------------------------------------------------------------------ forms of the wrong type

#: (case, path, the form's type): stored forms the audit reads, each of
#: which must be of its type whenever present.
TYPED_FORMS = [
    ("span-content", "gold.text", "a text"), ("span-content", "gold.month_name", "a text"),
    ("span-content", "params.reference_date.text", "a text"),
    ("span-content", "params.reference_date.month_name", "a text"),
    ("span-content", "params.reference_date.gregorian", "a text"),
    ("span-content", "params.reference_date.calendar", "a text"),
    ("span-polar", "params.candidate.text", "a text"),
    ("span-polar", "params.candidate.month_name", "a text"),
    ("span-polar", "gold_detail.candidate_gregorian", "a text"),
    ("span-polar", "params.candidate.leap", "true or false"), ("span-polar", "gold.text", "a text"),
    ("logistics", "solution", "an object"), ("logistics", "schedule", "an object"),
    ("time-puzzles", "solver", "an object"),
    ("time-puzzles", "difficulty.sizes_by_information_gain", "a list"),
    ("time-puzzles", "contradiction", "an object"), ("relational-puzzles", "solver", "an object"),
]  # fmt: skip
_WRONG = {"a number": 5, "a list": [], "a text": "x", "an object": {"a": 1}}


@pytest.mark.parametrize(("case", "path", "kind"), TYPED_FORMS)
def test_a_present_form_of_the_wrong_type_is_inconsistent_and_named(
    case: str, path: str, kind: str
) -> None:
    """Before: a SPAN ``gold.text`` of 5, a logistics ``solution`` of "x" or
    ``schedule`` of [] was skipped as "nothing to compare" and the item
    called ``ok`` (exit 0), though every form present must agree."""
    record = CASES[case][0]()
    assert verdict(record).verdict == "ok"
    for wrong, value in _WRONG.items():
        if wrong == kind:
            continue
        v = verdict(mutated(record, path, value))
        assert v.verdict == "inconsistent", (path, wrong, v.to_json())
        assert v.detail["reason"] == REASON
        summary = v.detail["summary"]
        assert summary.startswith(f"{REASON}: {path} says"), summary
        assert f"(not {kind}: {wrong})" in summary, summary


def test_mistyped_forms_fail_in_the_cli(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``tsolve audit`` on records with mistyped forms: a failing verdict naming the
    field, exit 1; a logistics ``depth`` of the wrong type is a row error."""
    span = mutated(span_record("content", "chinese"), "gold.month_name", 5)
    ref = mutated(span_record("polar", "chinese"), "params.reference_date.text", 5)
    logi = made("logistics", 0, 0)
    rows = [span, ref, mutated(logi, "solution", "x"), mutated(logi, "schedule", [])]
    path = tmp_path / "x.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, _err = run_main(capsys, "audit", str(path), "--format", "jsonl")
    assert code == 1
    got = [json.loads(line) for line in out.splitlines()]
    assert [x["verdict"] for x in got] == ["inconsistent"] * 4
    named = ["gold.month_name", "params.reference_date.text", "solution", "schedule"]
    for row, field in zip(got, named, strict=True):
        assert row["detail"]["proof"]["forms"][0]["form"] == field
    bad_depth = audit_record(mutated(logi, "depth", "2"))
    assert "depth: expected an integer" in str(getattr(bad_depth, "message", ""))


@pytest.mark.parametrize("stated", [True, 1.0, "1"])
def test_a_tictoc_level_of_another_type_disagrees_with_its_file_label(stated: Any) -> None:
    """``True == 1 == 1.0`` in Python: before, a row of a level-1 file whose
    own ``level`` was ``true`` or ``1.0`` agreed with the file's label."""
    from dataclasses import replace

    from tsolve.families.tictoc.audit import label_violations
    from tsolve.families.tictoc.data import parse_sample
    from tsolve.families.tictoc.fuzz import _item

    sample = parse_sample(_item("x", "{}"), "tool", 1, "preferTool_elapse_1.json")
    assert label_violations(replace(sample, stated=(None, 1))) == []
    (found,) = label_violations(replace(sample, stated=(None, stated)))
    assert found.rule == "label_forms_disagree" and repr(stated) in found.message
