"""The contract every engine keeps (see :mod:`tsolve.engines`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from tsolve.engines.pool import describe_task

C = TypeVar("C")  # what every worker is given once: options, an index
S = TypeVar("S")  # what a worker builds from it once, and reuses
T = TypeVar("T")  # one task (a chunk's bounds, a chunk of lines)
R = TypeVar("R")  # one task's result


class Engine:
    """Runs ``fn(state, task)`` over tasks on some set of worker processes.

    ``slots`` is how many tasks run at once (processes, or the cluster's
    CPUs): jobs size their chunks by it. Subclasses implement :meth:`map`;
    :meth:`close` releases what :meth:`open_engine` started."""

    name = "engine"
    slots = 1

    def map(
        self,
        setup: Callable[[C], S],
        fn: Callable[[S, T], R],
        context: C,
        tasks: Iterable[T],
        *,
        describe: Callable[[T], str] = describe_task,
        preload: Sequence[str] = (),
    ) -> Iterator[R]:
        """``fn(setup(context), task)`` for each task, results in task order.

        ``setup`` and ``fn`` must be module-level functions (workers import
        them by name); ``setup`` runs once per worker process and should
        not raise (return the reason instead, for ``fn`` to report per
        task). ``describe(task)`` names the task a dead worker held.
        ``preload`` names modules a fresh local worker should import up front
        (a hint; engines may ignore it)."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop what the engine started (nothing, for most)."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
