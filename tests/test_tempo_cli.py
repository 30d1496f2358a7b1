"""``tsolve tempo score`` / ``tag`` and the scoring library on small fixtures."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsolve.cli.app import main
from tsolve.families.tempo import (
    ndcg,
    overlaps,
    parse_ks,
    score_files,
    score_run,
    temporal_coverage,
    temporal_precision,
    temporal_relevance,
)
from tsolve.families.tempo.inputs import parse_document, parse_query, read_run
from tsolve.families.tempo.scoring import RelevanceIndex

FIX = Path(__file__).parent / "fixtures" / "tempo"
Q, RUN, DOCS, QRELS = (FIX / n for n in ("queries.jsonl", "run.txt", "docs.jsonl", "qrels.txt"))


def run(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["tsolve", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    out = capsys.readouterr()
    return int(exc.value.code or 0), out.out, out.err


def per_query(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {q["id"]: q for q in report["per_query"]}


def test_score_json_hand_computed(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out, err = run(
        [
            "tempo",
            "score",
            str(Q),
            str(RUN),
            "--docs",
            str(DOCS),
            "--qrels",
            str(QRELS),
            "--k",
            "3",
            "--format",
            "json",
        ],
        monkeypatch,
        capsys,
    )
    assert code == 0, err
    rep = json.loads(out)
    q1 = per_query(rep)["q1"]
    # q1: scope 2017..2024, periods baseline 2017 / comparison 2024.
    # Ranked d7 (2010..2014: not relevant), d1 (2017-12: relevant, baseline),
    # d2 (2015 + 2024-03..06: relevant, comparison).
    assert q1["TP@3"] == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-6)  # R = {2, 3}
    assert q1["TR@3"] == pytest.approx(2 / 3, abs=1e-6)
    assert q1["TC@3"] == 1.0
    # qrels gains 0, 2, 1; ideal from the judged {d1: 2, d2: 1, d3: 1}:
    # (2/log2 3 + 1/2) / (2 + 1/log2 3 + 1/2) = 1.761860 / 3.130930
    assert q1["NDCG@3"] == pytest.approx(1.761860 / 3.130930, abs=1e-6)
    assert q1["NDCG|FC@3"] == q1["NDCG@3"]
    q2 = per_query(rep)["q2"]  # tagged "1920"; d4 is tagged 1920, d1 is 2017-12
    assert (q2["scope_source"], q2["TP@3"], q2["TC@3"]) == ("tagged", 1.0, 1.0)
    assert q2["TR@3"] == pytest.approx(1 / 3, abs=1e-6)  # 1 relevant of k = 3
    q3 = per_query(rep)["q3"]  # no time in the text: temporal metrics are NaN -> null
    assert q3["scope_source"] == "none"
    assert q3["TP@3"] is None and q3["TC@3"] is None and q3["NDCG|FC@3"] is None
    assert q3["NDCG@3"] == 1.0  # the qrels still judge it topically
    q4 = per_query(rep)["q4"]  # periods 2018 and 2019; d3 (Dec 2017, 2018) then d7
    assert q4["TC@3"] == 0.5 and q4["NDCG|FC@3"] is None
    assert q4["NDCG@3"] == 0.0  # d6 is the only judged document, not retrieved
    s = rep["summary"]
    assert s["NDCG|FC@3"]["n"] == 2  # q1 and q2 have full coverage
    assert s["NDCG|FC@3"]["mean"] == pytest.approx((q1["NDCG@3"] + 1.0) / 2, abs=1e-6)
    assert s["TC@3"] == {"mean": pytest.approx((1 + 1 + 0.5) / 3, abs=1e-6), "n": 3}


def test_binary_gains_use_the_whole_collection_as_ideal() -> None:
    rep = score_files(str(Q), str(RUN), str(DOCS), None, (3,))
    q1 = {q.id: q for q in rep.queries}["q1"]
    # Relevant to 2017..2024 in DOCS: d1, d2, d3 (Dec 2017), d6 (2019-Q3) -> ideal 1,1,1.
    ideal = 1 + 1 / math.log2(3) + 1 / 2
    assert q1.values["NDCG@3"] == pytest.approx((1 / math.log2(3) + 1 / 2) / ideal)
    assert not rep.graded and rep.bad_rows == []


def test_score_text_table(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out, _ = run(
        ["tempo", "score", str(Q), str(RUN), "--docs", str(DOCS)], monkeypatch, capsys
    )
    assert code == 0
    assert "NDCG|FC" in out and "@10" in out and "(n=" in out


def test_bad_rows_are_reported_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"id": "a", "scope": "2019"}\n{"id": "b", "scope": "2019-13"}\nnot json\n'
        '{"id": "a", "scope": "2020"}\n'
    )
    runf = tmp_path / "run.txt"
    runf.write_text("a Q0 d1 1 2.0 t\na Q0 d1 2 1.0 t\nzz Q0 d1 1 1 t\nbad line\n")
    code, out, err = run(
        ["tempo", "score", str(queries), str(runf), "--docs", str(DOCS), "--format", "json"],
        monkeypatch,
        capsys,
    )
    assert code == 1
    rep = json.loads(out)
    assert [q["id"] for q in rep["per_query"]] == ["a"]
    text = " | ".join(rep["bad_rows"])
    for needle in (
        "scope: expected a valid calendar date, got '2019-13'",
        "duplicate query id",
        "listed twice",
        "'zz' is not in QUERIES",
        "6 fields",
    ):
        assert needle in text
    assert err.count("bad row") == len(rep["bad_rows"]) == 6


@pytest.mark.parametrize(
    "args",
    [
        ["--k", "0"],
        ["--k", "a,5"],
        ["--reference-date", "2019-02-30"],
    ],
)
def test_bad_options_exit_2_with_one_line(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out, err = run(
        ["tempo", "score", str(Q), str(RUN), "--docs", str(DOCS), *args], monkeypatch, capsys
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error:")


def test_missing_file_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, _, err = run(
        ["tempo", "score", str(Q), str(tmp_path / "nope"), "--docs", str(DOCS)], monkeypatch, capsys
    )
    assert code == 2 and "nope" in err and err.count("\n") == 1


def test_jsonl_run_and_qrels(tmp_path: Path) -> None:
    runf = tmp_path / "run.jsonl"
    runf.write_text('{"qid": "q1", "docs": ["d7", "d1", "d2"]}\n')
    qrels = tmp_path / "qrels.jsonl"
    qrels.write_text('{"qid": "q1", "docid": "d1", "relevance": 2}\n')
    rep = score_files(str(Q), str(runf), str(DOCS), str(qrels), (3,))
    q1 = {q.id: q for q in rep.queries}["q1"]
    assert q1.values["NDCG@3"] == pytest.approx((2 / math.log2(3)) / 2)
    assert q1.values["TP@3"] == pytest.approx(7 / 12)
    assert any("no ranking" in w for w in rep.warnings)  # q2..q4 are not in this run


def test_trec_run_is_ordered_like_trec_eval(tmp_path: Path) -> None:
    # trec_eval sorts by score descending, then docid descending; rank is ignored.
    f = tmp_path / "run.txt"
    f.write_text("q Q0 a 1 1.0 t\nq Q0 b 2 3.0 t\nq Q0 c 3 1.0 t\n")
    assert read_run(f).items == {"q": ["b", "c", "a"]}


def test_periods_default_to_one_per_scope_interval() -> None:
    q = parse_query({"id": 1, "scope": ["2017", "2024"]})
    assert [name for name, _ in q.periods] == ["p1", "p2"] and q.id == "1"
    q = parse_query({"id": "x", "scope": "2017..2024"})
    assert len(q.periods) == 1
    q = parse_query({"id": "x", "periods": {"baseline": "2017", "comparison": "2024"}})
    assert q.scope_source == "periods" and len(q.scope) == 2


def test_tagged_scopes_use_the_reference_date() -> None:
    doc = parse_document(
        {"id": "d", "text": "as reported last year", "reference_date": "2020-06-01"}
    )
    assert doc.scope_source == "tagged"
    assert str(doc.scope[0]) == "2019-01-01..2019-12-31"
    q = parse_query({"id": "q", "text": "fees last year"})  # no reference date: unresolved
    assert q.scope == () and q.scope_source == "none"


def test_unknown_documents_are_not_relevant() -> None:
    qs = {"q": parse_query({"id": "q", "scope": "2019"})}
    docs = {"d": parse_document({"id": "d", "scope": "2019-05"})}
    rep = score_run(qs, docs, {"q": ["ghost", "d"]}, None, (2,))
    assert rep.unknown_docs == 1
    assert rep.queries[0].values["TP@2"] == pytest.approx(1 / 2)


def test_parse_ks() -> None:
    assert parse_ks("10, 1,5,5") == (1, 5, 10)


def test_tag_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    text = "Fees changed between 2010 and 2014 and [bold]last year[/bold]."
    code, out, _ = run(
        ["tempo", "tag", text, "--format", "json", "--reference-date", "2026-11-23"],
        monkeypatch,
        capsys,
    )
    assert code == 0
    data = json.loads(out)
    spans = [(f["start"], f["end"], f["text"]) for f in data["findings"]]
    assert spans == [(13, 34, "between 2010 and 2014"), (45, 54, "last year")]
    assert all(text[s:e] == t for s, e, t in spans)
    assert data["findings"][1]["interval"] == {
        "start": "2025-01-01",
        "end": "2025-12-31",
        "precision": "year",
    }
    assert data["intent"] == "change_over_time"
    f = tmp_path / "t.txt"
    f.write_text(text)
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(["tempo", "tag", str(f)], monkeypatch, capsys)
    assert code == 0 and "between 2010 and 2014" in out and "2010-01-01..2014-12-31" in out
    assert "unresolved" in out  # no reference date


@given(
    st.lists(st.tuples(st.integers(1990, 2030), st.integers(0, 5)), min_size=1, max_size=12),
    st.integers(1990, 2030),
    st.integers(0, 5),
    st.integers(1, 6),
    st.sampled_from([0, 3, 256]),
)
def test_relevance_index_counts_like_a_plain_loop(
    spans: list[tuple[int, int]], qa: int, qlen: int, enough: int, scan: int
) -> None:
    docs = {
        f"d{i}": parse_document({"id": f"d{i}", "scope": f"{a}..{a + n}"})
        for i, (a, n) in enumerate(spans)
    }
    q = parse_query({"id": "q", "scope": f"{qa}..{qa + qlen}"})
    index = RelevanceIndex(docs)
    index.SCAN = scan  # exercise both the Python scan and the vectorised pass
    brute = sum(1 for d in docs.values() if overlaps(d.scope, q.scope))
    assert index.count(q.scope, enough) == min(brute, enough)


# Synthetic runs with known answers: each document's scope is built from a
# chosen subset of years, so its verdict and coverage are known without the
# interval code: relevant to 2000..2009 iff it holds 2000, 2005 or 2009;
# covers the baseline iff it holds 2000, the comparison iff it holds 2009.
YEAR_CHOICES = st.lists(st.sampled_from(["1990", "2000", "2005", "2009", "2015"]), max_size=3)


@given(st.lists(YEAR_CHOICES, max_size=12), st.sampled_from([(1,), (1, 5, 10), (3, 12)]))
def test_scores_from_intervals_equal_the_metrics_on_known_judgments(
    doc_years: list[list[str]], ks: tuple[int, ...]
) -> None:
    q = parse_query(
        {"id": "q", "scope": "2000..2009", "periods": {"baseline": "2000", "comparison": "2009"}}
    )
    docs = {
        f"d{i}": parse_document({"id": f"d{i}", "scope": ys} if ys else {"id": f"d{i}"})
        for i, ys in enumerate(doc_years)
    }
    ranking = list(docs)
    verdicts = [int(bool({"2000", "2005", "2009"} & set(ys))) for ys in doc_years]
    coverage = [[int("2000" in ys), int("2009" in ys)] for ys in doc_years]
    got = score_run({"q": q}, docs, {"q": ranking}, None, ks).queries[0].values
    for k in ks:
        assert got[f"TP@{k}"] == temporal_precision(verdicts, k)
        assert got[f"TR@{k}"] == temporal_relevance(verdicts, k)
        assert got[f"TC@{k}"] == temporal_coverage(coverage, k, 2)
        # Binary gains; the ideal is every relevant document of the collection,
        # which here is exactly the ranked list.
        nd = ndcg([float(v) for v in verdicts], k, [float(v) for v in verdicts])
        assert got[f"NDCG@{k}"] == pytest.approx(nd)
        fc = got[f"NDCG|FC@{k}"]
        assert math.isnan(fc) == (got[f"TC@{k}"] != 1.0)


def test_a_year_zero_document_does_not_sink_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """One "Q3 0000" document killed the whole `tempo score` run."""
    docs = tmp_path / "docs.jsonl"
    docs.write_text(
        '{"id": "d1", "text": "Sales in Q3 0000 and H1 0000."}\n'
        '{"id": "d2", "text": "Sales in Q3 2019."}\n'
    )
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "a", "scope": "2019"}\n')
    runf = tmp_path / "run.txt"
    runf.write_text("a Q0 d1 1 2.0 t\na Q0 d2 2 1.0 t\n")
    code, out, _ = run(
        ["tempo", "score", str(queries), str(runf), "--docs", str(docs), "--format", "json"],
        monkeypatch,
        capsys,
    )
    assert code == 0
    rep = json.loads(out)
    assert rep["bad_rows"] == [] and [q["id"] for q in rep["per_query"]] == ["a"]


def test_an_unexpected_error_on_one_document_is_a_bad_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The per-row backstop: an exception the readers did not foresee is
    reported on its row (marked internal error) and the other rows go on."""
    import tsolve.families.tempo.inputs as inputs

    real = inputs.scope_of

    def fragile(text: str, ref: Any = None) -> Any:
        if "boom" in text:
            raise ValueError("year 0 is out of range")
        return real(text, ref)

    monkeypatch.setattr(inputs, "scope_of", fragile)
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"id": "d1", "text": "boom"}\n{"id": "d2", "text": "Q3 2019"}\n')
    loaded = inputs.read_documents(str(docs))
    assert list(loaded.items) == ["d2"]
    assert len(loaded.bad_rows) == 1 and "internal error" in str(loaded.bad_rows[0])
