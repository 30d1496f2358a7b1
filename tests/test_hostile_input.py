"""Regression tests for hostile input that once broke tsolve: each one crashed, hung or lost
rows on the code before the fix. The CLI runs in-process through its real entry
point (``main``), so exit codes and one-line errors are what a user sees."""

from __future__ import annotations

import codecs
import json
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main
from guards import hang_guard

from tsolve.errors import INTERNAL
from tsolve.families.logistics.generate import GenerateParams, generate_records
from tsolve.families.span.generate import SpanConfig, generate_questions
from tsolve.families.time_puzzles.generate import generate_puzzle
from tsolve.records import iter_json_rows
from tsolve.verifiers.registry import scorer_for
from tsolve.verifiers.verify_batch import verify


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``tsolve ARGS`` in-process; (exit code, stdout, stderr)."""
    return run_main(capsys, *args)


def write_jsonl(path: Path, rows: list[Any], ensure_ascii: bool = True) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=ensure_ascii) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def puzzle() -> dict[str, Any]:
    return generate_puzzle(seed=3, index=0, solutions=2)


@pytest.fixture(scope="module")
def logistics() -> dict[str, Any]:
    return next(iter(generate_records(1, 1, GenerateParams("hard", "serial", "static", None))))


@pytest.fixture(scope="module")
def span_records() -> list[dict[str, Any]]:
    """Both formats and both types (the cell cycles with the index, 40 per block)."""
    recs = list(generate_questions(40, 0, SpanConfig(date="2024-03-01")))
    picked = {(r["format"], r["type"]): r for r in reversed(recs)}
    assert len(picked) == 4
    return list(picked.values())


def correct_output(record: dict[str, Any]) -> str:
    if record["family"] == "time-puzzles":
        return "MY ANSWER: " + ", ".join(record["answers"])
    if record["family"] == "logistics":
        return "Answer: " + ", ".join(record["answers"])
    if record["format"] == "polar":
        return "MY ANSWER: " + record["answer"]
    return "MY ANSWER: " + record["gold"]["text"]


# ------------------------------------------------------------ 1. linear scoring


@pytest.mark.parametrize("lead", ["Answer", "final", "answer is", "my answer", "anſwer"])
def test_logistics_scoring_is_linear_in_long_runs_of_spaces(
    logistics: dict[str, Any], lead: str
) -> None:
    score = scorer_for("logistics")
    # No speed limit: the guard is 100x the linear time (about 0.7 s here),
    # so a slow machine cannot trip it, while the quadratic scan this test
    # was written for (46 s at 200k characters) takes about 180 s at 400k.
    with hang_guard(120):
        for text in (lead + " " * 400_000 + "x", (lead + " ") * 100_000):
            item = score(logistics, text)
            assert item.metrics["accuracy"] == 0.0


# --------------------------------------------- 2. user text is never rich markup


def test_square_brackets_in_ids_do_not_crash_text_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], puzzle: dict[str, Any],
    logistics: dict[str, Any],
) -> None:  # fmt: skip
    nasty = "[/]x[bold]y[/bold]["
    rec = {**puzzle, "id": nasty}
    recs = write_jsonl(tmp_path / "p.jsonl", [rec])
    preds = write_jsonl(tmp_path / "o.jsonl", [{"id": nasty, "output": correct_output(rec)}])
    code, out, err = cli(capsys, "verify", str(recs), str(preds))
    assert code == 0, err
    code, out, err = cli(capsys, "solve", str(recs))
    assert code == 0, err
    assert "[/]x" in out
    lg = write_jsonl(tmp_path / "l.jsonl", [{**logistics, "id": nasty}])
    for extra in ((), ("--score",)):
        code, out, err = cli(capsys, "logistics", "answer", str(lg), *extra)
        assert code == 0, err
        assert "[/]x" in out
    # a bad row whose message quotes the markup is reported literally, on one line
    lg = write_jsonl(tmp_path / "l2.jsonl", [{**logistics, "id": nasty, "execution": "[/]"}])
    code, out, err = cli(capsys, "logistics", "answer", str(lg))
    assert code == 1 and "'[/]'" in err and err.count("\n") == 1, err


def test_square_brackets_in_span_groups_do_not_crash_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], span_records: list[dict[str, Any]]
) -> None:
    recs = [{**r, "direction": "[/]", "type": "[red]"} for r in span_records]
    p = write_jsonl(tmp_path / "s.jsonl", recs)
    o = write_jsonl(tmp_path / "o.jsonl", [{"id": r["id"], "output": "x"} for r in recs])
    code, out, err = cli(capsys, "verify", str(p), str(o))
    assert code == 0, err
    assert "direction = [/]" in out


# ----------------------------------------------------- 3. lone surrogates in JSON


def test_lone_surrogate_in_an_output_is_written_as_valid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], span_records: list[dict[str, Any]]
) -> None:
    recs = write_jsonl(tmp_path / "s.jsonl", span_records)
    preds = write_jsonl(  # ensure_ascii: the file holds the escape, json.loads the surrogate
        tmp_path / "o.jsonl",
        [{"id": r["id"], "output": "MY ANSWER: \ud800 " + correct_output(r)[11:]}
         for r in span_records],
    )  # fmt: skip
    code, out, err = cli(capsys, "verify", str(recs), str(preds), "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["summary"]["scored"] == len(span_records)
    assert all("\ud800" in it["diagnosis"]["answer_text"] for it in report["items"])


# ------------------------------------------- 4. JSON Lines split on "\n" only


def test_line_separators_inside_strings_do_not_split_rows(
    tmp_path: Path, puzzle: dict[str, Any]
) -> None:
    outputs = ["a\u2028b\u2029c\x85d\nMY ANSWER: " + ", ".join(puzzle["answers"])]
    preds = write_jsonl(
        tmp_path / "o.jsonl", [{"id": puzzle["id"], "output": outputs[0]}], ensure_ascii=False
    )
    assert "\u2028" in preds.read_text(encoding="utf-8")  # stays raw in the file
    report = verify([puzzle], iter_json_rows(preds), keep_items=True)
    assert report.errors == [] and report.missing == []
    assert report.items[0].metrics["em"] == 1.0


def test_crlf_lines_are_read(tmp_path: Path, puzzle: dict[str, Any]) -> None:
    p = tmp_path / "crlf.jsonl"
    p.write_bytes((json.dumps(puzzle) + "\r\n").encode() * 1 + b"\r\n")
    assert list(iter_json_rows(p)) == [puzzle]


# ------------------------------- 5, 6. lines json.loads cannot take: one bad row


@pytest.mark.parametrize(
    "poison", ["[" * 100_000, '{"id": ' + "9" * 5000 + "}", '"\\ud800"', "17", "null"]
)
def test_a_poison_line_is_one_bad_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], puzzle: dict[str, Any],
    logistics: dict[str, Any], poison: str,
) -> None:  # fmt: skip
    recs = tmp_path / "p.jsonl"
    recs.write_text(json.dumps(puzzle) + "\n" + poison + "\n")
    preds = tmp_path / "o.jsonl"
    preds.write_text(
        poison + "\n" + json.dumps({"id": puzzle["id"], "output": correct_output(puzzle)}) + "\n"
    )
    code, out, err = cli(capsys, "verify", str(recs), str(preds))
    assert code == 1 and "scored 1 " in out, err
    code, out, err = cli(capsys, "solve", str(recs), "--format", "jsonl")
    assert code == 1 and len(out.splitlines()) == 1, err
    lg = tmp_path / "l.jsonl"
    lg.write_text(poison + "\n" + json.dumps(logistics) + "\n")
    code, out, err = cli(capsys, "logistics", "answer", str(lg), "--format", "jsonl")
    assert code == 1 and len(out.splitlines()) == 2, err  # the bad row is reported in place
    assert INTERNAL not in err and "Traceback" not in err


# --------------------------------------------------------- 7. file-level errors


def test_logistics_answer_on_a_directory_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = cli(capsys, "logistics", "answer", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "is a directory" in err


def test_latin1_and_utf16_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], logistics: dict[str, Any]
) -> None:
    good = json.dumps(logistics)
    latin = tmp_path / "latin1.jsonl"
    latin.write_bytes(good.encode() + b"\n" + '{"id": "caf\u00e9"}'.encode("latin-1") + b"\n")
    code, out, err = cli(capsys, "logistics", "answer", str(latin), "--format", "jsonl")
    assert code == 1, err
    assert "not UTF-8" in out and len(out.splitlines()) == 2
    wide = tmp_path / "utf16.jsonl"
    wide.write_bytes(codecs.BOM_UTF16_LE + (good + "\n").encode("utf-16-le"))
    code, out, err = cli(capsys, "logistics", "answer", str(wide), "--format", "jsonl")
    assert code == 0, err
    assert json.loads(out)["answers"] == logistics["answers"]


def test_bom_before_a_json_array(tmp_path: Path, puzzle: dict[str, Any]) -> None:
    p = tmp_path / "bom.json"
    p.write_bytes(codecs.BOM_UTF8 + json.dumps([puzzle, puzzle]).encode())
    assert list(iter_json_rows(p)) == [puzzle, puzzle]


def test_empty_files_are_an_error_not_a_silent_success(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    for args in (("solve", str(empty)), ("logistics", "answer", str(empty))):
        code, _out, err = cli(capsys, *args)
        assert code == 2 and "holds no records" in err


def test_repeated_ids_are_answered_and_warned_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], puzzle: dict[str, Any],
    logistics: dict[str, Any],
) -> None:  # fmt: skip
    p = write_jsonl(tmp_path / "p.jsonl", [puzzle, puzzle, puzzle])
    code, out, err = cli(capsys, "solve", str(p), "--format", "jsonl")
    assert code == 0 and [json.loads(x)["id"] for x in out.splitlines()] == [puzzle["id"]] * 3
    assert " ".join(err.split()).count("2 rows repeat the id of an earlier row") == 1
    lg = write_jsonl(tmp_path / "l.jsonl", [logistics, logistics])
    code, out, err = cli(capsys, "logistics", "answer", str(lg), "--format", "jsonl")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and [r["id"] for r in rows] == [logistics["id"]] * 2
    assert rows[0]["answers"] == rows[1]["answers"]
    assert "1 row repeats the id of an earlier row" in " ".join(err.split())


# ------------------------------------------- 8, 9. malformed and unusable records


def _mutations(
    puzzle: dict[str, Any], logistics: dict[str, Any], span: list[dict[str, Any]]
) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []

    def variant(name: str, base: dict[str, Any], change: Any) -> None:
        rec = json.loads(json.dumps(base))
        change(rec)
        rec["id"] = name
        out.append((name, rec))

    content = next(r for r in span if r["format"] == "content")
    polar = next(r for r in span if r["format"] == "polar")
    variant("span-gold-5", content, lambda r: r.update(gold=5))
    variant("span-polar-gold-5", polar, lambda r: r.update(gold=5))
    variant("span-answer-maybe", polar, lambda r: r.update(answer="Maybe"))
    variant("dur-1e308", logistics,
            lambda r: r["scenario"]["events"][0].update(duration=1e308))  # fmt: skip
    variant("desc-32", logistics, lambda r: r["scenario"]["events"][0].update(vehicle=32))
    variant("clock-huge", logistics, lambda r: r["structured_question"].update(clock=10**9))
    variant("domain-ints", puzzle, lambda r: r.update(domain={"start": 1, "end": 0}))
    variant("domain-huge", puzzle,
            lambda r: r.update(domain={"start": "1900-01-31", "end": 10**12}))  # fmt: skip
    variant("president-obj", puzzle,
            lambda r: r["facts"].__setitem__(
                0, {"kind": "us_president", "params": {"president": {}}}))  # fmt: skip
    variant("gold-feb-30", puzzle, lambda r: r.update(answers=["2024-02-30"]))
    variant("lunar-1700", puzzle, lambda r: r.update(
        domain={"start": "1700-01-01", "end": "1750-12-31"},
        facts=[{"kind": "lunar_month", "params": {"month": 3, "leap": False}}],
        answers=["1720-04-01"]))  # fmt: skip
    return out


@pytest.mark.parametrize("diagnose", [True, False])
def test_each_malformed_record_is_one_reported_row(
    puzzle: dict[str, Any], logistics: dict[str, Any], span_records: list[dict[str, Any]],
    diagnose: bool,
) -> None:  # fmt: skip
    bad = _mutations(puzzle, logistics, span_records)
    good = [puzzle, logistics, *span_records]
    preds = [{"id": r["id"], "output": correct_output(r)} for r in good]
    preds += [{"id": name, "output": "MY ANSWER: 2000-01-01\nAnswer: l1_0"} for name, _ in bad]
    report = verify([*good, *(r for _n, r in bad)], preds, diagnose=diagnose, keep_items=True)
    assert sorted(it.id for it in report.items) == sorted(str(r["id"]) for r in good)
    assert all(it.metrics.get("em", it.metrics.get("accuracy")) == 1.0 for it in report.items)
    assert len(report.errors) == len(bad)
    for (name, _rec), error in zip(bad, report.errors, strict=True):
        assert name in error and INTERNAL not in error, error


def test_out_of_range_record_does_not_stop_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], puzzle: dict[str, Any],
    logistics: dict[str, Any], span_records: list[dict[str, Any]],
) -> None:  # fmt: skip
    ((_name, old),) = [
        m for m in _mutations(puzzle, logistics, span_records) if m[0] == "lunar-1700"
    ]
    recs = write_jsonl(tmp_path / "p.jsonl", [puzzle, old])
    preds = write_jsonl(tmp_path / "o.jsonl", [
        {"id": puzzle["id"], "output": "MY ANSWER: 1999-01-01"},
        {"id": old["id"], "output": "MY ANSWER: 1720-04-02"},
    ])  # fmt: skip
    for extra in ((), ("--no-diagnosis",)):
        code, out, err = cli(capsys, "verify", str(recs), str(preds), *extra)
        assert code == 1 and "scored 1 " in out and "bad rows 1" in out, err
        assert "lunar_month" in err


def test_a_misnamed_output_field_is_reported_not_scored_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], puzzle: dict[str, Any]
) -> None:
    recs = write_jsonl(tmp_path / "p.jsonl", [puzzle])
    preds = write_jsonl(tmp_path / "o.jsonl", [{"id": puzzle["id"], "response": "MY ANSWER: x"}])
    code, out, err = cli(capsys, "verify", str(recs), str(preds))
    assert code == 1 and "scored 0 " in out
    assert "no 'output' field (found 'response')" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, _err = cli(capsys, "--version")
    assert code == 0 and out.strip() == f"tsolve {version('tsolve')}"


def test_ctrl_c_in_logistics_answer_says_so(tmp_path: Path, logistics: dict[str, Any]) -> None:
    """SIGINT mid-batch: one line on stderr, exit 130, only whole lines on stdout."""
    import os
    import subprocess
    import time

    # 4,000 rows (100 MB) take seconds of answering, far beyond the 0.2 s
    # pause; the row is serialised once (20,000 dumps took 14 s of CPU).
    body = json.dumps({k: v for k, v in logistics.items() if k != "id"})
    p = tmp_path / "many.jsonl"
    p.write_text("".join(f'{{"id": "x{i}", {body[1:]}\n' for i in range(4_000)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tsolve", "logistics", "answer", str(p), "--format", "jsonl"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert proc.stdout is not None
    proc.stdout.readline()  # answering has begun
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().startswith("interrupted:") and err.count("\n") == 1
    assert all(json.loads(line) for line in out.splitlines())
