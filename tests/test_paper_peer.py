"""The paper's released generator as a bench peer: the stand-in knowledge
table in the release's schema, and the bench row's presence or skip, on fake
releases (a stub ``date_generator`` package under ``tmp_path``, run by this
interpreter as its "virtual environment"): no test needs the real release."""

from __future__ import annotations

import csv
import os
import re
import sys
import textwrap
from pathlib import Path

import pytest

from tsolve.bench import Size
from tsolve.errors import TsolveError
from tsolve.families.time_puzzles import paper_peer
from tsolve.families.time_puzzles.bench import bench_paper_release

ROW_ID = "time-puzzles.generate.paper-preset.vs-release"

#: A stand-in for the release's generator: the same modules and names the
#: worker uses, answering every job at once with its first allowed size.
STUB = {
    "preprocess_facts.py": """
        import csv
        def preprocess_facts(input_csv, output_pkl):
            print("Processed data saved")  # the release prints; stdout must stay clean
            with open(input_csv) as fh:
                n = sum(1 for _ in csv.DictReader(fh))
            open(output_pkl, "w").write(str(n))
    """,
    "facts.py": """
        import os
        class KnowledgeBaseEventFact:
            def __init__(self, pkl_path=None, year_range=(1950, 2025)):
                if pkl_path is None or not os.path.exists(pkl_path):
                    raise FileNotFoundError(pkl_path)
                self.year_range = year_range
    """,
    "generator.py": """
        from .facts import KnowledgeBaseEventFact
        SHIFT = 0
        class ConstraintGenerator:
            def __init__(self, start_year=1950, end_year=2050):
                self.kb = KnowledgeBaseEventFact(year_range=(start_year, end_year))
            def generate_puzzle(self, num_constraints, allowed_solution_counts):
                m = allowed_solution_counts[0] + SHIFT
                return {"solution_count": m, "constraints_meta": [{}] * num_constraints}
    """,
}


def fake_release(root: Path, generator: str | None = None) -> tuple[Path, Path]:
    """A release folder with the stub generator, and a "venv" whose python is
    this interpreter (numpy, which the worker imports, is installed here)."""
    pkg = root / "release" / "puzzles_generator" / "date_generator"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name, text in STUB.items():
        (pkg / name).write_text(textwrap.dedent(text))
    if generator is not None:
        (pkg / "generator.py").write_text(textwrap.dedent(generator))
    venv = root / "venv"
    python = paper_peer.venv_python(venv)
    python.parent.mkdir(parents=True)
    os.symlink(sys.executable, python)
    return root / "release", venv


def test_fact_sheet_is_in_the_release_schema(tmp_path: Path) -> None:
    """The columns ``preprocess_facts.py`` reads; dates as its parser splits
    them; spans as ``;``-separated years; everything inside 1800..2050."""
    out = tmp_path / "fact_sheet.csv"
    n = paper_peer.write_fact_sheet(out)
    with open(out, newline="") as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames or ()) == ("event", "start", "end", "multi_year_spans")
        rows = list(reader)
    assert len(rows) == n > 100
    date = re.compile(r"^\d{4}-\d{2}-\d{2}$")
    for r in rows:
        assert r["event"], r
        if r["multi_year_spans"]:
            years = [int(y) for y in r["multi_year_spans"].split(";")]
            assert all(1800 <= y <= 2050 for y in years) and not r["start"], r
        else:
            assert date.match(r["start"]) and 1800 <= int(r["start"][:4]) <= 2050, r
            assert not r["end"] or (date.match(r["end"]) and r["end"] >= r["start"]), r
    by_event = {r["event"]: r for r in rows}
    titanic = by_event["the sinking of the Titanic was under way"]
    assert (titanic["start"], titanic["end"]) == ("1912-04-15", "1912-04-15")
    olympics = by_event["the Summer Olympic Games were held"]["multi_year_spans"].split(";")
    assert {"1896", "1936", "2021"} <= set(olympics) and "1940" not in olympics
    # George Washington's tenure (1789-1797) starts before the paper's range.
    assert not any(e.startswith("George Washington") for e in by_event)


def test_missing_release_or_venv_is_a_skipped_row_with_the_reason(tmp_path: Path) -> None:
    m = bench_paper_release(Size(True, 0.02), str(tmp_path / "nowhere"), str(tmp_path / "venv"))
    assert (m.id, m.status, m.value, m.peer) == (ROW_ID, "skipped", None, None)
    assert "release is not at" in m.note and str(tmp_path / "nowhere") in m.note
    release, _ = fake_release(tmp_path)
    m = bench_paper_release(Size(True, 0.02), str(release), str(tmp_path / "novenv"))
    assert m.status == "skipped" and "no virtual environment" in m.note and "--make-venv" in m.note


def test_paths_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paper_peer.RELEASE_ENV, str(tmp_path / "elsewhere"))
    monkeypatch.setenv(paper_peer.VENV_ENV, str(tmp_path / "env"))
    assert paper_peer.release_dir() == tmp_path / "elsewhere"
    assert paper_peer.venv_dir() == tmp_path / "env"
    m = bench_paper_release(Size(True, 0.02))
    assert m.status == "skipped" and str(tmp_path / "elsewhere") in m.note


def test_row_is_present_when_the_release_runs(tmp_path: Path) -> None:
    """With a release and an environment the row carries tsolve's rate, the
    release's and the per-round ratio, timed in the same rounds."""
    release, venv = fake_release(tmp_path)
    m = bench_paper_release(Size(True, 0.02), str(release), str(venv), 2, 2, 2)
    assert m.status == "ok", m.note
    assert m.value is not None and m.value > 0 and m.repetitions == 2
    assert m.peer is not None and m.peer["work"] == 2 and len(m.peer["values"]) == 2
    assert m.peer["ratio"] is not None and m.peer["ratio"] > 0
    assert m.params["fact_sheet_rows"] > 100 and m.params["clock"] == "cpu"
    assert len(m.stats["rates"]) == len(m.stats["wall_rates"]) == 2


def test_jobs_cycle_the_paper_schedule() -> None:
    jobs = paper_peer.paper_jobs(4, 2)
    assert [n for n, _ in jobs] == [6, 4, 5, 6]
    assert all(sizes == (0, 1, 2, 3, 4, 5, 6) for _, sizes in jobs)


@pytest.mark.parametrize(
    ("generator", "reason"),
    [
        ("raise ImportError('no module named lunarcalendar')", "did not load: ImportError"),
        (STUB["generator.py"].replace("SHIFT = 0", "SHIFT = 100"), "missed their targets"),
    ],
)
def test_a_broken_release_is_skipped_never_measured(
    tmp_path: Path, generator: str, reason: str
) -> None:
    """A release that does not import, or whose puzzles miss their targets,
    gives no figure: the row says why."""
    release, venv = fake_release(tmp_path, generator)
    m = bench_paper_release(Size(True, 0.02), str(release), str(venv), 2, 2, 2)
    assert m.status == "skipped" and m.value is None and m.peer is None
    assert reason in m.note


def test_release_generator_refuses_a_missing_release(tmp_path: Path) -> None:
    with pytest.raises(TsolveError, match="paper peer: the paper's release is not at"):
        paper_peer.ReleaseGenerator(tmp_path, tmp_path)


def test_bad_clock_is_an_error(tmp_path: Path) -> None:
    release, venv = fake_release(tmp_path)
    with pytest.raises(TsolveError, match="clock: expected"):
        bench_paper_release(Size(True, 0.02), str(release), str(venv), 2, 2, 2, clock="gpu")
