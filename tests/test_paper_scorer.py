"""``tsolve verify --scorer paper`` gives what the Time Puzzles release's own
code gives, on every answer of the parity battery.

The release's ``answer_extractors.py`` and ``metrics.py`` (in ``src/eval``)
(commit 616590c, MIT) are copied unchanged into
``tests/fixtures/time_puzzles_release_eval/`` (SOURCE.md there), with the
release's ``src/llms/__init__.py``, which the extractor's module imports
(standard library only at import time). The tests import that copy and run
it beside tsolve's re-implementation (:mod:`tsolve.families.time_puzzles.paper_score`),
which imports none of it, on gold sets written here and on some of the
release's own puzzles; the outputs come from
:mod:`tsolve.families.time_puzzles.paper_battery`, built from the gold alone.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cli_main import run_main
from hypothesis import given
from hypothesis import strategies as st

from tsolve.families.time_puzzles.generate import PuzzleConfig, generate_puzzles
from tsolve.families.time_puzzles.paper_battery import battery
from tsolve.families.time_puzzles.paper_score import paper_extract, score_paper
from tsolve.verifiers.answer_parsing import parse_answer
from tsolve.verifiers.registry import scorer_for

FIXTURE = Path(__file__).parent / "fixtures" / "time_puzzles_release_eval"
PACKAGE = "time_puzzles_release_eval"


def _release() -> tuple[ModuleType, ModuleType]:
    """The release's extractor and metrics modules, from the fixture copy (a
    package of its own, so the extractor's ``from ..llms import`` resolves)."""
    if PACKAGE not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            PACKAGE, FIXTURE / "__init__.py", submodule_search_locations=[str(FIXTURE)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = module
        spec.loader.exec_module(module)
    ext = importlib.import_module(PACKAGE + ".eval.answer_extractors")
    met = importlib.import_module(PACKAGE + ".eval.metrics")
    return ext, met


def release_score(gold: list[str], output: str) -> dict[str, Any]:
    """EM / F1 / Jaccard as the paper's notebook computes them."""
    ext, met = _release()
    pred = ext.rule_based_answer_extractor(output)
    return {
        "pred": pred,
        "em": met.exact_match_accuracy(gold, pred),
        "f1": met.precision_recall_f1(gold, pred)[2],
        "jaccard": met.jaccard_index(gold, pred),
    }


GOLDS = [
    [],
    ["1886-02-10"],
    ["2020-01-31", "2020-12-31"],
    ["1828-09-06", "1828-10-06", "1828-11-06"],
    ["1975-07-05", "1975-07-12", "1975-07-19", "1975-07-26", "1975-08-02", "1975-08-09"],
    [],
]
# The end of the paper's prompt (Appendix E), over three constraints: the
# adversarial suite's "echo prompt" policy writes it back.
PROMPT = (
    "The constraints are as follows:\n\n- It is a Tuesday.\n- It is Autumn.\n"
    "- The year is 1828.\n\nCarefully review the constraints and reason step-by-step to "
    "identify all valid date(s). After thorough consideration, end your response on a new "
    'line with "MY ANSWER: " followed by the valid date(s) in the format "YYYY-MM-DD". If '
    "there are multiple valid dates, list them separated by commas. If no valid date exists, "
    'respond with "MY ANSWER: None".'
)


def _records() -> list[dict[str, Any]]:
    return [
        {"id": f"r{i}", "family": "time-puzzles", "answers": g, "prompt": PROMPT}
        for i, g in enumerate(GOLDS)
    ]


def _same(gold: list[str], output: str, record: dict[str, Any]) -> None:
    want = release_score(gold, output)
    got = score_paper(record, output)
    for m in ("em", "f1", "jaccard"):
        assert got.metrics[m] == want[m], (m, output, want, got.metrics)
    extracted = paper_extract(output)
    assert (extracted is None) == (want["pred"] == "CANNOT_PARSE"), output
    if extracted is not None:
        assert extracted == want["pred"], output
    assert got.parse_failed == (want["pred"] == "CANNOT_PARSE")


def test_paper_scorer_equals_the_release_on_the_whole_battery() -> None:
    records = _records()
    styles = set()
    for style, i, output in battery(records):
        styles.add(style.split(":")[0])
        _same(records[i]["answers"], output, records[i])
    # The battery holds all four kinds of output (not an empty loop).
    assert styles == {"battery", "honest style", "adversarial no-answer",
                      "adversarial guess", "adversarial honest"}  # fmt: skip


RELEASE_ZIP = Path(__file__).parent / "fixtures" / "time_puzzles_release" / "data.zip"


def test_paper_scorer_equals_the_release_on_its_own_puzzles() -> None:
    """The battery on 35 of the release's puzzles (five per answer-set size,
    0 to 6), gold and prompt as published (the encrypted fixture of
    ``tests/test_time_puzzles_release.py``, read in memory)."""
    from tsolve.families.time_puzzles.release import paper_prompt, read_release

    puzzles = read_release(RELEASE_ZIP, "timepuzzles")
    picked: dict[int, list[dict[str, Any]]] = {}
    for p in puzzles:
        size = len(p["solutions"])
        if len(picked.setdefault(size, [])) < 5:
            picked[size].append(p)
    assert sorted(picked) == list(range(7))
    records = [
        {"id": p["identifier"], "family": "time-puzzles", "answers": sorted(p["solutions"]),
         "published_answers": p["solutions"], "prompt": paper_prompt(p["constraints"])}
        for group in picked.values() for p in group
    ]  # fmt: skip
    n = 0
    for _style, i, output in battery(records):
        _same(records[i]["published_answers"], output, records[i])
        n += 1
    assert n > 3000


FRAGMENTS = st.sampled_from(
    ["MY ANSWER:", "my answer: ", "Answer:", "answer is", "The answer is ", "None", "none",
     "NONE", "Nonetheless", "2020-01-05", "1828-09-06", "1999-13-40", "12020-01-05", "2020-1-5",
     "2020\u201101\u201105", "2020\u201301\u201305", "\uff12\uff10\uff12\uff10-01-05", "\n",
     "\r", " ", ", ", " or ", "**", "(", ")", "x", "\u0660\u0661\u0662\u0663-01-05"]
)  # fmt: skip


@given(st.lists(FRAGMENTS, max_size=12).map("".join), st.sampled_from(GOLDS))
def test_paper_scorer_equals_the_release_on_random_text(output: str, gold: list[str]) -> None:
    _same(gold, output, {"id": "x", "answers": gold})


def test_the_paper_scorer_reads_the_published_gold() -> None:
    """A record imported from the release keeps the release's answers as
    ``published_answers``; the paper's figures are computed against those."""
    record = {"id": "p", "answers": ["2020-01-01"], "published_answers": ["2020-01-02"]}
    output = "MY ANSWER: 2020-01-02"
    assert score_paper(record, output).metrics["em"] == 1.0
    assert release_score(["2020-01-02"], output)["em"] == 1.0


def _write(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_verify_scorer_paper_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _records()
    outputs = {
        "r0": "Reasoning.\nMY ANSWER: None",
        "r1": "MY ANSWER: 1886-02-10, 1886-02-11",  # an over-answer keeps partial credit
        "r2": "MY ANSWER: 2020-01-31\nI checked the answer: fine.",  # a later "answer:"
        "r3": "MY ANSWER: 1828-09-06, 1828-10-06, None",
        "r4": "**MY ANSWER**: 1975-07-05",  # the colon outside the bold: CANNOT_PARSE
        "r5": "I cannot tell. The prompt said: respond with MY ANSWER: None",
    }
    recs = _write(tmp_path / "r.jsonl", records)
    preds = _write(tmp_path / "p.jsonl", [{"id": k, "output": v} for k, v in outputs.items()])
    code, out, err = run_main(capsys, "verify", recs, preds, "--scorer", "paper",
                              "--format", "jsonl")  # fmt: skip
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    items = {r["id"]: r for r in rows if "id" in r}
    assert set(items) == set(outputs)
    for rec in records:
        want = release_score(rec["answers"], outputs[rec["id"]])
        got = items[rec["id"]]
        assert {m: got[m] for m in ("em", "f1", "jaccard")} == {
            m: want[m] for m in ("em", "f1", "jaccard")
        }
    assert items["r1"]["f1"] == pytest.approx(2 / 3)  # tsolve's own scorer gives 0 here
    assert items["r5"]["em"] == 1.0  # the echoed instruction is read as the answer
    assert rows[-1]["summary"]["scorer"] == "paper"


def test_verify_without_scorer_keeps_tsolve_s_own_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same over-answer on a generated puzzle: tsolve's scorer gives it
    nothing, the paper's rules partial credit."""
    record = next(iter(generate_puzzles(1, 3, PuzzleConfig(solutions=(1,)))))
    gold = record["answers"][0]
    other = "1999-01-01" if gold != "1999-01-01" else "1999-01-02"
    recs = _write(tmp_path / "r.jsonl", [record])
    preds = _write(
        tmp_path / "p.jsonl", [{"id": record["id"], "output": f"MY ANSWER: {gold}, {other}"}]
    )
    rows = {}
    for extra in ((), ("--scorer", "paper")):
        code, out, err = run_main(capsys, "verify", recs, preds, "--format", "jsonl", *extra)
        assert code == 0, err
        lines = [json.loads(line) for line in out.splitlines()]
        rows[extra] = lines[0]
        assert ("scorer" in lines[-1]["summary"]) == bool(extra)
    assert rows[()]["f1"] == 0.0 and rows[()]["diagnosis"]["over_answer"]
    assert rows[("--scorer", "paper")]["f1"] == pytest.approx(2 / 3)


def test_an_unknown_scorer_name_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = _write(tmp_path / "r.jsonl", _records()[:1])
    preds = _write(tmp_path / "p.jsonl", [{"id": "r0", "output": "MY ANSWER: None"}])
    code, _out, err = run_main(capsys, "verify", recs, preds, "--scorer", "papr")
    assert code != 0
    assert "has no scorer 'papr' (named: paper)" in err
    assert "Traceback" not in err
    code, _out, err = run_main(capsys, "verify", recs, preds, "--scorer", "paper",
                               "--engine", "ray")  # fmt: skip
    assert code != 0 and "named scorer runs in this process" in err


def test_the_paper_scorer_is_found_through_the_family_contract() -> None:
    found = scorer_for("time-puzzles", "paper")
    # behind the guards every family's scorer has (tsolve.contract.guards)
    assert getattr(found, "fn", found) is score_paper
    with pytest.raises(Exception, match="has no scorer 'paper'"):
        scorer_for("span", "paper")


@pytest.mark.parametrize(
    ("answer", "dates"),
    [
        ("MY ANSWER: 2020-01-01 (None of the others fit)", ["2020-01-01"]),
        ("MY ANSWER: 2020-01-01 \u2014 none of the other days fit.", ["2020-01-01"]),
        ("MY ANSWER: 2020-01-01, 2020-01-08; none of the others", ["2020-01-01", "2020-01-08"]),
        ("MY ANSWER: 2020-01-01, None", None),
        ("MY ANSWER: 2020-01-01 (None)", None),
        ("MY ANSWER: 2020-01-01, **None**.", None),
        ("MY ANSWER: 2020-01-01 (or none)", None),
        ("MY ANSWER: 2020-01-01 (None of the others; perhaps none at all)", None),
        ("MY ANSWER: None, 2020-01-01", None),
        ("MY ANSWER: None (2020-01-01 fails the weekday)", None),
        ("MY ANSWER: 2020-01-01, None, 2020-01-08", None),
    ],
)
def test_none_in_a_justification_after_the_dates_is_not_a_second_answer(
    answer: str, dates: list[str] | None
) -> None:
    """An honest answer may justify itself with "None of the others fit";
    a None that stands as an answer beside dates is still a parse failure."""
    parsed = parse_answer(answer)
    if dates is None:
        assert parsed.failed and parsed.reason == "the answer gives both None and dates"
    else:
        assert not parsed.failed and parsed.dates == dates
