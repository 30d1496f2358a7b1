"""`tsolve serve-rewards` under load: answers/s, latency and peak memory.

64 concurrent clients (httpx, asyncio) each POST batches of 64 answers to
`/get_reward` (OpenRLHF's protocol) until `--requests` requests are done;
every request must answer 200 with one reward per query and the rewards
must equal the expected ones (gold answers pay 1, garbage 0), so a lost or
wrong row fails the run. The peer is an in-process loop of `tsolve verify`'s
scorer (`Family.score(record, output)`, the whole record) over the same
answers, and the in-process compact scorer the server runs
(`tsolve.rl.gold.gold_metrics`). Peak memory is the high-water RSS of the
server and every process under it (its scoring workers), from /proc.

    python benchmarks/reward_server.py --requests 2000 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tsolve.contract import get_family
from tsolve.rl.gold import gold_metrics, ground_truth
from tsolve.verifiers.baselines import predict


def _tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return out


def _hwm_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _batches(family: str, size: int) -> tuple[list[dict], list[str], list[float]]:
    fam = get_family(family)
    config = fam.make_options({})
    recs = [fam.make_record(9, i, config) for i in range(size)]
    gold = [p["output"] for p in predict(recs)]
    outs = [g if i % 2 == 0 else "MY ANSWER: 1900-01-01" for i, g in enumerate(gold)]
    return recs, outs, [1.0 if i % 2 == 0 else 0.0 for i in range(size)]


async def _client(
    url: str, body: bytes, want: list[float], left: list[int], lat: list[float]
) -> None:
    async with httpx.AsyncClient(timeout=120) as client:
        while left[0] > 0:
            left[0] -= 1
            t0 = time.perf_counter()
            r = await client.post(url, content=body, headers={"content-type": "application/json"})
            lat.append(time.perf_counter() - t0)
            if r.status_code != 200 or r.json()["rewards"] != want:
                raise SystemExit(f"bad answer: {r.status_code} {r.text[:200]}")


async def _load(
    url: str, body: bytes, want: list[float], requests: int, clients: int
) -> list[float]:
    left, lat = [requests], []
    await asyncio.gather(*(_client(url, body, want, left, lat) for _ in range(clients)))
    return lat


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--family", default="time-puzzles")
    args = ap.parse_args()
    recs, outs, want = _batches(args.family, args.batch)
    prompts = [r["prompt"] for r in recs]
    labels = [ground_truth(r) for r in recs]
    body = {"query": [p + "\n" + o for p, o in zip(prompts, outs, strict=True)],
            "prompts": prompts, "labels": labels}  # fmt: skip

    fam = get_family(args.family)
    score = fam.require("score")
    t0 = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for r, o in zip(recs, outs, strict=True):
            score(r, o)
    verify_rate = rounds * len(recs) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(rounds):
        for g, o in zip(labels, outs, strict=True):
            gold_metrics(g, o)
    compact_rate = rounds * len(recs) / (time.perf_counter() - t0)

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = subprocess.Popen([sys.executable, "-m", "tsolve", "serve-rewards", "--port", str(port),
                               "--workers", str(args.workers)], env=os.environ.copy())  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if httpx.get(f"{base}/health").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        t0 = time.perf_counter()
        lat = asyncio.run(
            _load(
                f"{base}/get_reward", json.dumps(body).encode(), want, args.requests, args.clients
            )
        )
        wall = time.perf_counter() - t0
        peak = sum(_hwm_kib(p) for p in _tree(server.pid))
    finally:
        server.terminate()
        server.wait(30)
    lat.sort()
    answers = len(lat) * args.batch
    print(
        f"family {args.family}; {args.clients} clients, batches of {args.batch}, "
        f"{len(lat)} requests ({answers} answers), {args.workers} workers, {os.cpu_count()} cores"
    )
    print(f"server: {answers / wall:.0f} answers/s, p50 {statistics.median(lat) * 1000:.0f} ms, "
          f"p99 {lat[int(0.99 * (len(lat) - 1))] * 1000:.0f} ms, peak RSS {peak / 1024:.0f} MiB "
          "(server + workers, summed high-water marks); 0 errors, 0 lost rows")  # fmt: skip
    print(
        f"peer, in process: tsolve verify's scorer {verify_rate:.0f} answers/s; "
        f"compact gold scorer {compact_rate:.0f} answers/s (one core)"
    )


if __name__ == "__main__":
    main()
