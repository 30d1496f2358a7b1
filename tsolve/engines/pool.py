"""Process pools for batch jobs: results in input order, bounded memory, and a
loud stop when a worker dies.

:func:`ordered_map` runs ``fn`` over a stream of tasks in ``workers``
processes and yields the results in task order, so output is the same for any
number of workers. At most ``in_flight`` tasks are submitted and not yet
consumed, so a long input is never held whole (``Pool.imap`` would queue every
task up front).

Why not :class:`multiprocessing.pool.Pool`: when one of its workers is killed
(``SIGKILL`` from the out-of-memory killer, say) it silently starts a new one
and the task that worker held never returns, so the parent waits forever.
``concurrent.futures.ProcessPoolExecutor`` does notice (``BrokenProcessPool``)
but cannot say which worker died, of what, or holding which task. So each
worker here is a plain process on its own pipe, given one task at a time; the
parent waits on the pipes *and* the processes' sentinels together, and the
moment a worker dies it stops every worker and raises :class:`WorkerLost`
naming the worker, its pid, the signal or exit status and the task. Nothing is
retried: a worker the OOM killer took would most likely be taken again.

One task per worker at a time is also what keeps the pipes deadlock-free: a
worker only ever sends while the parent is free to read, and the parent only
sends to a worker that is waiting to read.

Workers start from a ``forkserver`` where the platform has one: each forks
from a clean server that imported tsolve once (fast start, and no solver
threads inherited from the parent). Workers ignore ``SIGINT``: Ctrl-C reaches
the whole process group, and only the parent should act on it (it stops the
workers, and :exc:`KeyboardInterrupt` propagates to the caller). A worker
whose parent has gone (killed outright) sees its pipe close and exits.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import pickle
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from tsolve.errors import TsolveError

T = TypeVar("T")
R = TypeVar("R")

#: Seconds a worker gets to exit after being asked to (end of input) or
#: terminated (an error or Ctrl-C) before it is killed outright.
_JOIN_SECONDS = 5.0


class WorkerLost(TsolveError):
    """A pool worker died (killed by a signal, or exited) before returning its
    task. The pool has been stopped; results already yielded stay valid.

    ``exit_code`` is the CLI's exit status for it: 3, distinct from bad input
    (2) and from records that failed (1).
    """

    exit_code = 3


def pool_context(preload: Sequence[str] = ()) -> Any:
    """``forkserver`` (preloading ``preload`` modules) where available, else ``spawn``."""
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver" and preload:
        ctx.set_forkserver_preload(list(preload))
    return ctx


def ignore_sigint() -> None:
    """Only the parent handles Ctrl-C (and stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def describe_exit(exitcode: int | None) -> str:
    """``-9`` -> ``"was killed by SIGKILL"``; ``1`` -> ``"exited with status 1"``."""
    if exitcode is None:
        return "stopped answering"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = " (what the out-of-memory killer sends)" if -exitcode == signal.SIGKILL else ""
        return f"was killed by {name}{hint}"
    return f"exited with status {exitcode}"


# ---------------------------------------------------------------- worker side


def _worker_main(
    conn: Connection,
    fn: Callable[[Any], Any],
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
) -> None:
    """A worker's whole life: set up once, then answer ``(seq, task)`` messages
    with ``(seq, ok, result_or_exception)`` until told to stop (``None``) or
    the parent's end of the pipe closes."""
    ignore_sigint()
    setup_error: BaseException | None = None
    if initializer is not None:
        try:
            initializer(*initargs)
        except Exception as exc:  # reported with the first task, not as a dead worker
            setup_error = exc
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if msg is None:
            return
        seq, task = msg
        reply: tuple[int, bool, Any]
        if setup_error is not None:
            reply = (seq, False, setup_error)
        else:
            try:
                reply = (seq, True, fn(task))
            except Exception as exc:
                reply = (seq, False, portable_error(exc))
        try:
            conn.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send((seq, False, RuntimeError(f"unpicklable result: {exc}")))
        except (BrokenPipeError, OSError):
            return


def portable_error(exc: Exception) -> Exception:
    """``exc`` if it survives a pickle round trip (so the parent can re-raise
    it as is), else a ``RuntimeError`` carrying its type and message."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


# ---------------------------------------------------------------- parent side


@dataclass
class _Worker:
    number: int
    process: Any
    conn: Connection
    seq: int | None = None  # the task it holds, if any
    task: Any = None


class _Pool:
    """The workers of one :func:`ordered_map` call."""

    def __init__(
        self,
        workers: int,
        fn: Callable[[Any], Any],
        initializer: Callable[..., None] | None,
        initargs: tuple[Any, ...],
        preload: Sequence[str],
        describe: Callable[[Any], str],
    ) -> None:
        self.describe = describe
        self.workers: list[_Worker] = []
        ctx = pool_context(preload)
        try:
            for number in range(1, workers + 1):
                parent_end, child_end = ctx.Pipe(duplex=True)
                proc = ctx.Process(
                    target=_worker_main,
                    args=(child_end, fn, initializer, initargs),
                    name=f"tsolve-worker-{number}",
                    daemon=True,
                )
                proc.start()
                child_end.close()
                self.workers.append(_Worker(number, proc, parent_end))
        except OSError as exc:  # out of processes, file descriptors or memory
            self.stop()
            raise TsolveError(
                f"workers: could not start worker {len(self.workers) + 1} of {workers} "
                f"({exc.strerror or exc}); try fewer --workers"
            ) from None
        except BaseException:
            self.stop()
            raise

    def idle(self) -> list[_Worker]:
        return [w for w in self.workers if w.seq is None]

    def send(self, worker: _Worker, seq: int, task: Any) -> None:
        worker.seq, worker.task = seq, task
        try:
            worker.conn.send((seq, task))
        except (OSError, EOFError):  # broken pipe: the worker is gone
            raise self.lost(worker) from None

    def collect(self) -> list[tuple[int, bool, Any]]:
        """Block until some worker answers or dies; return the answers."""
        by_conn = {w.conn: w for w in self.workers}
        by_sentinel = {w.process.sentinel: w for w in self.workers}
        ready = wait(list(by_conn) + list(by_sentinel))
        answers: list[tuple[int, bool, Any]] = []
        dead: list[_Worker] = []
        for obj in ready:
            w = by_conn.get(obj)  # type: ignore[call-overload]
            if w is None:
                dead.append(by_sentinel[obj])
                continue
            try:
                answers.append(w.conn.recv())
                w.seq, w.task = None, None
            except (EOFError, OSError):  # died mid-message, or before answering
                dead.append(w)
        for w in dead:
            # A worker may have answered and then died: read its answer, so the
            # message does not blame it for a task it finished.
            try:
                while w.conn.poll():
                    answers.append(w.conn.recv())
                    w.seq, w.task = None, None
            except (EOFError, OSError):
                pass
            raise self.lost(w)
        return answers

    def lost(self, worker: _Worker) -> WorkerLost:
        worker.process.join(1.0)  # it is dead or dying: learn how
        what = describe_exit(worker.process.exitcode)
        holding = (
            f"while computing {self.describe(worker.task)}" if worker.seq is not None else "idle"
        )
        return WorkerLost(
            f"worker {worker.number} of {len(self.workers)} (pid {worker.process.pid}) {what} "
            f"{holding}; stopped the other workers"
        )

    def close(self) -> None:
        """Normal end: ask every worker to exit, then make sure they did."""
        for w in self.workers:
            with contextlib.suppress(OSError):
                w.conn.send(None)
        self.stop(graceful=True)

    def stop(self, graceful: bool = False) -> None:
        """Terminate (then kill) every worker still running, and close the pipes."""
        if not graceful:
            for w in self.workers:
                if w.process.is_alive():
                    w.process.terminate()
        for w in self.workers:
            w.process.join(_JOIN_SECONDS)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
            w.conn.close()


def describe_task(task: Any) -> str:
    """A task named for an error message: its repr, cut short."""
    text = repr(task)
    return f"task {text[:60]}…" if len(text) > 60 else f"task {text}"


def ordered_map(
    fn: Callable[[T], R],
    tasks: Iterable[T],
    *,
    workers: int,
    in_flight: int | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    preload: Sequence[str] = (),
    describe: Callable[[T], str] = describe_task,
) -> Iterator[R]:
    """``fn`` over ``tasks`` in ``workers`` processes, results in task order.

    ``fn`` and ``initializer`` must be importable module-level functions.
    At most ``in_flight`` (default ``4 * workers``) tasks are submitted and not
    yet consumed. An exception raised by ``fn`` is re-raised here; a worker
    that dies raises :class:`WorkerLost`, naming ``describe(task)`` of the task
    it held. Either way, and on Ctrl-C or when the caller stops iterating,
    every worker is stopped before the exception leaves this generator.
    """
    if workers < 1:
        raise TsolveError(f"workers: must be at least 1, got {workers}")
    window = max(in_flight or 4 * workers, workers)
    it = iter(tasks)
    exhausted = False
    submitted = 0  # sequence number of the next task
    yielded = 0  # sequence number of the next result to hand out
    done: dict[int, tuple[bool, Any]] = {}
    pool = _Pool(workers, fn, initializer, initargs, preload, describe)
    try:
        while True:
            for w in pool.idle():
                if exhausted or submitted - yielded >= window:
                    break
                try:
                    task = next(it)
                except StopIteration:
                    exhausted = True
                    break
                pool.send(w, submitted, task)
                submitted += 1
            while yielded in done:
                ok, value = done.pop(yielded)
                if not ok:
                    raise value
                yielded += 1
                yield value
                break  # refill idle workers before handing out the next result
            else:
                if exhausted and yielded == submitted:
                    break
                for seq, ok, value in pool.collect():
                    done[seq] = (ok, value)
    except BaseException:
        pool.stop()
        raise
    pool.close()


__all__ = [
    "WorkerLost",
    "describe_exit",
    "describe_task",
    "ignore_sigint",
    "ordered_map",
    "pool_context",
    "portable_error",
]
