"""The ``ray`` engine: the same tasks on a Ray cluster (``pip install 'tsolve[ray]'``).

Only imported when ``--engine ray`` is chosen, so Ray never loads otherwise.

* **Where.** ``address`` (or ``$RAY_ADDRESS``) joins a running cluster:
  ``auto`` finds one started on this machine with ``ray start``, ``HOST:PORT``
  names its head. Without one, a private local instance is started for the
  run (no dashboard, logs kept quiet) and shut down at its end. An address
  that is not a Ray head is a one-line error within a few seconds, not Ray's
  minute of retries and its C++ client's warnings: a port that does not
  answer as a gRPC server is refused before ``ray.init``
  (:func:`_check_reachable`), and a gRPC server that is no Ray GCS gets
  :data:`JOIN_ATTEMPTS` connect attempts.
* **What is shipped.** The job's ``context`` goes to the object store once
  (``ray.put``); each worker process fetches it and runs ``setup`` on it the
  first time it meets the run, then keeps the state for the run's other
  tasks. Tasks and results travel as Ray arguments and return values.
* **Order and memory.** At most ``4 × slots`` tasks are submitted and not
  yet consumed; results are taken oldest first, so they come back in task
  order.
* **Failures.** An exception inside the task function comes back as that
  exception (re-raised here, as the local pool does). A worker or node that
  dies, or a task Ray's memory monitor kills, is :class:`WorkerLost` naming
  the task; nothing is retried (``max_retries=0``), as in the local pool: a
  task that took a worker down would most likely take the next one too, and
  every job here can be rerun (``tsolve dataset --resume``). The tasks still
  pending are cancelled.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from tsolve.engines.base import Engine
from tsolve.engines.pool import WorkerLost, describe_task, portable_error
from tsolve.errors import TsolveError

try:
    import ray
    import ray.exceptions
except ImportError:  # pragma: no cover - the extra is installed in CI
    raise TsolveError("engine: ray is not installed (pip install 'tsolve[ray]')") from None

#: Seconds to wait for a named cluster's head to accept a connection.
CONNECT_SECONDS = 5.0

#: Per worker process: run key -> the state ``setup`` built for that run.
#: Only the latest few runs are kept (a long-lived cluster serves many).
_STATES: dict[str, Any] = {}
_STATES_KEPT = 2


def _state_for(key: str, setup: Callable[[Any], Any], holder: list[Any]) -> Any:
    state = _STATES.get(key)
    if state is None:
        state = setup(ray.get(holder[0]))  # nested in a list: fetched here, once
        while len(_STATES) >= _STATES_KEPT:
            _STATES.pop(next(iter(_STATES)))
        _STATES[key] = state
    return state


@ray.remote(max_retries=0)
def _task(
    key: str,
    setup: Callable[[Any], Any],
    fn: Callable[[Any, Any], Any],
    holder: list[Any],
    task: Any,
) -> tuple[bool, Any]:
    """One task in a worker: ``(True, result)`` or ``(False, exception)``."""
    try:
        return True, fn(_state_for(key, setup, holder), task)
    except Exception as exc:
        return False, portable_error(exc)


class RayEngine(Engine):
    """Tasks as Ray remote calls; see the module docstring."""

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.started = False  # did this engine start the Ray instance (and so stop it)?
        if not ray.is_initialized():
            self._init(workers)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            self.close()
            raise TsolveError(
                f"engine: the Ray cluster at {self.address or 'this machine'} has no CPUs "
                "to run tasks on"
            )
        self.slots = cpus

    def _init(self, workers: int | None) -> None:
        address = self.address
        if address and address not in ("auto", "local") and not address.startswith("ray://"):
            _check_reachable(address)
        _quiet_auth_notice()
        kwargs: dict[str, Any] = {
            "address": address,
            "include_dashboard": False,
            "log_to_driver": False,  # workers' stdout would mix into the job's output
            "logging_level": logging.WARNING,
            "configure_logging": True,
        }
        if not address and workers:
            kwargs["num_cpus"] = workers
        try:
            with _short_join_window(address):
                ray.init(**kwargs)
        except Exception as exc:  # ConnectionError, RuntimeError, ValueError, ...
            where = address or "a new local instance"
            raise TsolveError(
                f"ray-address: cannot start or join Ray at {where} ({_line(exc)})"
            ) from None
        self.started = True

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
        key = uuid.uuid4().hex
        holder = [ray.put(context)]
        window = 4 * self.slots
        pending: deque[tuple[Any, Any]] = deque()  # (object ref, task), oldest first
        try:
            for task in tasks:
                if len(pending) >= window:
                    yield self._result(pending.popleft(), describe)
                pending.append((_task.remote(key, setup, fn, holder, task), task))
            while pending:
                yield self._result(pending.popleft(), describe)
        finally:
            for ref, _ in pending:  # an error, Ctrl-C, or the caller stopped early
                with contextlib.suppress(Exception):  # done already, or its worker gone
                    ray.cancel(ref, force=True)

    def _result(self, entry: tuple[Any, Any], describe: Callable[[Any], str]) -> Any:
        ref, task = entry
        try:
            ok, value = ray.get(ref)
        except ray.exceptions.RayError as exc:  # a worker or node lost, a task killed
            raise WorkerLost(
                f"ray: {type(exc).__name__} while computing {describe(task)} "
                f"({_line(exc)}); stopped the run"
            ) from None
        if not ok:
            raise value
        return value

    def close(self) -> None:
        if self.started:
            self.started = False
            ray.shutdown()


class _DropAuthNotice(logging.Filter):
    """Drops Ray's notice that a new local instance uses token authentication
    (printed on every run; it is Ray's default, and tsolve keeps it). Every
    other record passes, warnings and errors included."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Token authentication is enabled for this")


def _quiet_auth_notice() -> None:
    # Setting RAY_AUTH_MODE=token would silence it too, but only if set before
    # Ray is imported (Ray caches its config at import); a filter works after.
    log = logging.getLogger("ray._private.authentication.authentication_token_setup")
    if not any(isinstance(f, _DropAuthNotice) for f in log.filters):
        log.addFilter(_DropAuthNotice())


JOIN_ATTEMPTS = 2
"""How many times (about a second apart) ``ray.init`` tries to reach the GCS
of a cluster it joins. Ray's default is 20: a port that accepts connections
but is no Ray head (a proxy, another service) then cost about 22 s and a
warning from Ray's C++ client before the error. A head that is up answers
the first attempt."""

_JOIN_WAIT_ENV = "RAY_gcs_server_port_wait_time_s"


@contextlib.contextmanager
def _short_join_window(address: str | None) -> Iterator[None]:
    """Ray's connect window cut to :data:`JOIN_ATTEMPTS` while joining
    ``address`` (Ray reads it from the environment at each connect); left
    alone when starting a new local instance, whose GCS may take longer to
    come up, and when the user set it."""
    if not address or address == "local" or _JOIN_WAIT_ENV in os.environ:
        yield
        return
    os.environ[_JOIN_WAIT_ENV] = str(JOIN_ATTEMPTS)
    try:
        yield
    finally:
        os.environ.pop(_JOIN_WAIT_ENV, None)


def _check_reachable(address: str) -> None:
    """Fail fast on a head that does not answer (Ray itself retries for a minute)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise TsolveError(
            f"ray-address: expected auto, HOST:PORT or ray://HOST:PORT, got {address!r}"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS) as conn:
            why = _not_grpc(conn)
    except OSError as exc:
        why = exc.strerror or str(exc)
    if why is not None:
        raise TsolveError(
            f"ray-address: no Ray head answers at {address} ({why}); "
            "start one with `ray start --head` or check the address"
        ) from None


#: An HTTP/2 client's first bytes: the connection preface and an empty
#: SETTINGS frame (RFC 9113, 3.4 and 6.5).
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _not_grpc(conn: socket.socket) -> str | None:
    """Why the server on ``conn`` is not a gRPC server (a Ray head's GCS is
    one), or None. An HTTP/2 server answers the preface with a SETTINGS
    frame at once; a port that accepts connections and then says nothing
    (or something else) would have Ray retry for a minute and print its C++
    client's warnings before failing."""
    conn.sendall(_H2_PREFACE)
    head = b""
    try:
        while len(head) < 9:
            chunk = conn.recv(9 - len(head))
            if not chunk:
                return "it closed the connection: not a Ray head"
            head += chunk
    except TimeoutError:
        return f"it accepts connections but said nothing in {CONNECT_SECONDS:g} s: not a Ray head"
    if head[3] != 4:  # frame type SETTINGS
        return "it does not speak gRPC: not a Ray head"
    return None


def _line(exc: BaseException) -> str:
    """The first line of an exception's message, cut short."""
    text = str(exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    return first[:200]
