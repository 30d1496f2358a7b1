"""``tsolve serve-rewards`` over real HTTP from localhost (uvicorn + httpx).

Skipped, with the reason, where the ``rl`` extra's stack is not installed."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tsolve.contract import get_family
from tsolve.rl.gold import ground_truth
from tsolve.verifiers.baselines import predict

uvicorn = pytest.importorskip("uvicorn", reason="serve-rewards needs uvicorn (the rl extra)")
pytest.importorskip("starlette", reason="serve-rewards needs starlette (the rl extra)")
httpx = pytest.importorskip("httpx", reason="the test's HTTP client is httpx")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    from tsolve.rl.server import make_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = make_app(workers=2, max_in_flight=2, max_body=200_000)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    sock.close()


def _items(count: int) -> tuple[list[dict[str, Any]], list[str]]:
    fam = get_family("time-puzzles")
    config = fam.make_options({})
    recs = [fam.make_record(5, i, config) for i in range(count)]
    return recs, [p["output"] for p in predict(recs)]


def test_health(base_url: str) -> None:
    r = httpx.get(f"{base_url}/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"


def test_get_reward_openrlhf_protocol(base_url: str) -> None:
    recs, golds = _items(12)  # above the in-thread threshold: scored across the pool
    prompts = [r["prompt"] for r in recs]
    queries = [p + "\n" + (g if i % 2 == 0 else "MY ANSWER: 1900-01-01")
               for i, (p, g) in enumerate(zip(prompts, golds, strict=True))]  # fmt: skip
    body = {"query": queries, "prompts": prompts, "labels": [ground_truth(r) for r in recs]}
    r = httpx.post(f"{base_url}/get_reward", json=body, timeout=60)
    assert r.status_code == 200, r.text
    assert r.json()["rewards"] == [1.0 if i % 2 == 0 else 0.0 for i in range(12)]


def test_batch_endpoint_keeps_other_rows_when_one_is_bad(base_url: str) -> None:
    recs, golds = _items(3)
    items: list[Any] = [
        {"output": g, "ground_truth": ground_truth(r)} for r, g in zip(recs, golds, strict=True)
    ]
    items.insert(1, {"output": golds[0], "ground_truth": "{broken"})
    items.append(7)
    r = httpx.post(f"{base_url}/score", json={"items": items}, timeout=60)
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [x.get("reward") for x in results] == [1.0, None, 1.0, 1.0, None]
    assert "ground truth" in results[1]["error"] and "\n" not in results[1]["error"]
    assert results[0]["metrics"] == {"em": 1.0, "f1": 1.0, "jaccard": 1.0}


@pytest.mark.parametrize(
    ("path", "content", "status"),
    [("/get_reward", b"not json", 400), ("/get_reward", b"[1]", 400),
     ("/get_reward", b'{"query": ["a"], "prompts": [], "labels": []}', 400),
     ("/get_reward", b'{"query": ["a"], "prompts": ["a"], "labels": ["{}"]}', 422),
     ("/score", b'{"items": 3}', 400), ("/score", b"x" * 300_000, 413)],
)  # fmt: skip
def test_malformed_requests_get_4xx_one_line(
    base_url: str, path: str, content: bytes, status: int
) -> None:
    r = httpx.post(f"{base_url}{path}", content=content, timeout=30)
    assert r.status_code == status, r.text
    assert "\n" not in r.json()["error"]


def test_binds_localhost_by_default() -> None:
    import inspect

    from tsolve.rl.server import serve_rewards

    assert inspect.signature(serve_rewards).parameters["host"].default == "127.0.0.1"
