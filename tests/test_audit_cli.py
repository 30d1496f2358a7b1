"""``tsolve audit`` end to end, and the batch driver behind it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tsolve.audit.report import AuditReport, audit, audit_file
from tsolve.cli.app import main
from tsolve.families.logistics.generate import GenerateParams, generate_records
from tsolve.records import BadRow

SAMPLE = Path(__file__).parent / "fixtures" / "unseentimeqa_sample.jsonl"
ROWS = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]


def run(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[int, str, str]:
    """``tsolve <args>`` in this process, through the real entry point."""
    monkeypatch.setattr(sys, "argv", ["tsolve", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    out = capsys.readouterr()
    return int(exc.value.code or 0), out.out, out.err


def write(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def generated(n: int) -> list[dict[str, Any]]:
    return list(generate_records(n, 3, GenerateParams("hard", "parallel", "hypothetical", None)))


def impossible(row: dict[str, Any], rid: Any) -> dict[str, Any]:
    """A sample item whose gold names a truck that is not in its world."""
    return {**row, "id": rid, "answers": ["t99"]}


def test_all_ok_exits_0_and_jsonl_has_the_contract_fields(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    recs = generated(6)
    code, out, err = run(["audit", str(write(tmp_path / "g.jsonl", recs)), "--format", "jsonl"],
                         monkeypatch, capsys)  # fmt: skip
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [x["id"] for x in lines] == [r["id"] for r in recs]
    assert all(x["verdict"] == "ok" and x["detail"] == {} for x in lines)
    assert all(x["family"] == "logistics" and "canonical" in x["readings"] for x in lines)


def test_not_ok_exits_1_and_the_table_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    path = write(tmp_path / "x.jsonl", [*generated(2), impossible(ROWS[0], "bad-1")])
    code, out, _err = run(["audit", str(path)], monkeypatch, capsys)
    assert code == 1
    assert "bad-1" in out and "inconsistent" in out and "never at/in t99" in out
    assert "3 items: 2 ok, 0 ambiguous, 1 inconsistent" in out


def test_a_bad_row_in_the_middle_is_reported_and_the_batch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    a, b = generated(2)
    unknown = {"id": "odd", "family": "no-such-family"}
    path = write(tmp_path / "m.jsonl", [a, "{not json", unknown, b])
    code, out, err = run(["audit", str(path), "--format", "jsonl"], monkeypatch, capsys)
    assert code == 1
    assert [json.loads(line)["id"] for line in out.splitlines()] == [a["id"], b["id"]]
    assert "m.jsonl:2" in err and "malformed JSON" in err
    assert "'odd'" in err and "unknown family 'no-such-family'" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        ("this is not JSON\nnor this\n", "holds no JSON object"),
        ("", "holds no records"),
        ("[1, 2", "malformed JSON array"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    content: str | None,
    message: str,
) -> None:
    path = tmp_path / "in.jsonl"
    if content is not None:
        path.write_text(content)
    code, out, err = run(["audit", str(path)], monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_bad_format_exits_2(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, _out, err = run(["audit", str(SAMPLE), "--format", "xml"], monkeypatch, capsys)
    assert code == 2 and err.startswith("error: ")


def test_square_brackets_in_ids_and_names_do_not_break_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    rows = [impossible(ROWS[0], "[/]"), impossible(ROWS[1], "[bold red]x[/bold red]")]
    rows[1]["answers"] = ["[link=x]t[/link]"]
    code, out, _err = run(["audit", str(write(tmp_path / "b.jsonl", rows))], monkeypatch, capsys)
    assert code == 1
    assert "[/]" in out and "[bold red]x[/bold red]" in out and "[link=x]t[/link]" in out


def test_json_format_has_summary_items_and_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    path = write(tmp_path / "j.jsonl", [*generated(2), "[]", impossible(ROWS[0], 1)])
    code, out, _err = run(["audit", str(path), "--format", "json"], monkeypatch, capsys)
    assert code == 1
    report = json.loads(out)
    assert report["summary"]["families"] == {
        "logistics": {"ok": 2, "ambiguous": 0, "inconsistent": 1}
    }
    assert report["summary"]["errors"] == 1 and len(report["items"]) == 3
    assert report["errors"][0]["where"] == "j.jsonl:3"


def test_library_report_counts_per_family_and_mixed_families() -> None:
    recs: list[dict[str, Any] | BadRow] = [
        *generated(3),
        impossible(ROWS[0], "i"),
        BadRow("f.jsonl:9", "malformed JSON"),
        {"id": "s", "family": "no-such-family"},
        {"question": "where?"},  # no family at all
    ]
    report = audit(recs)
    assert isinstance(report, AuditReport)
    assert report.counts() == {"logistics": {"ok": 3, "ambiguous": 0, "inconsistent": 1}}
    assert [e.where for e in report.errors] == ["f.jsonl:9", "id 's'", "row 7"]
    assert not report.all_ok


def test_audit_file_reads_the_public_json_array_form(tmp_path: Path) -> None:
    path = tmp_path / "public.json"
    path.write_text(json.dumps(ROWS[:10]))
    report = audit_file(path)
    assert len(report.items) == 10 and not report.errors
    assert {v.family for v in report.items} == {"logistics"}
