"""The ``ray`` engine on a real local Ray cluster (two CPUs, started once for
the module): ``tsolve dataset`` and ``tsolve verify`` give the same bytes as
the local engine, the work really runs in several worker processes, and the
ways a cluster fails (a dead worker, an address nobody answers, Ray not
installed) are one-line errors, never hangs.

Expected outputs come from the local engine, which other test modules check
against independent peers; this module checks that the engines agree.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from guards import hang_guard
from typer.testing import CliRunner

from tsolve.cli.app import app
from tsolve.datasets import write_dataset
from tsolve.engines.pool import WorkerLost
from tsolve.errors import TsolveError
from tsolve.records import dumps
from tsolve.verifiers.report_writers import report_writer
from tsolve.verifiers.verify_files import verify_files

ray = pytest.importorskip("ray")  # the `ray` extra; CI installs it with `test`


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One local Ray instance of two CPUs for the module. The engine finds it
    already running, so it neither starts nor stops one itself."""
    # Worker functions defined in this module travel by value: the workers
    # cannot import a test module by name.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield
    finally:
        ray.shutdown()
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def _engine() -> Any:
    from tsolve.engines import open_engine

    return open_engine("ray")


# ------------------------------------------------------------- the engine


def _setup(context: int) -> int:
    return context


def _pid_after(pause: float, task: int) -> tuple[int, int]:
    time.sleep(pause)  # long enough that one worker cannot take every task
    return task, os.getpid()


def _fail_on(bad: int, task: int) -> int:
    if task == bad:
        raise TsolveError(f"task {task} is bad")
    return task


def _die_on(bad: int, task: int) -> int:
    if task == bad:
        os._exit(7)  # as the out-of-memory killer would leave it
    return task


def test_results_in_order_from_several_workers(cluster: None) -> None:
    with hang_guard(120), _engine() as engine:
        assert engine.slots == 2
        got = list(engine.map(_setup, _pid_after, 0.05, range(40)))
    assert [task for task, _pid in got] == list(range(40))
    pids = {pid for _task, pid in got}
    assert len(pids) >= 2, pids
    assert os.getpid() not in pids


def test_task_error_comes_back_as_itself(cluster: None) -> None:
    with hang_guard(120), _engine() as engine, pytest.raises(TsolveError, match="task 5 is bad"):
        list(engine.map(_setup, _fail_on, 5, range(20)))


def test_dead_worker_is_worker_lost(cluster: None) -> None:
    with hang_guard(120), _engine() as engine, pytest.raises(WorkerLost) as info:
        list(engine.map(_setup, _die_on, 3, range(10)))
    # The task is the one Ray reports lost. Results come in order, so it is
    # task 3 or an earlier one: when the dying worker had also run an earlier
    # task whose result Ray had not handed over yet, Ray reports that one
    # (seen three times in full runs, "... while computing task 0").
    assert re.search(r"while computing task [0-3] ", str(info.value)), str(info.value)
    assert "\n" not in str(info.value)
    assert info.value.exit_code == 3


# ------------------------------------------------------------- dataset


@pytest.mark.parametrize(
    ("family", "count", "options"),
    [("span", 700, {}), ("logistics", 120, {}), ("time-puzzles", 12, {"solutions": "1-3"})],
)
def test_dataset_jsonl_matches_local(
    cluster: None, tmp_path: Path, family: str, count: int, options: dict[str, Any]
) -> None:
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    with hang_guard(300):
        a = write_dataset(family, options, count=count, out=local, seed=4, chunk=7)
        b = write_dataset(family, options, count=count, out=remote, seed=4, chunk=7, engine="ray")
    assert remote.read_bytes() == local.read_bytes()
    assert len(local.read_bytes().splitlines()) == count
    assert (b.written, b.failures, b.counts) == (a.written, a.failures, a.counts)
    assert b.workers == 2


@pytest.mark.parametrize("fmt", ["parquet", "hf"])
def test_dataset_tables_match_local(cluster: None, tmp_path: Path, fmt: str) -> None:
    pytest.importorskip("datasets" if fmt == "hf" else "pyarrow")
    local, remote = tmp_path / f"local.{fmt}", tmp_path / f"ray.{fmt}"
    with hang_guard(300):
        write_dataset("span", {}, count=300, out=local, seed=2, fmt=fmt, chunk=9)
        write_dataset("span", {}, count=300, out=remote, seed=2, fmt=fmt, chunk=9, engine="ray")
    assert _tree_bytes(remote) == _tree_bytes(local)


def test_dataset_shards_match_local(cluster: None, tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    write_dataset("span", {}, count=200, out=whole, seed=1)
    parts = []
    with hang_guard(300):
        for k in range(3):
            part = tmp_path / f"part-{k}.jsonl"
            write_dataset("span", {}, count=200, out=part, seed=1, shard=(k, 3), engine="ray")
            parts.append(part.read_bytes())
    assert b"".join(parts) == whole.read_bytes()


def test_cli_dataset_engine_ray(cluster: None, tmp_path: Path) -> None:
    local, remote = tmp_path / "l.jsonl", tmp_path / "r.jsonl"
    runner = CliRunner()
    base = ["dataset", "logistics", "-n", "40", "--seed", "9", "-q", "--summary-json"]
    res_local = runner.invoke(app, [*base, "-o", str(local)])
    res_ray = runner.invoke(app, [*base, "-o", str(remote), "--engine", "ray"])
    assert res_local.exit_code == 0 and res_ray.exit_code == 0, res_ray.output
    assert remote.read_bytes() == local.read_bytes()
    assert json.loads(res_ray.stdout)["workers"] == 2


def _tree_bytes(path: Path) -> dict[str, bytes]:
    if path.is_file():
        return {"": path.read_bytes()}
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


# ------------------------------------------------------------- verify


@pytest.fixture(scope="module")
def verify_inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Records of three families with bad rows among them, and predictions
    that are right, wrong, unparseable, unknown, malformed, and without an
    output, in more than one chunk (repeated ids are not bad rows but an error
    for the whole run: tests/test_batch_rows.py)."""
    from tsolve.verifiers.baselines import predict

    folder = tmp_path_factory.mktemp("verify")
    records: list[str] = []
    for family, count in (("time-puzzles", 8), ("span", 1500), ("logistics", 60)):
        out = folder / f"{family}.jsonl"
        write_dataset(family, {}, count=count, out=out, seed=5)
        records += out.read_text(encoding="utf-8").splitlines()
    rows = [*records[:5], "{broken", '{"family": "span"}', "[1]", *records[5:]]
    (folder / "records.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    recs = [json.loads(line) for line in records]
    preds = [dumps(p) for p in predict(recs, "perturbed", seed=3)]
    wrong = [dumps(p) for p in predict(recs, "random", seed=3)]
    no_output = json.dumps({"id": recs[1400]["id"], "answer": "x"})
    odd = ['{"id": "nope", "output": "x"}', "not json", '{"output": "x"}', no_output,
           json.dumps({"id": 5, "output": 3})]  # fmt: skip
    lines = [*preds[:650], *odd, *wrong[650:1300], *preds[1300:]]
    (folder / "preds.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "records.jsonl", folder / "preds.jsonl"


def _report_text(fmt: str, **kwargs: Any) -> str:
    out = io.StringIO()
    writer = report_writer(fmt, out, err=out)  # jsonl's bad rows (stderr in the CLI) here too
    assert writer is not None
    report = verify_files(
        *kwargs.pop("files"), on_item=writer.item, on_error=writer.error, **kwargs
    )
    writer.finish(report)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
@pytest.mark.parametrize("missing", ["skip", "zero"])
def test_verify_report_matches_local(
    cluster: None, verify_inputs: tuple[Path, Path], fmt: str, missing: str
) -> None:
    with hang_guard(300):
        local = _report_text(fmt, files=verify_inputs, missing=missing, claims=True)
        remote = _report_text(fmt, files=verify_inputs, missing=missing, claims=True, engine="ray")
    assert remote == local
    # the bad rows of both files are reported, not lost
    for text in ("records.jsonl:6: malformed JSON", "a record has no 'id'",
                 "expected a JSON object", "preds.jsonl", "'nope' matches no record",
                 "no 'output' field"):  # fmt: skip
        assert text in remote, text


def test_cli_verify_engine_ray(cluster: None, verify_inputs: tuple[Path, Path]) -> None:
    runner = CliRunner()
    args = ["verify", *map(str, verify_inputs), "--format", "jsonl"]
    local = runner.invoke(app, args)
    remote = runner.invoke(app, [*args, "--engine", "ray"])
    assert local.exit_code == remote.exit_code == 1  # bad rows: reported, the rest scored
    assert remote.stdout == local.stdout


def test_verify_needs_a_jsonl_records_file(cluster: None, tmp_path: Path) -> None:
    records = tmp_path / "r.json"
    records.write_text('[{"id": "a", "family": "span"}]', encoding="utf-8")
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": "a", "output": "x"}\n', encoding="utf-8")
    with pytest.raises(TsolveError, match="not a JSON Lines file"):
        verify_files(records, preds, engine="ray")


# ------------------------------------------------------------- no cluster


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tsolve", *args],
        capture_output=True,
        text=True,
        timeout=90,  # a hang fails the test instead of the suite
        env={**os.environ, **(env or {})},
    )


def test_unreachable_address_is_one_line(tmp_path: Path) -> None:
    res = _cli("dataset", "span", "-n", "3", "-o", str(tmp_path / "x.jsonl"), "--engine", "ray",
               "--ray-address", "127.0.0.1:1")  # fmt: skip
    assert res.returncode != 0
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "ray-address" in lines[0] and "127.0.0.1:1" in lines[0], res.stderr
    assert not (tmp_path / "x.jsonl").exists()  # the output is not touched


def test_unreachable_ray_address_env_for_verify(tmp_path: Path) -> None:
    (tmp_path / "r.jsonl").write_text('{"id": "a", "family": "span"}\n', encoding="utf-8")
    (tmp_path / "p.jsonl").write_text('{"id": "a", "output": "x"}\n', encoding="utf-8")
    res = _cli("verify", str(tmp_path / "r.jsonl"), str(tmp_path / "p.jsonl"), "--engine", "ray",
               env={"RAY_ADDRESS": "127.0.0.1:1"})  # fmt: skip
    assert res.returncode != 0
    assert len(res.stderr.strip().splitlines()) == 1 and "127.0.0.1:1" in res.stderr


def test_missing_ray_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from tsolve.engines import open_engine\n"
        "try:\n    open_engine('ray')\nexcept Exception as exc:\n    print(type(exc).__name__, exc)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=90)
    assert out.stdout.strip() == (
        "TsolveError engine: ray is not installed (pip install 'tsolve[ray]')"
    ), out.stderr
