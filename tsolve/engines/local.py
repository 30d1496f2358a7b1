"""The ``local`` engine: this machine's process pool (:mod:`tsolve.engines.pool`),
or this very process when one worker is asked for."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from tsolve.engines.base import Engine
from tsolve.engines.pool import describe_task, ordered_map
from tsolve.errors import TsolveError

#: This worker process's ``(fn, state)``, set once by :func:`_init_worker`.
_WORKER: tuple[Callable[[Any, Any], Any], Any] | None = None


def _init_worker(setup: Callable[[Any], Any], fn: Callable[[Any, Any], Any], context: Any) -> None:
    global _WORKER
    _WORKER = (fn, setup(context))


def _run(task: Any) -> Any:
    assert _WORKER is not None, "worker not initialised"
    fn, state = _WORKER
    return fn(state, task)


class LocalEngine(Engine):
    """``workers`` processes of :func:`tsolve.engines.pool.ordered_map`; with one
    worker, the tasks run here, in order, without a pool."""

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise TsolveError(f"workers: expected an integer >= 1, got {workers!r}")
        self.slots = workers

    def map(
        self,
        setup: Callable[[Any], Any],
        fn: Callable[[Any, Any], Any],
        context: Any,
        tasks: Iterable[Any],
        *,
        describe: Callable[[Any], str] = describe_task,
        preload: Sequence[str] = (),
    ) -> Iterator[Any]:
        if self.slots == 1:
            state = setup(context)
            for task in tasks:
                yield fn(state, task)
            return
        yield from ordered_map(
            _run,
            tasks,
            workers=self.slots,
            in_flight=4 * self.slots,
            initializer=_init_worker,
            initargs=(setup, fn, context),
            preload=[__name__, *preload],
            describe=describe,
        )
