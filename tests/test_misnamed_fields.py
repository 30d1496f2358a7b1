"""A record whose gold field is misnamed (``answerz`` for ``answers``) is a
bad row named by its field, in every family's scorer and in the batch
commands; it is never scored against a default or skipped as unlabelled."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_cli

from tsolve.contract import get_family
from tsolve.datasets import gather_options, generate_chunks
from tsolve.errors import TsolveError

Record = dict[str, Any]


@cache
def _records(family: str) -> tuple[str, ...]:
    """Eight records of run 1 with default options, as JSON lines."""
    fam = get_family(family)
    opts = gather_options(fam, None, {})
    return tuple(
        line for chunk in generate_chunks(fam.name, opts, 1, range(8))
        for line in chunk.blob.decode().splitlines()
    )  # fmt: skip


def _record(family: str, keep: Callable[[Record], bool] = lambda r: True) -> Record:
    return next(r for r in map(json.loads, _records(family)) if keep(r))


def _renamed(record: Record, old: str, new: str) -> Record:
    out = dict(record)
    out[new] = out.pop(old)
    return out


# (family, which records, the gold field the scorer needs)
GOLD_FIELDS = [
    ("time-puzzles", lambda r: True, "answers"),
    ("relational-puzzles", lambda r: True, "answers"),
    ("span", lambda r: r["format"] == "content", "gold"),
    ("span", lambda r: r["format"] == "polar", "answer"),
    ("span", lambda r: r["format"] == "polar", "gold"),  # optional there, never misnamed
    ("logistics", lambda r: True, "answers"),
]


@pytest.mark.parametrize(("family", "keep", "field"), GOLD_FIELDS)
@pytest.mark.parametrize("rename", [lambda f: f + "z", lambda f: f.capitalize()])
def test_every_scorer_names_a_misnamed_gold_field(
    family: str, keep: Callable[[Record], bool], field: str, rename: Callable[[str], str]
) -> None:
    fam = get_family(family)
    record = _record(family, keep)
    right = f"{fam.answer_marker} {fam.answer(record)}"
    metrics = fam.score(record, right).metrics  # the record as written scores
    assert metrics.get("accuracy", metrics.get("em")) == 1.0
    wrong_name = rename(field)
    with pytest.raises(TsolveError) as exc:
        fam.score(_renamed(record, field, wrong_name), right)
    message = str(exc.value)
    assert f"no {field!r} field; found {wrong_name!r}" in message, message
    assert "\n" not in message


def test_missing_field_names_the_closest_key_or_none() -> None:
    from tsolve.records.validation import expect_field, missing_field

    assert missing_field({"answers": []}, "answers") is None
    assert missing_field({"id": 1, "answer": []}, "answers") == (
        "no 'answers' field; found 'answer' (rename it to 'answers')"
    )
    assert missing_field({"id": 1, "question": "?"}, "answers") == "no 'answers' field"
    assert missing_field({"qid": 1}, "id", ("qid",)).endswith("found 'qid' (rename it to 'id')")  # type: ignore[union-attr]
    with pytest.raises(TsolveError, match=r"^record 'x': no 'gold' field; found 'golds'"):
        expect_field({"golds": {}}, "gold", "record 'x'")


def _logistics_file(tmp_path: Path) -> tuple[Path, Path, list[Record]]:
    """Three logistics records, the second with ``answerz``, and a prediction
    file answering each with its gold (so every scored row is right)."""
    records = [json.loads(line) for line in _records("logistics")[:3]]
    gold = [list(r["answers"]) for r in records]
    records[1] = _renamed(records[1], "answers", "answerz")
    recs = tmp_path / "records.jsonl"
    recs.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    preds = tmp_path / "preds.jsonl"
    preds.write_text(
        "".join(json.dumps({"id": r["id"], "output": "Answer: " + ", ".join(g)}) + "\n"
                for r, g in zip(records, gold, strict=True)),
        encoding="utf-8",
    )  # fmt: skip
    return recs, preds, records


def test_verify_reports_the_misnamed_row_and_scores_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs, preds, records = _logistics_file(tmp_path)
    res = run_cli(capsys, "verify", str(recs), str(preds), "--format", "json")
    assert res.returncode == 1, res.stderr
    report = json.loads(res.stdout)
    assert report["summary"]["scored"] == 2
    assert report["summary"]["families"]["logistics"]["overall"]["n"] == 2
    assert report["summary"]["families"]["logistics"]["overall"]["accuracy"] == 1.0
    (error,) = report["errors"]
    assert records[1]["id"] in error and "found 'answerz'" in error


def test_logistics_answer_score_reports_the_unlabelled_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs, _preds, _records = _logistics_file(tmp_path)
    res = run_cli(capsys, "logistics", "answer", str(recs), "--score", "--format", "jsonl")
    assert res.returncode == 1
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [("error" in r) for r in rows] == [False, True, False]
    assert rows[1]["error"] == "no 'answers' field; found 'answerz' (rename it to 'answers')"
    assert "found 'answerz'" in res.stderr and "exact set match: 2/2" in res.stderr
    # Answering without --score needs no label: the row is answered.
    plain = run_cli(capsys, "logistics", "answer", str(recs), "--format", "jsonl")
    assert plain.returncode == 0, plain.stderr
    assert all("error" not in json.loads(line) for line in plain.stdout.splitlines())


def test_logistics_answer_score_with_workers_reports_it_too(tmp_path: Path) -> None:
    from tsolve.families.logistics.answer_items import answer_file

    recs, _preds, _records = _logistics_file(tmp_path)
    results = list(answer_file(recs, workers=2, chunk=1, need_label=True))
    assert [r.error is not None for r in results] == [False, True, False]


def test_a_misnamed_execution_is_refused_not_read_as_serial() -> None:
    """Without ``execution`` the domain description tells a parallel item
    (loading "simultaneously"), and with neither an item is serial: so a
    misnamed one must not pass for absent."""
    from tsolve.families.logistics.answer_items import answer_item

    sample = Path(__file__).parent / "fixtures" / "unseentimeqa_sample.jsonl"
    rows = map(json.loads, sample.read_text(encoding="utf-8").splitlines())
    item = next(r for r in rows if r["execution"] == "parallel")
    assert answer_item(item).error is None
    assert answer_item({k: v for k, v in item.items() if k != "execution"}).error is None
    for renamed in ("executionz", "Execution"):
        error = answer_item(_renamed(item, "execution", renamed)).error
        assert error == f"no 'execution' field; found {renamed!r} (rename it to 'execution')"
    bare = {k: v for k, v in item.items() if k not in ("execution", "domain_description")}
    error = answer_item({**bare, "domain_descripton": item["domain_description"]}).error
    assert error is not None and "found 'domain_descripton'" in error


# (family, the optional field, a wrong spelling): each has a default that a
# misnamed field would silently get.
OPTIONAL_FIELDS = [
    ("time-puzzles", "domain", "domian"),
    ("time-puzzles", "style", "Style"),
    ("relational-puzzles", "asked", "askd"),
    ("relational-puzzles", "style", "styles"),
]


@pytest.mark.parametrize(("family", "field", "wrong"), OPTIONAL_FIELDS)
def test_a_misnamed_optional_field_is_not_read_as_its_default(
    family: str, field: str, wrong: str
) -> None:
    fam = get_family(family)
    record = _record(family)
    right = f"{fam.answer_marker} {fam.answer(record)}"
    with pytest.raises(TsolveError) as exc:
        fam.score(_renamed(record, field, wrong), right)
    assert f"no {field!r} field; found {wrong!r}" in str(exc.value)


def test_solve_refuses_a_misnamed_domain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tsolve solve`` recomputes the answers over the record's domain; over
    the default one a misnamed domain would give other answers."""
    good = json.loads(_records("time-puzzles")[0])
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_renamed(good, "domain", "domian")) + "\n" + json.dumps(good)
                    + "\n", encoding="utf-8")  # fmt: skip
    r = run_cli(capsys, "solve", str(path), "--check", "--format", "jsonl")
    assert r.returncode != 0
    assert "found 'domian'" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stdout.splitlines()) == 1  # the good record is solved


@pytest.mark.parametrize("family", ["time-puzzles", "relational-puzzles"])
@pytest.mark.parametrize("name", ["answer", "Answers", "answerz"])
def test_solve_check_flags_a_misnamed_answers_as_verify_and_audit_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], family: str, name: str
) -> None:
    """Before: ``solve --check`` read a misnamed ``answers`` as absent,
    printed "stored n/a" and exited 0, while ``verify`` and ``audit`` named
    the row. Now the same one-line message, the row counted as a problem,
    and the good record still solved and confirmed."""
    good = json.loads(_records(family)[0])
    bad = _renamed(good, "answers", name)
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    r = run_cli(capsys, "solve", str(path), "--check", "--format", "jsonl")
    assert r.returncode == 1, r.stderr
    said = f"no 'answers' field; found {name!r} (rename it to 'answers')"
    assert said in r.stderr and "Traceback" not in r.stderr
    (solved,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert solved["id"] == good["id"] and solved["matches"] is True
    audit = run_cli(capsys, "audit", str(path), "--format", "jsonl")
    assert audit.returncode == 1 and said in audit.stderr + audit.stdout


def test_solve_check_refuses_answers_that_are_not_a_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A present ``answers`` of the wrong type was "n/a" too; it is the row
    error ``audit`` gives. A record with no gold at all stays "n/a"."""
    good = json.loads(_records("time-puzzles")[0])
    rows = [{**good, "answers": good["answers"][0]}, {**good, "answers": {"a": 1}},
            {k: v for k, v in good.items() if k != "answers"}]  # fmt: skip
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in rows), encoding="utf-8")
    r = run_cli(capsys, "solve", str(path), "--check", "--format", "jsonl")
    assert r.returncode == 1
    assert r.stderr.count("'answers' must be a list of ISO dates") == 2, r.stderr
    (unlabelled,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert unlabelled["matches"] is None


def test_tempo_refuses_a_misnamed_scope(tmp_path: Path) -> None:
    """A query's annotated ``scope`` beats the tagger's reading of its text;
    a misnamed one would silently be the tagger's."""
    from tsolve.families.tempo.inputs import parse_document, parse_query

    query = {"id": "q1", "text": "What happened in 2019?", "scope": "2010..2012"}
    assert parse_query(query).scope_source == "annotated"
    with pytest.raises(TsolveError, match=r"^query 'q1': no 'scope' field; found 'scpoe'"):
        parse_query(_renamed(query, "scope", "scpoe"))
    with pytest.raises(TsolveError, match=r"found 'reference_dat'"):
        parse_document({"docid": "d1", "text": "in 2019", "reference_dat": "2020-01-01"})
    assert parse_query({"qid": "q2", "text": "in 2019", "title": "x"}).scope_source == "tagged"
