"""Where a batch job's chunks run: this machine's process pool, or a Ray cluster.

A batch job (``tsolve dataset``, ``tsolve verify --engine ray``) cuts its work
into chunks and asks an :class:`~tsolve.engines.base.Engine` to run one
function over them. Every engine keeps the same promises, so the job's output
does not depend on which one ran it:

* results come back **in task order**;
* at most a bounded **window of chunks is in flight**, so memory stays flat
  however long the input is;
* each worker process builds its **state once per run** (``setup(context)``:
  a family's generator config, a records index) and reuses it for every task
  it runs;
* an exception raised by the task function is re-raised as is; a worker (or
  node) that dies stops the run with :class:`tsolve.engines.pool.WorkerLost`
  (exit status 3), never a hang.

``local`` (:mod:`tsolve.engines.local`) is the process pool of
:mod:`tsolve.engines.pool`; ``ray`` (:mod:`tsolve.engines.ray`, the optional
``ray`` extra, imported only when chosen) runs the same tasks on a Ray
cluster. Another engine (Dask, say) is one more module with an ``Engine``
and one more line in :func:`open_engine`.
"""

from __future__ import annotations

from tsolve.engines.base import Engine
from tsolve.errors import TsolveError

ENGINES = ("local", "ray")


def open_engine(
    name: str = "local", *, workers: int | None = None, address: str | None = None
) -> Engine:
    """The engine called ``name``, ready to :meth:`~Engine.map`; close it
    (or use it as a context manager) when the job ends.

    ``workers``: local processes (default 1); for Ray, the CPUs of the local
    instance the run starts (default all of this machine's), ignored when
    joining a cluster. ``address``: a Ray cluster to join (``auto``,
    ``HOST:PORT`` or ``ray://HOST:PORT``; default ``$RAY_ADDRESS``, else a
    new local instance)."""
    if name == "local":
        if address is not None:
            raise TsolveError("ray-address: only used with --engine ray")
        from tsolve.engines.local import LocalEngine

        return LocalEngine(workers or 1)
    if name == "ray":
        from tsolve.engines.ray import RayEngine

        return RayEngine(workers=workers, address=address)
    raise TsolveError(f"engine: expected one of {', '.join(ENGINES)}, got {name!r}")


__all__ = ["ENGINES", "Engine", "open_engine"]
