"""Wall time and CPU seconds of a command's whole process tree, pool workers included.

    python benchmarks/experiments/tree_cpu.py [--rounds N] -- COMMAND [ARG ...] [--vs 'COMMAND B']

Why: ``/usr/bin/time`` and ``getrusage(RUSAGE_CHILDREN)`` count only the
processes a command waited for. A ``forkserver`` pool's workers are children
of the fork server, which the command never waits for, so their CPU time is
missing from both and a ``--workers 2`` run looks nearly free. This script
starts the command and samples ``/proc/<pid>/stat`` of every process
descended from it every 20 ms, keeping each process's last user + system
time; a process's last 20 ms at most go uncounted. Linux only.

With ``--vs`` the two commands run in turn (A B A B ...) and each pair gives
a wall and a CPU ratio, so a load that drifts during the run moves both sides
alike; the medians are printed with their spread. The commands' output is
thrown away.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import time
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, user + system seconds) of ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def run_tree(argv: list[str], interval: float = 0.02) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the whole tree, processes seen) for one run.
    The command's own CPU time is the kernel's exact figure (``wait4``, which
    also counts the children it waited for); the others' are sampled."""
    t0 = time.perf_counter()
    root = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu: dict[int, float] = {}
    tree = {root.pid}
    while True:
        pid, _status, usage = os.wait4(root.pid, os.WNOHANG)
        if pid:
            break
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == root.pid:
                continue
            st = _stat(int(name))
            if st is not None and (st[0] in tree or int(name) in tree):
                tree.add(int(name))
                cpu[int(name)] = st[1]
        time.sleep(interval)
    wall = time.perf_counter() - t0
    root.returncode = 0  # reaped above: keep Popen from waiting again
    return wall, usage.ru_utime + usage.ru_stime + sum(cpu.values()), len(tree)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--vs", help="a second command, run in turn with the first")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("no command")
    other = shlex.split(args.vs) if args.vs else None
    rows = []
    for _ in range(args.rounds):
        a = run_tree(cmd)
        b = run_tree(other) if other else None
        rows.append((a, b))
        line = f"A wall {a[0]:6.2f} s  cpu {a[1]:6.2f} s  ({a[2]} processes)"
        if b:
            line += f"   B wall {b[0]:6.2f} s  cpu {b[1]:6.2f} s  ({b[2]} processes)"
        print(line, flush=True)

    def spread(xs: list[float]) -> str:
        return f"{statistics.median(xs):.3f} (min {min(xs):.3f}, max {max(xs):.3f})"

    print(f"A wall s: {spread([a[0] for a, _ in rows])}; cpu s: {spread([a[1] for a, _ in rows])}")
    if other:
        print(f"B wall s: {spread([b[0] for _, b in rows if b])}; ", end="")
        print(f"cpu s: {spread([b[1] for _, b in rows if b])}")
        print(f"A/B wall: {spread([a[0] / b[0] for a, b in rows if b])}")
        print(f"A/B cpu:  {spread([a[1] / b[1] for a, b in rows if b])}")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
