"""tsolve's ``--preset paper`` generator against the Time Puzzles paper's own
released generator, in alternating processes, on the paper's setting.

    python benchmarks/paper_generator_peer.py [--release DIR] [--venv DIR] [--make-venv]
        [--rounds 5] [--work 420] [--peer-work 42] [--wall] [--out FILE.md] [--json]
    python benchmarks/paper_generator_peer.py --write-fact-sheet FILE.csv

The release (Wang and Dong, 2026, arXiv:2601.07148; MIT; default
``../shared/peers/time-puzzles``, from the working directory) is run as it
is, from its folder (nothing of it is copied here), in a worker process under
a virtual environment holding its ``puzzles_generator/requirements.txt``
(``ephem``, ``hydra-core``, ``lunarcalendar``, ``pandas``, ``tqdm``), so none
of them is a dependency of tsolve. ``--make-venv`` makes that environment
when it is missing (default ``/tmp/tsolve-paper-peer-venv``)::

    python3 -m venv VENV && VENV/bin/pip install -r RELEASE/puzzles_generator/requirements.txt

Its knowledge table (``data/fact_sheet.csv``) is not in the release: the
worker reads a stand-in in the release's schema written at run time from
tsolve's own knowledge base (``tsolve/calendars/data/*.csv``; see
``tsolve.families.time_puzzles.paper_peer.fact_sheet_rows``);
``--write-fact-sheet`` writes it out for reading.

Each round, tsolve makes ``--work`` puzzles of ``--preset paper`` (4-6 facts,
M cycled 0-6, 1800-2050, each certified by CP-SAT) in this process and the
release makes ``--peer-work`` in its worker (4-6 constraints cycled, every
size 0-6 allowed: the call its ``main.py`` makes while every bucket of its
schedule is open, its fastest state), each timed where it runs, in the order
A B, B A, ..., in CPU time (both are single-threaded; CP-SAT runs one
worker) unless ``--wall``; the other clock's rates are printed too.
Printed (and written to ``--out`` as Markdown): both rates per round, their
medians and the ratio's median, min-max and IQR. The same
figure is ``tsolve bench --family time-puzzles``'s
``time-puzzles.generate.paper-preset.vs-release`` (library:
``tsolve.families.time_puzzles.bench.bench_paper_release``).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import platform
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

from tsolve.bench.measure import Size, calibration_rate
from tsolve.families.time_puzzles import paper_peer
from tsolve.families.time_puzzles.bench import bench_paper_release


def make_venv(venv: Path, release: Path) -> None:
    """The documented environment: a fresh venv with the release's requirements."""
    reqs = release / paper_peer.REQUIREMENTS_FILE
    if not reqs.is_file():
        sys.exit(f"error: no {paper_peer.REQUIREMENTS_FILE} under {release}")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(paper_peer.venv_python(venv)), "-m", "pip", "install", "-q", "-r", str(reqs)]
    subprocess.run(pip, check=True)


def quartiles(xs: list[float]) -> tuple[float, float]:
    if len(xs) < 2:
        return xs[0], xs[0]
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def render(m: dict, command: str, calib: tuple[float, float]) -> str:
    peer = m["peer"]
    ours, theirs, ratios = m["stats"]["rates"], peer["values"], peer["ratios"]
    clock = m["params"]["clock"]
    alt = "wall" if clock == "cpu" else "cpu"
    ours_alt, theirs_alt = m["stats"][f"{alt}_rates"], m["stats"][f"peer_{alt}_rates"]
    alt_ratios = [a / b for a, b in zip(ours_alt, theirs_alt, strict=True)]
    q1, q3 = quartiles(ratios)
    lines = [
        f"# tsolve's paper preset against the paper's released generator ({m['created'][:10]})",
        "",
        "```",
        command,
        "```",
        "",
        f"Machine: {m['machine']}; Python loop calibration "
        f"{calib[0]} -> {calib[1]} Mops/s (start -> end).",
        "",
        f"- **tsolve**: `--preset paper` (4-6 facts, M cycled 0-6, 1800-01-01..2050-12-31, CP-SAT "
        f"gold certificate per record), {m['work']} puzzles a round, in this process.",
        f"- **release**: {peer['name']}; {peer['work']} puzzles a round "
        f"(num_constraints cycled 4, 5, 6), in its worker process; its knowledge table is the "
        f"stand-in of {m['params']['fact_sheet_rows']} rows written from tsolve's knowledge base.",
        "",
        f"Rates are puzzles per {clock.upper() if clock == 'cpu' else 'wall'} second of the "
        f"process that made them (per {alt} second in the last three columns).",
        "",
        "| round | tsolve | release | ratio | tsolve | release | ratio |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows = zip(ours, theirs, ratios, ours_alt, theirs_alt, alt_ratios, strict=True)
    for i, (a, b, r, a2, b2, r2) in enumerate(rows):
        lines.append(f"| {i} | {a:.4g} | {b:.4g} | {r:.4g} | {a2:.4g} | {b2:.4g} | {r2:.4g} |")
    lines += [
        "",
        f"- tsolve: median **{m['value']:.4g} puzzles/s**; release: median "
        f"**{peer['value']:.4g} puzzles/s**.",
        f"- Ratio (tsolve / release, per round): median **{peer['ratio']:.4g}x**, "
        f"min-max {peer['ratio_min']:.4g}-{peer['ratio_max']:.4g}, IQR {q1:.4g}-{q3:.4g}, "
        f"over {m['repetitions']} rounds ({clock} time); per {alt} second: median "
        f"{statistics.median(alt_ratios):.4g}x, min-max {min(alt_ratios):.4g}-"
        f"{max(alt_ratios):.4g}.",
        "",
        "The release's figure is its fastest state: every answer-set size 0-6 allowed, as its "
        "`main.py` calls it while every bucket of its schedule is open; tsolve's puzzles each "
        "hit one target M. Once buckets fill, the release narrows the sizes it accepts and "
        "slows down, so over a whole schedule its rate is lower than this one.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--release", type=Path, default=paper_peer.DEFAULT_RELEASE)
    ap.add_argument("--venv", type=Path, default=paper_peer.DEFAULT_VENV)
    ap.add_argument("--make-venv", action="store_true", help="make --venv if it is missing")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--work", type=int, default=420, help="tsolve puzzles a round")
    ap.add_argument("--peer-work", type=int, default=42, help="release puzzles a round")
    ap.add_argument("--wall", action="store_true", help="rates per wall second, not CPU")
    ap.add_argument("--out", type=Path, help="write the result as Markdown")
    ap.add_argument("--json", action="store_true", help="print the measurement as JSON")
    ap.add_argument("--write-fact-sheet", type=Path, metavar="CSV", help="write it and stop")
    args = ap.parse_args()
    if args.write_fact_sheet:
        n = paper_peer.write_fact_sheet(args.write_fact_sheet)
        print(f"{args.write_fact_sheet}: {n} rows")
        return
    if min(args.rounds, args.work, args.peer_work) < 1:
        sys.exit("error: --rounds, --work and --peer-work must be positive")
    if args.make_venv and not paper_peer.venv_python(args.venv).exists():
        make_venv(args.venv, args.release)
    start = calibration_rate()
    m = bench_paper_release(
        Size(False),
        str(args.release),
        str(args.venv),
        args.work,
        args.peer_work,
        args.rounds,
        "wall" if args.wall else "cpu",
    ).to_json()
    end = calibration_rate()
    if m["status"] != "ok":
        sys.exit(f"skipped: {m['note']}")
    m["created"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    m["machine"] = f"{platform.platform()}, Python {platform.python_version()}"
    if args.json:
        print(json.dumps(m, indent=2))
    command = "python benchmarks/paper_generator_peer.py " + shlex.join(sys.argv[1:])
    text = render(m, command.strip(), (start, end))
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
