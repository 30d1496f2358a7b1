"""Process pools for batch jobs, with results in input order and bounded memory.

``Pool.imap`` submits every task up front, so a long input would be held in
memory whole; :func:`ordered_map` keeps at most ``in_flight`` tasks queued and
yields results in submission order, so output is the same for any number of
workers. Workers start from a ``forkserver`` where the platform has one: each
forks from a clean server that imported tsolve once (fast start, and no
solver threads inherited from the parent).
"""

from __future__ import annotations

import multiprocessing as mp
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def pool_context(preload: Sequence[str] = ()) -> Any:
    """``forkserver`` (preloading ``preload`` modules) where available, else ``spawn``."""
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver" and preload:
        ctx.set_forkserver_preload(list(preload))
    return ctx


def ignore_sigint() -> None:
    """Worker initializer: only the parent handles Ctrl-C (and stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def ordered_map(pool: Any, fn: Callable[[T], R], tasks: Iterable[T], in_flight: int) -> Iterator[R]:
    """``fn`` over ``tasks`` in ``pool``, results in task order, with at most
    ``in_flight`` tasks submitted and not yet consumed."""
    it = iter(tasks)
    pending: deque[Any] = deque()
    for task in it:
        pending.append(pool.apply_async(fn, (task,)))
        if len(pending) >= in_flight:
            break
    while pending:
        done = pending.popleft().get()
        nxt = next(it, _END)
        if nxt is not _END:
            pending.append(pool.apply_async(fn, (nxt,)))
        yield done


_END: Any = object()
