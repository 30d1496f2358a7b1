"""Cold start-up of the two commands people run first, as whole processes.

    python benchmarks/startup.py [--runs N] [--against DIR] [--tsolve PATH] [--pty]
    python benchmarks/startup.py --instructions [--against DIR] [--tsolve PATH]

Times ``tsolve --help`` and ``tsolve puzzle --solutions 3`` (the
targets: 150 ms and 400 ms, medians on an idle machine), each run a fresh
process after one warm-up, and prints the median and range of wall and CPU
time (user + system of the child, from ``os.wait4``). With ``--against DIR``
(another source tree, e.g. an older commit unpacked with ``git archive``),
each command runs alternately with this tree and DIR (both via
``PYTHONPATH``, from a scratch directory outside both), and the ratio is the
median of the per-pair ratios, the figure a drifting machine moves least.
On a shared machine quote CPU time and ratios (docs/startup.md).

Each tree is byte-compiled first (``compileall``): with
``PYTHONDONTWRITEBYTECODE`` set, or in a fresh checkout, every run would
otherwise also time Python's compiler (~50 ms more for ``puzzle``).
Output goes to /dev/null, where rich draws no colours; ``--pty`` gives each
run a pseudo-terminal for stdout and stderr instead, as a person's terminal
(the text output is then styled, and progress is shown on stderr), and reads
it as a terminal would.

``--instructions`` counts instead the instructions each command executes,
once per tree, under valgrind (``cachegrind``, no cache simulation; about 30 s
a run): a figure that the machine's load does not move (to ~0.05 %), for
comparing two trees on a shared machine
(benchmarks/results/2026-11-27-startup-rounds.md, "Round 2").
OpenBLAS is held to one thread and the hash seed fixed, so that neither its
spinning workers nor hash order are counted.
"""

from __future__ import annotations

import argparse
import compileall
import os
import pty
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {"--help": ["--help"], "puzzle --solutions 3": ["puzzle", "--solutions", "3"]}
TARGETS_MS = {"--help": 150, "puzzle --solutions 3": 400}


def run_once(
    tsolve: list[str], args: list[str], tree: Path, cwd: str, terminal: bool = False
) -> tuple[float, float]:
    """(wall, cpu) seconds of one ``tsolve ARGS`` process run from ``tree``,
    its output to /dev/null or, with ``terminal``, stdout and stderr to a
    pseudo-terminal."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    reader = None
    if terminal:
        master, out = pty.openpty()
        env.update(COLUMNS="80", LINES="24", TERM=env.get("TERM") or "xterm-256color")
        reader = threading.Thread(target=_drain, args=(master,), daemon=True)
        reader.start()
    else:
        out = subprocess.DEVNULL
    start = time.perf_counter()
    proc = subprocess.Popen([*tsolve, *args], cwd=cwd, env=env, stdout=out,
                            stderr=out if terminal else subprocess.DEVNULL)  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if reader is not None:
        os.close(out)  # the master reads EOF (EIO) once the child's end is gone
        reader.join()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:  # a failed run is no timing
        raise SystemExit(f"error: tsolve {' '.join(args)} exited {code} (tree {tree})")
    return wall, usage.ru_utime + usage.ru_stime


def instructions(tsolve: list[str], args: list[str], tree: Path, cwd: str) -> int:
    """Instructions one ``tsolve ARGS`` process from ``tree`` executes (valgrind)."""
    env = dict(os.environ, PYTHONPATH=str(tree), OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                    "--cachegrind-out-file=/dev/null", f"--log-file={log.name}"]  # fmt: skip
        done = subprocess.run([*valgrind, *tsolve, *args], cwd=cwd, env=env, check=False,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        found = re.search(r"I\s+refs:\s+([\d,]+)", Path(log.name).read_text())
    if done.returncode != 0 or found is None:
        raise SystemExit(f"error: tsolve {' '.join(args)} under valgrind failed (tree {tree})")
    return int(found[1].replace(",", ""))


def _drain(master: int) -> None:
    """Read a pseudo-terminal until it closes, as a terminal would, so the
    child never blocks on a full buffer."""
    try:
        while os.read(master, 65536):
            pass
    except OSError:  # EIO: the other end was closed
        pass
    finally:
        os.close(master)


def _ms(values: list[float]) -> str:
    low, mid, high = (1000 * f(values) for f in (min, statistics.median, max))
    return f"{mid:6.0f} ms ({low:.0f}-{high:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="counted runs per command (9)")
    parser.add_argument("--against", type=Path, help="another source tree to pair with")
    parser.add_argument("--tsolve", help="the console script (default: tsolve on PATH)")
    parser.add_argument("--pty", action="store_true", help="output to a pseudo-terminal")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions (valgrind) instead"
    )
    opts = parser.parse_args()
    if opts.instructions and shutil.which("valgrind") is None:
        raise SystemExit("error: --instructions needs valgrind on PATH")
    script = opts.tsolve or shutil.which("tsolve")
    tsolve = [script] if script else [sys.executable, "-m", "tsolve"]
    trees = [ROOT] + ([opts.against.resolve()] if opts.against else [])
    for tree in trees:  # time tsolve, not the compiler (see the docstring)
        if not compileall.compile_dir(tree / "tsolve", quiet=1):
            raise SystemExit(f"error: {tree / 'tsolve'} does not byte-compile")
    with tempfile.TemporaryDirectory() as cwd:
        if opts.instructions:
            for name, args in COMMANDS.items():
                counts = {tree: instructions(tsolve, args, tree, cwd) for tree in trees}
                print(f"tsolve {name}  (instructions, valgrind)")
                for tree, count in counts.items():
                    print(f"  {tree}: {count / 1e6:,.1f} M")
                if opts.against:
                    print(f"  this/against: {counts[trees[0]] / counts[trees[1]]:.3f}")
            return
        for name, args in COMMANDS.items():
            for tree in trees:  # warm-up: the OS's file cache, bytecode
                run_once(tsolve, args, tree, cwd, opts.pty)
            walls: dict[Path, list[float]] = {tree: [] for tree in trees}
            cpus: dict[Path, list[float]] = {tree: [] for tree in trees}
            for _ in range(opts.runs):
                for tree in trees:
                    wall, cpu = run_once(tsolve, args, tree, cwd, opts.pty)
                    walls[tree].append(wall)
                    cpus[tree].append(cpu)
            where = "a pseudo-terminal" if opts.pty else "/dev/null"
            print(f"tsolve {name}  (target {TARGETS_MS[name]} ms, n = {opts.runs}, to {where})")
            for tree in trees:
                print(f"  {tree}: wall {_ms(walls[tree])}, cpu {_ms(cpus[tree])}")
            if opts.against:
                a, b = trees
                ratio = statistics.median(x / y for x, y in zip(cpus[a], cpus[b], strict=True))
                print(f"  cpu ratio this/against, median of pairs: {ratio:.2f}")


if __name__ == "__main__":
    main()
