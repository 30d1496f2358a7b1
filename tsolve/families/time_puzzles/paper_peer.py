"""The Time Puzzles paper's released generator as a speed peer of tsolve's.

The release (Wang and Dong, 2026, arXiv:2601.07148; MIT) ships its generator
(``puzzles_generator/date_generator``: Algorithm 1, every candidate date of
1800..2050 checked against every fact in Python) but not its knowledge table
(``data/fact_sheet.csv``). To run it, tsolve writes a stand-in table in the
release's schema from tsolve's own knowledge base (:func:`write_fact_sheet`)
and runs the release's code, unchanged and uncopied, in a separate process
under a virtual environment that holds its dependencies (``hydra-core``,
``ephem``, ``lunarcalendar``, ``pandas``, ``tqdm``: its ``requirements.txt``),
so none of them becomes a dependency of tsolve. The process is
``paper_peer_worker.py`` beside this file; :class:`ReleaseGenerator` talks to it.

Where the release and its environment are found: ``TSOLVE_PAPER_RELEASE``
(default ``../shared/peers/time-puzzles``, from the working directory) and
``TSOLVE_PAPER_PEER_VENV`` (default ``/tmp/tsolve-paper-peer-venv``);
``benchmarks/paper_generator_peer.py --make-venv`` makes the environment.
When either is missing, :func:`peer_unavailable` says why, and the bench row
is reported as skipped with that reason, never with a made-up figure.

Both generators make the paper's setting: 4-6 facts and answer sets of 0-6
dates over 1800..2050 (tsolve's ``--preset paper``); the release's jobs
cycle over its schedule's 21 (facts, answers) cells (:func:`paper_jobs`).
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from tsolve.errors import TsolveError

RELEASE_ENV = "TSOLVE_PAPER_RELEASE"
VENV_ENV = "TSOLVE_PAPER_PEER_VENV"
DEFAULT_RELEASE = Path("../shared/peers/time-puzzles")
DEFAULT_VENV = Path("/tmp/tsolve-paper-peer-venv")
#: The release's generator, relative to the release folder.
GENERATOR_FILE = Path("puzzles_generator/date_generator/generator.py")
REQUIREMENTS_FILE = Path("puzzles_generator/requirements.txt")
WORKER = Path(__file__).with_name("paper_peer_worker.py")
#: The paper's year range (the release's ``start_year``/``end_year``).
YEARS = (1800, 2050)
#: The release's schema for ``data/fact_sheet.csv`` (its ``preprocess_facts.py``):
#: ``start``/``end`` are ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``;
#: ``multi_year_spans`` is ``;``-separated years or ``A~B`` spans.
FACT_SHEET_COLUMNS = ("event", "start", "end", "multi_year_spans")


def release_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The release folder: ``path``, else ``$TSOLVE_PAPER_RELEASE``, else the default."""
    return Path(path or os.environ.get(RELEASE_ENV) or DEFAULT_RELEASE)


def venv_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The peer's environment: ``path``, else ``$TSOLVE_PAPER_PEER_VENV``, else the default."""
    return Path(path or os.environ.get(VENV_ENV) or DEFAULT_VENV)


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def peer_unavailable(release: Path, venv: Path) -> str | None:
    """Why the release's generator cannot run here (None: it can, as far as
    files tell; a failed import is reported when the worker starts)."""
    if not (release / GENERATOR_FILE).is_file():
        return f"the paper's release is not at {release} (no {GENERATOR_FILE}; set {RELEASE_ENV})"
    if not venv_python(venv).exists():
        return (
            f"no virtual environment for the release's generator at {venv} (make it with "
            f"`python benchmarks/paper_generator_peer.py --make-venv`, or set {VENV_ENV})"
        )
    return None


def fact_sheet_rows(years: tuple[int, int] = YEARS) -> list[dict[str, str]]:
    """The stand-in ``fact_sheet.csv``: tsolve's knowledge base
    (``tsolve/calendars/data/*.csv``) in the release's schema, each row an
    event clause the release's templates complete ("It is the same year as
    the first day that <event>"). Historical events are "<event> was under
    way", people "<name> was alive", each president's tenure "<name> was the
    President of the United States", and each sports event "<event> was held"
    with the years it was held as ``multi_year_spans``. Only what falls inside
    ``years`` is kept: the release draws a row's years as seed years, and a
    seed outside the range makes no puzzle."""
    from tsolve.calendars import knowledge

    lo, hi = years
    rows: list[dict[str, str]] = []

    def dated(event: str, start: Any, end: Any) -> None:
        if lo <= start.year <= hi and (end is None or lo <= end.year <= hi):
            rows.append(
                {
                    "event": event,
                    "start": start.isoformat(),
                    "end": "" if end is None else end.isoformat(),
                    "multi_year_spans": "",
                }
            )

    for e in knowledge.historical_events():
        dated(f"{e.name} was under way", e.start, e.end)
    for p in knowledge.people():
        dated(f"{p.name} was alive", p.born, p.died)
    for pres in knowledge.presidents():
        for start, end in pres.terms:
            dated(f"{pres.name} was the President of the United States", start, end)
    for s in knowledge.sports_events().values():
        held = [y for y in s.years if lo <= y <= hi]
        if held:
            spans = ";".join(str(y) for y in held)
            rows.append(
                {"event": f"{s.label} were held", "start": "", "end": "", "multi_year_spans": spans}
            )
    return rows


def write_fact_sheet(path: str | os.PathLike[str], years: tuple[int, int] = YEARS) -> int:
    """Write :func:`fact_sheet_rows` to ``path`` as CSV; returns the row count."""
    rows = fact_sheet_rows(years)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=FACT_SHEET_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


#: The paper's answer-set sizes (the release's default schedule: 0-6 solutions).
PAPER_SIZES = (0, 1, 2, 3, 4, 5, 6)


def paper_jobs(count: int, start: int = 0) -> list[tuple[int, tuple[int, ...]]]:
    """``count`` jobs (facts, allowed answer-set sizes) for the release's
    generator, from position ``start`` of a cycle over its default schedule's
    4-6 constraints, each job allowing every size 0-6: the call its
    ``main.py`` makes while every bucket of the schedule is still open (its
    fastest state; a bucket that fills narrows the sizes a later call may
    return, and the last puzzles of a run need one exact size, which took the
    release 13-30 s a puzzle here)."""
    return [(4 + j % 3, PAPER_SIZES) for j in range(start, start + count)]


class ReleaseGenerator:
    """The release's generator in its worker process (see the module
    docstring); a context manager. :meth:`run` times a batch of jobs inside
    the worker, so the figure excludes the pipe."""

    def __init__(self, release: Path, venv: Path, timeout: float = 3600.0) -> None:
        reason = peer_unavailable(release, venv)
        if reason is not None:
            raise TsolveError(f"paper peer: {reason}")
        self.release, self.venv, self.timeout = release, venv, timeout
        self._tmp = tempfile.TemporaryDirectory(prefix="tsolve-paper-peer-")
        self.fact_sheet = Path(self._tmp.name) / "fact_sheet.csv"
        self.rows = write_fact_sheet(self.fact_sheet)
        self._proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> ReleaseGenerator:
        self._proc = subprocess.Popen(
            [
                str(venv_python(self.venv)),
                str(WORKER),
                str(self.release.resolve()),
                str(self.fact_sheet),
                self._tmp.name,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=self._tmp.name,
        )
        try:
            first = self._read()
        except TsolveError:
            self.close()
            raise
        if "error" in first:
            self.close()
            raise TsolveError(f"paper peer: {first['error']}")
        return self

    def __exit__(
        self, typ: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.stdin:
                proc.stdin.close()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout:
                proc.stdout.close()
        self._tmp.cleanup()

    def _pipe(self) -> tuple[IO[str], IO[str]]:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise TsolveError("paper peer: the worker is not running")
        return proc.stdin, proc.stdout

    def _read(self) -> dict[str, Any]:
        _, out = self._pipe()
        line = out.readline()
        if not line:
            raise TsolveError("paper peer: the worker ended without a reply")
        try:
            got = json.loads(line)
        except json.JSONDecodeError:
            raise TsolveError(f"paper peer: the worker replied {line[:80]!r}") from None
        if not isinstance(got, dict):
            raise TsolveError(f"paper peer: the worker replied {line[:80]!r}")
        return got

    def run(self, seed: int, jobs: Sequence[tuple[int, Sequence[int]]]) -> dict[str, Any]:
        """Generate one puzzle per job (facts, allowed sizes) with the RNGs
        seeded from ``seed``; returns the worker's reply (``count``,
        ``seconds``, ``cpu_seconds``, ``solution_counts``, ``facts``), checked: every puzzle
        has its job's fact count and one of its sizes."""
        stdin, _ = self._pipe()
        payload = {"seed": seed, "jobs": [[n, list(sizes)] for n, sizes in jobs]}
        stdin.write(json.dumps(payload) + "\n")
        stdin.flush()
        got = self._read()
        if "error" in got:
            raise TsolveError(f"paper peer: {got['error']}")
        counts, facts = got.get("solution_counts"), got.get("facts")
        if (
            not isinstance(counts, list)
            or facts != [n for n, _ in jobs]
            or len(counts) != len(jobs)
            or any(c not in sizes for c, (_, sizes) in zip(counts, jobs, strict=True))
            or not all(isinstance(got.get(k), int | float) for k in ("seconds", "cpu_seconds"))
        ):
            raise TsolveError("paper peer: the release's puzzles missed their targets")
        return got


def tsolve_paper_config() -> Any:
    """tsolve's ``--preset paper`` generator config."""
    from tsolve.families.time_puzzles.family import build

    return build({"preset": "paper"})
