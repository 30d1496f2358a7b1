"""``tsolve dataset overlap``: overlap by what is asked, and bounded, strict input.

``answer_overlap`` counts eval records answered from the same content as a
train record, though the records differ: a SPAN question posed as a polar
item with a candidate and as a content question; a time puzzle in the other
wording style, its facts reordered and given only as text; a logistics item
whose objects are renamed. Each case is built here by hand from a generated
record, so what must match (and what must not: one fact, offset or asked
minute changed) is known independently of the fingerprints. Also: ``- -``
is refused (stdin cannot be read twice), and a file of bad rows is reported
as a count plus the first 20, not copied whole into the report.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from cli_main import run_main
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.contract import get_family
from tsolve.datasets.overlap import MAX_BAD_ROWS, find_overlap
from tsolve.errors import TsolveError
from tsolve.records import dumps


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _make(family: str, seed: int, index: int, **options: Any) -> dict[str, Any]:
    fam = get_family(family)
    record: dict[str, Any] = fam.make_record(seed, index, fam.make_options(options))
    return record


@pytest.fixture(scope="module")
def span_records() -> list[dict[str, Any]]:
    return [_make("span", 3, i) for i in range(8)]


@pytest.fixture(scope="module")
def puzzle_pair() -> tuple[dict[str, Any], dict[str, Any]]:
    """One time puzzle in its implicit and its explicit wording."""
    return _make("time-puzzles", 4, 0), _make("time-puzzles", 4, 0, style="explicit")


@pytest.fixture(scope="module")
def logistics_record() -> dict[str, Any]:
    return _make("logistics", 2, 0)


def _report(tmp_path: Path, train: list[dict[str, Any]], evals: list[dict[str, Any]]) -> Any:
    return find_overlap(
        _write(tmp_path / "train.jsonl", train), _write(tmp_path / "eval.jsonl", evals)
    )


def test_span_matches_whatever_the_candidate(
    tmp_path: Path, span_records: list[dict[str, Any]]
) -> None:
    content = next(r for r in span_records if r["format"] == "content" and r["type"] == "date")
    polar = copy.deepcopy(content)  # the same question, offered a (wrong) candidate
    polar["id"], polar["format"], polar["answer"] = "polar-copy", "polar", "No"
    polar["params"]["candidate"] = {**content["gold"], "day": 1, "text": "another date"}
    polar["question"] = polar["question"].replace("What is", "Is") + " Is it another date?"
    polar["prompt"] = polar["question"]
    other = copy.deepcopy(polar)  # one day further: another conversion, must not count
    other["id"] = "another-offset"
    other["params"]["offset"] = content["params"]["offset"] + 1
    report = _report(tmp_path, [content], [polar, other])
    assert (report.overlap, report.answer_overlap) == (0, 1)
    assert [p["eval_id"] for p in report.answer_pairs] == ["polar-copy"]


def test_span_festival_questions_match_by_festival_and_year_whatever_today() -> None:
    """ "Hanukkah 8 years before 5721" and "Hanukkah 3 years after 5710" ask
    for one date (Hanukkah 5713): a model can answer the one from memory of
    the other, so they are one answer; 5714 is another."""
    from tsolve.families.span.fingerprint import span_answer_fingerprint

    def festival(year: int, offset: int, sign: str) -> dict[str, Any]:
        ref = {"calendar": "hebrew", "year": year, "month": 11, "day": 5,
               "gregorian": f"{year - 3760}-01-22"}  # fmt: skip
        fest = {"key": "hanukkah", "name": "Hanukkah", "calendar": "hebrew"}
        return {"params": {"source_calendar": "hebrew", "target_calendar": "gregorian",
                           "reference_date": ref, "offset": offset, "unit": "years",
                           "sign": sign, "festival": fest}}  # fmt: skip

    one = span_answer_fingerprint(festival(5721, 8, "ago"))
    assert span_answer_fingerprint(festival(5710, 3, "later")) == one
    assert span_answer_fingerprint(festival(5710, 4, "later")) != one
    assert span_answer_fingerprint(festival(5721, 7, "ago")) != one


def test_time_puzzles_match_in_any_order_and_either_style_even_as_text(
    tmp_path: Path, puzzle_pair: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    implicit, explicit = puzzle_pair
    as_text = {k: v for k, v in explicit.items() if k != "facts"}  # a puzzle as plain text
    lines = as_text["prompt"].split("\n")
    numbered = [i for i, line in enumerate(lines) if re.match(r"\d+\. ", line)]
    assert len(numbered) == len(explicit["facts"]) >= 2
    shuffled = [lines[i] for i in reversed(numbered)]
    for i, line in zip(numbered, shuffled, strict=True):
        lines[i] = line
    as_text["prompt"] = "\n".join(lines)
    as_text["id"] = "explicit-text-reversed"
    changed = copy.deepcopy(implicit)  # one constraint fewer: must not count
    changed["id"] = "one-fact-changed"
    del changed["facts"][0]
    report = _report(tmp_path, [implicit], [as_text, changed])
    assert (report.overlap, report.answer_overlap) == (0, 1)
    assert [p["eval_id"] for p in report.answer_pairs] == ["explicit-text-reversed"]
    reordered = {**explicit, "id": "explicit-reordered", "facts": explicit["facts"][::-1]}
    assert _report(tmp_path, [implicit], [reordered]).answer_overlap == 1


def _renamed(record: dict[str, Any]) -> dict[str, Any]:
    """The item with its packages' and trucks' numbers permuted in every text
    field (the structured copies dropped: the English is the item)."""
    packages = sorted(set(re.findall(r"\bp(\d+)\b", record["prompt"])), key=int)
    trucks = sorted(set(re.findall(r"\bt(\d+)\b", record["prompt"])), key=int)
    names = {f"p{a}": f"p{b}" for a, b in zip(packages, packages[::-1], strict=True)}
    names |= {f"t{a}": f"t{b}" for a, b in zip(trucks, trucks[1:] + trucks[:1], strict=True)}
    assert any(a != b for a, b in names.items())

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return re.sub(r"\b[pt]\d+\b", lambda m: names.get(m.group(), m.group()), value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    keep = ("family", "data_split", "execution", "question_type", "domain_description",
            "objects_description", "initial_states_description", "events", "question")  # fmt: skip
    return {k: swap(record[k]) for k in keep} | {"id": "renamed"}


def test_logistics_matches_whatever_the_objects_are_named(
    tmp_path: Path, logistics_record: dict[str, Any]
) -> None:
    renamed = _renamed(logistics_record)
    later = copy.deepcopy(renamed)  # asked one minute later: another question
    later["id"] = "asked-later"
    asked = re.findall(r"\d\d:\d\d [AP]M", later["question"])[-1]
    minute = int(asked[3:5])
    bumped = f"{asked[:3]}{minute + 1 if minute < 59 else minute - 1:02d}{asked[5:]}"
    head, _, tail = later["question"].rpartition(asked)
    later["question"] = head + bumped + tail
    assert later["question"] != renamed["question"]
    report = _report(tmp_path, [logistics_record], [renamed, later])
    assert (report.overlap, report.answer_overlap) == (0, 1)
    assert [p["eval_id"] for p in report.answer_pairs] == ["renamed"]


@settings(max_examples=examples(10), deadline=None)
@given(picks=st.lists(st.integers(0, 7), max_size=8), mutate=st.lists(st.booleans(), max_size=8))
def test_answer_overlap_is_at_least_the_overlap(
    tmp_path_factory: pytest.TempPathFactory,
    span_records: list[dict[str, Any]],
    picks: list[int],
    mutate: list[bool],
) -> None:
    """Records that ask the same thing have the same answer: every content
    overlap is an answer overlap, whatever ids and candidates are changed."""
    evals = []
    for k, i in enumerate(picks):
        r = copy.deepcopy(span_records[i])
        r["id"] = f"e{k}"
        if k < len(mutate) and mutate[k]:
            r["params"]["offset"] = r["params"]["offset"] + 1000  # asks something else
        evals.append(r)
    tmp = tmp_path_factory.mktemp("prop")
    report = _report(tmp, span_records[:4], evals)
    assert report.answer_overlap >= report.overlap
    unmutated_from_train = sum(
        1 for k, i in enumerate(picks) if i < 4 and not (k < len(mutate) and mutate[k])
    )
    assert report.overlap >= unmutated_from_train


def test_stdin_for_both_files_is_refused(
    tmp_path: Path, span_records: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: the eval side read an exhausted stdin: "0 of 0", exit 0."""
    with pytest.raises(TsolveError, match="standard input"):
        find_overlap("-", "-")
    code, out, err = run_main(capsys, "dataset", "overlap", "-", "-")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_bad_rows_are_a_count_and_the_first_twenty(
    tmp_path: Path, span_records: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: every bad row was kept and listed (52 MB of JSON for 200k)."""
    train = _write(tmp_path / "train.jsonl", span_records[:2])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n" * 500 + dumps(span_records[0]) + "\n", encoding="utf-8")
    report = find_overlap(train, bad)
    assert len(report.bad_rows) == MAX_BAD_ROWS == 20 and report.bad_row_count == 500
    assert report.overlap == 1 and report.eval_records == 1  # the good row still checked
    code, out, err = run_main(
        capsys, "dataset", "overlap", str(train), str(bad), "--format", "json"
    )
    doc = json.loads(out)
    assert code == 1 and doc["bad_row_count"] == 500 and len(doc["bad_rows"]) == 20
    assert doc["bad_rows_truncated"] is True and len(out) < 10_000
    assert "480 more rows" in err


def test_by_answer_sets_the_exit_status_and_text_shows_both(
    tmp_path: Path, span_records: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    content = next(r for r in span_records if r["format"] == "content")
    polar = {**content, "id": "p", "format": "polar"}
    train = _write(tmp_path / "train.jsonl", [content])
    evals = _write(tmp_path / "eval.jsonl", [polar])
    code, out, _ = run_main(capsys, "dataset", "overlap", str(train), str(evals))
    assert code == 0 and "answer overlap: 1 of 1" in out
    code, _, _ = run_main(capsys, "dataset", "overlap", str(train), str(evals), "--by", "answer")
    assert code == 1
    code, _, err = run_main(capsys, "dataset", "overlap", str(train), str(evals), "--by", "x")
    assert code == 2 and len(err.strip().splitlines()) == 1


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_fields = st.sampled_from(["params", "facts", "prompt", "question", "domain", "reference_date",
                           "events", "objects_description", "format", "festival"])  # fmt: skip


@settings(max_examples=examples(20), deadline=None)
@given(record=st.dictionaries(_fields, _json, max_size=6))
def test_answer_fingerprints_raise_nothing_on_any_json(record: dict[str, Any]) -> None:
    """A damaged record is a key or a one-line error (a bad row): it never
    stops the comparison of the rest."""
    for name in ("span", "time-puzzles", "logistics", "relational-puzzles"):
        for fingerprint in (
            get_family(name).answer_content_fingerprint,
            get_family(name).content_fingerprint,
        ):
            try:
                key = fingerprint(record)
            except TsolveError as exc:
                assert "\n" not in str(exc)
                continue
            assert isinstance(key, str) and len(key) == 64


_MALFORMED_FACTS = ([None], [5], [{}], [{"kind": "no_such_kind", "params": {}}],
                    [{"kind": "month", "params": {"month": 13}}], [], "x")  # fmt: skip


@pytest.mark.parametrize("facts", _MALFORMED_FACTS)
def test_malformed_facts_are_bad_rows_not_one_shared_fingerprint(
    tmp_path: Path,
    puzzle_pair: tuple[dict[str, Any], dict[str, Any]],
    facts: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before: every malformed list fingerprinted alike, so two unrelated
    puzzles (and two relational ones) overlapped by content and by answer,
    with 0 bad rows."""
    implicit, _ = puzzle_pair
    other = _make("time-puzzles", 5, 3)
    rel_a, rel_b = _make("relational-puzzles", 1, 0), _make("relational-puzzles", 2, 1)
    assert implicit["prompt"] != other["prompt"] and rel_a["prompt"] != rel_b["prompt"]
    train = [{**implicit, "facts": facts}, {**rel_a, "facts": facts}]
    evals = [{**other, "facts": facts}, {**rel_b, "facts": facts}, other]
    report = _report(tmp_path, train, evals)
    assert (report.overlap, report.answer_overlap) == (0, 0)
    assert report.bad_row_count == 4 and report.eval_records == 1  # the good row still checked
    assert all("facts" in line and "\n" not in line for line in report.bad_rows)
    assert implicit["id"] in report.bad_rows[0] and rel_b["id"] in report.bad_rows[3]
    code, out, _ = run_main(
        capsys, "dataset", "overlap", str(tmp_path / "train.jsonl"), str(tmp_path / "eval.jsonl")
    )
    assert code == 2  # nothing overlaps, but four rows could not be checked
    # ... so the verdict never says "no overlap": the unchecked rows may overlap.
    assert "no overlap" not in out and "4 rows not checked" in out
    assert report.to_json()["complete"] is False


def test_text_only_puzzles_match_by_their_text_not_their_domain(tmp_path: Path) -> None:
    """A puzzle given only as text is its text: two different ones in the
    same domain do not match (before: both were the domain and ``null``)."""
    a, b = _make("time-puzzles", 6, 0), _make("time-puzzles", 6, 1)
    a_text = {k: v for k, v in a.items() if k != "facts"}
    b_text = {k: v for k, v in b.items() if k != "facts"}
    assert a_text["domain"] == b_text["domain"] and a_text["prompt"] != b_text["prompt"]
    report = _report(tmp_path, [a_text], [b_text, {**a_text, "id": "copy"}])
    assert report.overlap == 1 and [p["eval_id"] for p in report.pairs] == ["copy"]
