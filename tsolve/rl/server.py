"""``tsolve serve-rewards``: rewards over HTTP for trainers on many nodes.

Endpoints (JSON in, JSON out):

* ``POST /get_reward``: OpenRLHF's remote reward protocol. ``{"query": [...],
  "prompts": [...], "labels": [...]}`` (a query is the prompt followed by the
  response; a label is an exported ``label``) answers ``{"rewards": [...]}``,
  one main-metric reward per query (and the same as ``scores``, with empty
  ``extra_logs``, for OpenRLHF releases that read the whole answer as its
  reward function's dict). A malformed label is a 422 naming its
  row: a reward is never a silent 0.
* ``POST /score``: tsolve's own batch endpoint. ``{"items": [{"output",
  "ground_truth"[, "metric"]}, ...]}`` answers ``{"results": [...]}``, one per
  item in order: ``{"reward", "metrics"}`` or ``{"error": one line}``, so a
  bad row never costs the others theirs.
* ``GET /health``: 200 ``{"status": "ok", "workers": N}``.

Bounded under any load: a body over ``max_body`` bytes is refused (413)
before it is read whole, at most ``max_in_flight`` requests are read and
scored at once (the rest wait, unread, on a semaphore), at most
``max_connections`` are open (uvicorn answers 503 beyond), and
each batch is cut into chunks scored across ``workers`` processes (a
``forkserver`` pool, :func:`tsolve.engines.pool.pool_context`). A worker
that dies fails only the batches it held (503), and the pool is started
afresh.

It binds 127.0.0.1 unless told otherwise. Exposing it (``--host 0.0.0.0``)
lets anyone who reaches the port spend its CPU; it has no authentication, so
put it behind a network the trainers alone reach. Built on Starlette and
uvicorn (the ``rl`` extra; both also come with ``mcp``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tsolve.engines.pool import pool_context
from tsolve.errors import TsolveError, unexpected
from tsolve.rl.gold import gold_metrics
from tsolve.rl.rewards import metric_value, response_of

MAX_BODY = 16 << 20
"""Largest request body read (16 MiB): a batch of thousands of answers."""
MAX_ITEMS = 4096
"""Most rows one request may carry."""

Row = tuple[object, object, object]  # (output, ground truth, metric)


def score_rows(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """One result per row, in order: ``{"reward", "metrics"}`` or ``{"error"}``.
    Run in a pool worker; never raises for one row."""
    out: list[dict[str, Any]] = []
    for output, gold, metric in rows:
        try:
            if metric is not None and not isinstance(metric, str):
                raise TsolveError(f"metric: expected a metric name, got {type(metric).__name__}")
            family, metrics = gold_metrics(gold, output)
            out.append({"reward": metric_value(metrics, family.name, metric), "metrics": metrics})
        except TsolveError as exc:
            out.append({"error": str(exc).splitlines()[0] if str(exc) else "error"})
        except Exception as exc:  # the backstop: one row never sinks the batch
            out.append({"error": unexpected(exc)})
    return out


class Scorer:
    """A batch scored across a process pool, chunked; restarted if it breaks."""

    def __init__(self, workers: int | None = None, in_process: bool = False) -> None:
        self.workers = max(1, workers or (os.cpu_count() or 1))
        self.in_process = in_process
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = pool_context(("tsolve.rl.server",))
            self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx)
        return self._pool

    async def score(self, rows: list[Row]) -> list[dict[str, Any]]:
        if self.in_process or len(rows) < 8:
            return await asyncio.to_thread(score_rows, rows)
        loop = asyncio.get_running_loop()
        size = -(-len(rows) // self.workers)
        chunks = [rows[i : i + size] for i in range(0, len(rows), size)]
        pool = self.pool()
        try:
            parts = await asyncio.gather(
                *(loop.run_in_executor(pool, score_rows, c) for c in chunks)
            )
        except BrokenProcessPool:
            self._pool = None  # the next batch starts a fresh pool
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        return [r for part in parts for r in part]

    async def warm(self) -> None:
        """Start the workers before the first batch, so it does not wait for
        them to import tsolve."""
        if self.in_process:
            return
        loop = asyncio.get_running_loop()
        pool = self.pool()
        await asyncio.gather(
            *(loop.run_in_executor(pool, score_rows, []) for _ in range(self.workers))
        )

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class BadRequest(Exception):
    """A request the server refuses: its status and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _lists(body: dict[str, Any], keys: Sequence[str]) -> list[list[Any]]:
    values = []
    for key in keys:
        value = body.get(key)
        if not isinstance(value, list):
            raise BadRequest(400, f"{key}: expected a JSON list")
        values.append(value)
    if len({len(v) for v in values}) != 1:
        raise BadRequest(400, f"{', '.join(keys)}: expected lists of one length")
    if len(values[0]) > MAX_ITEMS:
        raise BadRequest(413, f"{keys[0]}: more than {MAX_ITEMS} rows in one request")
    return values


def openrlhf_rows(body: dict[str, Any]) -> list[Row]:
    """``/get_reward``'s rows: each query's response, label, the main metric."""
    queries, prompts, labels = _lists(body, ("query", "prompts", "labels"))
    rows: list[Row] = []
    for i, (q, p) in enumerate(zip(queries, prompts, strict=True)):
        if not isinstance(q, str) or not isinstance(p, str):
            raise BadRequest(400, f"row {i}: query and prompt must be text")
        rows.append((response_of(q, p), labels[i], None))
    return rows


def batch_rows(body: dict[str, Any]) -> list[Row]:
    """``/score``'s rows; an item that is not an object is its own error row."""
    (items,) = _lists(body, ("items",))
    return [
        (i.get("output"), i.get("ground_truth"), i.get("metric")) if isinstance(i, dict)
        else (None, None, None)
        for i in items
    ]  # fmt: skip


def make_app(
    workers: int | None = None,
    max_in_flight: int = 8,
    max_body: int = MAX_BODY,
    in_process: bool = False,
) -> Any:
    """The Starlette application (see the module docstring)."""
    try:
        from starlette.applications import Starlette
        from starlette.requests import ClientDisconnect, Request
        from starlette.responses import JSONResponse
        from starlette.routing import Route
    except ImportError:
        raise TsolveError(
            "serve-rewards: needs starlette and uvicorn (pip install 'tsolve[rl]')"
        ) from None
    scorer = Scorer(workers, in_process)
    gate = asyncio.Semaphore(max_in_flight)

    def refuse(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": " ".join(message.split())[:300]}, status_code=status)

    async def read_json(request: Request) -> dict[str, Any]:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > max_body):
            raise BadRequest(413, f"body: larger than {max_body} bytes")
        chunks, size = [], 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > max_body:
                    raise BadRequest(413, f"body: larger than {max_body} bytes")
                chunks.append(chunk)
        except ClientDisconnect:
            raise BadRequest(400, "body: the client went away") from None
        try:
            body = json.loads(b"".join(chunks))
        except (ValueError, UnicodeDecodeError):
            raise BadRequest(400, "body: expected a JSON object") from None
        if not isinstance(body, dict):
            raise BadRequest(400, "body: expected a JSON object")
        return body

    async def handle(request: Request, openrlhf: bool) -> JSONResponse:
        # The gate is taken before the body is read: a waiting request holds
        # no more than the server's socket buffers, whatever the load.
        async with gate:
            try:
                body = await read_json(request)
                rows = openrlhf_rows(body) if openrlhf else batch_rows(body)
            except BadRequest as exc:
                return refuse(exc.status, str(exc))
            try:
                results = await scorer.score(rows)
            except BrokenProcessPool:
                return refuse(503, "server: a scoring worker died; retry the batch")
        if openrlhf:
            for i, r in enumerate(results):
                if "error" in r:
                    return refuse(422, f"row {i}: {r['error']}")
            rewards = [r["reward"] for r in results]
            return JSONResponse({"rewards": rewards, "scores": rewards, "extra_logs": {}})
        return JSONResponse({"results": results})

    async def get_reward(request: Request) -> JSONResponse:
        return await handle(request, openrlhf=True)

    async def score(request: Request) -> JSONResponse:
        return await handle(request, openrlhf=False)

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "workers": scorer.workers})

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        await scorer.warm()
        yield
        scorer.close()

    app = Starlette(
        routes=[
            Route("/get_reward", get_reward, methods=["POST"]),
            Route("/score", score, methods=["POST"]),
            Route("/health", health, methods=["GET"]),
        ],
        lifespan=lifespan,
    )
    app.state.scorer = scorer
    return app


def serve_rewards(
    port: int = 5000,
    host: str = "127.0.0.1",
    workers: int | None = None,
    max_in_flight: int = 8,
    max_body: int = MAX_BODY,
    max_connections: int = 1024,
) -> None:
    """Serve :func:`make_app` with uvicorn until interrupted; beyond
    ``max_connections`` open connections uvicorn answers 503 at once."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise TsolveError(f"port: expected 0..65535, got {port!r}")
    if min(max_in_flight, max_body, max_connections) < 1:
        raise TsolveError(
            "serve-rewards: max-in-flight, max-body and max-connections must be at least 1"
        )
    app = make_app(workers, max_in_flight, max_body)
    try:
        import uvicorn
    except ImportError:
        raise TsolveError("serve-rewards: needs uvicorn (pip install 'tsolve[rl]')") from None
    uvicorn.run(app, host=host, port=port, log_level="warning", limit_concurrency=max_connections)
