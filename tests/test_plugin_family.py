"""A third-party family, installed for real, works through tsolve's generic commands.

The toy package in ``tests/fixtures/toy_family`` declares its family in its
``pyproject.toml`` entry points only. The test builds its wheel by hand (a
wheel is a zip with a ``.dist-info`` folder: no build backend and no network
needed), installs it with ``pip install --target`` into a temporary folder,
and runs tsolve in a subprocess with that folder on ``PYTHONPATH``, so the
test's own environment is left untouched.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import tomllib

TOY = Path(__file__).parent / "fixtures" / "toy_family"


def _wheel(out_dir: Path) -> Path:
    """The toy package as a wheel, its metadata and entry points read from its pyproject."""
    project = tomllib.loads((TOY / "pyproject.toml").read_text())["project"]
    name, version = project["name"], project["version"]
    dist = f"{name.replace('-', '_')}-{version}"
    entry_points = "".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
        for group, eps in project["entry-points"].items()
    )
    files = {
        "toy_family.py": (TOY / "toy_family.py").read_bytes(),
        f"{dist}.dist-info/METADATA": (
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        ).encode(),
        f"{dist}.dist-info/WHEEL": (
            b"Wheel-Version: 1.0\nGenerator: tsolve-tests\nRoot-Is-Purelib: true\n"
            b"Tag: py3-none-any\n"
        ),
        f"{dist}.dist-info/entry_points.txt": entry_points.encode(),
    }
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist}.dist-info/RECORD,,")
    files[f"{dist}.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = out_dir / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, data in files.items():
            zf.writestr(path, data)
    return wheel


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the toy family was pip-installed into."""
    tmp = tmp_path_factory.mktemp("toy")
    target = tmp / "site"
    wheel = _wheel(tmp)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--target", str(target), str(wheel)],
        check=True,
    )  # fmt: skip
    assert (target / "toy_family.py").exists()
    return target


def _tsolve(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.getcwd()]))
    return subprocess.run(
        [sys.executable, "-m", "tsolve", *args],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=120,
    )  # fmt: skip


def test_the_installed_family_is_listed(site: Path, tmp_path: Path) -> None:
    res = _tsolve(site, "families", "--format", "json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    toy = next(f for f in data["families"] if f["name"] == "toy")
    assert toy["capabilities"] == ["dataset", "verify"]
    assert "tsolve-toy-family" in toy["origin"] and toy["version"] == "1"
    assert data["broken"] == {}
    assert "time-puzzles" in {f["name"] for f in data["families"]}


def test_dataset_and_verify_run_on_the_installed_family(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    res = _tsolve(site, "dataset", "toy", "--count", "3", "--seed", "7",
                  "--set", "from_year=2000", "--out", str(out), cwd=tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in records] == ["toy-7-0", "toy-7-1", "toy-7-2"]
    for r in records:
        assert r["family"] == "toy" and r["generator"]["index"] == records.index(r)
        # the gold is the real weekday of the date asked about
        import datetime as dt

        day = dt.date.fromisoformat(r["question"].split()[-1].rstrip("?"))
        assert r["answer"] == day.strftime("%A") and day.year >= 2000

    preds = tmp_path / "preds.jsonl"
    outputs = [records[0]["answer"], "no idea", f"It was a {records[2]['answer']}."]
    preds.write_text(
        "".join(
            json.dumps({"id": r["id"], "output": o}) + "\n"
            for r, o in zip(records, outputs, strict=True)
        )
    )
    res = _tsolve(site, "verify", str(out), str(preds), "--format", "json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    overall = json.loads(res.stdout)["summary"]["families"]["toy"]["overall"]
    assert overall["n"] == 3
    assert overall["accuracy"] == pytest.approx(2 / 3)


def test_a_plugin_failure_is_reported_per_record(site: Path, tmp_path: Path) -> None:
    """The toy generator raises on ``from_year=x``: each record fails with one
    line naming the error, and the run exits 1 instead of crashing."""
    res = _tsolve(site, "dataset", "toy", "--count", "2", "--set", "from_year=x",
                  "--out", str(tmp_path / "bad.jsonl"), cwd=tmp_path)  # fmt: skip
    assert res.returncode == 1
    assert "Traceback" not in res.stderr
    assert res.stderr.count("ValueError: invalid literal for int()") == 2


def test_the_adapter_checks_what_tsolve_relies_on() -> None:
    """Scores outside [0, 1], records without ids and objects missing a part
    are one-line errors, never a wrong score."""
    from tsolve.contract.plugin import adapt
    from tsolve.errors import TsolveError

    class Plugin:
        name = "p"

        def __init__(self, metrics: Any, record: Any) -> None:
            self.metrics, self.record = metrics, record

        def generate(self, seed: int, index: int, params: dict[str, Any]) -> Any:
            return self.record

        def score(self, record: dict[str, Any], output: str) -> Any:
            return self.metrics

    good = adapt(Plugin({"accuracy": 1}, {"id": "a"}), "test")
    rec = good.make_record(3, 4, {})
    assert rec == {"id": "a", "family": "p",
                   "generator": {"name": "p", "version": "", "seed": 3, "index": 4}}  # fmt: skip
    assert good.require("score")(rec, "x").metrics == {"accuracy": 1.0}
    for metrics in ({"accuracy": 1.5}, {"accuracy": float("nan")}, {"accuracy": True}, {}, [1]):
        with pytest.raises(TsolveError, match="family p"):
            adapt(Plugin(metrics, {"id": "a"}), "test").require("score")(rec, "x")
    for record in ({"question": "no id"}, ["not", "a", "dict"], {"id": ""}):
        with pytest.raises(TsolveError, match="family p"):
            adapt(Plugin({}, record), "test").make_record(0, 0, {})
    with pytest.raises(TsolveError, match="no callable 'score'"):
        adapt(type("Half", (), {"name": "h", "generate": lambda *a: {}})(), "test")
    with pytest.raises(TsolveError, match="no string 'name'"):
        adapt(object(), "test")
