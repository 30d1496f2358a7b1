"""Process pools that die or are interrupted: stop with a message, never hang.

Each dead-worker test really kills a worker with SIGKILL, as the out-of-memory
killer would. ``multiprocessing.Pool`` (the old pool) silently replaced such a
worker and waited forever for the lost task, so every test here runs under a
guard that turns a hang into a failure instead of a stuck suite. The guards
bound how long a *broken* pool may take; no test asserts how fast a working
one is.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from guards import hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st

from tsolve.datasets import write_dataset
from tsolve.engines.pool import WorkerLost, describe_exit, ordered_map
from tsolve.errors import TsolveError

LINUX = sys.platform.startswith("linux")
GUARD_SECONDS = 90


def live_workers() -> list[Any]:
    return [p for p in mp.active_children() if p.name.startswith("tsolve-worker")]


# Task functions run in the workers, which import this module by name.


def square_or_die(task: tuple[int, int]) -> int:
    """``(i, victim)`` -> ``i * i``; the worker that gets ``i == victim`` SIGKILLs itself."""
    i, victim = task
    if i == victim:
        os.kill(os.getpid(), signal.SIGKILL)
    return i * i


def slow_identity(i: int) -> int:
    """``i``, after a pause that varies with ``i``, so workers finish out of order."""
    time.sleep((i * 7 % 5) / 500)
    return i


def fail_at_3(i: int) -> int:
    if i == 3:
        raise TsolveError(f"item {i}: cannot do this one")
    return i


def fail_unpicklably(i: int) -> int:
    raise ValueError(lambda: i)  # a lambda cannot be pickled back to the parent


# ---------------------------------------------------------------- ordered_map


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_killed_worker_stops_the_map_with_a_message() -> None:
    got: list[int] = []
    with hang_guard(GUARD_SECONDS), pytest.raises(WorkerLost) as info:
        for r in ordered_map(
            square_or_die,
            ((i, 5) for i in range(40)),
            workers=2,
            describe=lambda t: f"item {t[0]}",
        ):
            got.append(r)
    message = str(info.value)
    assert "SIGKILL" in message and "item 5" in message and "pid " in message
    assert "\n" not in message
    # What came out before the death is the ordered prefix; nothing after item 5.
    assert got == [i * i for i in range(len(got))] and len(got) <= 5
    assert live_workers() == []


def test_worker_lost_is_a_tsolve_error_with_its_own_exit_code() -> None:
    assert issubclass(WorkerLost, TsolveError) and WorkerLost.exit_code == 3
    assert describe_exit(-signal.SIGKILL).startswith("was killed by SIGKILL")
    assert describe_exit(-signal.SIGTERM) == "was killed by SIGTERM"
    assert describe_exit(1) == "exited with status 1"


@settings(max_examples=examples(4))
@given(
    n=st.integers(0, 25),
    workers=st.integers(1, 3),
    in_flight=st.integers(1, 6),
)
def test_results_come_back_in_task_order(n: int, workers: int, in_flight: int) -> None:
    with hang_guard(GUARD_SECONDS):
        out = list(ordered_map(slow_identity, range(n), workers=workers, in_flight=in_flight))
    assert out == list(range(n))
    assert live_workers() == []


def test_task_errors_are_reraised_after_the_results_before_them() -> None:
    got: list[int] = []
    with hang_guard(GUARD_SECONDS), pytest.raises(TsolveError, match="item 3: cannot do this one"):
        for r in ordered_map(fail_at_3, range(10), workers=2):
            got.append(r)
    assert got == [0, 1, 2]
    with hang_guard(GUARD_SECONDS), pytest.raises(RuntimeError, match="ValueError"):
        list(ordered_map(fail_unpicklably, range(2), workers=2))
    assert live_workers() == []


def test_stopping_early_stops_the_workers() -> None:
    with hang_guard(GUARD_SECONDS):
        gen = ordered_map(slow_identity, range(1000), workers=2)
        assert next(gen) == 0
        gen.close()
    assert live_workers() == []


def test_bad_worker_count_is_one_line_error() -> None:
    with pytest.raises(TsolveError, match="workers"):
        list(ordered_map(slow_identity, range(3), workers=0))


# ---------------------------------------------------------------- the CLI, end to end


def _children(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (from /proc)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(entry.name))
    return kids


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def _start(out: Path, *args: str, ignore_sigint: bool = False) -> subprocess.Popen[str]:
    """``tsolve dataset logistics --workers 2`` into ``out``, in its own process
    group, with Ctrl-C as a terminal leaves it (or ignored, as under ``nohup``).
    Set either way, not inherited: a child inherits an ignored SIGINT, and a
    test earlier in a full run (an integration's own handler) can leave the
    test process ignoring it, which made the Ctrl-C case hang for that reason
    alone."""
    argv = [sys.executable, "-m", "tsolve", "dataset", "logistics", "--workers", "2"]
    disposition = signal.SIG_IGN if ignore_sigint else signal.SIG_DFL
    return subprocess.Popen(
        [*argv, "--out", str(out), "-q", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, disposition),
    )


def _wait_for_records_and_workers(proc: subprocess.Popen[str], out: Path) -> list[int]:
    """Block until ``out`` holds a record and the pool's workers are up; their pids."""
    deadline = time.monotonic() + GUARD_SECONDS
    while time.monotonic() < deadline and proc.poll() is None:
        workers = [w for c in _children(proc.pid) for w in _children(c)]
        if len(workers) >= 2 and out.exists() and b"\n" in out.read_bytes()[:1_000_000]:
            return workers
        time.sleep(0.02)
    raise AssertionError(f"no records or workers appeared (exit {proc.poll()})")


def _assert_valid_for_resume(out: Path, extra: int = 3) -> None:
    """The file is whole records 0..k-1 of the run (so ``--resume`` accepts it),
    and resuming it gives the same bytes as an uninterrupted run."""
    data = out.read_bytes()
    # Empty is whole records too: a stop that lands while the first chunk is
    # being written (its bytes may already show in the file) cuts it back out.
    assert not data or data.endswith(b"\n")
    k = data.count(b"\n")
    ref = out.with_name("reference.jsonl")
    write_dataset("logistics", {}, count=k + extra, out=ref, workers=1)
    assert ref.read_bytes().startswith(data)
    s = write_dataset("logistics", {}, count=k + extra, out=out, resume=True, workers=1)
    assert (s.existing, s.written) == (k, extra)
    assert out.read_bytes() == ref.read_bytes()


@pytest.mark.skipif(not LINUX, reason="finds worker pids in /proc")
def test_cli_dataset_sigkilled_worker_exits_3_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "killed.jsonl"
    proc = _start(out, "--count", "1000000")
    try:
        workers = _wait_for_records_and_workers(proc, out)
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=GUARD_SECONDS)  # TimeoutExpired: the hang is back
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    lines = err.strip().splitlines()
    assert proc.returncode == 3, err
    assert len(lines) == 1, err
    assert f"(pid {workers[0]}) was killed by SIGKILL" in lines[0]
    assert "while computing records" in lines[0] and "--resume" in lines[0]
    deadline = time.monotonic() + GUARD_SECONDS
    while not all(_gone(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(w) for w in workers), "a worker outlived the run"
    _assert_valid_for_resume(out)


@pytest.mark.skipif(not LINUX, reason="finds worker pids in /proc")
@pytest.mark.parametrize("how", ["ctrl-c to the group", "sigterm to the parent"])
def test_cli_dataset_interrupt_stops_cleanly(tmp_path: Path, how: str) -> None:
    out = tmp_path / "interrupted.jsonl"
    proc = _start(out, "--count", "1000000")
    try:
        _wait_for_records_and_workers(proc, out)
        if how == "ctrl-c to the group":
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        else:
            proc.send_signal(signal.SIGTERM)  # kill, docker stop, a scheduler's preemption
        _, err = proc.communicate(timeout=GUARD_SECONDS)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0] and "--resume" in lines[0], err
    _assert_valid_for_resume(out)


@pytest.mark.skipif(not LINUX, reason="finds worker pids in /proc")
def test_cli_dataset_sigint_ignored_by_the_parent_runs_to_the_end(tmp_path: Path) -> None:
    """Started with SIGINT ignored (a background job of a script), the run is
    deaf to Ctrl-C on purpose: the pool must neither lose a worker nor hang."""
    out = tmp_path / "deaf.jsonl"
    proc = _start(out, "--count", "250", ignore_sigint=True)
    try:
        _wait_for_records_and_workers(proc, out)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=GUARD_SECONDS)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, err
    assert out.read_bytes().count(b"\n") == 250
