"""What a new user meets in a first run: help that shows every family's
options and the defaults, output that fits an 80-column terminal, progress
bars that show a rate only once it means something, and a bad Ray address
that fails fast."""

from __future__ import annotations

import re
from typing import Any

import pytest
from cli_main import run_cli

from tsolve.contract import Family, all_families, temporary_family
from tsolve.generators.options import parse_int


def _flat(text: str) -> str:
    """Help text with the boxes and line breaks taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_dataset_help_lists_every_familys_options(capsys: pytest.CaptureFixture[str]) -> None:
    """Through the family contract: a family registered only for this test is
    listed with its option and default, as the built-in ones are."""

    def generate(seed: int, index: int, config: Any) -> dict[str, Any]:
        return {"id": f"x-{index}", "family": "test-knobs", "question": "q"}

    knobs = Family(name="test-knobs", generate=generate, options={"loudness_level": parse_int},
                   build=lambda parsed: {"loudness_level": 7, **parsed})  # fmt: skip
    with temporary_family(knobs):
        for args in (("dataset", "--help"), ("dataset", "span", "--help")):
            got = run_cli(capsys, *args, columns=80)
            assert got.returncode == 0
            text = _flat(got.stdout)
            assert "test-knobs: loudness-level=7." in text
            for fam in all_families():
                if fam.generate is None or not fam.options or not fam.available():
                    continue
                assert f"{fam.name}: " in text
                for name in fam.options:
                    assert re.search(rf"\b{re.escape(name.replace('_', '-'))}\b", text), name
            assert "solutions=1" in text and "style=implicit" in text
            assert max(len(line) for line in got.stdout.splitlines()) <= 80


def test_the_time_puzzles_default_is_stated(capsys: pytest.CaptureFixture[str]) -> None:
    text = _flat(run_cli(capsys, "dataset", "time-puzzles", "--help", columns=200).stdout)
    assert "(default 1: one answer each; the paper's spread is 1-6)" in text
    assert "(default implicit)" in text


# ------------------------------------------------------------ 80 columns


def _summary(labels: dict[str, list[str]], metrics: list[str]) -> dict[str, Any]:
    agg = {"n": 20000, "parse_failures": 0}
    for m in metrics:
        agg[m], agg[f"{m}_stderr"] = 0.592, 0.002
    return {
        "overall": dict(agg),
        "by": {k: {v: dict(agg) for v in vals} for k, vals in labels.items()},
    }


TP_METRICS = ["alt_reading", "em", "f1", "jaccard"]
TP_LABELS = {
    "difficulty": ["easy", "hard", "medium"],
    "fact_kind": ["day_of_month_range", "sports_event_year", "weekday_in_month"],
    "solutions": ["1", "6"],
}


@pytest.mark.parametrize(
    ("labels", "metrics"),
    [
        (TP_LABELS, TP_METRICS),
        ({"direction": ["gregorian->islamic-umalqura", "chinese->gregorian"]}, ["accuracy"]),
    ],
)  # fmt: skip
def test_verify_tables_fit_80_columns_without_cutting_a_word(
    labels: dict[str, list[str]], metrics: list[str]
) -> None:
    """Every label's words and every header appear whole, no line is over 80
    columns, and no value is split (the old table at 80 columns printed
    "difficul…", "alt_read…" and "59.2 ±" over "0.2")."""
    from rich.console import Console

    from tsolve.cli.verify_commands import fitted_table

    out = Console(width=80, record=True, force_terminal=False)
    out.print(fitted_table(80, "fam", _summary(labels, metrics), metrics))
    text = out.export_text()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    flat = _flat(text)
    for vals in labels.values():
        for val in vals:
            assert val in flat.split(), val  # whole, on one line
    for m in metrics:
        assert (m.upper() if len(m) <= 3 else m) in flat.split()
    assert not re.search(r"±\s*│", text)  # never "59.2 ±" with its error on the next line
    assert "0.2" in text


def test_verify_keeps_the_wide_form_when_there_is_room() -> None:
    from rich.console import Console

    from tsolve.cli.verify_commands import fitted_table

    out = Console(width=140, record=True)
    out.print(fitted_table(140, "fam", _summary(TP_LABELS, TP_METRICS), TP_METRICS))
    text = out.export_text()
    assert "59.2 ± 0.2" in text and "fact_kind = day_of_month_range" in text


# ------------------------------------------------------------ progress bars


def test_no_rate_before_a_second_has_passed() -> None:
    from tsolve.cli.output import rate_text

    assert rate_text(220_886.9, 0.0001) == ""  # the first items: no rate yet
    assert rate_text(None, 5.0) == ""
    assert rate_text(1234.5, 2.0) == "1,234.5/s"


def test_a_jsonl_file_gives_its_bar_a_total(tmp_path: Any) -> None:
    from tsolve.cli.output import row_count

    rows = tmp_path / "p.jsonl"
    rows.write_text('{"id": 1}\n\n{"id": 2}\nnot json\n')
    assert row_count(rows) == 3  # every non-blank line is a row (a bad one too)
    array = tmp_path / "a.json"
    array.write_text('[{"id": 1},\n{"id": 2}]\n')
    pretty = tmp_path / "o.json"
    pretty.write_text('{\n  "id": 1\n}\n')
    assert row_count(array) is None and row_count(pretty) is None and row_count("-") is None
    assert row_count(tmp_path / "missing.jsonl") is None


def test_verify_at_80_columns_cuts_no_label(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    """The command as a user runs it, at 80 columns: the old table cut
    labels and headers ("difficul…", "alt_read…")."""
    recs, preds = tmp_path / "tp.jsonl", tmp_path / "p.jsonl"
    made = run_cli(capsys, "dataset", "time-puzzles", "-n", "12", "--solutions", "1-6",
                   "-o", str(recs), "-q")  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert (
        run_cli(
            capsys, "predict", str(recs), "--baseline", "perturbed", "-o", str(preds)
        ).returncode
        == 0
    )
    got = run_cli(capsys, "verify", str(recs), str(preds), columns=80)
    assert got.returncode == 0, got.stderr
    assert "…" not in got.stdout
    assert max(len(line) for line in got.stdout.splitlines()) <= 80
    assert "alt_reading" in got.stdout.split() and "difficulty" in _flat(got.stdout)


def _bench_report() -> dict[str, Any]:
    peer = {"name": "cached-mask NumPy peer (calendar facts' masks kept, ANDed until M; no "
            "knowledge base, no certificate), minimal puzzles", "value": 851.6,
            "unit": "puzzles/s", "ratio": 0.2951, "ratio_min": 0.2631,
            "ratio_max": 0.3507}  # fmt: skip
    result = {"id": "time-puzzles.generate.cpsat.M=1-6.minimal", "unit": "puzzles/s",
              "value": 247.0, "work": 80, "repetitions": 4, "stats": {}, "peer": peer,
              "reference": None, "status": "ok", "note": ""}  # fmt: skip
    other = {**result, "id": "calendars.convert.chinese", "unit": "dates/s", "value": 1.18e7,
             "peer": {**peer, "name": "lunarcalendar per date", "unit": "dates/s"}}  # fmt: skip
    return {"tsolve_version": "0", "created": "now", "quick": True, "seconds": 40.0,
            "machine": {"processor": "x86_64", "cpus": 2, "python": "3.11"},
            "results": [result, other]}  # fmt: skip


def test_bench_at_80_columns_gives_a_figure_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns the old table wrapped a peer's description over 6-8
    lines and cut the values ("247 puzzl…"): each figure is now a block of
    lines wrapped at spaces; a wide terminal keeps the table."""
    from rich.console import Console

    import tsolve.cli.bench_commands as bench

    for width, table in ((80, False), (240, True)):
        out = Console(width=width, record=True, force_terminal=True, color_system=None)
        monkeypatch.setattr(bench, "console", lambda out=out: out)
        bench.print_report(_bench_report())
        text = out.export_text()
        assert "…" not in text and max(len(line) for line in text.splitlines()) <= width
        assert ("┃" in text or "━" in text) == table
        flat = _flat(text)
        assert "time-puzzles.generate.cpsat.M=1-6.minimal" in flat and "247 puzzles/s" in flat
        assert "no knowledge base, no certificate), minimal puzzles: 852 puzzles/s" in flat
        if not table:  # the description takes at most two lines, not 6-8
            lines = [ln for ln in text.splitlines() if "cached-mask" in ln or "certificate)" in ln]
            assert len(set(lines)) <= 2, text
